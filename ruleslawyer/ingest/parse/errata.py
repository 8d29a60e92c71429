"""FAQ/errata documents -> `errata`, `note` and `faq` records.

An FAQ document is recognised by its content: entry headers ("Page 219 – Look Out, Sir", or in
the index-card errata a bold "Unit – Section, Item" line) followed by editing instructions
("Change … to read:", "Add the following …:", "Delete …"), or "Q:"/"A:" pairs. Its title block
gives the document name and version ("CORE BOOK", "Indomitus Version 1.7"). Designer's notes
become `note` records, entries `errata` records (the entry grammar is in errata_entries.py),
question/answer pairs `faq` records. Every block of an FAQ document is claimed, so the rules
parser does not turn its headings into rules.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ...records import Erratum, Faq, Note, Record
from ..document import HEADING, Document
from .errata_entries import Header, is_instruction, parse_entries, parse_header, read_instruction
from .errata_meta import Meta, title_block
from .errata_headers import (DASH_HEADER, dash_header, expand_entry_tables, full_header, section_of, split_run_in_headers,
                             titled_header, without_furniture)
from .errata_qa import ANSWER as _ANSWER, QUESTION as _QUESTION, answers_next_question, split_qa, with_labels
from .lines import record_name
from .errata_text import (EntryLine, drop_stray_endings, entry_line, highlight_of, is_heading_like, join_broken)
from .parsing import ParseContext



@dataclass
class _Entry:
    header: Header
    lines: list[EntryLine] = field(default_factory=list)
    header_line: EntryLine | None = None
    group: str | None = None  # the heading the entry sits under (a faction, in index-card errata)
    added: bool = False  # a titled update with no instruction: it adds the rule it names


def parse(doc: Document, ctx: ParseContext) -> Iterator[Record]:
    """The errata, note and faq records of `doc` when it is an FAQ/errata document."""
    lines = [entry_line(i, b) for i, b in enumerate(doc.blocks) if not ctx.is_claimed(i)]
    lines = without_furniture(expand_entry_tables([ln for ln in lines if ln.text or ln.is_table]))
    lines = with_labels(_unstyled_headers(split_run_in_headers(lines)))
    if not is_faq_document(lines):
        return
    meta = title_block(lines, ctx.doc, ctx.edition, _first_entry(lines))
    used: set[int] = set()
    records = _without_stray_endings(list(_walk(lines, meta, ctx, used, _is_index_cards(lines))))
    if len(used) >= 0.5 * len(lines):
        # An FAQ document: its title block, intro and headings are not rules either.
        ctx.claim(ln.index for ln in lines)
    else:
        # FAQ entries inside another document (a faction page): only what they used.
        ctx.claim(used)
    yield from records


def _without_stray_endings(records: list[Record]) -> list[Record]:
    """The records with stray bullet tails dropped (`drop_stray_endings`, among the bullets of
    the entries on one page of the book: where a wrapped line can stray to)."""
    by_page: dict[str | None, list[str]] = {}
    for r in records:
        if isinstance(r, Erratum):
            by_page.setdefault(r.page, []).extend(r.bullets)
    fixed = {(page, b): f for page, bullets in by_page.items() for b, f in zip(bullets, drop_stray_endings(bullets))}
    return [dataclasses.replace(r, bullets=tuple(fixed[r.page, b] for b in r.bullets))
            if isinstance(r, Erratum) and any(fixed[r.page, b] != b for b in r.bullets) else r for r in records]


def is_faq_document(lines: list[EntryLine]) -> bool:
    """True when the lines read as an FAQ/errata document (see the module docstring)."""
    entries = 0
    for n, line in enumerate(lines):
        if parse_header(line.text) and any(is_instruction(x.text) for x in lines[n + 1:n + 3]):
            entries += 1
    questions = sum(1 for n, line in enumerate(lines[:-1])
                    if _QUESTION.match(line.text) and any(_ANSWER.match(x.text) or split_qa(x.text)[1]
                                                         for x in lines[n:n + 4]))
    titled = sum(1 for n in range(len(lines)) if titled_header(lines, n))
    return entries + titled >= 2 or questions >= 2 or _dash_entries(lines) >= 3 or len(_additions(lines)) >= 2


# The title of an update sheet: "RULES UPDATES", "CORE RULES UPDATE – AUGUST 2026".
# (the whole line: "Rules Updates ……… 7" in a contents list is no title)
_UPDATE_SHEET = re.compile(r"^(?:(?:core|balance|event|game)\s+)?(?:rules?\s+updates?|updates?\s*(?:&|and)\s*errata)"
                           r"(?:\s*[-\u2013\u2014:,]?\s*(?:[A-Z][a-z]+\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+)?"
                           r"[A-Za-z]*\s*20\d\d)?$", re.I)


def _additions(lines: list[EntryLine]) -> list[int]:
    """The titled updates of an update sheet: under a rules-updates heading printed at the top
    ("RULES UPDATES"), a title over the wording of the rule it brings ("HOVER" / "Some AIRCRAFT
    can hover. …"). Empty for other documents."""
    top = next((n for n, line in enumerate(lines[:12]) if section_of(line) == "errata"
                or (is_heading_like(line) and _UPDATE_SHEET.match(line.text.strip()))), None)
    if top is None or _dash_entries(lines) >= 3 or any((h := parse_header(line.text)) and h.target for line in lines):
        return []  # (a paged errata document adds rules by "Add the following:")
    end = next((n for n in range(top + 1, len(lines)) if section_of(lines[n]) == "faq"), len(lines))
    return [n for n in range(top + 1, end - 1) if _is_addition_title(lines, n)]


def _is_addition_title(lines: list[EntryLine], n: int) -> bool:
    """A title line over plain wording: heading-like, and the next line a paragraph that is no
    header, edit, question or title itself."""
    line, nxt = lines[n], lines[n + 1]
    if not is_heading_like(line) or section_of(line) or _QUESTION.match(line.text) or parse_header(line.text) \
            or is_instruction(line.text) or line.is_table:
        return False
    return not (is_heading_like(nxt) or is_instruction(nxt.text) or _QUESTION.match(nxt.text)
                or parse_header(nxt.text) or titled_header(lines, n + 1) or section_of(nxt))


def _unstyled_headers(lines: list[EntryLine]) -> list[EntryLine]:
    """In a document with no bold at all (a text dump), a "Unit – Section" line directly above an
    instruction is an entry header by its place, as the bold would say in the printed page."""
    if any(ln.bold for ln in lines if ln.kind != HEADING):  # a text file's headings count as bold
        return lines
    out = list(lines)
    for n, line in enumerate(lines[:-1]):
        # (the instruction below first: few lines are one, and the header pattern is dearer)
        if line.kind != HEADING and is_instruction(lines[n + 1].text) and DASH_HEADER.match(line.text) \
                and not is_instruction(line.text):
            out[n] = dataclasses.replace(line, bold=True)
    return out


def _dash_entries(lines: list[EntryLine]) -> int:
    """How many bold "Unit – Section" lines sit directly above an instruction."""
    return sum(1 for n, line in enumerate(lines[:-1])
               if line.bold and DASH_HEADER.match(line.text) and is_instruction(lines[n + 1].text))


def _is_index_cards(lines: list[EntryLine]) -> bool:
    """True for unpaged errata made of bold "Unit – Section" headers (the index-card errata)."""
    # A bare "Page 3" (a footer) is no paged entry header: only one naming a target is.
    return _dash_entries(lines) >= 3 and not any((h := parse_header(line.text)) and h.target for line in lines)


def _first_entry(lines: list[EntryLine]) -> int:
    """Where the entries start: the first section heading, entry header or question (the title
    block is above it)."""
    for n, line in enumerate(lines):
        if section_of(line) or _QUESTION.match(line.text) or ((h := parse_header(line.text)) and h.target):
            return n
    return len(lines)


def _walk(lines: list[EntryLine], meta: Meta, ctx: ParseContext, used: set[int],
          index_cards: bool = False) -> Iterator[Record]:
    """Records from the lines in order; adds the index of every block they use to `used`.

    `index_cards`: the document is unpaged index-card errata, where a bold line above an
    instruction is an entry header even without a dash ("Aegis Defence Line").
    """
    section = "intro"
    group: str | None = None  # the heading over the entries (index cards: the faction)
    note: tuple[EntryLine, list[EntryLine]] | None = None
    entry: _Entry | None = None
    question: list[EntryLine] = []
    answer: list[EntryLine] = []
    in_answer = False
    early_answer: list[EntryLine] = []
    additions = set(_additions(lines))
    n = 0
    while n < len(lines):
        line = lines[n]
        text = line.text.strip()
        header = parse_header(text)
        if header and index_cards and not header.target:  # "Page 3": a footer among unpaged entries
            used.add(line.index)
            n += 1
            continue
        heading_section = section_of(line)
        addition = n in additions
        dash = None if header else dash_header(lines, n, index_cards)
        titled = None if header or dash or index_cards else titled_header(lines, n)
        dash = dash or (titled[0] if titled else None)
        if index_cards and line.kind == HEADING and not heading_section and n + 1 < len(lines) \
                and dash_header(lines, n + 1, True):
            group = record_name(text)  # a faction heading over the entries below it
        if heading_section or header or dash or addition or _QUESTION.match(text):
            if note:
                yield _note(note, meta, ctx)
                note = None
            if entry:
                yield from _errata(entry, meta, ctx)
                entry = None
            if question and _QUESTION.match(text) or heading_section or header or dash or addition:
                if question:
                    yield _faq(question, answer, meta, ctx)
                question, answer, in_answer = [], [], False
        ends_pair = question and (line.kind == HEADING or (line.is_table and not _QUESTION.match(text)))
        ends_entry = entry and line.kind == HEADING and len(entry.lines) >= 2
        if ends_pair or ends_entry:
            # A heading (or a table that is not a Q&A) after an answer or a complete entry
            # leaves the FAQ material.
            if question:
                yield _faq(question, answer, meta, ctx)
                question, answer, in_answer = [], [], False
            if ends_entry:
                yield from _errata(entry, meta, ctx)
                entry = None
        if heading_section:
            section = heading_section
            used.add(line.index)
            n += 1
            continue
        if addition:
            # A titled update that brings a rule: an erratum that adds it (records.md: `add`).
            used.add(line.index)
            entry = _Entry(Header("", record_name(text), None), header_line=line, added=True)
            n += 1
            continue
        if header or dash:
            start = n
            header, n = titled if titled else full_header(lines, n, header or dash)
            used.update(x.index for x in lines[start:n])
            entry = _Entry(header, header_line=line, group=group if index_cards else None)
            section = "errata"
            continue
        if question or entry or section == "notes" or _QUESTION.match(text):
            used.add(line.index)
        q, a = split_qa(text)
        if _QUESTION.match(text):
            question = [_with_text(line, q)]
            answer, in_answer = ([_with_text(line, a)], True) if a else ([], False)
            if not a and early_answer:  # its answer was printed before it
                answer, in_answer = early_answer, True
            early_answer = []
        elif _ANSWER.match(text) and answers_next_question(lines, n) and (answer or not question):
            # An answer printed before its question (a two-column page read across): it is the
            # next question's, and the pair above keeps its own answer.
            if question:
                yield _faq(question, answer, meta, ctx)
                question, answer, in_answer = [], [], False
            early_answer = [_with_text(line, _ANSWER.sub("", text, count=1))]
            used.add(line.index)
        elif question and _ANSWER.match(text) and not answer:
            answer, in_answer = [_with_text(line, _ANSWER.sub("", text, count=1))], True
        elif question:
            (answer if in_answer else question).append(line)
        elif entry and line.kind == HEADING and n + 1 < len(lines) and \
                (parse_header(lines[n + 1].text) or dash_header(lines, n + 1, index_cards)):
            # A section heading (a faction name) between entries ends the entry above it.
            yield from _errata(entry, meta, ctx)
            entry = None
        elif entry and _orphan_addition(entry, line):
            # An "Add the following sub-section:" after a complete entry of another kind: its
            # page header was lost (a PDF loader can take "Page 247" for a page number).
            yield from _errata(entry, meta, ctx)
            entry = _Entry(Header("", None, None), [line], header_line=None)
        elif entry:
            entry.lines.append(line)
        elif section == "notes":
            if is_heading_like(line) and not line.is_bullet:
                if note:
                    yield _note(note, meta, ctx)
                note = (line, [])
            elif note:
                note[1].append(line)
        n += 1
    if note:
        yield _note(note, meta, ctx)
    if entry:
        yield from _errata(entry, meta, ctx)
    if question:
        yield _faq(question, answer, meta, ctx)


def _orphan_addition(entry: _Entry, line: EntryLine) -> bool:
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


def _with_text(line: EntryLine, text: str) -> EntryLine:
    # a Q/A printed as a two-column table, or as a list item ("- Q: …"): the text is the question
    kind = "paragraph" if line.is_table or line.is_bullet else line.kind
    return EntryLine(line.index, text, kind, line.bold, line.italic, line.color, line.page)


def _highlight(lines: Iterable[EntryLine]) -> str | None:
    """The entry's colour flag: the colour of most of its text, when it is a flag colour."""
    weights: dict[str | None, int] = {}
    for line in lines:
        flag = highlight_of(line.color)
        weights[flag] = weights.get(flag, 0) + len(line.text)
    if not weights:
        return None
    best = max(weights, key=weights.get)
    return best


def _body_text(lines: list[EntryLine]) -> str:
    parts = []
    for line in lines:
        if line.is_table:
            parts.append("\n".join("\t".join(r) for r in line.rows))
        elif line.is_bullet:
            parts.append(f"- {line.text.strip()}")
        else:
            parts.append(line.text.strip())
    return "\n".join(join_broken([p for p in parts if p]))


def _note(note: tuple[EntryLine, list[EntryLine]], meta: Meta, ctx: ParseContext) -> Note:
    head, body = note
    return Note(name=record_name(head.text.strip().rstrip(":")), source=ctx.source(head.page),
                document=meta.document, version=meta.version, text=_body_text(body),
                edition=meta.edition, highlight=_highlight([head, *body]))


def _errata(entry: _Entry, meta: Meta, ctx: ParseContext) -> Iterator[Erratum]:
    """One Erratum per instruction under the entry's header."""
    header_page = entry.header_line.page if entry.header_line else None
    all_lines = ([entry.header_line] if entry.header_line else []) + entry.lines
    highlight = highlight_of(entry.header_line.color if entry.header_line else None) or _highlight(all_lines)
    if entry.added and not any(is_instruction(x.text) for x in entry.lines):
        yield Erratum(document=meta.document, version=meta.version, page=None, target=entry.header.target,
                      source=ctx.source(header_page), location=None, operation="add",
                      text=_body_text(entry.lines), edition=meta.edition, title=entry.header.target,
                      highlight=highlight)
        return
    for fields in parse_entries(entry.header, entry.lines):
        yield Erratum(document=meta.document, version=meta.version, page=entry.header.page or None,
                      target=entry.header.target, source=ctx.source(header_page or fields.page),
                      location=fields.location, operation=fields.operation, text=fields.text,
                      edition=meta.edition, title=fields.title, bullets=tuple(fields.bullets),
                      designers_note=fields.designers_note, highlight=highlight, old_text=fields.old_text,
                      faction_heading=entry.group)


def _faq(question: list[EntryLine], answer: list[EntryLine], meta: Meta, ctx: ParseContext) -> Faq:
    return Faq(question=_body_text(question), answer=_body_text(answer),
               source=ctx.source(question[0].page), document=meta.document, version=meta.version,
               edition=meta.edition, highlight=_highlight(question + answer))

