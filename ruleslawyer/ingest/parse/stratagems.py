"""Stratagems, enhancements and detachment rules, recognised by their content.

A stratagem starts with three lines (or fewer, when a loader ran them together): its name,
its cost ("1CP") and "Group – Category" ("Awakened Dynasty – Battle Tactic", optionally
followed by "Stratagem"). A full card then has an optional flavour line and WHEN:, TARGET:,
EFFECT: and RESTRICTIONS: sections; a page's stratagem list has the three header lines only.
Both are merged into one record per (name, group). Enhancements and detachment rules are the
popups headed "<name>" / "[N pts]" / "<Group> Detachment" (see `stratagem_popups`).
"""
from __future__ import annotations

import re

from dataclasses import dataclass, field, replace
from typing import Iterator, Sequence

from ...records import Record, Stratagem
from ..document import HEADING, LIST_ITEM, Document
from .parsing import ParseContext
from ...names import title_case
from .rule_text import ends_sentence, is_caps, split_labels, starts_with_label
from .stratagem_lines import (CP_RE, CP_TYPE_RE, NAME_CP_RE, SECTION_NUMBER_RE, Line, build_lines, document_faction,
                              faction_for, is_badge)
from .stratagem_lines import match_type as _line_type

def match_type(text: str) -> tuple[str | None, str | None, bool] | None:
    """(group, category, says "Stratagem") of a type line; "CHAMPIONS OF FENRIS – STRATEGIC PLOY
    STRATAGEM" has the word in capitals with its category, which is then set apart."""
    t = _line_type(text)
    if t and not t[2] and t[1] and re.search(r"\sSTRATAGEM$", t[1], re.I):
        return t[0], re.sub(r"\s+STRATAGEM$", "", t[1], flags=re.I), True
    return t


_FIELDS = {"WHEN": "when", "TARGET": "target", "EFFECT": "effect", "RESTRICTIONS": "restrictions"}


@dataclass
class Header:
    """The name / cost / type lines that open a stratagem card or list entry."""

    name: str
    cp: int | None
    group: str | None
    category: str | None
    suffix: bool
    start: int  # position in the line list
    end: int  # position after the header


@dataclass
class Card:
    """A stratagem card being read: its header, flavour lines and labelled sections."""

    header: Header
    fluff: list[str] = field(default_factory=list)
    sections: list[tuple[str, list[str]]] = field(default_factory=list)
    used: list[int] = field(default_factory=list)  # line positions consumed
    interleaved: bool = False  # a label came twice or out of order: two cards' lines mixed

    def add_section(self, label: str, texts: list[str]) -> None:
        """Open a labelled section; one that repeats or goes back in WHEN, TARGET, EFFECT,
        RESTRICTIONS order means another card's lines are mixed in (columns interleaved)."""
        if self.sections and _ORDER.index(label) <= _ORDER.index(self.sections[-1][0]):
            self.interleaved = True
        self.sections.append((label, texts))


_ORDER = ("WHEN", "TARGET", "EFFECT", "RESTRICTIONS")


def _name_ok(line: Line) -> bool:
    t = line.text.strip()
    return (line.usable and 0 < len(t) <= 80 and len(t.split()) <= 10 and not starts_with_label(t)
            and not t[0].islower() and sum(c.isalpha() for c in t) >= 3
            and t[-1] not in ".:;," and not CP_RE.match(t) and not match_type(t))


def match_header(lines: Sequence[Line], k: int) -> Header | None:
    """The stratagem header starting at line position k, if there is one."""
    n = len(lines)
    a = lines[k]
    if not a.usable:
        return None
    m = NAME_CP_RE.match(a.text)
    if m and k + 1 < n and lines[k + 1].usable:
        t = match_type(lines[k + 1].text)
        if t:
            return Header(m.group("name"), int(m.group("cp")), *t, start=k, end=k + 2)
    if k + 1 < n and lines[k + 1].usable and _name_ok(a):
        b = lines[k + 1]
        m = CP_TYPE_RE.match(b.text)
        if m:
            t = match_type(m.group("type"))
            if t:
                return Header(a.text, int(m.group("cp")), *t, start=k, end=k + 2)
        m = CP_RE.match(b.text)
        if m and k + 2 < n and lines[k + 2].usable:
            t = match_type(lines[k + 2].text)
            if t:
                return Header(a.text, int(m.group("cp")), *t, start=k, end=k + 3)
        # Text dumps reorder the three header lines: "NAME" / "CORE STRATAGEM" / "1CP", or lose
        # the cost to the other column ("NAME" / "CORE STRATAGEM"): a type line that says
        # "Stratagem" is enough, the cost is unknown.
        t = match_type(b.text)
        if t and t[2]:
            c = lines[k + 2] if k + 2 < n and lines[k + 2].usable else None
            m = CP_RE.match(c.text) if c is not None else None
            return Header(a.text, int(m.group("cp")) if m else None, *t, start=k, end=k + 3 if m else k + 2)
        if m and SECTION_NUMBER_RE.search(a.text):
            # "CRUSHING IMPACT 15.06" / "1CP": a numbered card whose type line went to the
            # other column (the group is filled in from the document's other cards).
            return Header(a.text, int(m.group("cp")), None, None, False, start=k, end=k + 2)
    return None


# Every header shape above prints a cost ("1CP") or the word "Stratagem" in its first three
# lines: lines with neither are passed over without trying each shape.
_HEADER_MARK = re.compile(r"\d\s*CP|stratagem", re.I)


def _marked(text: str) -> bool:
    """`_HEADER_MARK` found in `text`. Two substring tests on the case-folded text come first:
    a match needs "cp" or "stratagem" there, and few lines have either."""
    folded = text.casefold()
    return ("cp" in folded or "stratagem" in folded) and _HEADER_MARK.search(text) is not None


def _headers(lines: Sequence[Line]) -> list[Header | None]:
    """`match_header` at every line position (None where no header starts)."""
    headers: list[Header | None] = [None] * len(lines)
    near = {k for m, line in enumerate(lines) if _marked(line.text) for k in (m - 2, m - 1, m) if k >= 0}
    for k in sorted(near):
        headers[k] = match_header(lines, k)
    return headers


def _label_ahead(lines: Sequence[Line], j: int, span: int) -> bool:
    for line in lines[j:j + span]:
        if not line.usable:
            return False
        if any(lab for lab, _ in split_labels(line.text)):
            return True
    return False


def _flavour_then_label(lines: Sequence[Line], j: int, is_start) -> bool:
    """Whether the prose lines from j run into a WHEN:/TARGET:/EFFECT: section before anything
    else: a flavour paragraph a text dump printed one line per block (or two cards' flavour
    paragraphs in a row)."""
    for k in range(j, min(j + 12, len(lines))):
        line = lines[k]
        if line.usable and CP_RE.match(line.text.strip()):
            continue  # the card's cost badge, printed among its flavour lines
        if not line.usable or line.kind != "paragraph" or is_start(k):
            return False
        if any(lab for lab, _ in split_labels(line.text)):
            return True
    return False


def _continues(card: Card, line: Line, lines: Sequence[Line], j: int) -> bool:
    """Whether an unlabelled line after a section still belongs to that section."""
    if line.kind == HEADING or line.kind == "table":
        return False
    label, texts = card.sections[-1]
    if label in ("EFFECT", "RESTRICTIONS") and _tight(lines[card.used[-1]], line):
        return True  # the next printed line of the same card box
    if label in ("EFFECT", "RESTRICTIONS") and any(t.rstrip().endswith(":") for t in texts) and (
            line.kind == LIST_ITEM or re.match(r"^(?:\d{1,2}\.|[▪•▫◦‣-])\s", line.text.strip())):
        return True  # the steps or options a lead-in ("resolve the following sequence:") announced
    if label in ("WHEN", "TARGET"):
        return True  # EFFECT is still to come
    if line.text[:1].islower() or not ends_sentence(texts[-1] if texts else ""):
        return True
    return _label_ahead(lines, j + 1, 1)


def _num(block, key: str) -> float | None:
    try:
        return float((block.attrs or {})[key])
    except (KeyError, TypeError, ValueError):
        return None


def _tight(prev: Line, line: Line) -> bool:
    """Whether `line` is printed right under `prev` in the same column of a PDF page (the loader's
    positions; formats without them never are)."""
    a, b = prev.block, line.block
    top_a, top_b, size = _num(a, "top"), _num(b, "top"), _num(b, "size")
    if top_a is None or top_b is None or not size or a.page != b.page or a.column != b.column:
        return False
    return 0 < top_b - top_a <= 2.6 * size


_EXTRA_COST = re.compile(r"^\+\d+\s*CP$", re.I)


def mark_extra_cost(texts: list[str], cost: str) -> None:
    """Put an optional part's extra cost ("+1CP") after the part's name, the last line of the
    section so far that ends with a colon ("Into the Fray:" -> "Into the Fray (+1CP):")."""
    for k in range(len(texts) - 1, -1, -1):
        head, colon, rest = texts[k].rpartition(":")
        if colon and not rest.strip():
            texts[k] = f"{head} ({cost}):"
            return
    if texts:
        texts[-1] = f"{texts[-1]} ({cost})"


def _joined(texts: list[str]) -> str:
    """A section's lines as one text: numbered steps and bullets keep lines of their own."""
    out = ""
    for t in (t.strip() for t in texts):
        if not t:
            continue
        if out and (re.match(r"^(?:\d{1,2}\.|[-▪•▫])\s", t) or out.endswith(":")):
            out += "\n" + t
        else:
            out += (" " if out else "") + t
    return out


def read_card(lines: Sequence[Line], header: Header, is_start) -> Card:
    """The body of the card opened by `header`: badges, flavour, labelled sections.

    `is_start(k)` says whether line k opens another record (the body stops there).
    """
    card = Card(header, used=list(range(header.start, header.end)))
    j = header.end
    while j < len(lines):
        line = lines[j]
        if not line.usable or is_start(j):
            break
        if is_badge(line) and not card.sections:
            card.used.append(j)
            j += 1
            continue
        if CP_RE.match(line.text.strip()) and (header.cp is None or not card.sections):
            # The cost printed apart from the name (a badge the page laid out between the
            # flavour and the sections): the card's own cost.
            header.cp = header.cp if header.cp is not None else int(CP_RE.match(line.text.strip()).group("cp"))
            card.used.append(j)
            j += 1
            continue
        if card.sections and _EXTRA_COST.match(line.text.strip()) or (
                CP_RE.match(line.text.strip()) and str(header.cp) == CP_RE.match(line.text.strip()).group("cp")):
            # "+1CP" beside an optional part of the effect (kept with that part: "Into the Fray
            # (+1CP):"), or the cost badge printed twice
            if card.sections and _EXTRA_COST.match(line.text.strip()):
                mark_extra_cost(card.sections[-1][1], line.text.strip().replace(" ", ""))
            card.used.append(j)
            j += 1
            continue
        pieces = split_labels(line.text)
        if pieces and pieces[0][0] is None:
            lead = pieces[0][1]
            if not card.sections:
                if len(pieces) == 1 and not _label_ahead(lines, j + 1, 3) and not _flavour_then_label(lines, j, is_start):
                    break
                card.fluff.append(lead)
            elif _continues(card, line, lines, j):
                card.sections[-1][1].append(lead)
            else:
                break
            pieces = pieces[1:]
        for label, text in pieces:
            card.add_section(label, [text] if text else [])
        card.used.append(j)
        j += 1
    return card


def _stratagem(card: Card, faction: str | None, ctx: ParseContext, lines: Sequence[Line]) -> Stratagem:
    h = card.header
    values: dict[str, str] = {}
    if card.interleaved:
        # Which WHEN/TARGET/EFFECT belongs to which card cannot be told from the text: the
        # stratagem is kept by its name, cost and group, and the doubt is reported.
        ctx.warn(f"stratagem {h.name!r}: its WHEN/TARGET/EFFECT lines are mixed with another card's (two "
                 "columns read as one?); kept by name, cost and group only", lines[h.start].block.page)
    for label, texts in ([] if card.interleaved else card.sections):
        key = _FIELDS[label]
        text = _joined(texts)
        values[key] = f"{values[key]}\n\n{text}" if key in values else text
    printed = re.search(r"\b(\d{1,2}\.\d{2})$", h.name.strip())  # "COMMAND RE-ROLL 15.02"
    name = SECTION_NUMBER_RE.sub("", h.name.strip())
    name = title_case(name) if is_caps(name) else name
    first = lines[h.start].block
    return Stratagem(
        name=name, source=ctx.source(first.page), edition=ctx.edition,
        faction=faction_for(h.group, faction), cp=h.cp, category=title_case(h.category) if h.category else None,
        group=h.group, when=values.get("when"), target=values.get("target"),
        effect=values.get("effect"), restrictions=values.get("restrictions"),
        fluff=(" ".join(card.fluff) or None) if not card.interleaved else None,
        number=printed.group(1) if printed else None,
    )


def _key(record) -> tuple[str, str]:
    return (" ".join(record.name.casefold().split()), " ".join((record.group or "").casefold().split()))


def parse_stratagems(lines: Sequence[Line], ctx: ParseContext, faction: str | None, is_start,
                     headers: Sequence[Header | None] | None = None) -> list[Stratagem]:
    """Every stratagem card and list entry, merged per (name, group), in page order.

    `headers`, when given, is `match_header` of every line, already computed by the caller."""
    merged: dict[tuple[str, str], Stratagem] = {}
    k = 0
    while k < len(lines):
        header = headers[k] if headers is not None else match_header(lines, k)
        if header is None:
            k += 1
            continue
        card = read_card(lines, header, is_start)
        record = _stratagem(card, faction, ctx, lines)
        ctx.claim(lines[p].index for p in card.used)
        key = _key(record)
        if key in merged:
            merged[key] = _merge(merged[key], record)
        else:
            merged[key] = record
        k = max(card.used) + 1
    return list(merged.values())


def _merge(old: Stratagem, new: Stratagem) -> Stratagem:
    """One record from a list entry and a full card: the card's text, any missing value filled."""
    full, other = (new, old) if (new.when or new.effect) and not (old.when or old.effect) else (old, new)
    fill = {f: getattr(other, f) for f in ("cp", "category", "fluff", "when", "target", "effect", "restrictions")
            if getattr(full, f) in (None, "") and getattr(other, f) not in (None, "")}
    return replace(full, **fill) if fill else full


def parse(doc: Document, ctx: ParseContext) -> Iterator[Record]:
    """Stratagems, enhancements and detachment rules found in `doc` (claims what it uses)."""
    from .stratagem_popups import PopupParser

    lines = build_lines(doc, ctx)
    faction = document_faction(doc)
    # Lines never change during the parse, so each line's header is read once: `is_start` asks
    # again for most lines while cards and popups are read.
    headers = _headers(lines)
    groups = {h.group for h in headers if h is not None and h.group}
    popups = PopupParser(lines, ctx, faction, groups, {k for k, h in enumerate(headers) if h is not None})
    popups.read_listings()
    is_start = lambda j: headers[j] is not None or popups.starts_popup(j)
    stratagems = parse_stratagems(lines, ctx, faction, is_start, headers)
    if len(groups) == 1:  # a card whose type line was lost belongs to the document's one group
        (only,) = groups
        stratagems = [replace(r, group=only, faction=faction_for(only, faction)) if r.group is None else r
                      for r in stratagems]
    yield from stratagems
    # A popup printed twice (a page section and its tooltip copy) is one record.
    merged: dict[tuple, Record] = {}
    for record in popups.parse(is_start):
        key = (record.kind,) + _key(record)
        if key not in merged or len(record.text) > len(merged[key].text):
            merged[key] = record
    records = list(merged.values())
    # A document that tags its upgrades ("... UPGRADE") says by the missing tag that its other
    # enhancements are not upgrades.
    if any(r.kind == "enhancement" and r.upgrade for r in records):
        records = [replace(r, upgrade=False) if r.kind == "enhancement" and r.upgrade is None else r for r in records]
    yield from records
