"""Helpers of the HTML walk that look at one element or one finished table: emptiness,
Wahapedia's badge and points markup, table rows (layout tables, echoed rows, empty columns),
span tidying and link lists."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from . import html_classes as hc
from .html_tree import Element, descendants, has_descendant, text_of
from ..document import TABLE, Block, Span


@dataclass
class Page:
    """Facts about the whole page the walk needs: popup ids, CSS-styled classes, counters."""

    tooltip_ids: frozenset[str]
    css_bold: frozenset[str] = frozenset()
    css_italic: frozenset[str] = frozenset()
    counters: dict | None = None
    warnings: list | None = None
    tree: Any = None  # the html_stream.Stream the page is parsed by
    attrs_seen: dict | None = None
    # Per-page caches of the walk: element verdicts by (tag, class attribute), and the
    # shared attrs of a paragraph by what they are made of (see `Blocks._emit_text`).
    kinds: dict = field(default_factory=dict)
    block_attrs: dict = field(default_factory=dict)

    def kind(self, tag: str, attr: str | None) -> "hc.ElementKind":
        """The verdicts on an element with this tag and class attribute (kept per page)."""
        kind = self.kinds.get((tag, attr))
        if kind is None:
            kind = self.kinds[(tag, attr)] = hc.ElementKind(tag, attr, self.css_bold, self.css_italic)
        return kind

    def shared_attrs(self, attrs: dict[str, str]) -> dict[str, str]:
        """One dict per distinct block attrs (same items in the same order)."""
        if self.attrs_seen is None:
            self.attrs_seen = {}
        return self.attrs_seen.setdefault(tuple(attrs.items()), attrs)

    def warn(self, message: str) -> None:
        """Note something the page could not give (kept once per message)."""
        if self.warnings is None:
            self.warnings = []
        if message not in self.warnings:
            self.warnings.append(message)

    def next_id(self, name: str) -> str:
        if self.counters is None:
            self.counters = {}
        self.counters[name] = self.counters.get(name, 0) + 1
        return f"{name}:{self.counters[name]}"


_WS = re.compile(r"[\s\u00a0\u2009\u202f\u200b]+")


def is_points_list(el: Element) -> bool:
    if el.tag not in ("ul", "ol"):
        return False
    return any(t in ("pts", "points") for c in (el.get("class") or "").split() for t in hc.tokens(c))


def is_weapon_keyword(el: Element) -> bool:
    classes = hc.class_names(el)
    if "kwb2" not in classes:
        return False
    text = text_of(el)
    return "[" not in text and bool(text.strip())


_DIE_PATH = re.compile(r"dice|(?<![a-z])die(?![a-z])|(?<![a-z])d6(?![0-9])", re.I)
# A die face in an image's file name: "dice-4", "d6_5", "die3", or the face alone ("3", "d4":
# a file named after one face, as Wahapedia's d2.png ... d6.png are).
_DIE_FILE = re.compile(r"(?:^|[^a-z])(?:dice|die|d6|roll)[-_ ]?([1-6])(?![0-9])|^d?([1-6])$", re.I)
_DIE_PLUS = re.compile(r"(?<![\w.])([1-6]) \+(?=\s|$)")  # "4 +" when the die and its "+" are two boxes


def image_value(el: Element) -> str | None:
    """The value an image stands for: its alt text or title when short, else a die face in its
    file name ("dice-4.png", "d6_5.svg", "3.png")."""
    for attr in ("alt", "title", "aria-label"):
        text = clean(el.get(attr) or "")
        if text and len(text) <= 24:
            return text
    src = (el.get("src") or el.get("data-src") or "").rsplit("/", 1)[-1].split("?")[0]
    stem = src.rsplit(".", 1)[0]
    m = _DIE_FILE.search(stem)
    return (m.group(1) or m.group(2)) if m else None


def is_die_image(el: Element) -> bool:
    """Whether an image's file name or class says it draws a die."""
    return bool(_DIE_PATH.search(el.get("src") or el.get("class") or ""))


def join_die_plus(text: str) -> str:
    """A cell's die value and its "+" printed in two boxes ("4 +") joined back: "4+"."""
    return _DIE_PLUS.sub(r"\1+", text) if "+" in text else text


def is_link_block(block: Block) -> bool:
    spans = [s for s in block.spans if s.text.strip()]
    return bool(spans) and all(s.link and not s.link.startswith("#") for s in spans)


def drop_link_runs(blocks: list[Block], min_links: int = 8) -> list[Block]:
    """Drop lists of links (datasheet indexes, menus) from a popup: a run of at least
    `min_links` link-only blocks, with short labels ("Characters", "Battleline") between them.
    A popup left with no sentence of its own (a menu with a title) is dropped whole."""
    out: list[Block] = []
    dropped = False
    i = 0
    while i < len(blocks):
        j, links = i, 0
        while j < len(blocks) and blocks[j].kind != TABLE and (
                is_link_block(blocks[j]) or len(blocks[j].text.split()) <= 3):
            links += is_link_block(blocks[j])
            j += 1
        if links >= min_links:
            dropped = True
            i = j
            continue
        out.extend(blocks[i:max(j, i + 1)])
        i = max(j, i + 1)
    menu_like = dropped or any(is_link_block(b) for b in out)
    if menu_like and not any(b.kind == TABLE or len(b.text.split()) >= 5 for b in out):
        return []
    return out


def collapse_space(text: str) -> str:
    """Each run of white space (and zero-width spaces) as one space: `_WS.sub(" ", text)`,
    done by `str.split`, several times faster (the walk does it to every text of a page)."""
    if "\u200b" in text:  # the one character of _WS that str.split does not split at
        return _WS.sub(" ", text)
    parts = text.split()
    if not parts:
        return " " if text else ""
    out = " ".join(parts)
    if text[0].isspace():
        out = " " + out
    if text[-1].isspace():
        out += " "
    return out


def clean(text: str) -> str:
    """`collapse_space` with the ends stripped."""
    return collapse_space(text).strip()


def tidy(runs: list[tuple[str, tuple[bool, bool, str | None]]]) -> list[Span]:
    """Spans of a paragraph from its runs of (text, (bold, italic, link)): same-style
    neighbours merged, spaces collapsed across span edges, the block ends stripped."""
    n = len(runs)
    if n == 1:  # (the runs hold no white space but single spaces, and do not start blank)
        text, (bold, italic, link) = runs[0]
        text = text.strip(" ")
        return [Span(text, bold, italic, None, link)] if text else []
    out: list[tuple[str, tuple]] = []
    prev_space = True
    i = 0
    while i < n:
        text, style = runs[i]
        i += 1
        if i < n and runs[i][1] == style:
            parts = [text]
            while i < n and runs[i][1] == style:
                parts.append(runs[i][0])
                i += 1
            text = "".join(parts)
        if prev_space:
            text = text.lstrip(" ")
            if not text:
                continue
        prev_space = text[-1] == " "
        out.append((text, style))
    while out and not out[-1][0].strip():
        out.pop()
    if out:
        out[-1] = (out[-1][0].rstrip(), out[-1][1])
    return [Span(text, bold, italic, None, link) for text, (bold, italic, link) in out]


def own_rows(table: Element) -> list[Element]:
    """The table's rows, not those of tables nested in its cells."""
    rows = []
    for part in table:
        tag = part.tag
        if tag == "tr":
            rows.append(part)
        elif tag in ("thead", "tbody", "tfoot"):
            rows.extend(r for r in part if r.tag == "tr")
    return rows


def cells_of(tr: Element) -> list[Element]:
    """A row's td and th cells."""
    return [c for c in tr if c.tag in ("td", "th")]


_LAYOUT_INSIDE = frozenset({"table", "p", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote"})


def is_layout_table(table: Element, rows: list[Element], cells: list[list[Element]] | None = None) -> bool:
    """A table used to lay out prose (paragraphs, lists, nested tables) rather than data.
    `cells`: each row's `cells_of`, when the caller has them."""
    if not rows:
        return True
    for row in (cells if cells is not None else map(cells_of, rows)):
        for cell in row:
            if not len(cell):  # text alone (most cells)
                if len((cell.text or "").strip()) > 400:
                    return True
                continue
            if has_descendant(cell, _LAYOUT_INSIDE):
                return True
            if len(text_of(cell, " ", strip=True)) > 400:
                return True
    return False


def is_header_cell(cell: Element) -> bool:
    if cell.tag == "th":
        return True
    if _header_class(cell.get("class") or ""):
        return True
    return len(cell) > 0 and any(_header_class(d.get("class") or "") for d in descendants(cell))


def is_header_row(cells: list[Element]) -> bool:
    """Whether every cell of a row is a header cell (`is_header_cell`) or holds no text."""
    for c in cells:
        if c.tag == "th":
            continue
        if len(c):
            if is_header_cell(c) or not text_of(c).strip():
                continue
            return False
        attr = c.get("class")  # text alone: `is_header_cell` and `text_of` made short
        if attr and _header_class(attr):
            continue
        text = c.text
        if text and text.strip():
            return False
    return True


@lru_cache(maxsize=8192)
def _header_class(attr: str) -> bool:
    return any(c.lower() == "dsheader" or hc.tokens(c)[-1:] == ["header"] for c in attr.split())


def drop_echo_rows(rows: list[list[str]], header_rows: list[int]) -> tuple[list[list[str]], list[int]]:
    """Drop one-cell rows that repeat the name of a neighbouring row.

    Responsive pages print each weapon name twice: once alone on a narrow-screen row, once in
    the full profile row; only the full row is data.
    """
    keep: list[int] = []
    for i, row in enumerate(rows):
        filled = [c for c in row if c]
        if len(filled) == 1 and i not in header_rows:
            neighbours = [rows[j] for j in (i - 1, i + 1) if 0 <= j < len(rows)]
            if any(len([c for c in n if c]) > 1 and next(c for c in n if c) == filled[0] for n in neighbours):
                continue
        keep.append(i)
    new_headers = [keep.index(i) for i in header_rows if i in keep]
    return [rows[i] for i in keep], new_headers


def drop_empty_columns(rows: list[list[str]]) -> list[list[str]]:
    if not rows:
        return rows
    width = max(map(len, rows))
    if any(len(r) == width and all(r) for r in rows):
        return rows  # a full row: every column has a cell with text
    cols = [j for j in range(width) if any(j < len(r) and r[j] for r in rows)]
    # A row cut short by colspans keeps only the kept columns it has.
    return [[r[j] for j in cols if j < len(r)] for r in rows]


def boxes_with_tokens(el: Element, wanted: tuple[str, ...]) -> list[list[list[Element]]]:
    """For each child element of `el` that holds text (a box), and each of the `wanted`
    tokens: the elements inside the box, in document order, one of whose class names ends in
    that token ("dsCharName" ends in "name"). One pass over each box."""
    boxes = []
    for box in el:
        if not isinstance(box.tag, str):
            continue
        found: list[list[Element]] = [[] for _ in wanted]
        text = box.text
        has_text = bool(text and text.strip())
        for d in descendants(box):
            if not has_text:
                text, tail = d.text, d.tail
                has_text = bool((text and text.strip()) or (tail and tail.strip()))
            attr = d.get("class")
            if attr:
                for i in _token_hits(attr, wanted):
                    found[i].append(d)
        if has_text:
            boxes.append(found)
    return boxes


@lru_cache(maxsize=8192)
def _token_hits(attr: str, wanted: tuple[str, ...]) -> tuple[int, ...]:
    """Which of the `wanted` tokens end one of the class names of a class attribute."""
    last = {toks[-1] for toks in map(hc.tokens, attr.split()) if toks}
    return tuple(i for i, token in enumerate(wanted) if token in last)
