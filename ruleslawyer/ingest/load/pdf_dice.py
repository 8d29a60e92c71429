"""Dice faces drawn as vector shapes in a PDF (a rulebook's "Unmodified [die]" and its "[die]+"
chart cells), read as the digits they show.

A drawn die is a small filled shape about as wide as tall (one to two text heights) holding
one to six small filled pips of another colour. The text layer has nothing there, so the
reader would see "Unmodified" and "+"; the die becomes a glyph carrying its pip count, placed
where the die is drawn, so it joins the words beside it ("Unmodified 1", "2+").
"""
from __future__ import annotations

from .pdf_layout import Char

_MIN, _MAX = 5.0, 18.0  # a die's side, in points


def drawn_dice(curves: list[dict], rects: list[dict] | None = None) -> list[Char]:
    """Glyphs for the dice faces drawn among a page's filled curves (and rectangles)."""
    shapes = [c for c in list(curves) + list(rects or []) if c.get("fill")]
    if len(shapes) < 2 or len(shapes) > 5000:
        return []
    bodies = []
    for s in shapes:
        w, h = s["x1"] - s["x0"], s["bottom"] - s["top"]
        if _MIN <= w <= _MAX and _MIN <= h <= _MAX and abs(w - h) <= 0.2 * max(w, h):
            bodies.append(s)
    out = []
    for body in bodies:
        side = body["x1"] - body["x0"]
        colour = body.get("non_stroking_color")
        inside = [s for s in shapes if s is not body
                  and s["x0"] >= body["x0"] - 0.2 and s["x1"] <= body["x1"] + 0.2
                  and s["top"] >= body["top"] - 0.2 and s["bottom"] <= body["bottom"] + 0.2]
        pips = [s for s in inside if 0.08 * side <= s["x1"] - s["x0"] <= 0.3 * side
                and abs((s["x1"] - s["x0"]) - (s["bottom"] - s["top"])) <= 0.3 * side
                and s.get("non_stroking_color") != colour]
        # Anything else drawn inside (an icon's parts) means this is no die face.
        if len(pips) != len(inside) or not 1 <= len(pips) <= 6 or not _laid_out_as_face(pips, body):
            continue
        h = body["bottom"] - body["top"]
        out.append(Char(str(len(pips)), body["x0"], body["x1"], body["top"], body["bottom"], round(h, 1),
                        False, False, None))
    return out


def _laid_out_as_face(pips: list[dict], body: dict) -> bool:
    """Pips of one size on the grid of a die face: their centres fall on at most three rows
    and three columns."""
    sizes = [p["x1"] - p["x0"] for p in pips]
    if max(sizes) > 1.5 * min(sizes):
        return False
    side = body["x1"] - body["x0"]
    tol = 0.12 * side

    def slots(values):
        found: list[float] = []
        for v in sorted(values):
            if not found or v - found[-1] > tol:
                found.append(v)
        return len(found)

    xs = [(p["x0"] + p["x1"]) / 2 for p in pips]
    ys = [(p["top"] + p["bottom"]) / 2 for p in pips]
    return slots(xs) <= 3 and slots(ys) <= 3


def drawn_bullets(shapes: list[dict], chars: list[Char]) -> list[Char]:
    """Bullet marks drawn as small filled squares or dots just left of a line of text, as "▪"
    glyphs (the text layer has no mark there, so wrapped bullets would run together)."""
    marks = []
    for s in shapes:
        if not s.get("fill"):
            continue
        w, h = s["x1"] - s["x0"], s["bottom"] - s["top"]
        if 2.0 <= w <= 9.0 and 2.0 <= h <= 9.0 and abs(w - h) <= 0.2 * max(w, h):
            marks.append(s)
    if not marks or len(marks) > 400:
        return []
    inside = [s for s in shapes if s.get("fill")]
    out = []
    for m in marks:
        if any(o is not m and o["x0"] >= m["x0"] and o["x1"] <= m["x1"] and o["top"] >= m["top"]
               and o["bottom"] <= m["bottom"] for o in inside):
            continue  # something drawn inside: an icon or a die, not a bullet
        if any(o is not m and o["x0"] <= m["x0"] and o["x1"] >= m["x1"] and o["top"] <= m["top"]
               and o["bottom"] >= m["bottom"] and o["x1"] - o["x0"] <= _MAX + 2 for o in inside):
            continue  # drawn inside a small shape: a die's pip or part of an icon
        mid = (m["top"] + m["bottom"]) / 2
        side = m["x1"] - m["x0"]
        # The text the mark leads: glyphs level with it starting within two mark widths.
        right = [c for c in chars if not c.text.isspace() and c.top <= mid <= c.bottom
                 and 0 <= c.x0 - m["x1"] <= 2.5 * side]
        left = [c for c in chars if not c.text.isspace() and c.top <= mid <= c.bottom
                and 0 <= m["x0"] - c.x1 <= 2 * side]
        if right and not left:
            size = right[0].size
            out.append(Char("\u25aa", m["x0"], m["x1"], right[0].top, right[0].bottom, size, False, False, None))
    return out
