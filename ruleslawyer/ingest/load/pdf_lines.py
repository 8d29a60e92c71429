"""Lines of one column of a page band: fragments that share a baseline, top to bottom."""
from __future__ import annotations

import re

from .pdf_layout import BULLETS, Fragment, Line


def band_lines(band: list[Fragment], page: int, column: int) -> list[Line]:
    """The lines of one column of a band, top to bottom.

    A line never joins fragments of two layers (frames, see pdf_glyphs.split_layers). Where
    lines of running text of two layers overlap in height (a tilted card over a straight
    caption), each layer is read whole, the one that starts higher first; call-out marks (a
    number printed on a card) and layers that only sit one above the other are read where
    they stand.
    """
    numbers = sorted({f.layer for f in band})
    if len(numbers) < 2:
        return group_lines(band, page, column)
    layers = [group_lines([f for f in band if f.layer == n], page, column) for n in numbers]
    text = [[ln for ln in lines if len(ln.text) >= 8 and " " in ln.text.strip()] for lines in layers]
    if not any(_overlap(a, b) for k, a in enumerate(text) for b in text[k + 1:]):
        return sorted((ln for lines in layers for ln in lines), key=lambda ln: (ln.bottom + ln.top) / 2)
    layers.sort(key=lambda lines: lines[0].top)
    return [ln for lines in layers for ln in lines]


def _overlap(a: list[Line], b: list[Line]) -> bool:
    """Whether a line of `a` and a line of `b` share more than a third of the smaller height."""
    return any(min(x.bottom, y.bottom) - max(x.top, y.top) > 0.33 * min(x.bottom - x.top, y.bottom - y.top)
               for x in a for y in b)


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
