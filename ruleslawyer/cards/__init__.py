"""Print-ready cards: datasheets and stratagems on exact card sizes, as PDF or printable HTML.

    make_cards(records, corpus_records, options) -> CardSet   (fit, impose, lay out)
    write_cards(store, names, out=..., faction=..., edition=..., options=...) -> CardReport

Pipeline: `content` (what each card says, rules resolved with `library.rule_refs`) -> `fit`
(type size per card, estimated from font metrics and laid out with WeasyPrint only near a
limit: `measure`, `estimate`, `metrics`; blocks over faces: `paginate`; records over two
cards and their last resorts: `spread`) -> `impose` (faces on pages, crop marks, duplex
mirroring) -> `render` (Jinja templates; WeasyPrint for the PDF).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from .options import CARD_SIZES, SHEET_SIZES, CardError, CardOptions

__all__ = ["CARD_SIZES", "SHEET_SIZES", "CardError", "CardOptions", "CardReport", "CardSet",
           "make_cards", "write_cards"]

MAX_REPACKS = 3


@dataclass
class CardSet:
    """Cards laid out and ready to write: the HTML, its WeasyPrint layout, and what is on it."""

    html: str
    document: Any  # weasyprint Document, or None until a PDF is asked for
    pairs: list  # (front Face, back Face) per physical card
    sheets: list
    page: dict
    options: CardOptions

    def save(self, path: Path) -> None:
        """Write the cards to `path`: a PDF, or the printable HTML page for .html/.htm."""
        from ..outputs import atomic_output

        # Through a temporary file: a full disk or an interrupted run never leaves a cut PDF
        # where the good one was.
        if path.suffix.lower() == ".pdf":
            with atomic_output(path, mode="wb") as handle:
                self.write_pdf(handle)
        else:
            with atomic_output(path) as handle:
                handle.write(self.html)

    def write_pdf(self, target) -> None:
        """Write the PDF (laying the HTML out first when `make_cards` did not verify it)."""
        if self.document is None:
            from .render import layout

            self.document = layout(self.html)
        self.document.write_pdf(target)


@dataclass
class CardReport:
    """What `write_cards` wrote: where, how many records, cards, printed pages, and the size."""

    path: Path
    records: list[str]
    cards: int
    pages: int
    options: CardOptions
    split: list[str]  # records that needed more than one card
    notes: list[str] = field(default_factory=list)  # e.g. other editions of a name printed
    sizes: list[float] = field(default_factory=list)  # type size (pt) of each record's first card


def make_cards(records: Sequence, corpus_records: Sequence, options: CardOptions | Mapping | None = None,
               *, title: str = "Cards", verify: bool = True, prices=None) -> CardSet:
    """Fit, impose and lay out cards for `records`; rules are resolved in `corpus_records`.

    With `verify` (needed for the PDF anyway), the final layout is checked face by face; a
    record with a face whose content passes its safe area (an estimate that was wrong beyond
    its error band) is fitted again exactly with that much less room, and the layout redone.
    Without it (HTML output) the fit rests on the measurements alone.
    """
    from .content import build_content, rules_sheet_content
    from .fit import assemble
    from .impose import impose
    from .render import document_html, layout, overflows

    opts = CardOptions.resolve(options)
    contents = build_content(records, corpus_records, prices)
    if not contents:
        raise CardError("nothing to print: no datasheet or stratagem selected")
    slack: dict = {}
    for _attempt in range(MAX_REPACKS + 1):
        chosen: list = []
        pairs = assemble(contents, opts, slack, chosen=chosen)
        sheet = rules_sheet_content(chosen) if opts.rules_sheet else None
        if sheet is not None:
            # keyed after the records, so a repack of the sheet does not touch them
            pairs += [(replace(f, key=(len(contents), "card")), replace(b, key=(len(contents), "card")))
                      for f, b in assemble([sheet], opts, {0: slack[len(contents)]} if len(contents) in slack else None)]
        page, sheets = impose(pairs, opts)
        html = document_html(page, sheets, opts, title=title)
        if not verify:
            return CardSet(html, None, pairs, sheets, page, opts)
        document = layout(html)
        over = overflows(document, sheets, opts)
        if not over:
            break
        faces = {slot.fid: slot.face for sheet in sheets for slot in sheet.slots}
        for fid, px in over.items():
            key = faces[fid].key[0]
            slack[key] = slack.get(key, 0.0) + px + 2.0
    return CardSet(html, document, pairs, sheets, page, opts)


def write_cards(store, names: Sequence[str], *, out: str | Path, faction: str | None = None,
                edition: int | None = None, options: CardOptions | Mapping | None = None,
                as_of: str | None = None) -> CardReport:
    """Make cards for the named datasheets (or a faction's) and write `out` (.pdf or .html).

    A name found in several editions prints the newest (or `edition`); the report's notes say so.
    """
    from ..library.corpus import load_corpus
    from .select import select_records

    opts = CardOptions.resolve(options)
    path = Path(out)
    if path.suffix.lower() not in (".pdf", ".html", ".htm"):
        raise CardError(f"{path}: the output must end in .pdf or .html")
    corpus = load_corpus(store, as_of=as_of)  # as_of: the rules and points of that date
    selection = select_records(corpus.records, names, faction=faction, stratagems=opts.stratagems,
                               edition=edition)
    chosen = selection.records
    as_pdf = path.suffix.lower() == ".pdf"
    from ..library.prices import PriceIndex

    cards = make_cards(chosen, corpus.records, opts, title=_title(chosen), verify=as_pdf, prices=PriceIndex(corpus))
    cards.save(path)
    split = sorted({f.title for f, _ in cards.pairs if f.total > 1 and f.kind != "rules"})
    sizes = [f.font_pt for f, _ in cards.pairs if f.number == 1 and f.kind != "rules"]
    notes = [*([corpus.as_of_note()] if corpus.as_of else []), *selection.notes]
    return CardReport(path, [r.name for r in chosen], len(cards.pairs), len(cards.sheets), opts, split,
                      notes, sizes)


def _title(records: Sequence) -> str:
    names = [r.name for r in records]
    return "Cards: " + (", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else ""))
