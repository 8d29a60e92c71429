"""Page geometry for the PDF loader: characters -> fragments -> columns -> lines in reading order.

A *fragment* is a run of characters on one baseline with no wide horizontal gap inside (a line
of a paragraph inside one column, a table cell, a title). Columns are found per page from the
x-distribution of fragments: a gutter is a vertical strip that almost no fragment covers, with
paragraph-like text on both sides. A fragment that crosses a gutter spans the page (a title)
and cuts the page into horizontal bands; each band is read column by column, left to right.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

# Glyphs that start a bulleted list item when they open a line.
BULLETS = "•▪●■◆◦‣∙·➢►–-"
_NORMALISE = str.maketrans({"\u2011": "-", "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\ufb01": "fi",
                            "\ufb02": "fl", "\u00ad": "\u00ad"})


class Char:
    """One glyph with the style the loader cares about (slots: pdfplumber dicts are slow to read)."""

    __slots__ = ("text", "x0", "x1", "top", "bottom", "size", "bold", "italic", "color")

    def __init__(self, text, x0, x1, top, bottom, size, bold, italic, color):
        self.text, self.x0, self.x1, self.top, self.bottom = text, x0, x1, top, bottom
        self.size, self.bold, self.italic, self.color = size, bold, italic, color


_font_cache: dict[str, tuple[bool, bool]] = {}


def font_style(fontname: str) -> tuple[bool, bool]:
    """(bold, italic) from a PDF font name such as "ABCDEF+DejaVuSans-BoldOblique"."""
    hit = _font_cache.get(fontname)
    if hit is None:
        base = fontname.split("+", 1)[-1].lower()
        bold = any(w in base for w in ("bold", "black", "heavy", "semibold", "demi"))
        italic = "italic" in base or "oblique" in base
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
    """Convert pdfplumber char dicts, dropping rotated glyphs and those off the page; spaces are kept."""
    out = []
    for c in raw_chars:
        text = c["text"]
        if not text or not c.get("upright", True):
            continue
        if c["x1"] <= 0 or c["x0"] >= width or c["bottom"] <= 0 or c["top"] >= height:
            continue  # printer's slug or text pushed off the visible page
        size = c["size"] or (c["bottom"] - c["top"])
        if size <= 0.5:
            continue
        bold, italic = font_style(c.get("fontname") or "")
        text = text.translate(_NORMALISE)
        if len(text) == 1 and ord(text) < 32:
            text = " "  # some subset fonts map the word space to a control code
        x0, top = c["x0"], c["top"]
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
        out.append(Char(text, x0, c["x1"], top, c["bottom"], size, bold, italic,
                        color_hex(c.get("non_stroking_color"))))
    return out


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
    for c in ink:
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
            if f.x0 - cur.x1 <= 1.0 * max(f.size, cur.size):
                cur.chars.extend(f.chars)
                cur.x1 = max(cur.x1, f.x1)
                cur.top, cur.bottom = min(cur.top, f.top), max(cur.bottom, f.bottom)
            else:
                out.append(cur)
                cur = f
        out.append(cur)
    for f in out:
        f.chars.sort(key=lambda c: c.x0)
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


@dataclass
class PageLayout:
    """One page in reading order: its lines (table stand-ins included) and its column count."""

    page: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    columns: int = 1


def find_gutters(frags: list[Fragment], width: float) -> list[tuple[float, float]]:
    """Vertical strips (x0, x1) free of text between columns of paragraph-like text."""
    if len(frags) < 6:
        return []
    tables = [f for f in frags if f.table is not None]
    frags = [f for f in frags if f.table is None] or frags
    n_bins = int(width) + 2
    cover = [0] * n_bins
    for f in frags:
        for x in range(max(0, int(f.x0)), min(n_bins, int(f.x1) + 1)):
            cover[x] += 1
    lo = max(0, int(min(f.x0 for f in frags)) + 1)
    hi = min(n_bins - 1, int(max(f.x1 for f in frags)))
    # A title or a page-wide table crosses every gutter; let a few fragments through.
    limit = max(0, int(0.03 * len(frags)))
    sizes = sorted(f.size for f in frags)
    body = sizes[len(sizes) // 2]
    min_width = max(5.0, 0.8 * body)
    runs = []
    start = None
    for x in range(lo, hi + 1):
        free = cover[x] <= limit
        if free and start is None:
            start = x
        elif not free and start is not None:
            if x - start >= min_width:
                runs.append((float(start), float(x)))
            start = None
    # Drawn tables sit inside columns: they count as column text, not as gutter coverage.
    gutters = []
    for r in runs:
        clean = max(cover[int(r[0]):int(r[1])]) == 0 and r[1] - r[0] >= 1.5 * body
        if _separates_columns(frags + tables, r, clean) and not any(t.x0 < r[0] - 2 and t.x1 > r[1] + 2 for t in tables):
            gutters.append(r)
    return _drop_narrow_columns(gutters, frags, lo, hi)


def _drop_narrow_columns(gutters, frags, lo, hi):
    """A strip of side labels (a cost badge beside a card) is not a column: join it to its left."""
    changed = True
    while changed and gutters:
        changed = False
        edges = [lo] + [g for pair in gutters for g in pair] + [hi]
        for i in range(len(gutters) + 1):
            left, right = edges[2 * i], edges[2 * i + 1]
            if right - left < 0.12 * (hi - lo) and len(gutters) > 0:
                # The column between edges: remove the gutter on its left (or right for the first).
                gutters.pop(i - 1 if i > 0 else 0)
                changed = True
                break
    return gutters


def _separates_columns(frags: list[Fragment], gutter: tuple[float, float], clean: bool = False) -> bool:
    """A strip is a gutter when both sides hold text lines, not just the cells of one table.

    A wide strip that no text crosses at all also parts a table from the prose beside it (a
    datasheet's weapons and its abilities) when the prose side reads as paragraphs.
    """
    g0, g1 = gutter
    left = [f for f in frags if f.x1 <= g0 + 1]
    right = [f for f in frags if f.x0 >= g1 - 1]
    if len(left) < 3 or len(right) < 3:
        return False
    # Short pieces starting right after the strip, each level with a piece before it, are the
    # value cells of a table whose name column ends at the strip, not the start of a column.
    body = sorted(f.size for f in frags)[len(frags) // 2]
    border = [f for f in right if f.x0 <= g1 + 3 * body and f.table is None]
    left_bottoms = sorted(f.bottom for f in left)
    cells = [f for f in border if f.x1 - f.x0 < 2.5 * body and _has_near(left_bottoms, f.bottom, 1.0)]
    if len(border) >= 3 and len(cells) >= 0.6 * len(border):
        return False
    prose = []
    for side in (left, right):
        x0 = min(f.x0 for f in side)
        x1 = max(f.x1 for f in side)
        # Only the side's near neighbourhood of the gutter counts (a 3-column page's middle).
        wide = sum(1 for f in side if f.x1 - f.x0 >= 0.45 * (x1 - x0) or f.x1 - f.x0 >= 120)
        prose.append(wide >= max(2, 0.15 * len(side)))
    if all(prose):
        return True
    if not (clean and any(prose)):
        return False
    # Cells of one table share their baselines across the strip; a column of prose beside a
    # table does not line up with its rows.
    cells, other = (left, right) if not prose[0] else (right, left)
    bottoms = sorted(f.bottom for f in other)
    paired = sum(1 for f in cells if _has_near(bottoms, f.bottom, 1.0))
    return paired <= 0.6 * len(cells)


def _has_near(sorted_values: list[float], value: float, tol: float) -> bool:
    i = bisect.bisect_left(sorted_values, value - tol)
    return i < len(sorted_values) and sorted_values[i] <= value + tol


def layout_page(frags: list[Fragment], page: int, width: float, height: float) -> PageLayout:
    """Order the fragments of one page into lines: bands split by spanning fragments, then columns."""
    gutters = find_gutters(frags, width)
    # Column intervals between gutters.
    edges = [0.0] + [(a + b) / 2 for a, b in gutters] + [width + 1]
    ncols = len(edges) - 1

    def column_of(f: Fragment) -> int | None:
        for a, b in gutters:
            if f.x0 < a - 2 and f.x1 > b + 2:
                return None  # crosses a gutter: spans columns
        x = f.x0 + 1
        for i in range(ncols):
            if edges[i] <= x < edges[i + 1]:
                return i
        return ncols - 1

    spanning = []
    by_col: list[list[Fragment]] = [[] for _ in range(ncols)]
    for f in frags:
        col = column_of(f)
        if col is None:
            spanning.append(f)
        else:
            by_col[col].append(f)
    col_bounds = []
    for i, fs in enumerate(by_col):
        if fs:
            x0 = min(f.x0 for f in fs)
            span = max(f.x1 for f in fs) - x0
            # The right margin is where wide lines end; a stray badge beyond it does not count.
            wide = [f.x1 for f in fs if f.x1 - f.x0 >= 0.5 * span] or [max(f.x1 for f in fs)]
            col_bounds.append((x0, max(wide)))
        else:
            col_bounds.append((edges[i], edges[i + 1]))
    layout = PageLayout(page, width, height, columns=ncols)
    spanning.sort(key=lambda f: f.top)
    cuts = [f.top for f in spanning] + [float("inf")]
    band_start = float("-inf")
    span_iter = iter(spanning)
    for cut in cuts:
        for i in range(ncols):
            band = [f for f in by_col[i] if band_start <= f.mid < cut]
            for line in group_lines(band, page, i + 1):
                line.col_x0, line.col_x1 = col_bounds[i]
                layout.lines.append(line)
        if cut != float("inf"):
            sf = next(span_iter)
            layout.lines.extend(_span_lines(sf, page, spanning, width))
            band_start = cut
    return layout


def _span_lines(f: Fragment, page: int, spanning, width) -> list[Line]:
    line = Line([f], page, 1, col_x0=f.x0, col_x1=f.x1)
    return [line]


def group_lines(frags: list[Fragment], page: int, column: int) -> list[Line]:
    """Fragments of one column into lines: vertical overlap of more than half the smaller height."""
    frags = sorted(frags, key=lambda f: (f.top, f.x0))
    lines: list[Line] = []
    for f in frags:
        placed = False
        for line in reversed(lines[-3:]):
            top, bottom = line.top, line.bottom
            overlap = min(bottom, f.bottom) - max(top, f.top)
            if overlap > 0.5 * min(bottom - top, f.bottom - f.top):
                line.frags.append(f)
                line.frags.sort(key=lambda g: g.x0)
                placed = True
                break
        if not placed:
            lines.append(Line([f], page, column))
    lines.sort(key=lambda ln: (ln.bottom + ln.top) / 2)
    for line in lines:
        _take_bullet(line)
    return lines


_BULLET_TEXT = re.compile(r"^\s*([%s])\s*$" % re.escape(BULLETS))


def _take_bullet(line: Line) -> None:
    """A lone bullet glyph before the text becomes the line's marker, not a table cell."""
    if len(line.frags) >= 2 and line.frags[0].table is None:
        m = _BULLET_TEXT.match(line.frags[0].text)
        if m:
            line.marker = m.group(1)
            line.frags = line.frags[1:]
