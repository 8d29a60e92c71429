"""How a file was read: what as (faction pack, points list, FAQ/errata, ...), with the evidence,
how much of its body text became records (coverage), which pages were left unread, and what was
inferred (edition, faction, date) with the reasons. Stored with the file (`StoredFile.reading`).

Coverage compares words, not parsers' bookkeeping: a word of the document is placed when it
sits in a run of three words that some record also holds (in any field, in order), so it
measures what a reader of the records would find again, whichever parser made them. Words of
units and costs ("models", "pts", "CP") are left out of both sides, so "5 models .... 90 pts"
is placed by a record whose costs say 5 and 90.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..records import Record
from ..records_json import to_dict
from .document import HEADING, TABLE, Document

LOW_COVERAGE = 0.8  # below this share of the body text in records, `ingest` warns
UNREAD_PAGE = 0.5  # a page with less than this share placed is "unread"
MIN_UNREAD_WORDS = 40  # fewer unread words (a one-line introduction to a short sheet) are not worth a warning
MIN_PAGE_WORDS = 30  # pages with fewer words (a cover, a blank page) are never called unread
NOTES_NAMES = re.compile(r"^(readme|sources|changelog|license|licence|contributing|authors)"
                         r"(\.[a-z0-9]+)?$", re.I)

_WORD = re.compile(r"[^\W_]+")
_UNIT_WORDS = frozenset({"model", "models", "pts", "pt", "points", "cp", "dp"})


# Kinds whose rules differ between editions: without an edition they may answer for the wrong one.
_EDITIONED = frozenset({"datasheet", "stratagem", "enhancement", "detachment_rule", "points"})


@dataclass
class Reading:
    """What `read` found: stored as the file's `reading` JSON, with the warnings to report."""

    read_as: str
    evidence: str
    coverage: float | None = None
    unread_pages: list[int] = field(default_factory=list)
    inferred: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        out = {"read_as": self.read_as, "evidence": self.evidence, "unread_pages": self.unread_pages,
               "inferred": self.inferred}
        if self.coverage is not None:
            out["coverage"] = round(self.coverage, 3)
        return out


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.casefold()) if w not in _UNIT_WORDS]


def _strings(value, out: list[str]) -> None:
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        out.append(str(value))
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)


def record_shingles(records: list[Record]) -> tuple[set, set]:
    """The word triples and the single words the records hold."""
    triples: set = set()
    singles: set = set()
    for r in records:
        parts: list[str] = []
        data = to_dict(r)
        data.pop("source", None)
        _strings(data, parts)
        words = _words(" ".join(parts))
        singles.update(words)
        triples.update(zip(words, words[1:], words[2:]))
    return triples, singles


SHORT_LINE = 8  # words: a claimed line this short is structure (a header, a label, an instruction)


def coverage(doc: Document, records: list[Record],
             claimed: frozenset[int] | set[int] = frozenset()) -> tuple[float | None, dict[int, tuple[int, int]]]:
    """The share of the document's body words placed in records, and per page (placed, total).

    A parser's structure lines are placed too when a parser claimed them: a short line (an
    errata header, "Change this rule to read:", a section label) and the lead-in before the
    colon of a longer one, whose wording the records hold.
    """
    triples, singles = record_shingles(records)
    pages: dict[int, list[int]] = {}
    placed = total = 0
    # A table's cells are read one by one: its rows run across columns that need not belong together.
    units = ((index, block, text) for index, block in enumerate(doc.blocks)
             for text in ([c for row in block.rows for c in row] if block.kind == TABLE else [block.text]))
    for index, block, text in units:
        words = _words(text)
        if not words or (len(words) == 1 and words[0].isdigit()):  # a page number
            continue
        hit = [False] * len(words)
        if index in claimed and len(words) <= SHORT_LINE:
            hit = [True] * len(words)
        elif len(words) <= 4:  # a heading or a label: its words anywhere in the records ("MOVING 03.01")
            if all(w in singles for w in words):
                hit = [True] * len(words)
        else:
            for i, tri in enumerate(zip(words, words[1:], words[2:])):
                if tri in triples:
                    hit[i] = hit[i + 1] = hit[i + 2] = True
            lead = text.split(":", 1)[0] if ":" in text and index in claimed else ""
            lead_words = len(_words(lead))
            if 0 < lead_words <= SHORT_LINE and any(hit[lead_words:]):
                hit[:lead_words] = [True] * lead_words
        n, k = len(words), sum(hit)
        placed += k
        total += n
        counts = pages.setdefault(block.page or 0, [0, 0])
        counts[0] += k
        counts[1] += n
    if not total:
        return None, {}
    return placed / total, {p: (c[0], c[1]) for p, c in pages.items()}


def classify(doc: Document, records: list[Record], memo: dict) -> tuple[str, str]:
    """What the document was read as, and the evidence."""
    kinds = Counter(r.kind for r in records)
    head = doc.text[:5000]
    if memo.get("read_as") == "points_list":
        return "points_list", f"{kinds['points']} unit and detachment prices in 'N models .... P pts' lines"
    title = " / ".join(" ".join(b.text.split()) for b in doc.blocks[:4] if b.text.strip())
    if re.search(r"\bFACTION PACK\b", title, re.I):
        return "faction_pack", f"the title says so ('{title[:80]}')"
    detachment = kinds["detachment_rule"] + kinds["enhancement"] + kinds["stratagem"]
    if kinds["detachment_rule"] and (kinds["enhancement"] or kinds["stratagem"]) and 3 * detachment >= len(records):
        return "faction_pack", (f"a detachment's rule with {kinds['enhancement']} enhancements and "
                                f"{kinds['stratagem']} stratagems (a detachment sheet)")
    total = sum(kinds.values())
    if not total:
        return "unknown", "no part of it was recognised as rules"
    amend = kinds["errata"] + kinds["faq"] + kinds["note"]
    if amend >= total / 2:
        if re.search(r"\brules? updates?\b", head, re.I) and not kinds["faq"]:
            return "rules_update", f"{kinds['errata']} errata under a 'Rules Updates' title"
        return "faq_errata", f"{kinds['errata']} errata and {kinds['faq']} questions and answers"
    if kinds["datasheet"] >= total / 2:
        return "datasheet_cards", f"{kinds['datasheet']} datasheets"
    if kinds["points"] >= total / 2:
        return "points_list", f"{kinds['points']} points entries"
    if kinds["rule"] + kinds["table"] >= total / 2:
        return "rules_chapter", f"{kinds['rule']} rules and {kinds['table']} tables"
    top, n = kinds.most_common(1)[0]
    return "unknown", f"a mix of records, most of them {top} ({n} of {total})"


def read(doc: Document, records: list[Record], memo: dict, inferred: dict,
         claimed: frozenset[int] | set[int] = frozenset()) -> Reading:
    """How `doc` was read, with the warnings a low coverage or an undecided edition calls for.
    `claimed` are the blocks the parsers consumed (see `coverage`)."""
    read_as, evidence = classify(doc, records, memo)
    share, pages = coverage(doc, records, claimed)
    unread = sorted(p for p, (k, n) in pages.items() if p and n >= MIN_PAGE_WORDS and k / n < UNREAD_PAGE)
    reading = Reading(read_as=read_as, evidence=evidence, coverage=share, unread_pages=unread,
                      inferred={k: v.as_json() for k, v in inferred.items() if v is not None})
    name = doc.origin.name
    unread_words = sum(n - k for k, n in pages.values())
    if share is not None and share < LOW_COVERAGE and records and unread_words >= MIN_UNREAD_WORDS:
        partly = sorted(p for p, (k, n) in pages.items() if p and n >= MIN_PAGE_WORDS and k / n < LOW_COVERAGE)
        if unread:
            where = f"; {len(unread)} page{'s' if len(unread) != 1 else ''} unread: {', '.join(map(str, unread))}"
        elif partly:
            where = f"; {len(partly)} page{'s' if len(partly) != 1 else ''} partly unread: {', '.join(map(str, partly))}"
        else:
            where = _unread_parts(doc, records)
        reading.warnings.append(f"{round(share * 100)}% of {name} was placed in records{where}")
    if read_as == "faction_pack" and "faction" not in reading.inferred:
        reading.warnings.append("the faction could not be told (no title names it, no faction keyword stands out); "
                                "its records keep the factions their own text gives")
    if "edition" not in reading.inferred and any(r.kind in _EDITIONED for r in records):
        reading.warnings.append("the edition could not be told (no edition named, no date, no edition-specific "
                                "rules or layout); its records have none")
    return reading


def _unread_parts(doc: Document, records: list[Record]) -> str:
    """Where a document without pages was left unread: the first words of up to three unread
    headings (or blocks)."""
    triples, singles = record_shingles(records)
    starts = []
    for block in doc.blocks:
        words = _words(block.text)
        if len(words) < 3 or block.kind == TABLE:
            continue
        tris = list(zip(words, words[1:], words[2:]))
        if sum(t in triples for t in tris) < len(tris) / 2 and (block.kind == HEADING or not starts):
            starts.append(" ".join(block.text.split()[:6]))
            if len(starts) == 3:
                break
    return f"; unread parts start at: {'; '.join(repr(s) for s in starts)}" if starts else ""


_STRUCTURED_KINDS = (("points", "points_list"), ("datasheet", "datasheet_cards"), ("errata", "faq_errata"),
                     ("rule", "rules_chapter"))


def structured_reading(records: list[Record], fmt: str) -> dict:
    """The reading of a structured source (CSV export, BattleScribe data, points YAML): read
    whole by its schema, so what it is read as is the kind most of its records are."""
    kinds = Counter(r.kind for r in records)
    read_as = "unknown"
    if kinds:
        top = kinds.most_common(1)[0][0]
        read_as = dict(_STRUCTURED_KINDS).get(top, "datasheet_cards" if top in _EDITIONED else "unknown")
    evidence = f"a {fmt} source read by its schema: " + ", ".join(f"{n} {k}" for k, n in kinds.most_common(4))
    return {"read_as": read_as, "evidence": evidence, "unread_pages": [], "inferred": {}}
