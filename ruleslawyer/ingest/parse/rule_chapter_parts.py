"""The parts of a numbered rules chapter that the walk (rule_chapter_walk.py) asks about: a rule
being gathered, type sizes and positions, furniture, navigation boxes, the text of a line, a
flavour line, and which rule a sidebar or a diagram panel belongs to.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from ...names import title_case
from ..document import HEADING, LIST_ITEM, TABLE
from .decision_lists import decision_lines, decision_span
from .rule_chapter_titles import FOOTER as _FOOTER
from .rule_text import ends_sentence, flavour_of
from .stratagem_lines import Line

CP = re.compile(r"^\+?\d\s*CP$", re.I)
_XREF = re.compile(r"\s\d{2}\.\d{2}$")
_LABEL = re.compile(r'^(?:[-+]?\d*\s?[½¼¾]?\s?["”]|[A-Z]|\d{1,3}|[-+]?\d+ TO \w+ ROLL|>+|[►▶→]+)$')
_WORD = re.compile(r"[a-z]{3,}")
_STOP = {"the", "and", "for", "that", "this", "with", "its", "are", "can", "any", "from", "unit", "model",
         "models", "units", "each", "one", "other", "not"}



def size(line: Line) -> float:
    try:
        return float((line.block.attrs or {}).get("size", 0) or 0)
    except ValueError:
        return 0.0


def top(line: Line) -> float:
    try:
        return float((line.block.attrs or {}).get("top", 0) or 0)
    except ValueError:
        return 0.0



@dataclass
class ChapterRule:
    name: str
    number: str | None
    page: int | None
    column: int | None
    top: float
    heads: list[int]
    body: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)  # sidebars and diagram captions, after the body
    echo: bool = False  # repeats the number of a card another parser read: an illustration of it
    fluff: str | None = None  # the italic flavour line under the heading



def is_furniture(line: Line, body_size: float) -> bool:
    t = line.text.strip()
    if not t or _FOOTER.match(t):
        return True
    if line.kind == TABLE:
        cells = [c.strip() for row in line.block.rows for c in row if c.strip()]
        return all(_LABEL.match(c) for c in cells)
    if _LABEL.match(t) or CP.match(t):
        return True
    return re.fullmatch(r"\d{1,3}", t) is not None and size(line) >= body_size


def nav_box(lines: Sequence[Line], i: int) -> bool:
    """A heading over a list of cross-references ("Frame 17.02", "► Revived")."""
    if lines[i].kind != HEADING:
        return False
    items = []
    k = i + 1
    while k < len(lines) and len(items) < 6:
        ln = lines[k]
        if ln.kind == HEADING and not items:
            k += 1
            continue
        if ln.kind != LIST_ITEM:
            break
        items.append(ln)
        k += 1
    refs = [x for x in items if _XREF.search(x.text.strip()) or (x.block.attrs or {}).get("marker") in ("►", "▶")]
    return len(items) >= 2 and len(refs) >= 0.6 * len(items)


def line_text(line: Line, body_size: float) -> str:
    t = line.text.strip()
    if line.kind == LIST_ITEM:
        return "- " + t
    if line.kind == HEADING and size(line) > body_size and t.upper() == t:
        return title_case(t)
    if line.kind == TABLE:
        rows = [list(r) for r in line.block.rows]
        span = decision_span(rows)
        if span is None:
            return "\n".join("\t".join(c for c in row) for row in rows)
        # A decision list: one "- condition: VERDICT" line per row; the chart printed inside
        # it is a table record of its own.
        return "\n".join(decision_lines(rows, span))
    return t


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.casefold()) if w not in _STOP}



def flavour(rule: ChapterRule, line: Line) -> tuple[str, str] | None:
    """(fluff, rules text left in the block) when `line`, before any rules text, is the italic
    flavour line under the rule's heading (or the second italic block of one that wraps);
    None when it is rules text."""
    found = flavour_of(line.block)
    if found is None:
        return None
    lead, rest = found
    if rule.fluff is None:
        return lead, rest
    if not ends_sentence(rule.fluff) and not rest:
        return f"{rule.fluff} {lead}", ""
    return None


def sidebar_rule(first: Line, on_page: list[ChapterRule], current: ChapterRule | None) -> ChapterRule | None:
    """The rule a sidebar sits level with: the nearest heading above it on its page (the first
    rule of the page when the sidebar starts higher than every heading)."""
    if not on_page:
        return current
    level = top(first)
    above = [r for r in on_page if r.top <= level + 15]
    return max(above, key=lambda r: r.top) if above else min(on_page, key=lambda r: r.top)


def panel_rule(group: list[Line], rules: list[ChapterRule], current: ChapterRule | None) -> ChapterRule | None:
    """The rule a diagram panel illustrates: the one whose name (first) and text share most
    words with the panel's title; the rule open at that point on a tie."""
    if group[0].kind != HEADING:
        return current
    title = _words(group[0].text)
    best, best_score = current, 0.0
    for r in rules:
        score = 3 * len(title & _words(r.name)) + len(title & _words(" ".join(r.body)))
        if score > best_score or (score == best_score and r is current):
            best, best_score = r, score
    return best
