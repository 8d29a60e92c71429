"""Characters and fragments for the PDF loader: pdfplumber glyphs -> styled runs on baselines.

A *fragment* is a run of characters on one baseline with no wide horizontal gap inside (a line
of a paragraph inside one column, a table cell, a title). `pdf_columns` orders fragments into
columns and lines; `Line` is defined here because tables and blocks share it.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass

# Glyphs that start a bulleted list item when they open a line.
BULLETS = "•▪●■◆◦‣∙·➢►–-"
_NORMALISE = str.maketrans({"\u2011": "-", "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\ufb01": "fi",
                            "\ufb02": "fl", "\u00ad": "\u00ad"})


class Char:
    """One glyph with the style the loader cares about (slots: pdfplumber dicts are slow to read)."""

    __slots__ = ("text", "x0", "x1", "top", "bottom", "size", "bold", "italic", "color", "angle")

    def __init__(self, text, x0, x1, top, bottom, size, bold, italic, color, angle=0):
        self.text, self.x0, self.x1, self.top, self.bottom = text, x0, x1, top, bottom
        self.size, self.bold, self.italic, self.color = size, bold, italic, color
        # Whole degrees of the baseline's tilt: a card set at an angle is turned level (see
        # _unrotated), and its positions then live in a frame of their own.
        self.angle = angle


_font_cache: dict[str, tuple[bool, bool]] = {}


def font_style(fontname: str) -> tuple[bool, bool]:
    """(bold, italic) from a PDF font name such as "ABCDEF+DejaVuSans-BoldOblique"."""
    hit = _font_cache.get(fontname)
    if hit is None:
        base = fontname.split("+", 1)[-1].lower()
        bold = any(w in base for w in ("bold", "black", "heavy", "semibold", "demi"))
        # "MinionPro-It", "Garamond-BoldIt": the short style suffix after the dash counts too.
        style = base.rsplit("-", 1)[-1] if "-" in base else ""
        italic = "italic" in base or "oblique" in base or style.endswith("it")
        hit = _font_cache[fontname] = (bold, italic)
    return hit


_color_cache: dict = {}


def color_hex(color) -> str | None:
    """A PDF fill colour (gray, RGB or CMYK tuple) as "#rrggbb", or None for black/near-black."""
    key = color if isinstance(color, (tuple, type(None))) else tuple(color) if isinstance(color, list) else str(color)
    if key in _color_cache:
        return _color_cache[key]
    out = None
    try:
        comps = [float(c) for c in (color or ())]
        if len(comps) == 1:
            r = g = b = comps[0]
        elif len(comps) == 3:
            r, g, b = comps
        elif len(comps) == 4:
            c, m, y, k = comps
            r, g, b = (1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)
        else:
            r = g = b = 0.0
        if max(r, g, b) > 0.16:  # anything visibly lighter than black carries meaning (errata colours)
            out = "#%02x%02x%02x" % tuple(max(0, min(255, round(v * 255))) for v in (r, g, b))
    except (TypeError, ValueError):
        out = None
    _color_cache[key] = out
    return out


def page_chars(raw_chars: list[dict], width: float, height: float) -> list[Char]:
    """Convert pdfplumber char dicts, dropping rotated glyphs and those off the page; spaces are kept.

    A glyph the font maps to no character ("\ufffd") is read as a full stop when that font
    prints it, on this page, only where a full stop goes (right after a word or a closing
    bracket); otherwise it is kept, for the parsers to flag.
    """
    stops = _unmapped_stops(raw_chars)
    shared: dict[float, float] = {}
    out = []
    kept: list[dict] = []  # the raw glyph behind each char of `out`
    off = None  # the last glyph dropped off the page
    for n, c in enumerate(raw_chars):
        text = c["text"]
        if n in stops:
            text = "."
        if not text or not c.get("upright", True):
            continue
        if c["x1"] <= 0 or c["x0"] >= width or c["bottom"] <= 0 or c["top"] >= height:
            # Printer's slug or text pushed off the visible page. A word the page edge cuts
            # ("em" of "system", a card mostly off the page) is dropped whole: its visible end
            # alone is no word.
            nxt = c
            while out and not out[-1].text.isspace() and _same_word(kept[-1], nxt):
                out.pop()
                nxt = kept.pop()
            off = c
            continue
        if off is not None and not text.isspace() and _same_word(off, c):
            off = c
            continue
        off = None
        size = c["size"] or (c["bottom"] - c["top"])
        if size <= 0.5:
            continue
        bold, italic = font_style(c.get("fontname") or "")
        text = text.translate(_NORMALISE)
        if len(text) == 1 and ord(text) < 32:
            text = " "  # some subset fonts map the word space to a control code
        x0, x1, top, bottom = c["x0"], c["x1"], c["top"], c["bottom"]
        matrix = c.get("matrix")
        angle = 0
        if matrix and abs(matrix[1]) > 0.01 * abs(matrix[0]) and matrix[0] > 0:
            x0, x1, top, bottom = _unrotated(matrix, c.get("adv"), size, height)
            angle = round(math.degrees(math.atan2(matrix[1], matrix[0])))
        dup = False
        for prev in out[-3:]:
            # The same glyph printed again a hair to the side: a fake-bold or shadow overprint.
            if prev.text == text and abs(prev.x0 - x0) < 0.35 * max(prev.x1 - prev.x0, 1.0) \
                    and abs(prev.top - top) < 1.0 and not text.isspace():
                prev.bold = True
                dup = True
                break
        if dup:
            continue
        # The glyphs of one line share their top, bottom and size: one float object each
        # (a dense page holds thousands of glyphs, kept until the whole file is laid out).
        top, bottom, size = shared.setdefault(top, top), shared.setdefault(bottom, bottom), shared.setdefault(size, size)
        out.append(Char(sys.intern(text) if len(text) == 1 else text, x0, x1, top, bottom, size, bold, italic,
                        color_hex(c.get("non_stroking_color")), angle))
        kept.append(c)
    return out


def _same_word(a: dict, b: dict) -> bool:
    """Whether raw glyph b follows raw glyph a inside one word (same baseline, no gap)."""
    size = max(a.get("size") or 0.0, b.get("size") or 0.0, 1.0)
    return abs(a["bottom"] - b["bottom"]) < 0.3 * size and -0.5 * size <= b["x0"] - a["x1"] <= 0.15 * size


def _unmapped_stops(raw_chars: list[dict]) -> set[int]:
    """Indexes of "\ufffd" glyphs that stand for a full stop (see page_chars)."""
    by_font: dict[str, list[tuple[int, bool]]] = {}
    for n, c in enumerate(raw_chars):
        if c.get("text") != "\ufffd":
            continue
        prev = raw_chars[n - 1] if n > 0 else None
        last = (prev.get("text") or " ")[-1:] if prev is not None else " "
        # Punctuation closes a word ("attacks.", "(pg 19).", "e.g."); a dice face or a
        # symbol stands alone after a space.
        after_word = prev is not None and (last.isalnum() or last in ")]'’\"”") and abs(prev["top"] - c["top"]) < 1
        by_font.setdefault(c.get("fontname") or "", []).append((n, after_word))
    stops: set[int] = set()
    for marks in by_font.values():
        if len(marks) >= 2 and sum(ok for _, ok in marks) >= 0.9 * len(marks):
            stops.update(n for n, _ in marks)
    return stops


def _unrotated(matrix, adv: float, size: float, height: float) -> tuple[float, float, float, float]:
    """Box of a glyph on a slightly tilted baseline (a card set at an angle), turned level.

    The glyph origin is rotated back by the baseline's angle, so the lines of a tilted block
    keep one baseline each instead of drifting into their neighbours.
    """
    a, b, e, f = matrix[0], matrix[1], matrix[4], matrix[5]
    angle = math.atan2(b, a)
    # pdfminer gives the advance in text space; the matrix carries the font scale.
    adv = (adv or 0.5) * math.hypot(a, b)
    cos, sin = math.cos(angle), math.sin(angle)
    x = e * cos + f * sin
    y = -e * sin + f * cos
    bottom = height - (y - 0.2 * size)
    return x, x + adv, bottom - size, bottom


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
    layer: int = 0  # which frame of the page it was set in (see split_layers)

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
            # The gap is measured against the type on either side of it: a small rule number
            # ending a large heading does not lend the heading's size to the gap after it.
            edge = max((c for c in cur.chars if not c.text.isspace()), key=lambda c: c.x1, default=None)
            start = min((c for c in f.chars if not c.text.isspace()), key=lambda c: c.x0, default=None)
            near = max(edge.size if edge else cur.size, start.size if start else f.size)
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


def split_layers(chars: list[Char]) -> list[list[Char]]:
    """The page's characters by the frame they are set in, in the order the frames first appear.

    A card tilted by a few degrees is turned level about the page's origin, which moves it: its
    lines can land level with, and across, text printed straight (a caption under the card,
    a card hidden beneath another). Positions of two frames cannot be compared, so each frame
    of some length is laid out on its own; a few tilted glyphs (a badge, a stamp) stay with the
    straight text, as before.
    """
    frames: dict[int, list[Char]] = {}
    for c in chars:
        frames.setdefault(c.angle, []).append(c)
    if len(frames) < 2:
        return [chars]
    long = [a for a, cs in frames.items() if sum(1 for c in cs if not c.text.isspace()) >= _LAYER_MIN]
    if len(long) < 2:
        return [chars]
    main = max(long, key=lambda a: len(frames[a]))
    layers: dict[int, list[Char]] = {}
    for c in chars:  # stream order; a short frame joins the largest one
        layers.setdefault(c.angle if c.angle in long else main, []).append(c)
    return list(layers.values())


# Glyphs a frame needs before it is read as a layer of its own (a few lines of a card).
_LAYER_MIN = 40


@dataclass
class Line:
    """Fragments of one column that share a baseline, left to right."""

    frags: list[Fragment]
    page: int
    column: int
    col_x0: float = 0.0
    col_x1: float = 0.0
    marker: str | None = None  # a bullet glyph that opened the line

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
