"""Cheap text measurement for the card fit: the card font's advance widths and greedy line
breaking, in pure Python.

The widths are the font's own (read once with fontTools from the file fontconfig would pick
for the card CSS), without kerning, so an estimated line is never narrower than Pango's and
an estimated height errs on the tall side. `fit.py` trusts an estimate only when it is clearly
on one side of a limit and lays out with WeasyPrint otherwise.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

PT_TO_PX = 96 / 72
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"),
             Path("/usr/local/share/fonts"), Path.home() / ".fonts")
FONT_FILES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
# Used when the font file is not found: DejaVu Sans Condensed's mean advance, in em.
FALLBACK_EM = 0.55
_BREAK = re.compile(r"(\s+)")
_HYPHEN_SPLIT = re.compile(r"(?<=[A-Za-z]-)(?=[A-Za-z])")


@lru_cache(maxsize=2)
def _advances(bold: bool) -> tuple[dict[int, float], float, dict[tuple[str, str], float]]:
    """Code point -> advance in em, the mean advance for code points the font lacks, and the
    font's pair kerning (character pair -> adjustment in em), which Pango applies."""
    for folder in FONT_DIRS:
        path = folder / FONT_FILES[bold]
        if path.exists():
            from fontTools.ttLib import TTFont

            font = TTFont(str(path), lazy=True)
            upm = font["head"].unitsPerEm
            hmtx = font["hmtx"].metrics
            cmap = font.getBestCmap()
            widths = {cp: hmtx[name][0] / upm for cp, name in cmap.items() if name in hmtx}
            mean = sum(widths.get(ord(c), FALLBACK_EM) for c in "etaoinshrdlu") / 12
            kern: dict[tuple[str, str], float] = {}
            if "kern" in font:
                by_glyph: dict[str, list[str]] = {}
                for cp, name in cmap.items():
                    if cp < 0x2100:
                        by_glyph.setdefault(name, []).append(chr(cp))
                for table in font["kern"].kernTables:
                    for (left, right), value in table.kernTable.items():
                        for a in by_glyph.get(left, ()):
                            for b in by_glyph.get(right, ()):
                                kern[(a, b)] = value / upm
            return widths, mean, kern
    return {}, FALLBACK_EM * (1.07 if bold else 1.0), {}


@lru_cache(maxsize=1 << 16)
def word_em(word: str, bold: bool = False) -> float:
    """The advance of `word` in em (the font size is 1), kerned."""
    widths, mean, kern = _advances(bold)
    total = sum(widths.get(ord(c), mean) for c in word)
    if kern:
        total += sum(kern.get(pair, 0.0) for pair in zip(word, word[1:]))
    return total


def space_em(bold: bool = False) -> float:
    return word_em(" ", bold)


def count_lines(runs, width_em: float, first_indent_em: float = 0.0) -> int:
    """Lines a paragraph of (text, bold) runs takes in a box `width_em` wide (greedy, as Pango
    breaks: at spaces, after a hyphen between letters, anywhere inside a word too long)."""
    return len(line_chars(runs, width_em, first_indent_em))


def line_chars(runs, width_em: float, first_indent_em: float = 0.0) -> list[int]:
    """The lines of a paragraph, each as its count of non-space characters in regular (not
    bold) runs: where a text split after that line cuts the text (`fit.split_text`)."""
    counts = [0]
    x = first_indent_em
    pending_space = 0.0
    for text, bold in runs:
        sp = space_em(bold)
        for piece in _BREAK.split(text):
            if not piece:
                continue
            if piece.isspace():
                if x > 0:
                    pending_space += sp * len(piece)
                continue
            for part in _HYPHEN_SPLIT.split(piece):
                w = word_em(part, bold)
                chars = 0 if bold else len(part)
                if x > 0 and x + pending_space + w > width_em + 1e-9:
                    counts.append(0)
                    x = 0.0
                elif x > 0:
                    x += pending_space
                pending_space = 0.0
                if w > width_em and x == 0.0:  # a word wider than the line breaks between characters
                    for ch in part:
                        cw = word_em(ch, bold)
                        if x > 0 and x + cw > width_em + 1e-9:
                            counts.append(0)
                            x = 0.0
                        x += cw
                        counts[-1] += 0 if bold or ch.isspace() else 1
                    continue
                counts[-1] += chars
                x += w
    return counts


def text_em(text: str, bold: bool = False) -> float:
    """Width of `text` on one line, in em."""
    return sum(word_em(p, bold) if not p.isspace() else space_em(bold) * len(p)
               for p in _BREAK.split(text) if p)
