"""Predicted geometry of card faces, from font metrics alone (no layout engine).

Mirrors `templates/cards/face.html`, `blocks.html` and `static/cards.css`: one line height
(1.12 em), fixed table columns, every text at the face's size. Returns the same
`StreamMeasure` as the exact WeasyPrint measurement in `fit.py`, so the packer works on either.
"""
from __future__ import annotations

from .boxes import PX_PER_MM
from .metrics import PT_TO_PX, count_lines, line_chars, text_em

LH = 1.12  # line-height of every line (em)
TITLE_EM, TITLE_LH = 1.3, 1.1
META_GAP = 0.1
BODY_TOP = 0.35  # .face-body padding-top
BLK_PAD = 0.22  # .blk padding-bottom
CELL_V = 0.05  # th, td vertical padding (each side)
CELL_H = 0.18  # th, td horizontal padding (each side)
RULE_LINE = 0.1  # caption and section heading bottom border
BOX_EM = 0.85  # a tick or wound box
TICK_GAP = 0.25


def header_px(title: str, meta, font_pt: float, width_mm: float, pad_mm: float) -> float:
    """Height of a face's header, from the card's top."""
    f = font_pt * PT_TO_PX
    width_em = width_mm * PX_PER_MM / f
    title_lines = count_lines([(title, True)], width_em / TITLE_EM)
    h = (pad_mm * 0.5 + pad_mm * 0.4) * PX_PER_MM + title_lines * TITLE_LH * TITLE_EM * f
    if meta:
        h += (META_GAP + count_lines([(" \u2022 ".join(meta), False)], width_em) * LH) * f
    return h


def block_geometry(block, width_em: float):
    """(height em, row pieces [(top, bottom)] em or [], head em, tail em) of one block."""
    kind, data = block.kind, block.data
    if kind in ("profiles", "weapons"):
        top = (LH + RULE_LINE) if kind == "weapons" else 0.0
        top += LH + 2 * CELL_V  # header row
        name_w = width_em - sum(w for _, w in data["cols"]) - 2 * CELL_H
        head = top
        rows = []
        for row in data["rows"]:  # pieces carry no characters: a table splits between rows
            name, tags = row[0], (row[1] if kind == "weapons" else "")
            runs = [(name, True)] + ([(" " + tags, False)] if tags else [])
            h = count_lines(runs, name_w) * LH + 2 * CELL_V
            rows.append((top, top + h, 0))
            top += h
        tail = BLK_PAD
        if kind == "profiles" and data.get("invuln"):
            tail += count_lines([("Invulnerable save: ", True), (data["invuln"], False)], width_em) * LH
        return top + tail, rows, head, tail
    if kind == "text":
        counts: list[int] = []
        for i, line in enumerate(data["text"].split("\n")):
            runs = [(line, False)]
            indent = 0.0
            if i == 0 and data.get("title"):
                runs = [(data["title"] + ":", True), (" " + line, False)]
                if data.get("tick"):
                    indent = BOX_EM + TICK_GAP
            counts.extend(line_chars(runs, width_em, indent))
        pieces = [(k * LH, (k + 1) * LH, n) for k, n in enumerate(counts)]
        return len(counts) * LH + BLK_PAD, pieces, 0.0, BLK_PAD
    if kind == "lines":
        lines = sum(count_lines([(label + ":", True), (" " + text, False)], width_em) for label, text in data["lines"])
        return lines * LH + BLK_PAD, [], 0.0, 0.0
    if kind == "wounds":
        lines = sum(_box_lines(text_em(label + ":", True), n, width_em) for label, n in data["rows"])
        return lines * LH + BLK_PAD, [], 0.0, 0.0
    if kind == "heading":
        return LH + RULE_LINE + BLK_PAD, [], 0.0, 0.0
    return LH + BLK_PAD, [], 0.0, 0.0


def _box_lines(label_em: float, n: int, width_em: float) -> int:
    """Lines of a label followed by n boxes, each after a space."""
    step = text_em(" ") + BOX_EM
    lines, x = 1, label_em
    for _ in range(n):
        if x + step > width_em + 1e-9:
            lines += 1
            x = BOX_EM
        else:
            x += step
    return lines


def names_fit(blocks, font_pt: float, width_mm: float) -> bool:
    """Whether every word of every table row's name fits its column at this size: a size
    that would break a weapon's name inside a word is not used (a rule of the fit, the same
    whether sizes are estimated or laid out)."""
    width_em = width_mm * PX_PER_MM / (font_pt * PT_TO_PX)
    for b in blocks:
        if b.kind not in ("profiles", "weapons"):
            continue
        name_w = width_em - sum(w for _, w in b.data["cols"]) - 2 * CELL_H
        for row in b.data["rows"]:
            if any(text_em(word, True) > name_w for word in row[0].split()):
                return False
    return True
