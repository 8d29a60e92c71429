"""Titles of a laid-out rules chapter: the sideways chapter title, the pages under another
sideways title (a part of their own), and, without a sideways title, the heading above the
first rule. Also the rule-number patterns of headings ("MOVING UNITS 03.01")."""
from __future__ import annotations

import re
from typing import Sequence

from ...names import title_case
from ..document import HEADING, Document
from .rule_text import BRACKETED
from .stratagem_lines import Line

NUMBER_END = re.compile(r"^(?P<name>.*?\S)\s+(?P<num>\d{2}\.\d{2})$")
NUMBER_START = re.compile(r"^(?P<num>\d{2}\.\d{2})\s+(?P<name>\S.*)$")
FOOTER = re.compile(r"^\+\+.*\+\+$")


def numbered_chapter(doc: Document) -> bool:
    """Whether `doc` is a numbered rules chapter: two or more headings numbered in one chapter
    ("TERRAIN OBJECTIVES 14.01", "LEVEL OF CONTROL 14.02"). What else such a chapter prints (a
    datasheet with numbered call-outs, a stratagem card) illustrates its rules."""
    chapters: dict[str, int] = {}
    for block in doc.blocks:
        if block.kind != HEADING:
            continue
        text = " ".join(block.text.split())
        m = NUMBER_END.match(text) or NUMBER_START.match(text)
        if m:
            major = m.group("num").split(".")[0]
            chapters[major] = chapters.get(major, 0) + 1
    return any(n >= 2 for n in chapters.values())


def chapter_title(doc: Document) -> str | None:
    """The chapter title printed sideways (the largest sideways text of the first page that has
    one), from the loader's `vertical_titles` meta."""
    runs = []
    for row in (doc.meta or {}).get("vertical_titles", "").splitlines():
        page, size, text = (row.split("\t", 2) + ["", ""])[:3]
        if page.isdigit() and text:
            runs.append((int(page), -float(size or 0), text))
    if not runs:
        return None
    first = min(p for p, _, _ in runs)
    return title_case(min(r for r in runs if r[0] == first)[2])


def other_part_pages(doc: Document, title: str | None) -> set[int]:
    """Pages under a sideways title other than the chapter's ("ATTACK SEQUENCE EXAMPLES"): a
    part of its own, which runs until the chapter's title is printed again or the document ends."""
    if not title:
        return set()
    marks: dict[int, str] = {}
    for row in (doc.meta or {}).get("vertical_titles", "").splitlines():
        page, size, text = (row.split("\t", 2) + ["", ""])[:3]
        if page.isdigit() and text:
            prev = marks.get(int(page))
            # The largest run of a page is its title (a small "ADVANCED" tag beside it is not).
            if prev is None or float(size or 0) > float(prev[0]):
                marks[int(page)] = (size, text)
    try:
        last = int((doc.meta or {}).get("pages", "0"))
    except ValueError:
        last = 0
    last = max([last] + list(marks))
    out: set[int] = set()
    current = title
    for page in range(1, last + 1):
        if page in marks:
            current = title_case(re.sub(r"[\s\x00-\x1f]+", " ", marks[page][1]).strip())
        if current.casefold() != title.casefold():
            out.add(page)
    return out


def heading_above(lines: Sequence[Line], first: int) -> str | None:
    """Without a sideways title, the chapter's title is the nearest unnumbered heading above its
    first rule (a text or Markdown file's "WEAPON AND UNIT ABILITIES")."""
    for k in range(first - 1, -1, -1):
        ln = lines[k]
        t = ln.text.strip()
        if ln.kind != HEADING or ln.claimed or not t:
            continue
        if NUMBER_END.match(t) or NUMBER_START.match(t) or BRACKETED.match(t) or FOOTER.match(t):
            continue
        if re.match(r"\d{1,2}[.)]\s", t):
            continue  # a step of the chapter's list of steps ("3. END OF MOVEMENT PHASE")
        if len(t.split()) <= 8 and re.search(r"[A-Za-z]{3}", t) and not t.endswith((".", ":")):
            return title_case(t) if t.upper() == t else t
    return None


def claimed_numbered(lines: Sequence[Line]) -> bool:
    """Whether other parsers took numbered cards from this document (a chapter of numbered
    stratagems around a numbered rule)."""
    return sum(1 for ln in lines if ln.claimed and ln.kind == HEADING and NUMBER_END.match(ln.text.strip())) >= 2


def claimed_numbers(lines: Sequence[Line]) -> set[str]:
    """The numbers printed on headings other parsers took (stratagem cards: "COUNTEROFFENSIVE
    15.12"). A heading repeating one is the card drawn again as an example (a text dump loses
    the cost line that marks it as a card)."""
    out = set()
    for ln in lines:
        if ln.claimed and ln.kind == HEADING:
            m = NUMBER_END.match(ln.text.strip()) or NUMBER_START.match(ln.text.strip())
            if m:
                out.add(m.group("num"))
    return out


def rule_name(printed: str) -> str:
    """"1. SELECT WEAPONS" -> "Select Weapons"; "[LETHAL HITS]" -> "Lethal Hits"."""
    name = re.sub(r"^\d{1,2}[.\ufffd]\s*", "", printed.strip())
    name = BRACKETED.sub(r"\1", name).strip()
    return title_case(name)
