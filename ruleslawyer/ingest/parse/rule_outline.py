"""Rules from an outline: a rules summary or reference sheet read as nested headings.

The documents print every heading the same way (ALL-CAPS lines), so the nesting is read from
what follows each heading:

- a "... PHASE" heading opens a top-level section;
- a heading with no text of its own followed by numbered steps is a sequence, followed by
  "Name: text" entries a glossary list; both nest under an open phase, unless a table came
  between (reference tables close the phase part of a sheet);
- a heading with text of its own is a rule; it nests under a phase that has no text of its
  own, and it owns the "LABEL: text" run-in rules after it;
- a numbered step ("1. MOVE UNITS", "4. Roll to Wound") is a rule under its sequence; run-in
  rules after the last step of a sequence belong to the sequence's parent.

Labelled lines after a lead-in ending in ":" are the items of that list, not rules. A later
copy of the same outline (a "play reference" page) adds nothing: its entries only replace a
shorter text of the same rule. Page furniture (web addresses, subscription pleas) is skipped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from ...records import Rule
from ..document import HEADING, LIST_ITEM, PARAGRAPH, TABLE
from .parsing import ParseContext
from .rule_text import ends_sentence, flavour_of, is_caps, is_furniture, is_title_like, is_titlecase
from .rule_layout import chapter_headings, laid_out_entry
from .rules import ARMY_RULE, STEP_RE, plausible_name, rule_name, runin
from .stratagem_lines import HeadingPaths, Line, document_faction

_GAP = 8  # a claimed run this long is another part of the document (a datasheet), not a table


@dataclass
class Elem:
    """One line of an outline, classified (heading, step, run-in, item, paragraph, table, gap, junk)."""

    kind: str  # heading / step / runin / item / para / table / gap / junk
    line: Line | None
    label: str = ""
    rest: str = ""
    num: int | None = None


@dataclass
class Node:
    """An open heading or step on the outline stack: the section a new rule belongs to."""

    title: str
    kind: str  # phase / container / list / rule / step
    has_body: bool = False
    child_step: bool = False
    style: tuple | None = None
    last: bool = False
    builder: "Builder | None" = None


@dataclass
class Builder:
    """A rule being collected: its name, section, text parts and extras until it is emitted."""

    name: str
    section: tuple[str, ...]
    line: Line
    parts: list[str] = field(default_factory=list)
    step: int | None = None
    kind: str = "rule"
    intro: bool = False
    starred: bool = False
    footnote: str | None = None
    copy: bool = False
    owner: Node | None = None
    fluff: str | None = None

    def add(self, text: str, item: bool = False) -> None:
        """Append a paragraph (joined to the last one when that stopped mid-sentence).

        `item` marks a labelled line of a list the lead-in announced: the list goes on.
        """
        text = text.strip()
        if not text:
            return
        if self.parts and not ends_sentence(self.parts[-1]) and not self.parts[-1].startswith("- "):
            self.parts[-1] = f"{self.parts[-1]} {text}"
            return  # a line broken mid-sentence: the list state is unchanged
        self.parts.append(text)
        self.intro = self.parts[-1].endswith(":") or (self.intro and (item or not ends_sentence(text)))


def _style(label: str, line: Line) -> tuple[str, bool, bool]:
    case = "caps" if is_caps(label) else "title" if is_titlecase(label) else "sentence"
    return case, line.kind == PARAGRAPH, line.kind == PARAGRAPH and line.block.is_bold or \
        bool(line.block.bold_prefix())


def classify(lines: Sequence[Line]) -> list[Elem]:
    """The outline elements of the lines, claimed runs folded into table/gap markers."""
    elems: list[Elem] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.claimed:
            j = k
            while j < len(lines) and lines[j].claimed:
                j += 1
            kind = "gap" if j - k >= _GAP and not any(l.kind == TABLE for l in lines[k:j]) else "table"
            elems.append(Elem(kind, None))
            k = j
            continue
        k += 1
        text = line.text.strip()
        if not text:
            continue
        if line.junk:
            # A furniture heading starts a furniture section (its text is skipped with it).
            elems.append(Elem("heading" if line.kind == HEADING else "junk", line, label=text))
            continue
        if line.kind == TABLE:
            elems.append(Elem("table", line))
            continue
        m = STEP_RE.match(text)
        if m and is_title_like(m.group("title"), 8) and int(m.group("num")) <= 20:
            elems.append(Elem("step", line, label=m.group("title"), num=int(m.group("num"))))
            continue
        if line.kind == HEADING or (line.block.is_bold and is_caps(text) and is_title_like(text, 10)):
            if not re.search(r":\s*\S", text):
                elems.append(Elem("heading", line, label=text.rstrip(":")))
                continue
        ri = runin(line)
        if ri:
            elems.append(Elem("runin", line, label=ri[0], rest=ri[1]))
        elif line.kind == LIST_ITEM:
            elems.append(Elem("item", line))
        else:
            elems.append(Elem("para", line))
    return elems


class OutlineParser:
    """Walks classified outline lines once, keeping the heading stack and the rules being built."""

    def __init__(self, elems: list[Elem], ctx: ParseContext):
        self.elems = elems
        self.ctx = ctx
        self.stack: list[Node] = []
        self.current: Builder | None = None
        self.builders: list[Builder] = []
        self.junk_mode = False
        self.copy_mode = False
        self.seen_top: set[str] = set()
        self.after_table = False
        self.prev_kind = ""
        self.list_footnotes: list[Builder] = []

    # ------------------------------------------------------------ helpers
    def _next(self, i: int) -> Elem | None:
        for e in self.elems[i + 1:]:
            if e.kind != "junk":
                return e
        return None

    def _titles(self, nodes: Sequence[Node]) -> tuple[str, ...]:
        return tuple(rule_name(n.title)[0] for n in nodes)

    def _open(self, title: str, section: tuple[str, ...], line: Line, kind: str, step=None) -> Builder:
        name, _ = rule_name(title.rstrip("*#").strip().rstrip("#").strip())
        b = Builder(name=name, section=section, line=line, step=step, kind=kind, copy=self.copy_mode,
                    starred=title.rstrip().endswith("*"))
        self.builders.append(b)
        self.current = b
        return b

    def _top_name(self, title: str) -> None:
        key = rule_name(title)[0].casefold()
        self.copy_mode = key in self.seen_top
        self.seen_top.add(key)

    def _last_step(self, i: int) -> bool:
        for e in self.elems[i + 1:]:
            if e.kind == "step":
                return False
            if e.kind in ("heading", "gap"):
                return True
        return True

    def _runin_ahead(self, i: int) -> bool:
        """Whether another run-in comes before the next heading, step or gap."""
        for e in self.elems[i + 1:]:
            if e.kind == "runin":
                return True
            if e.kind in ("heading", "step", "gap"):
                return False
        return False

    # ------------------------------------------------------------ walk
    def run(self) -> list[Builder]:
        """Every rule builder the outline holds, in document order (copies flagged, not dropped)."""
        for i, e in enumerate(self.elems):
            if e.kind == "junk":
                continue
            if e.kind == "heading" and (is_furniture(e.label) or not plausible_name(rule_name(e.label)[0])):
                # Furniture or garbage (a contents line, a sentence set as a heading): skip it
                # and what it heads.
                self.junk_mode, self.current = True, None
                continue
            if self.junk_mode and e.kind not in ("heading", "gap"):
                continue
            getattr(self, f"_on_{e.kind}")(i, e)
            if e.kind not in ("table",):
                self.after_table = False
            self.prev_kind = e.kind
        return self.builders

    def _on_gap(self, i: int, e: Elem) -> None:
        self.current, self.stack, self.junk_mode = None, [], False
        self.after_table = True

    def _on_table(self, i: int, e: Elem) -> None:
        self.after_table = True

    def _on_heading(self, i: int, e: Elem) -> None:
        self.junk_mode = False
        nxt = self._next(i)
        has_body = nxt is not None and nxt.kind in ("para", "item")
        title = e.label
        self.current = None
        phase = self.stack[0] if self.stack and self.stack[0].kind == "phase" and not self.after_table else None
        if re.search(r"\bPHASE\b", title, re.I):
            self._top_name(title)
            node = Node(title, "phase", has_body=has_body)
            self.stack = [node]
            if has_body:
                node.builder = self._open(title, (), e.line, "heading")
            return
        if not has_body and (nxt is None or nxt.kind in ("table", "gap")):
            self.stack = []
            return
        if not has_body and nxt.kind == "step":
            if phase is not None and not phase.child_step and not phase.has_body:
                self.stack = [phase, Node(title, "container")]
            else:
                self._top_name(title)
                self.stack = [Node(title, "container")]
            return
        if not has_body and nxt.kind == "heading":
            self._top_name(title)
            self.stack = [Node(title, "container")]
            return
        if not has_body:  # run-ins or bullets follow: a glossary list
            if phase is not None:
                self.stack = [phase, Node(title, "list")]
            else:
                self._top_name(title)
                self.stack = [Node(title, "list")]
            return
        base = [phase] if phase is not None and not phase.has_body else []
        if not base:
            self._top_name(title)
        node = Node(title, "rule", has_body=True)
        node.builder = self._open(title, self._titles(base), e.line, "heading")
        self.stack = base + [node]

    def _on_step(self, i: int, e: Elem) -> None:
        while self.stack and self.stack[-1].kind in ("rule", "list", "step"):
            self.stack.pop()
        if len(self.stack) == 1 and self.stack[0].kind == "phase":
            self.stack[0].child_step = True
        node = Node(e.label, "step", last=self._last_step(i))
        node.builder = self._open(e.label, self._titles(self.stack), e.line, "step", step=e.num)
        self.stack.append(node)

    def _on_runin(self, i: int, e: Elem) -> None:
        style = _style(e.label, e.line)
        top = self.stack[-1] if self.stack else None
        if top is not None and top.kind == "list":
            if top.style is None:
                top.style = style
            elif top.style[0] != style[0]:
                return self._body(i, e)
            elif top.style[1] and style[1] and top.style[2] != style[2]:
                self.stack.pop()  # a plain run-in after bold list entries: back to the owner
                top = self.stack[-1] if self.stack else None
            else:
                return self._open_runin(e, self._titles(self.stack), top)
        if self.current is not None and self.current.intro:
            return self._body(i, e)
        if top is None:
            if style[0] != "caps" and not style[2]:
                return self._body(i, e)
            return self._open_runin(e, (), None)
        if top.kind == "step" and top.last:
            return self._open_runin(e, self._titles(self.stack[:-1]), top)
        if top.kind == "container" and style[0] != "caps" and not style[2]:
            return self._body(i, e)
        return self._open_runin(e, self._titles(self.stack), top)

    def _open_runin(self, e: Elem, section, owner: Node | None) -> None:
        b = self._open(e.label, section, e.line, "runin")
        b.owner = owner
        if e.rest:
            b.add(e.rest)

    def _on_item(self, i: int, e: Elem) -> None:
        text = e.line.text.strip()
        top = self.stack[-1] if self.stack else None
        if text.startswith("*") and top is not None and top.kind == "list":
            note = text.lstrip("*").strip()
            for b in self.builders:
                if b.starred and b.owner is top:
                    b.footnote = note
            return
        self._body(i, e)

    def _on_para(self, i: int, e: Elem) -> None:
        self._body(i, e)

    def _body(self, i: int, e: Elem) -> None:
        b = self.current
        if b is None:
            return
        text = e.line.text.strip()
        if e.kind == "runin" or e.line.kind == LIST_ITEM:
            text = f"{e.label}: {e.rest}" if e.kind == "runin" and e.line.kind != LIST_ITEM else text
        continuation = bool(b.parts) and not ends_sentence(b.parts[-1])
        if (b.kind == "runin" and not continuation and e.kind == "para" and b.owner is not None
                and b.owner.builder is not None and not b.intro and not self._runin_ahead(i)):
            b = b.owner.builder  # text after the last run-in goes back to the heading it sits under
            self.current = b
        if not b.parts and b.fluff is None and e.kind == "para" and e.line.block.is_italic \
                and b.kind in ("heading", "step"):
            b.fluff = text  # an italic flavour line under the title, kept out of the rules text
            return
        if not b.parts and b.fluff is None and e.kind == "para" and b.kind in ("heading", "step") \
                and e.line.block.italic_prefix() and (found := flavour_of(e.line.block)) is not None:
            b.fluff, text = found  # the flavour line joined to the rules text after it
        if e.line.kind == LIST_ITEM and b.kind != "runin" or (e.line.kind == LIST_ITEM and b.intro):
            text = f"- {text}"
        b.add(text, item=e.kind == "runin" or e.line.kind == LIST_ITEM)


def parse_outline(lines: Sequence[Line], ctx: ParseContext) -> list[Rule]:
    """Rule records of an outline-shaped document (see the module docstring)."""
    faction = document_faction(ctx.doc)
    parser = OutlineParser(classify(lines), ctx)
    builders = parser.run()
    records: list[Rule] = []
    index: dict[tuple, int] = {}
    roots = chapter_headings(lines)
    heading_path = HeadingPaths(lines)
    recap: set[int] = set()  # lines of recap boxes: a "Label: text" bullet there is no rule
    summaries = {id(b): laid_out_entry(b, lines, roots, recap) for b in builders} if roots else {}
    for b in builders:
        summary: tuple[str, ...] = ()
        if roots:
            b.section, summary = summaries[id(b)]
            if b.kind == "runin" and b.line.index in recap:
                continue
        text = "\n".join(b.parts).strip()
        if any(is_furniture(p) for p in b.parts):
            continue
        if not plausible_name(b.name):
            continue
        words = len(re.findall(r"[A-Za-z]{2,}", text))
        if (b.kind == "heading" and words < 3) or (b.kind == "runin" and words < 1):
            continue
        if b.kind == "heading" and len(b.parts) == 1 and text.endswith(":") and words < 20:
            # Only a lead-in whose list the page lost ("can be led by the following units:").
            continue
        record = Rule(name=b.name, source=ctx.source(b.line.block.page), edition=ctx.edition,
                      section=b.section or heading_path(b.line.index),  # HTML: the page's levels
                      text=text, step=b.step, footnote=b.footnote, fluff=b.fluff,
                      faction=faction if ARMY_RULE.search(text) else None, summary=summary)
        key = (b.name.casefold(), tuple(s.casefold() for s in b.section))
        if b.copy:
            # A reference copy: only a clearly fuller text of a rule already read counts (a
            # copy reworded to the same length leaves the first printing in place).
            if key in index and len(text) > 1.2 * len(records[index[key]].text):
                records[index[key]] = record
            continue
        if key in index:
            if len(text) > len(records[index[key]].text):
                records[index[key]] = record
            continue
        index[key] = len(records)
        records.append(record)
        ctx.claim([b.line.index])
    return records
