"""Unruled tables whose cells wrap: column heads over cells of several lines each.

A table printed without rules is found elsewhere from lines that hold a piece per column. When
cells wrap, most lines hold one piece only (a label of two lines beside a value of one, each
centred on the row), so the rows are rebuilt from the geometry instead: a line of bold capital
column heads sets where each column starts; the lines under it that start at those places, and
stay inside their column, are the table; in each column, lines at the line pitch make one cell;
and cells of two columns that sit level with each other make one row.
"""
from __future__ import annotations

from .pdf_layout import Fragment, Line

_ALIGN = 2.5  # how far a cell's line may start from its column head (points)


def _is_head(frag: Fragment) -> bool:
    ink = [c for c in frag.chars if not c.text.isspace()]
    letters = [c.text for c in ink if c.text.isalpha()]
    return len(letters) >= 3 and all(c.bold for c in ink) and all(ch.isupper() for ch in letters)


def wrapped_grid(lines: list[Line], i: int, pitch) -> tuple[list[list[str]], int] | None:
    """(rows, index after the table) for a table of wrapped cells whose column heads are line
    `i`, or None. `pitch(size)` is the document's usual line pitch at a size."""
    head = lines[i]
    if len(head.frags) < 2 or not all(_is_head(f) for f in head.frags):
        return None
    starts = [f.x0 for f in head.frags]
    ends = starts[1:] + [float("inf")]
    cells: list[list[list[Fragment]]] = [[] for _ in starts]  # per column, its cells' fragments
    prev = head
    j = i + 1
    while j < len(lines):
        line = lines[j]
        if (line.page, line.column) != (head.page, head.column) or line.frags[0].table is not None \
                or line.top - prev.bottom > 1.5 * pitch(line.size):
            break
        placed = []
        for f in line.frags:
            col = next((k for k, x in enumerate(starts) if abs(f.x0 - x) <= _ALIGN), None)
            if col is None or f.x1 > ends[col] - 1:
                break
            placed.append((col, f))
        else:
            for col, f in placed:
                run = cells[col]
                last = run[-1][-1] if run else None
                if last is not None and 0 < f.bottom - last.bottom <= 1.3 * pitch(f.size):
                    run[-1].append(f)
                else:
                    run.append([f])
            prev = line
            j += 1
            continue
        break
    rows = _rows(cells)
    # Rows of one line each are read by the line (unruled_rows); this is for wrapped cells.
    # Every row fills every column (a card's title bar beside its cost is no column head).
    if rows is None or len(rows) < 2 or not all(all(r) for r in rows) \
            or not any(len(c) >= 2 for column in cells for c in column):
        return None
    return [[f.text.strip() for f in head.frags]] + rows, j


def _rows(cells: list[list[list[Fragment]]]) -> list[list[str]] | None:
    """Cells of the columns grouped into rows: cells that overlap in height share a row; a row
    with two cells of one column is no table row (None)."""
    items = sorted(((min(f.top for f in c), max(f.bottom for f in c), col, c)
                    for col, column in enumerate(cells) for c in column), key=lambda t: t[0])
    groups: list[list] = []
    for top, bottom, col, c in items:
        if groups and top < groups[-1][1]:
            groups[-1][1] = max(groups[-1][1], bottom)
            groups[-1][2].append((col, c))
        else:
            groups.append([top, bottom, [(col, c)]])
    rows = []
    for _, _, members in groups:
        cols = [col for col, _ in members]
        if len(set(cols)) != len(cols):
            return None
        row = [""] * len(cells)
        for col, c in members:
            row[col] = _cell_text(c)
        rows.append(row)
    return rows


def _cell_text(frags: list[Fragment]) -> str:
    parts: list[str] = []
    for f in frags:
        t = f.text.strip()
        if parts and parts[-1].endswith("-") and t[:1].islower():
            parts[-1] = parts[-1][:-1] + t
        else:
            parts.append(t)
    return " ".join(parts)
