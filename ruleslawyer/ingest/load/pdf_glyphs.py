"""Glyphs for the PDF loader: pdfplumber character dicts -> `Char`s with the style the loader
reads (bold, italic, colour), level baselines and the frame (layer) each was set in."""
from __future__ import annotations

import math
import sys

from .pdf_layout import Char

_NORMALISE = str.maketrans({"\u2011": "-", "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\ufb01": "fi",
                            "\ufb02": "fl", "\u00ad": "\u00ad"})


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
