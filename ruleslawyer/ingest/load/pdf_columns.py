"""Reading order for the PDF loader: fragments of a page -> columns -> lines.

Columns are found per page from the x-distribution of fragments: a gutter is a vertical strip
that almost no fragment covers, with paragraph-like text on both sides. A fragment that crosses
a gutter spans the page (a title) and cuts the page into horizontal bands; each band is read
column by column, left to right.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from .pdf_layout import Fragment, Line
from .pdf_lines import band_lines

# Share of the page height at the top and bottom where running headers and footers live.
MARGIN = 0.09


@dataclass
class PageLayout:
    """One page in reading order: its lines (table stand-ins included) and its column count."""

    page: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    columns: int = 1


def find_gutters(frags: list[Fragment], width: float, height: float | None = None) -> list[tuple[float, float]]:
    """Vertical strips (x0, x1) free of text between columns of paragraph-like text.

    When none is found, the page is tried again without its widest lines: an intro paragraph
    set across the top of a page over a narrow sidebar column and the main column crosses the
    gutter with several lines, more than the few crossings allowed. Those lines then read as
    spanning lines that cut the page into bands. A line alone in the bottom margin (a footer
    motto that differs from page to page, so it is not dropped as running text) is left out of
    that second try the same way: it spans the columns, it does not close the gutter. Last, a
    box set a little into the gutter (a callout outdented from its column) is allowed to start
    up to one body size inside the strip.
    """
    found = _find_gutters(frags, width)
    if found or len(frags) < 12:
        return found
    foot = [f for f in frags if f.table is None and height and f.top > height * (1 - MARGIN)]
    kept = [f for f in frags if f not in foot] if 0 < len(foot) <= 3 else frags
    for inset in (False, True):
        found = _find_gutters_wide(kept, width, inset)
        if found:
            return found
    return _find_gutters_below_band(kept, width)


def _find_gutters_below_band(frags: list[Fragment], width: float) -> list[tuple[float, float]]:
    """Gutters of columns that start below a title band set across the top of the page.

    A sheet's title and its subtitle (or a short intro) span the columns above them: each
    line crosses the gutter, and a few such lines are more than the crossings allowed. The
    band is the run of lines from the top of the page down to the first height at which the
    rest of the page splits into columns; it holds a few lines (at most _BAND_LINES, and at
    most a fifth of the page's), and nothing of it may sit level with the columns below it.
    """
    plain = sorted((f for f in frags if f.table is None), key=lambda f: f.top)
    if len(plain) < 12:
        return []
    for n in range(1, min(_BAND_LINES, len(plain) // 5) + 1):
        band, rest = plain[:n], plain[n:]
        cut = max(f.bottom for f in band)
        if rest[0].top < cut:
            continue  # the band's last line is level with a line below it: not a clean cut
        found = _find_gutters([f for f in frags if f not in band], width)
        if found:
            return found
    return []


# Lines a title band may hold: a title, a subtitle, an intro paragraph of a few lines.
_BAND_LINES = 8


def _find_gutters_wide(frags: list[Fragment], width: float, inset: bool = False) -> list[tuple[float, float]]:
    """Gutters once the page's widest lines (and the short last lines of their paragraphs) are
    set aside as spanning lines."""
    found = _find_gutters(frags, width, inset)
    if found or len(frags) < 12:
        return found
    plain = [f for f in frags if f.table is None]
    if not plain:
        return found
    lo, hi = min(f.x0 for f in plain), max(f.x1 for f in plain)
    wide = [f for f in plain if f.x1 - f.x0 > 0.6 * (hi - lo)]
    # Only the wide lines that start at the left edge of the widest ones: a line of the
    # right-hand column can be as wide, but it starts past the gutter.
    left = min((f.x0 for f in wide), default=lo)
    wide = [f for f in wide if f.x0 - left < 0.1 * (hi - lo)]
    if not wide or len(wide) > 0.25 * len(frags):
        return found
    # The short last line of a wide paragraph goes with it (same left edge, next line down), and
    # so does the heading right above it.
    grown = True
    while grown:
        grown = False
        for f in plain:
            if f not in wide and any(abs(f.x0 - w.x0) < 2 and (0 <= f.top - w.bottom < w.size or 0 <= w.top - f.bottom < w.size)
                                     for w in wide):
                wide.append(f)
                grown = True
    # The wide lines must form bands of their own (above or below the columns), not sit
    # among the lines of one column.
    rest = [f for f in frags if f not in wide]
    if any(f.top < w.bottom and f.bottom > w.top for w in wide for f in rest):
        return found
    return _find_gutters(rest, width, inset)


def _find_gutters(frags: list[Fragment], width: float, inset: bool = False) -> list[tuple[float, float]]:
    if len(frags) < 6:
        return []
    tables = [f for f in frags if f.table is not None]
    frags = [f for f in frags if f.table is None] or frags
    sizes = sorted(f.size for f in frags)
    body = sizes[len(sizes) // 2]
    # With `inset`, a fragment covers the strip only from one body size past its left edge.
    shift = body if inset else 0.0
    n_bins = int(width) + 2
    cover = [0] * n_bins
    for f in frags:
        x0 = f.x0 + shift if f.x1 - f.x0 > 2 * shift else f.x0
        for x in range(max(0, int(x0)), min(n_bins, int(f.x1) + 1)):
            cover[x] += 1
    lo = max(0, int(min(f.x0 for f in frags)) + 1)
    hi = min(n_bins - 1, int(max(f.x1 for f in frags)))
    # A title or a page-wide table crosses every gutter; let a few fragments through.
    limit = max(0, int(0.03 * len(frags)))
    min_width = max(5.0, 0.8 * body)
    runs = []
    start = None
    for x in range(lo, hi + 1):
        free = cover[x] <= limit
        if free and start is None:
            start = x
        elif not free and start is not None:
            if x - start >= min_width:
                # The gutter ends where the first inset fragment really starts.
                runs.append((float(start), float(max(start + 1, x - shift))))
            start = None
    # Drawn tables sit inside columns: they count as column text, not as gutter coverage.
    gutters = []
    for r in runs:
        clean = _longest_zero_run(cover[int(r[0]):int(r[1])]) >= 1.5 * body
        if _separates_columns(frags + tables, r, clean) and not any(t.x0 < r[0] - 2 and t.x1 > r[1] + 2 for t in tables):
            gutters.append(r)
    gutters = _drop_cell_columns(gutters, frags + tables, body)
    return _drop_narrow_columns(gutters, frags, lo, hi)


def _drop_cell_columns(gutters, frags, body: float):
    """A "column" holding only short pieces (a table's value cells) joins the side it lines up with."""
    changed = True
    while changed and gutters:
        changed = False
        bounds = [float("-inf")] + [g for pair in gutters for g in pair] + [float("inf")]
        for i in range(len(gutters) + 1):
            left, right = bounds[2 * i], bounds[2 * i + 1]
            region = [f for f in frags if f.x0 >= left - 1 and f.x1 <= right + 1]
            if not region or any(f.x1 - f.x0 >= 8 * body or f.table is not None for f in region):
                continue
            if len(region) >= 6 and sum(1 for f in region if _FUNCTION_WORD.search(f.text)) >= 0.4 * len(region):
                continue  # a narrow sidebar of running text (sentences), not value cells
            # Which neighbour do these cells sit level with? Drop the gutter on that side.
            sides = []
            for j in (i - 1, i):
                if 0 <= j < len(gutters):
                    g0, g1 = gutters[j]
                    other = [f for f in frags if (f.x1 <= g0 + 1 if j == i - 1 else f.x0 >= g1 - 1)]
                    bottoms = sorted(f.bottom for f in other)
                    sides.append([sum(1 for f in region if _has_near(bottoms, f.bottom, 0.5 * f.size)), g1 - g0, -j])
            # Level with both sides: a strip set clearly nearer one side (a gutter less than two
            # thirds as wide as the other) belongs to that side; otherwise to the left.
            widths = sorted(s[1] for s in sides)
            near = len(sides) == 2 and sides[0][0] == sides[1][0] and widths[0] < 0.67 * widths[1]
            for s in sides:
                s[1] = -s[1] if near else 0
            if len(region) >= 8 and sum(1 for f in region if re.search(r"[A-Za-z]{3}", f.text)) >= 0.8 * len(region):
                # Cells of a row share its baseline; a sidebar in small print runs at its own pitch.
                level = 0
                for j in (i - 1, i):
                    if 0 <= j < len(gutters):
                        g0, g1 = gutters[j]
                        bottoms = sorted(f.bottom for f in frags if (f.x1 <= g0 + 1 if j == i - 1 else f.x0 >= g1 - 1))
                        level = max(level, sum(1 for f in region if _has_near(bottoms, f.bottom, 0.1 * f.size)))
                if level < 0.3 * len(region):
                    continue
            # A badge strip belongs to the card it is printed beside.
            gutters.pop(-max(sides)[2])
            changed = True
            break
    return gutters


_FUNCTION_WORD = re.compile(r"\b(?:the|a|an|to|of|is|that|and|with|or|in|it|its|can|be)\b")


def _longest_zero_run(values: list[int]) -> int:
    best = run = 0
    for v in values:
        run = run + 1 if v == 0 else 0
        best = max(best, run)
    return best


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
    if len(border) >= 2 and len(cells) >= 0.6 * len(border):
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
    gutters = find_gutters(frags, width, height)
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
    cuts = sorted([(f.top, f) for f in spanning] + [(y, None) for y in _section_breaks(by_col, frags)],
                  key=lambda c: c[0]) + [(float("inf"), None)]
    band_start = float("-inf")
    for cut, sf in cuts:
        for i in range(ncols):
            band = [f for f in by_col[i] if band_start <= f.mid < cut]
            for line in band_lines(band, page, i + 1):
                line.col_x0, line.col_x1 = col_bounds[i]
                layout.lines.append(line)
        if sf is not None:
            # A spanning fragment is read on its own, between the bands it separates.
            layout.lines.append(Line([sf], page, 1, col_x0=sf.x0, col_x1=sf.x1))
        band_start = cut
    _narrow_frames(layout.lines)
    return layout


def _narrow_frames(lines: list[Line]) -> None:
    """Give the lines of a narrow frame of running text (a sidebar set in a short measure inside
    a wider column) the frame's right edge, so that a paragraph there is told by its full lines
    (the column's edge still measures the document's usual line endings, see pdf_blocks.Stats).

    A frame is a run of five or more single-piece lines of one size, starting at one x, at the
    line pitch, whose sentences mostly run on from line to line (the next line starts in lower
    case), and whose longest line spans less than 60% of the column and ends well short of it.
    """
    run: list[Line] = []
    for line in lines + [None]:
        if line is not None and run and len(line.frags) == 1 and line.frags[0].table is None \
                and (line.page, line.column) == (run[-1].page, run[-1].column) \
                and abs(line.size - run[-1].size) <= 0.3 and abs(line.x0 - run[-1].x0) <= 2 \
                and 0 < line.bottom - run[-1].bottom <= 1.6 * line.size:
            run.append(line)
            continue
        if len(run) >= 5:
            measure = max(ln.x1 for ln in run)
            runs_on = sum(1 for ln in run[1:] if ln.text.lstrip()[:1].islower())
            narrow = measure - run[0].x0 < 0.6 * (run[0].col_x1 - run[0].col_x0) \
                and measure < run[0].col_x1 - 4 * run[0].size
            if narrow and runs_on * 2 >= len(run) - 1:
                for ln in run:
                    ln.frame_x1 = measure
        run = [line] if line is not None and len(line.frags) == 1 and line.frags[0].table is None else []


def _section_breaks(by_col: list[list[Fragment]], frags: list[Fragment]) -> list[float]:
    """Tops of chapter-size headings (several times the body size) that open a new band of
    columns: a phase title in the left column, with the right column's text above it still
    belonging to the section before. Only where every other column is blank at that height."""
    if len(by_col) < 2:
        return []
    sizes = sorted(f.size for f in frags if f.table is None) or [0.0]
    body = sizes[len(sizes) // 2]
    out = []
    for i, col in enumerate(by_col):
        for f in col:
            if f.table is not None or f.size < 3 * body or not re.search(r"[A-Za-z]{3}", f.text):
                continue
            others = [g for j, c in enumerate(by_col) if j != i for g in c]
            above = [g for g in others if g.bottom <= f.top]
            if not above or any(g.top < f.top < g.bottom for g in others):
                continue
            out.append(f.top)
    return out
