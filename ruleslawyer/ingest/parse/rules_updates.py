"""The Rules Updates pages of a faction pack (or a one-sheet rules update) -> `errata` records.

These updates give no page reference: each names what it changes, in bold, under a section
heading (ARMY RULES, <NAME> DETACHMENT, DATASHEETS), then says how:

    Blessings of Khorne, Unbridled Bloodlust        target (a rule, or "Unit, Ability")
    Change to:                                      instruction
    'This unit has +1 to charge rolls.'             the new wording, in quotes
    Heldrake                                        target
    ▪ Profile: Change M to 12" and OC to '-'.       labelled instructions, one erratum each
    Rapid Manifestation Stratagem / Change 3" to 6".  a value change, no wording after it

An update without a page targets the rule or unit it names (`target`); an update that adds a
titled rule is an erratum with operation `add`. The instruction grammar is errata_grammar's, so
these records apply as any FAQ's do. The section ends at its FAQ heading (read by errata.py).
"""
from __future__ import annotations

import re
from typing import Iterator

from ...names import title_case
from ...records import Erratum, Record
from ..document import HEADING, LIST_ITEM, TABLE, Block, Document
from .errata_grammar import Header, is_instruction, numbered_header, read_instruction, value_change
from .errata_headers import dash_path
from .errata_meta import document_name
from .errata_text import entry_line
from .inference import known_faction
from .parsing import ParseContext

_START = re.compile(r"^(?:RULES UPDATES?|UPDATES)$", re.I)
_END = re.compile(r"^(?:FAQS?|FREQUENTLY ASKED QUESTIONS|ERRATA|DESIGNER'?S COMMENTARY)$", re.I)
_CARD_LABEL = re.compile(r"^['‘\"“]?(?:WHEN|TARGET|EFFECT|RESTRICTIONS?|COST)\s*:", re.I)
_LABELLED = re.compile(r"^(?P<label>[A-Z][A-Za-z ]{1,30}):\s*(?P<rest>.+)$")
_CLOSES = re.compile(r"['’\"”]\s*\.?\s*$")
_OPENS = re.compile(r"^\s*['‘\"“]")
# "Change 3" to 6".", "Change M to 12" and OC to '-'.": values changed in place, no wording after
_PLAIN_CHANGES = re.compile(r"^Change\s+(?P<pairs>(?:[^'‘\s][^,]*?\s+to\s+\S+?)(?:\s*(?:,|and)\s+[^,]*?\s+to\s+\S+?)*)\.?$")
_PLAIN_PAIR = re.compile(r"(?:^|\s*(?:,|and)\s+)(.+?)\s+to\s+(\S+?)(?=\s*(?:,|\band\b)\s+|$)")


def _text(block: Block) -> str:
    return " ".join(block.text.split())


def _section_start(doc: Document, ctx: ParseContext) -> int | None:
    for i, b in enumerate(doc.blocks):
        if b.kind == HEADING and not ctx.is_claimed(i) and _START.match(_text(b)):
            return i
    return None


def _bold_words(block: Block) -> bool:
    """Every word of the block is bold (the commas between them may not be)."""
    words = [s for s in block.spans if re.search(r"\w", s.text)]
    return bool(words) and all(s.bold for s in words)


def _is_header(doc: Document, i: int) -> bool:
    """A bold line naming what an update changes, followed by its instruction."""
    b = doc.blocks[i]
    text = _text(b)
    if b.kind == TABLE or not text or _OPENS.match(text) or _CARD_LABEL.match(text) or is_instruction(text):
        return False
    if not (b.kind == HEADING or _bold_words(b)):
        return False
    nxt = next((doc.blocks[j] for j in range(i + 1, min(i + 3, len(doc.blocks))) if _text(doc.blocks[j])), None)
    if nxt is None:
        return False
    follow = _text(nxt)
    m = _LABELLED.match(follow)
    return is_instruction(follow) or bool(m and is_instruction(m.group("rest")))


def _is_title(block: Block) -> bool:
    text = _text(block)
    return block.kind == HEADING or (_bold_words(block) and len(text.split()) <= 8 and not text.endswith("."))


def _titles_new_rule(doc: Document, ctx: ParseContext, i: int) -> bool:
    """A title (a heading, or a short bold line) followed by prose that is no instruction: an
    update that prints a new rule in full. (A section heading is followed by an update's title.)"""
    b = doc.blocks[i]
    if not _is_title(b) or _END.match(_text(b)) or _START.match(_text(b)):
        return False
    nxt = next((j for j in range(i + 1, min(i + 3, len(doc.blocks))) if _text(doc.blocks[j])), None)
    if nxt is None or ctx.is_claimed(nxt):
        return False
    follow = doc.blocks[nxt]
    text = _text(follow)
    return (follow.kind != HEADING and not _is_title(follow) and not is_instruction(text)
            and not _is_header(doc, nxt) and len(text.split()) >= 6)


def parse(doc: Document, ctx: ParseContext) -> Iterator[Record]:
    """The errata of a Rules Updates section; nothing when the document has none."""
    start = _section_start(doc, ctx)
    if start is None or _addresses_rule_numbers(doc, ctx, start):
        return  # updates addressed by rule number ("18.01 Stratagems") are the errata parser's
    lines = [entry_line(i, b) for i, b in enumerate(doc.blocks)]
    document, version = document_name(lines, doc, start)
    section = None
    i = start
    used: list[int] = [start]
    n = len(doc.blocks)
    while i + 1 < n:
        i += 1
        if ctx.is_claimed(i):
            continue
        b = doc.blocks[i]
        text = _text(b)
        if b.kind == HEADING and _END.match(text):
            break
        if b.kind == HEADING and _START.match(text):
            used.append(i)
            continue
        if _is_header(doc, i):
            used.append(i)
            i, records = _entry(doc, ctx, i + 1, dash_path(text), section, document, version, used)
            yield from records
            i -= 1
            continue
        if _titles_new_rule(doc, ctx, i):
            # A titled update with no instruction prints a new rule: its title, then its text.
            body = []
            j = i + 1
            while j < n and not ctx.is_claimed(j) and doc.blocks[j].kind != HEADING and not _is_title(doc.blocks[j]) \
                    and not _is_header(doc, j):
                body.append(("- " if doc.blocks[j].kind == LIST_ITEM else "") + _text(doc.blocks[j]))
                j += 1
            used.extend(range(i, j))
            name = title_case(text) if text.isupper() else text
            yield Erratum(document=document, version=version, page=None, target=name, source=ctx.source(b.page),
                          operation="add", text="\n".join(body), edition=ctx.edition, title=name,
                          faction_heading=section, faction=known_faction(section or ""))
            i = j - 1
            continue
        if b.kind == HEADING:
            section = title_case(text)
            used.append(i)
        elif not used[1:] and b.kind != TABLE:
            used.append(i)  # the section's introduction, before its first update
    ctx.claim(used)


def _addresses_rule_numbers(doc: Document, ctx: ParseContext, start: int) -> bool:
    """Whether the section's updates name the rules they change by number (an event FAQ of the
    11th edition), up to the next section of the document."""
    for i in range(start + 1, len(doc.blocks)):
        b = doc.blocks[i]
        if ctx.is_claimed(i) or (b.kind == HEADING and _END.match(_text(b))):
            break
        if numbered_header(_text(b)) is not None:
            return True
    return False


def _entry(doc, ctx, i: int, target: str, section: str | None, document, version,
           used: list[int]) -> tuple[int, list[Erratum]]:
    """The errata of one update from block i (its first instruction); returns where it ended."""
    out: list[Erratum] = []
    n = len(doc.blocks)
    page = doc.blocks[i - 1].page
    while i < n and not ctx.is_claimed(i):
        b = doc.blocks[i]
        text = _text(b)
        label = None
        m = _LABELLED.match(text)
        if not is_instruction(text) and m and is_instruction(m.group("rest")) and not _CARD_LABEL.match(text):
            label, text = m.group("label"), m.group("rest")
        # "▪ Profile: Change M to 12"": the label is a part of what the update names (the unit's
        # profile); the place is only what the instruction itself names ("M").
        labelled = f"{target}, {label}" if label else target
        if not is_instruction(text):
            break
        used.append(i)
        i += 1
        instruction, inline = _split(text)
        body = [inline] if inline else []
        ins = read_instruction(instruction, Header("", target, None))
        value = value_change(text)
        plain = _PLAIN_CHANGES.match(text)
        if plain and value is None:
            for place, new in _PLAIN_PAIR.findall(plain.group("pairs")):
                old = place if re.match(r"^[\d+\-–]", place) else None
                where = None if old else place
                out.append(Erratum(document=document, version=version, page=None, target=labelled,
                                   source=ctx.source(page), location=where, operation="replace",
                                   text=new.strip("'‘’"), edition=ctx.edition, old_text=old,
                                   faction_heading=section, faction=known_faction(section or "")))
            continue
        if ins.needs_body and (not inline or not _CLOSES.search(inline)) and value is None and not ins.rest:
            # the wording follows, in quotes, until the paragraph that closes them (also when it
            # opens on the instruction's own line: "Change to:'In the Charge phase, …:")
            while i < n and not ctx.is_claimed(i):
                nb = doc.blocks[i]
                t = _text(nb)
                if not t or (nb.kind == HEADING) or (body and _is_header(doc, i)):
                    break
                body.append(("- " if nb.kind == LIST_ITEM else "") + t)
                used.append(i)
                i += 1
                if _CLOSES.search(t) and not _OPENS.match(t) or _CLOSES.search(t) and len(body) > 1:
                    break
        elif ins.rest and not inline:
            body = [ins.rest]
        wording = _unquote("\n".join(body))
        old = None
        location = ins.location
        operation = ins.operation
        if value is not None:  # "Change S to '10'.": the value is the new wording, the thing named its place
            place, wording, old = value
            # "Change 3" to 6".": the old value is what changes, not a place in the rule
            location, operation = place or (None if old else location), "replace"
        title = ins.title
        out.append(Erratum(document=document, version=version, page=None, target=labelled,
                           source=ctx.source(page), location=location, operation=operation, text=wording,
                           edition=ctx.edition, title=title, old_text=old, faction_heading=section,
                           faction=known_faction(section or "")))
    return i, out


def _split(text: str) -> tuple[str, str]:
    """An instruction and the wording after its colon on the same line ("Change to:'In …")."""
    m = re.match(r"^(.*?:)\s*(['‘\"“].*)$", text)
    if m and is_instruction(m.group(1)):
        return m.group(1), m.group(2)
    return text, ""


def _unquote(text: str) -> str:
    t = text.strip()
    t = re.sub(r"^(-\s*)?['‘\"“]\s*", r"\1", t)
    t = re.sub(r"\s*['’\"”]\s*(\.)?\s*$", "", t)
    return t
