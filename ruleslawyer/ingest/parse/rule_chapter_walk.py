"""The walk through a numbered rules chapter: an ordered table of named rules.

`parse_chapter` (rule_chapter.py) finds the rule headings; this module walks every unclaimed
line after that and decides what it is. Each `Step` has a name, a `matches` test (any
prefilter lives inside it) and an `apply`. For each line the first step that matches applies
and the line is done, except for a `passing` step: it updates the walk's state and lets the
next steps see the same line. The table, in order:

    rule heading              opens the rule it heads
    part under another title  a page of worked examples or a divider: no rule's text (warned once)
    stratagem card            a card drawn as an example: starts an illustration
    inside an illustration    the card's lines
    end of an illustration    (passing) the first line that is no part of it
    above the page            text bleeding off the top of the page (part of a picture)
    heading's own line        a wrapped rule heading's second line
    chapter intro             text above the first rule heading, in its column or level above it
    navigation box column     the rest of a "SEE ALSO" box's column
    next box down the column  (passing) a heading below the box: text again
    navigation box            a heading over cross-references ("Frame 17.02")
    furniture                 figure labels, page and tab numbers, running lines
    unmapped list marker      a lone U+FFFD: a bullet the font did not map
    sidebar or panel          text beside the rules (a sidebar) or on a page with none (a panel)
    flavour line              an italic line right under a heading: the rule's fluff
    rules text                the open rule's text
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..document import HEADING, PARAGRAPH
from .lines import Step
from .parsing import ParseContext
from .rule_chapter_parts import (CP, ChapterRule, flavour, is_furniture, line_text, nav_box, panel_rule, sidebar_rule,
                                 top)
from .stratagem_lines import Line


@dataclass
class Walk:
    """The state of one chapter walk (see the module docstring)."""

    lines: Sequence[Line]
    ctx: ParseContext
    rules: list[ChapterRule]
    head_at: dict[int, ChapterRule]
    in_head: set[int]
    pages_with_rules: dict[int | None, list[ChapterRule]]
    rule_columns: set[tuple]
    first: int
    body_size: float
    cards: set[int]
    apart: set[int]
    used: list[int] = field(default_factory=list)
    current: ChapterRule | None = None
    group: list[Line] = field(default_factory=list)
    group_kind: str = ""  # "sidebar" or "panel"
    skip_column: tuple | None = None
    skipped: int = 0
    illustration: bool = False
    left_out: set[int] = field(default_factory=set)

    def flush(self) -> None:
        """Place the sidebar or panel gathered so far with the rule it belongs to."""
        if not self.group:
            return
        text = "\n".join(line_text(g, self.body_size) for g in self.group)
        if self.group_kind == "sidebar":
            target = sidebar_rule(self.group[0], self.pages_with_rules.get(self.group[0].block.page, []), self.current)
        else:
            target = panel_rule(self.group, self.rules, self.current)
        if target is not None:
            target.extra.append(text)
        else:
            self.ctx.warn(f"chapter text not placed: {self.group[0].text.strip()[:60]!r}", self.group[0].block.page)
        self.group = []

    def beside_kind(self, line: Line) -> str:
        """"sidebar" for text in a column with no rule on a page with rules, "panel" on a page
        with none, "" for the rules' own columns."""
        page, col = line.block.page, line.block.column
        if page in self.pages_with_rules and (page, col) not in self.rule_columns:
            return "sidebar"
        return "panel" if page not in self.pages_with_rules else ""


def _use(w: Walk, i: int, line: Line) -> None:
    w.used.append(i)


def _open_rule(w: Walk, i: int, line: Line) -> None:
    w.flush()
    w.current = w.head_at[i]
    w.illustration = False
    w.used.append(i)


def _apart(w: Walk, i: int, line: Line) -> None:
    w.flush()
    page = line.block.page
    if page not in w.left_out and line.text.strip():
        w.left_out.add(page)
        w.ctx.warn(f"page {page} is under another sideways title and holds no numbered rule: not read as rule text",
                   page)
    w.used.append(i)


def _card(w: Walk, i: int, line: Line) -> None:
    w.flush()
    w.illustration = True  # a stratagem card drawn as an example: no rule text
    w.used.append(i)


def _end_illustration(w: Walk, i: int, line: Line) -> None:
    w.illustration = False


def _intro(w: Walk, i: int, line: Line) -> bool:
    first = w.lines[w.first]
    # Text in another column level with or below the first heading is a sidebar, not the intro.
    return i < w.first and line.block.page == first.block.page and (
        line.block.column == first.block.column or top(line) < top(first) - 15)


def _in_skipped_column(w: Walk, i: int, line: Line) -> bool:
    return w.skip_column == (line.block.page, line.block.column) \
        and not (line.kind == HEADING and w.skipped and not nav_box(w.lines, i))


def _skip(w: Walk, i: int, line: Line) -> None:
    w.skipped += line.kind != HEADING
    w.used.append(i)


def _below_the_box(w: Walk, i: int, line: Line) -> None:
    w.skip_column = None  # the next box down the column (a sidebar) is text again


def _nav(w: Walk, i: int, line: Line) -> None:
    w.flush()
    w.skip_column = (line.block.page, line.block.column)
    w.skipped = 0
    w.used.append(i)


def _beside(w: Walk, i: int, line: Line) -> None:
    w.used.append(i)
    kind = w.beside_kind(line)
    if w.group and (kind != w.group_kind or line.kind == HEADING or w.group[-1].block.page != line.block.page):
        w.flush()
    w.group_kind = kind
    w.group.append(line)


def _is_flavour(w: Walk, i: int, line: Line) -> bool:
    return w.current is not None and not w.current.body and line.kind == PARAGRAPH \
        and flavour(w.current, line) is not None


def _flavour(w: Walk, i: int, line: Line) -> None:
    w.used.append(i)
    w.flush()
    fluff, rest = flavour(w.current, line)
    w.current.fluff = fluff
    w.current.body.extend([rest] if rest else [])


def _text(w: Walk, i: int, line: Line) -> None:
    w.used.append(i)
    w.flush()
    if w.current is not None:
        w.current.body.append(line_text(line, w.body_size))


STEPS: tuple[Step, ...] = (
    Step("rule heading", lambda w, i, ln: i in w.head_at, _open_rule),
    Step("part under another title", lambda w, i, ln: ln.block.page in w.apart, _apart),
    Step("stratagem card", lambda w, i, ln: i in w.cards, _card),
    Step("inside an illustration",
         lambda w, i, ln: w.illustration and (ln.kind != HEADING or bool(CP.match(ln.text.strip()))), _use),
    Step("end of an illustration", lambda w, i, ln: w.illustration, _end_illustration, passing=True),
    Step("above the page", lambda w, i, ln: top(ln) < 0, _use),
    Step("heading's own line", lambda w, i, ln: i in w.in_head, _use),
    Step("chapter intro", _intro, _use),
    Step("navigation box column", _in_skipped_column, _skip),
    Step("next box down the column", lambda w, i, ln: w.skip_column == (ln.block.page, ln.block.column),
         _below_the_box, passing=True),
    Step("navigation box", lambda w, i, ln: nav_box(w.lines, i) or ln.text.strip().casefold() == "see also", _nav),
    Step("furniture", lambda w, i, ln: is_furniture(ln, w.body_size), _use),
    Step("unmapped list marker", lambda w, i, ln: ln.text.strip() == "\ufffd", _use),
    Step("sidebar or panel", lambda w, i, ln: bool(w.beside_kind(ln)), _beside),
    Step("flavour line", _is_flavour, _flavour),
    Step("rules text", lambda w, i, ln: True, _text),
)


def walk(w: Walk) -> None:
    """Run the steps over every unclaimed line, then place the last sidebar or panel."""
    for i, line in enumerate(w.lines):
        if line.claimed:
            continue
        for step in STEPS:
            if step.matches(w, i, line):
                step.apply(w, i, line)
                if not step.passing:
                    break
    w.flush()

