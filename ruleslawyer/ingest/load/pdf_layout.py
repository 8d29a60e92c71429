"""Characters and fragments for the PDF loader: glyphs (`pdf_glyphs` reads them) -> styled runs
on baselines.

A *fragment* is a run of characters on one baseline with no wide horizontal gap inside (a line
of a paragraph inside one column, a table cell, a title). `pdf_columns` orders fragments into
columns and lines; `Line` is defined here because tables and blocks share it.
"""
from __future__ import annotations

from dataclasses import dataclass

# Glyphs that start a bulleted list item when they open a line.
BULLETS = "•▪●■◆◦‣∙·➢►–-"


class Char:
    """One glyph with the style the loader cares about (slots: pdfplumber dicts are slow to read)."""

    __slots__ = ("text", "x0", "x1", "top", "bottom", "size", "bold", "italic", "color", "angle")

    def __init__(self, text, x0, x1, top, bottom, size, bold, italic, color, angle=0):
        self.text, self.x0, self.x1, self.top, self.bottom = text, x0, x1, top, bottom
        self.size, self.bold, self.italic, self.color = size, bold, italic, color
        # Whole degrees of the baseline's tilt: a card set at an angle is turned level (see
        # _unrotated), and its positions then live in a frame of their own.
        self.angle = angle


@dataclass
class Fragment:
    """Characters on one baseline without a wide gap: a line of text within one column, or a cell."""

    chars: list[Char]
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    table: object = None  # a RuledTable standing in this place instead of text
    layer: int = 0  # which frame of the page it was set in (see pdf_glyphs.split_layers)

    _text: str | None = None

    @property
    def text(self) -> str:
        # Read many times while blocks are built; the characters no longer change by then.
        if self._text is None:
            self._text = chars_text(self.chars)
        return self._text

    @property
    def mid(self) -> float:
        return (self.top + self.bottom) / 2


def chars_text(chars: list[Char]) -> str:
    """Plain text of characters in order, with spaces where the PDF has them or a gap implies one."""
    return "".join(t for t, _ in _spaced(chars))


def _spaced(chars: list[Char]):
    """Yield (text, char) pairs, inserting " " (paired with the previous char) at word gaps.

    A space glyph in the PDF always counts. Without one, a gap counts when it is clearly wider
    than the text's own letter spacing, so tracked-out titles do not fall apart into letters.
    """
    gaps = sorted(b.x0 - a.x1 for a, b in zip(chars, chars[1:]) if not a.text.isspace() and not b.text.isspace())
    tracking = max(0.0, gaps[len(gaps) // 2]) if len(gaps) >= 4 else 0.0
    prev = None
    pending_space = False
    for c in chars:
        if c.text.isspace():
            pending_space = prev is not None
            continue
        if prev is not None:
            gap = c.x0 - prev.x1
            if pending_space or gap > tracking + 0.2 * min(c.size, prev.size):
                yield " ", prev
        yield c.text, c
        prev = c
        pending_space = False


def styled_runs(chars: list[Char]):
    """Yield (text, bold, italic, color) runs of one style; a space takes the style of the char before."""
    buf: list[str] = []
    style = None
    for text, c in _spaced(chars):
        st = (c.bold, c.italic, c.color)
        if text == " ":
            buf.append(" ")
            continue
        if style is not None and st != style:
            yield "".join(buf), *style
            buf = []
        style = st
        buf.append(text)
    if buf and style is not None:
        yield "".join(buf), *style


def build_fragments(chars: list[Char]) -> list[Fragment]:
    """Group characters into fragments: same baseline, horizontal gaps under about one em."""
    if not chars:
        return []
    # Stream order first (it keeps lines of different columns apart even when their baselines
    # nearly agree), then merge pieces the stream split but geometry joins.
    runs: list[list[Char]] = []
    cur: list[Char] = []
    last = None
    for c in chars:
        if last is not None:
            tol = 0.35 * min(c.size, last.size)
            gap = c.x0 - last.x1
            same_line = abs(c.bottom - last.bottom) <= tol or (
                c.text.isspace() or last.text.isspace()) and abs(c.top - last.top) <= 2 * tol
            if not (same_line and -0.5 * c.size <= gap <= 1.0 * max(c.size, last.size)):
                runs.append(cur)
                cur = []
        cur.append(c)
        last = c
    if cur:
        runs.append(cur)
    frags = []
    for run in runs:
        # Edge spaces carry no information and would stretch the fragment.
        while run and run[-1].text.isspace():
            run.pop()
        while run and run[0].text.isspace():
            run.pop(0)
        if run:
            frags.append(_fragment(run))
    return _merge_fragments(frags)


def _fragment(chars: list[Char]) -> Fragment:
    sizes: dict[float, int] = {}
    ink = [c for c in chars if not c.text.isspace()] or chars
    # The size of the words, not of a rule number set small after them ("DICE 01.05").
    letters = [c for c in ink if c.text.isalpha()] or ink
    for c in letters:
        s = round(c.size, 1)
        sizes[s] = sizes.get(s, 0) + 1
    size = max(sizes, key=sizes.get)
    return Fragment(chars, min(c.x0 for c in ink), max(c.x1 for c in ink), min(c.top for c in ink),
                    max(c.bottom for c in ink), size)


def _merge_fragments(frags: list[Fragment]) -> list[Fragment]:
    """Join fragments that sit on one baseline and touch (a stream that jumps back and forth,
    or a word set in another font a hair off the baseline)."""
    frags.sort(key=lambda f: f.bottom)
    groups: list[list[Fragment]] = []
    for f in frags:
        if groups and abs(f.bottom - groups[-1][0].bottom) <= 0.35 * min(f.size, groups[-1][0].size):
            groups[-1].append(f)
        else:
            groups.append([f])
    out: list[Fragment] = []
    for group in groups:
        group.sort(key=lambda f: f.x0)
        cur = group[0]
        for f in group[1:]:
            # The gap is measured against the smaller type on either side of it: a small rule
            # number ending a large heading does not lend the heading's size to the gap after it,
            # nor does a large heading starting the next column lend it to the gap before it
            # ("1 model ..... 85 pts" and "DETACHMENT ENHANCEMENTS" one gutter apart).
            edge = max((c for c in cur.chars if not c.text.isspace()), key=lambda c: c.x1, default=None)
            start = min((c for c in f.chars if not c.text.isspace()), key=lambda c: c.x0, default=None)
            near = min(edge.size if edge else cur.size, start.size if start else f.size)
            if f.x0 - cur.x1 <= 1.0 * near:
                cur.chars.extend(f.chars)
                cur.x1 = max(cur.x1, f.x1)
                cur.top, cur.bottom = min(cur.top, f.top), max(cur.bottom, f.bottom)
            else:
                out.append(cur)
                cur = f
        out.append(cur)
    # Left to right by each glyph's middle, not its left edge: a space glyph drawn overlapping
    # the next letter ("KEYWORDS: " then "INFANTRY" in another font) starts right of that
    # letter's left edge, and sorting by x0 made it "I NFANTRY".
    for f in out:
        f.chars.sort(key=lambda c: c.x0 + c.x1)
    return out


@dataclass
class Line:
    """Fragments of one column that share a baseline, left to right."""

    frags: list[Fragment]
    page: int
    column: int
    col_x0: float = 0.0
    col_x1: float = 0.0
    marker: str | None = None  # a bullet glyph that opened the line
    frame_x1: float | None = None  # right edge of a narrow frame (a sidebar) inside the column

    @property
    def top(self) -> float:
        return min(f.top for f in self.frags)

    @property
    def bottom(self) -> float:
        return max(f.bottom for f in self.frags)

    @property
    def x0(self) -> float:
        return self.frags[0].x0

    @property
    def x1(self) -> float:
        return self.frags[-1].x1

    @property
    def size(self) -> float:
        return max(self.frags, key=lambda f: len(f.chars)).size

    @property
    def chars(self) -> list[Char]:
        return [c for f in self.frags for c in f.chars]

    @property
    def text(self) -> str:
        return " ".join(f.text for f in self.frags)
