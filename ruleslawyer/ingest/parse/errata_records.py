"""The records an FAQ/errata walk makes: errata from an entry, a note, a question/answer pair."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ...records import Erratum, Faq, Note
from .errata_entries import Header, is_instruction, parse_entries, read_instruction
from .errata_meta import Meta
from .errata_text import highlight_of, join_broken
from .lines import Line, record_name
from .parsing import ParseContext


@dataclass
class Entry:
    """An entry header and the lines under it."""

    header: Header
    lines: list[Line] = field(default_factory=list)
    header_line: Line | None = None
    group: str | None = None  # the heading the entry sits under (a faction, in index-card errata)
    added: bool = False  # a titled update with no instruction: it adds the rule it names
    reprinted: bool = False  # a rule's title over its new wording, no instruction: it replaces the rule
    faction: str | None = None  # the known faction whose heading the entry sits under
    card: bool = False  # a card reprinted as amended: its own headings are part of it


def complete(entry: Entry) -> bool:
    """True when the entry has its wording: two lines or more, a reprinted rule's wording, or
    one instruction that holds its wording ("Change to '2CP'.", not "Change to:")."""
    if len(entry.lines) >= 2 or (entry.reprinted and entry.lines):
        return True
    return bool(entry.lines) and is_instruction(entry.lines[0].text) and not entry.lines[0].text.rstrip().endswith(":")


def with_text(line: Line, text: str) -> Line:
    """`line` with another text (a question or answer without its label)."""
    # a Q/A printed as a two-column table, or as a list item ("- Q: …"): the text is the question
    kind = "paragraph" if line.is_table or line.is_bullet else line.kind
    return Line(line.index, text, kind, bold=line.bold, italic=line.italic, color=line.color, page=line.page)


def _highlight(lines: Iterable[Line]) -> str | None:
    """The entry's colour flag: the colour of most of its text, when it is a flag colour."""
    weights: dict[str | None, int] = {}
    for line in lines:
        flag = highlight_of(line.color)
        weights[flag] = weights.get(flag, 0) + len(line.text)
    if not weights:
        return None
    best = max(weights, key=weights.get)
    return best


def _body_text(lines: list[Line]) -> str:
    parts = []
    for line in lines:
        if line.is_table:
            parts.append("\n".join("\t".join(r) for r in line.rows))
        elif line.is_bullet:
            parts.append(f"- {line.text.strip()}")
        else:
            parts.append(line.text.strip())
    return "\n".join(join_broken([p for p in parts if p]))


def note(found: tuple[Line, list[Line]], meta: Meta, ctx: ParseContext) -> Note:
    """A designer's note: its title line and text."""
    head, body = found
    return Note(name=record_name(head.text.strip().rstrip(":")), source=ctx.source(head.page),
                document=meta.document, version=meta.version, text=_body_text(body),
                edition=meta.edition, highlight=_highlight([head, *body]))


def errata(entry: Entry, meta: Meta, ctx: ParseContext) -> Iterator[Erratum]:
    """One Erratum per instruction under the entry's header."""
    header_page = entry.header_line.page if entry.header_line else None
    all_lines = ([entry.header_line] if entry.header_line else []) + entry.lines
    highlight = highlight_of(entry.header_line.color if entry.header_line else None) or _highlight(all_lines)
    if entry.added and not any(is_instruction(x.text) for x in entry.lines):
        # A titled update brings a new rule (`add`, titled); one titled by a rule's number
        # ("18.01 STRATAGEMS") prints that rule's new wording in full (`replace`).
        numbered = bool(entry.header.page)
        yield Erratum(document=meta.document, version=meta.version, page=entry.header.page or None,
                      target=entry.header.target, source=ctx.source(header_page), location=entry.header.location,
                      operation="replace" if numbered else "add", text=_body_text(entry.lines),
                      edition=meta.edition, title=None if numbered else entry.header.target, highlight=highlight)
        return
    if entry.reprinted and not any(is_instruction(x.text) for x in entry.lines):
        # A dataslate reprints a faction's rule under its title, a companion an amended card:
        # the wording replaces the rule or card.
        yield Erratum(document=meta.document, version=meta.version, page=None, target=entry.header.target,
                      source=ctx.source(header_page), operation="replace", text=_body_text(entry.lines),
                      edition=meta.edition, highlight=highlight, faction=entry.faction)
        return
    for fields in parse_entries(entry.header, entry.lines):
        yield Erratum(document=meta.document, version=meta.version, page=entry.header.page or None,
                      target=entry.header.target, source=ctx.source(header_page or fields.page),
                      location=fields.location, operation=fields.operation, text=fields.text,
                      edition=meta.edition, title=fields.title, bullets=tuple(fields.bullets),
                      designers_note=fields.designers_note, highlight=highlight, old_text=fields.old_text,
                      faction_heading=entry.group, faction=entry.faction)


def faq(question: list[Line], answer: list[Line], meta: Meta, ctx: ParseContext) -> Faq:
    """One question/answer pair."""
    return Faq(question=_body_text(question), answer=_body_text(answer),
               source=ctx.source(question[0].page), document=meta.document, version=meta.version,
               edition=meta.edition, highlight=_highlight(question + answer))


def opens_another_addition(entry: Entry, line: Line) -> bool:
    """True when `line` opens a new titled addition inside an entry that already has its own
    instruction and wording (so it cannot be a second instruction of the same entry)."""
    if len(entry.lines) < 2 or not is_instruction(line.text) or not is_instruction(entry.lines[0].text):
        return False
    if not entry.header.page:  # unpaged errata (index cards) give one header several instructions
        return False
    first = read_instruction(entry.lines[0].text, entry.header)
    this = read_instruction(line.text, entry.header)
    # One that names a place ("… section before 'Abilities':") is about this entry's target.
    return this.operation == "add" and first.operation != "add" and this.unit in ("", "sub-section", "section", "rule") \
        and not this.location
