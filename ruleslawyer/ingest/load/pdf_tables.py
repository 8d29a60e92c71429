"""Tables for the PDF loader: ruled grids from the page's drawn lines, unruled ones from aligned text.

pdfplumber's `find_tables` is thorough but slow, so ruled tables are found here from the page's
line and rectangle objects directly: segments that touch are clustered into a grid, its distinct
x and y positions give the cell boundaries, and each character goes to the cell under its centre.
A caption that spans several columns has no vertical rule through it, so the cells of that row
are the intervals between the rules that do cross it. A table ruled per column (each rule
broken where a column ends) has no rule to tell a spanned row: a word that runs across a border
spans it, and a closing footnote row ("* This means ...") is left to the text under the table.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .pdf_layout import Char, Fragment, chars_text

_TOL = 1.5
_BOX = 3.0  # a filled rectangle taller than this is a box (a caption tab), not a thick rule


@dataclass
class RuledTable:
    """A drawn grid and the cell texts found in it."""

    x0: float
    top: float
    x1: float
    bottom: float
    rows: list[list[str]]
    chars: list[Char]
    columns: list[tuple[float, float]] = field(default_factory=list)  # x-extent of each kept column

    def row_from(self, frags) -> list[str] | None:
        """The cells of a text line printed under the grid, if its pieces fall one to a column."""
        cells = [""] * len(self.columns)
        lead = [f.text for f in frags if f.x1 <= self.columns[0][0] + 2]
        frags = [f for f in frags if f.x1 > self.columns[0][0] + 2]
        for f in frags:
            mid = (f.x0 + f.x1) / 2
            hits = [k for k, (a, b) in enumerate(self.columns) if a - 2 <= mid <= b + 2]
            if len(hits) != 1 or cells[hits[0]]:
                return None
            cells[hits[0]] = f.text
        # A name printed left of the grid (the weapon whose profile the header heads) leads the row.
        return [" ".join(lead)] + cells if lead else cells


def _segments(page) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """Horizontal (y, x0, x1) and vertical (x, top, bottom) segments from lines and rect edges,
    and apart the top and bottom edges of boxes (y, x0, x1)."""
    horiz: list[tuple] = []
    vert: list[tuple] = []
    boxes: list[tuple] = []
    area = float(page.width) * float(page.height)
    for ln in page.lines:
        x0, x1, top, bottom = ln["x0"], ln["x1"], ln["top"], ln["bottom"]
        if bottom - top <= _TOL and x1 - x0 > _TOL:
            horiz.append(((top + bottom) / 2, x0, x1))
        elif x1 - x0 <= _TOL and bottom - top > _TOL:
            vert.append(((x0 + x1) / 2, top, bottom))
    for r in page.rects:
        x0, x1, top, bottom = r["x0"], r["x1"], r["top"], r["bottom"]
        w, h = x1 - x0, bottom - top
        if w * h > 0.5 * area:
            continue  # a page background, not a cell
        if h <= _TOL and w > _TOL:
            horiz.append(((top + bottom) / 2, x0, x1))
        elif w <= _TOL and h > _TOL:
            vert.append(((x0 + x1) / 2, top, bottom))
        elif w > _TOL and h > _TOL:
            # A box tall enough to hold text (a caption tab over a table) is no rule: its edges
            # close grids but are kept out of the rules broken per column (`_broken_rules`).
            edges = horiz if h <= _BOX else boxes
            edges += [(top, x0, x1), (bottom, x0, x1)]
            vert += [(x0, top, bottom), (x1, top, bottom)]
    return horiz, vert, boxes


def _clusters(horiz, vert) -> list[tuple[list, list]]:
    """Group segments into connected grids (a horizontal and a vertical that cross or touch)."""
    n_h = len(horiz)
    parent = list(range(n_h + len(vert)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (y, hx0, hx1) in enumerate(horiz):
        for j, (x, vt, vb) in enumerate(vert):
            if hx0 - _TOL <= x <= hx1 + _TOL and vt - _TOL <= y <= vb + _TOL:
                a, b = find(i), find(n_h + j)
                if a != b:
                    parent[a] = b
    groups: dict[int, tuple[list, list]] = {}
    for i, h in enumerate(horiz):
        groups.setdefault(find(i), ([], []))[0].append(h)
    for j, v in enumerate(vert):
        groups.setdefault(find(n_h + j), ([], []))[1].append(v)
    return [g for g in groups.values() if g[0] and g[1]]


def _distinct(values: list[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > _TOL * 1.5:
            out.append(v)
    return out


def find_ruled_tables(page, chars: list[Char]) -> list[RuledTable]:
    """Ruled tables on a page (only worth calling when the page has lines or rects)."""
    rules, vert, boxes = _segments(page)
    horiz = rules + boxes
    if len(horiz) < 2 or len(horiz) * max(1, len(vert)) > 400000:
        return []
    tables = []
    if len(vert) >= 2:
        for hs, vs in _clusters(horiz, vert):
            ys = _distinct([h[0] for h in hs])
            xs = _distinct([v[0] for v in vs])
            if len(ys) < 2 or len(xs) < 2:
                continue
            table = _read_grid(xs, ys, vs, chars)
            if table is not None:
                tables.append(table)
    for xs, ys in _broken_rules(rules):
        # Only where nothing vertical is drawn: a framed box is read (or refused) above.
        if any(xs[0] - 1 <= v[0] <= xs[-1] + 1 and v[1] < ys[-1] and v[2] > ys[0] for v in vert):
            continue
        if any(t.x0 - 2 <= xs[0] and xs[-1] <= t.x1 + 2 and t.top - 2 <= ys[0] and ys[-1] <= t.bottom + 2 for t in tables):
            continue
        table = _read_grid(xs, ys, [(x, ys[0], ys[-1]) for x in xs], chars)
        if table is not None:
            tables.append(table)
    return tables


def _broken_rules(horiz) -> list[tuple[list[float], list[float]]]:
    """Tables drawn with horizontal rules only, as (column borders, row borders).

    Each rule between two rows is drawn as one segment per column, with a small break where a
    column ends; three or more such rules over one span, broken at the same places, border the
    rows, and the breaks are the column borders.
    """
    rules = []
    for y in _distinct([h[0] for h in horiz]):
        segs = sorted((a, b) for hy, a, b in horiz if abs(hy - y) <= _TOL)
        run: list[tuple[float, float]] = []
        for a, b in segs + [(float("inf"), float("inf"))]:
            if run and -_TOL <= a - run[-1][1] <= 3.0:
                run.append((a, b))
                continue
            if len(run) >= 2:
                breaks = [(p[1] + q[0]) / 2 for p, q in zip(run, run[1:])]
                rules.append((y, run[0][0], run[-1][1], breaks))
            run = [(a, b)]
    grids = []
    used: set[int] = set()
    for i, (y, x0, x1, breaks) in enumerate(rules):
        if i in used:
            continue
        same = [k for k, (_, a, b, br) in enumerate(rules) if k not in used and abs(a - x0) <= 3 and abs(b - x1) <= 3
                and len(br) == len(breaks) and all(abs(p - q) <= 3 for p, q in zip(br, breaks))]
        if len(same) >= 3:
            used.update(same)
            grids.append(([x0] + breaks + [x1], sorted(rules[k][0] for k in same)))
    return grids


def _read_grid(xs, ys, vs, chars) -> RuledTable | None:
    x0, x1, top, bottom = xs[0], xs[-1], ys[0], ys[-1]
    inside = [c for c in chars if x0 - 1 <= (c.x0 + c.x1) / 2 <= x1 + 1 and top - 1 <= (c.top + c.bottom) / 2 <= bottom + 1]
    ink = [c for c in inside if not c.text.isspace()]
    if not ink:
        return None  # a drawing (the quarters of a battlefield), not a table
    rows: list[list[str]] = []
    ncols = len(xs) - 1
    for r in range(len(ys) - 1):
        r_top, r_bot = ys[r], ys[r + 1]
        mid = (r_top + r_bot) / 2
        # The rules that really cross this row; a spanned caption lacks some of them.
        seps = [x for x in xs if any(abs(v[0] - x) <= _TOL * 1.5 and v[1] - _TOL <= mid <= v[2] + _TOL for v in vs)]
        if not seps or abs(seps[0] - x0) > _TOL * 1.5:
            seps = [x0] + seps
        if abs(seps[-1] - x1) > _TOL * 1.5:
            seps = seps + [x1]
        row_chars = [c for c in inside if r_top <= (c.top + c.bottom) / 2 < r_bot]
        # A line of text that runs across a border spans that border (a footnote printed
        # across the whole table, between rules that are broken per column all the same).
        crossed = _crossed(seps[1:-1], row_chars)
        seps = [x for x in seps if x not in crossed]
        cells = [""] * ncols
        for a, b in zip(seps, seps[1:]):
            cell = [c for c in row_chars if a <= (c.x0 + c.x1) / 2 < b]
            col = min(range(ncols), key=lambda k: abs(xs[k] - a))
            cells[col] = cell_text(cell)
        rows.append(cells)
    # A footnote row closing the table ("* This means ...", one cell across the table) is text
    # under the table: its glyphs go back to the flow and the table ends above it.
    while len(rows) > 1 and _FOOTNOTE.match(rows[-1][0]) and not any(rows[-1][1:]):
        rows.pop()
        bottom = ys[len(rows)]
        inside = [c for c in inside if (c.top + c.bottom) / 2 < bottom]
    # Drop rows and columns that are empty everywhere (double rules, decorative frames).
    rows = [r for r in rows if any(r)]
    keep = [k for k in range(ncols) if any(r[k] for r in rows)]
    # A column that is empty but for a paragraph of prose is a callout box drawn against the
    # table's edge (sharing one of its rules), not a column of values: leave it to the flow.
    keep = [k for k in keep if not _callout_column([r[k] for r in rows])]
    rows = [[r[k] for k in keep] for r in rows]
    if not rows or len(keep) < 2:
        return None  # a framed box or a card with dividers, not a table: its text stays in the flow
    filled = sum(1 for r in rows for cell in r if cell)
    if filled < 0.5 * len(rows) * len(keep):
        return None  # a page layout drawn with rules (a datasheet frame), mostly empty as a grid
    columns = [(xs[k], xs[k + 1]) for k in keep]
    return RuledTable(x0, top, x1, bottom, rows, inside, columns)


_FOOTNOTE = re.compile(r"^[*†‡]+\s*\S")


def _crossed(seps: list[float], chars: list[Char]) -> set[float]:
    """The column borders that a word runs across (glyphs of one word of three or more letters
    on both sides): in a cell the text keeps its padding clear of the border, so such a line
    spans the columns."""
    crossed: set[float] = set()
    lines: dict[float, list[Char]] = {}
    for c in chars:
        if not c.text.isspace():
            lines.setdefault(round(c.bottom), []).append(c)
    for line in lines.values():
        line.sort(key=lambda c: c.x0)
        word = [line[0]]
        for a, b in zip(line, line[1:] + [None]):
            if b is not None and b.x0 - a.x1 < 0.15 * a.size:
                word.append(b)
                continue
            if sum(1 for c in word if c.text.isalpha()) >= 3:
                mids = [(c.x0 + c.x1) / 2 for c in word]
                crossed.update(x for x in seps if mids[0] < x < mids[-1])
            word = [b]
    return crossed


def _callout_column(cells: list[str]) -> bool:
    """Cells of one column that hold a single long paragraph among empty cells (three or more
    rows): a box of running text, not the values of a table."""
    filled = [c for c in cells if c.strip()]
    if len(cells) < 3 or len(filled) != 1:
        return False
    words = filled[0].split()
    return len(words) >= 12 and sum(1 for w in words if w[:1].islower()) >= 0.5 * len(words)


def cell_text(chars: list[Char]) -> str:
    """The text of one cell: its lines top to bottom, joined by spaces."""
    if not chars:
        return ""
    from .pdf_lines import group_lines
    from .pdf_layout import build_fragments

    frags = build_fragments(chars)
    lines = group_lines(frags, 0, 0)
    parts = []
    for line in lines:
        t = " ".join(chars_text(f.chars) for f in line.frags)
        if parts and parts[-1].endswith("-") and t[:1].islower():
            parts[-1] += t
        else:
            parts.append(t)
    return " ".join(p.strip() for p in parts if p.strip())


def table_fragment(table: RuledTable) -> Fragment:
    """A stand-in fragment that puts the table in its place in the page's reading order."""
    sizes = sorted(c.size for c in table.chars if not c.text.isspace()) or [0.0]
    return Fragment([], table.x0, table.x1, table.top, table.bottom, sizes[len(sizes) // 2], table=table)


def unruled_rows(lines) -> list[list[str]]:
    """Cells of consecutive multi-fragment lines, aligned on the columns of the fullest rows.

    Columns come from the rows with the most pieces (a header or a full profile line): pieces
    that overlap horizontally across those rows are one column. Other rows' pieces go to the
    column they overlap most, or the nearest one, so centred values sit under their headers.
    """
    most = max(len(line.frags) for line in lines)
    spans: list[list[float]] = []
    for line in lines:
        if len(line.frags) != most:
            continue
        for f in line.frags:
            spans.append([f.x0, f.x1])
    spans.sort()
    columns: list[list[float]] = []
    for a, b in spans:
        if columns and a <= columns[-1][1] + 1:
            columns[-1][1] = max(columns[-1][1], b)
        else:
            columns.append([a, b])
    rows = []
    for line in lines:
        cells = [""] * len(columns)
        for f in line.frags:
            overlaps = [min(f.x1, b) - max(f.x0, a) for a, b in columns]
            best = max(range(len(columns)), key=lambda k: overlaps[k])
            if overlaps[best] <= 0:
                mid = (f.x0 + f.x1) / 2
                best = min(range(len(columns)), key=lambda k: abs((columns[k][0] + columns[k][1]) / 2 - mid))
            cells[best] = (cells[best] + " " + f.text).strip()
        rows.append(cells)
    keep = [k for k in range(len(columns)) if any(r[k] for r in rows)]
    return [[r[k] for k in keep] for r in rows]
