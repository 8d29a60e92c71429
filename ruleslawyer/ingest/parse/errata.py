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
from typing import Iterator

from ...records import Erratum, Record
from ..document import HEADING, Document
from .errata_entries import is_instruction, parse_header
from .errata_headers import (DASH_HEADER, expand_entry_tables, expand_labelled_edits, section_of,
                             split_run_in_headers, titled_header, without_furniture)
from .errata_meta import title_block
from .errata_qa import ANSWER as _ANSWER, QUESTION as _QUESTION, split_qa, with_labels
from .lines import Line
from .errata_text import drop_stray_endings, entry_line, is_heading_like, split_glued_headings
from .errata_walk import Walk, walk
from .parsing import ParseContext



def parse(doc: Document, ctx: ParseContext) -> Iterator[Record]:
    """The errata, note and faq records of `doc` when it is an FAQ/errata document."""
    lines = [entry_line(i, b) for i, b in enumerate(doc.blocks) if not ctx.is_claimed(i)]
    lines = without_furniture(expand_entry_tables(split_glued_headings([ln for ln in lines if ln.text or ln.is_table])))
    lines = expand_labelled_edits(lines)
    lines = with_labels(_unstyled_headers(split_run_in_headers(lines)))
    if not is_faq_document(lines):
        return
    meta = title_block(lines, ctx.doc, ctx.edition, _first_entry(lines))
    used: set[int] = set()
    walker = Walk(lines, meta, ctx, used, _is_index_cards(lines), set(_additions(lines)))
    records = _without_stray_endings(walk(walker))
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


def is_faq_document(lines: list[Line]) -> bool:
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


# The title of an update sheet: "RULES UPDATES", "CORE RULES UPDATE – AUGUST 2026",
# "WARHAMMER 40,000 RULES UPDATE".
# (the whole line: "Rules Updates ……… 7" in a contents list is no title)
_UPDATE_SHEET = re.compile(r"^(?:warhammer\s*(?:40,?000|40k)\s*[-\u2013\u2014:]?\s*)?"
                           r"(?:(?:core|balance|event|game)\s+)?(?:rules?\s+updates?|updates?\s*(?:&|and)\s*errata)"
                           r"(?:\s*[-\u2013\u2014:,]?\s*(?:[A-Z][a-z]+\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+)?"
                           r"[A-Za-z]*\s*20\d\d)?$", re.I)


# Titles of a sheet's own parts, not of a rule it brings.
_NO_RULE_TITLE = re.compile(r"^(?:introduction|overview|contents|what'?s new\??|notes?|designer'?s notes?|"
                            r"warhammer\s*(?:40,?000|40k))$", re.I)


def _additions(lines: list[Line]) -> list[int]:
    """The titled updates of an update sheet: under a rules-updates heading printed at the top
    ("RULES UPDATES"), a title over the wording of the rule it brings ("HOVER" / "Some AIRCRAFT
    can hover. …"). Empty for other documents."""
    top = next((n for n, line in enumerate(lines[:12]) if section_of(line) == "errata"
                or (is_heading_like(line) and _UPDATE_SHEET.match(line.text.strip()))), None)
    if top is None or _dash_entries(lines) >= 3 or any((h := parse_header(line.text)) and h.target for line in lines):
        return []  # (a paged errata document adds rules by "Add the following:")
    end = next((n for n in range(top + 1, len(lines)) if section_of(lines[n]) == "faq"), len(lines))
    return [n for n in range(top + 1, end - 1) if _is_addition_title(lines, n)]


def _is_addition_title(lines: list[Line], n: int) -> bool:
    """A title line over plain wording: heading-like, and the next line a paragraph that is no
    header, edit, question or title itself."""
    line, nxt = lines[n], lines[n + 1]
    if not is_heading_like(line) or section_of(line) or _QUESTION.match(line.text) or parse_header(line.text) \
            or is_instruction(line.text) or line.is_table or _NO_RULE_TITLE.match(line.text.strip()):
        return False
    return not (is_heading_like(nxt) or is_instruction(nxt.text) or _QUESTION.match(nxt.text)
                or parse_header(nxt.text) or titled_header(lines, n + 1) or section_of(nxt))


def _unstyled_headers(lines: list[Line]) -> list[Line]:
    """In a document with no bold at all (a text dump), a "Unit – Section" line directly above an
    instruction is an entry header by its place, as the bold would say in the printed page."""
    if any(ln.bold for ln in lines if ln.kind != HEADING):  # a text file's headings count as bold
        return lines
    out = list(lines)
    for n, line in enumerate(lines[:-1]):
        # (the instruction below first: few lines are one, and the header pattern is dearer)
        if line.kind != HEADING and is_instruction(lines[n + 1].text) and DASH_HEADER.match(line.text) \
                and not is_instruction(line.text):
            out[n] = line.replace(bold=True)
    return out


def _dash_entries(lines: list[Line]) -> int:
    """How many bold "Unit – Section" lines sit directly above an instruction."""
    return sum(1 for n, line in enumerate(lines[:-1])
               if line.bold and DASH_HEADER.match(line.text) and is_instruction(lines[n + 1].text))


def _is_index_cards(lines: list[Line]) -> bool:
    """True for unpaged errata made of bold "Unit – Section" headers (the index-card errata)."""
    # A bare "Page 3" (a footer) is no paged entry header: only one naming a target is.
    return _dash_entries(lines) >= 3 and not any((h := parse_header(line.text)) and h.target for line in lines)


def _first_entry(lines: list[Line]) -> int:
    """Where the entries start: the first section heading, entry header or question (the title
    block is above it)."""
    for n, line in enumerate(lines):
        if section_of(line) or _QUESTION.match(line.text) or ((h := parse_header(line.text)) and h.target):
            return n
    return len(lines)


