"""Dividing a record's blocks over faces: whole when they fit, a table between rows, a text
between lines only when it is taller than a whole face (so an ability never splits across faces
unless no face could hold it). `fit.py` uses it for a card's front and for records that go over
several cards.
"""
from __future__ import annotations

from typing import Sequence

from .content import Block, CardContent
from .measure import Face, Parts
from .options import CardOptions

EPS_PX = 2.0
MIN_LINES = 2  # lines kept together at either side of a text split

__all__ = ["EPS_PX", "MIN_LINES", "cut_block", "face_room", "pack", "split_text", "steps_of", "stream_of"]


def cut_block(block: Block, parts: Parts, j: int) -> tuple[Block, Block, Parts] | None:
    """`block` split after its piece j (a row or a line): first part, rest, rest's geometry."""
    if block.split == "rows":
        rows = block.data["rows"]
        return (block.with_rows(rows[:j + 1], block.continued),
                block.with_rows(rows[j + 1:], True), parts.rest(j))
    chars = sum(c for _, _, c in parts.pieces[:j + 1])
    first, rest = split_text(block.text_of(), chars)
    if not rest.strip() or not first.strip():
        return None
    return block.with_text(first, block.continued, last=False), block.with_text(rest, True), parts.rest(j)


def split_text(text: str, chars: int) -> tuple[str, str]:
    """Cut `text` after its first `chars` non-space characters (as rendered, bullets included)."""
    count = 0
    for k, ch in enumerate(text):
        if ch.isspace():
            continue
        if count == chars:
            return text[:k].rstrip(), text[k:]
        count += 1
    return text, ""


def _split(block: Block, parts: Parts, room: float) -> tuple[Block, Block, Parts] | None:
    """The largest first part of `block` that fits `room`, its continuation and its geometry."""
    n = len(parts.pieces)
    keep = MIN_LINES if block.split == "text" else 1
    best = None
    for j in range(keep - 1, n - keep):
        if parts.split_height(j) <= room - EPS_PX:
            best = j
    return cut_block(block, parts, best) if best is not None else None


def pack(blocks: Sequence[Block], parts: Sequence[Parts], room: float) -> list[list[Block]]:
    """Blocks over faces of `room` px: whole when they fit, else split, else on the next face."""
    faces: list[list[Block]] = [[]]
    used = 0.0
    queue = list(zip(blocks, parts))
    while queue:
        block, geo = queue.pop(0)
        need = geo.height
        if block.keep_with_next and queue:
            nxt_block, nxt = queue[0]
            # the heading goes with the next block: whole, or its first lines when it must split
            splits = nxt.pieces and (nxt_block.split == "rows" or nxt.height > room - EPS_PX)
            need += nxt.split_height(min(MIN_LINES, len(nxt.pieces)) - 1) if splits else nxt.height
        if used + need <= room - EPS_PX:
            faces[-1].append(block)
            used += geo.height
            continue
        # a table splits between rows; a text only when it is taller than a whole face
        divisible = block.split == "rows" or (block.split == "text" and geo.height > room - EPS_PX)
        cut = _split(block, geo, room - used) if divisible and not block.keep_with_next else None
        if cut is not None:
            first, rest, rest_geo = cut
            faces[-1].append(first)
            queue.insert(0, (rest, rest_geo))
        elif not faces[-1]:
            faces[-1].append(block)  # taller than a face and indivisible: printed alone
            used = geo.height
            continue
        else:
            queue.insert(0, (block, geo))
        faces.append([])
        used = 0.0
    return [f for f in faces if f]


def face_room(opts: CardOptions, body_top_px: float, slack_px: float = 0.0) -> float:
    """Body height available on a face: card height less header and bottom padding."""
    from .boxes import PX_PER_MM

    _, ch = opts.card_mm
    return ch * PX_PER_MM - body_top_px - opts.padding_mm * PX_PER_MM - slack_px


def stream_of(c: CardContent, size: float) -> Face:
    """All of a record's blocks as one stream (front, then back) at `size`, to measure or pack."""
    return Face(c.title, c.meta, c.kind, "front", tuple(c.front) + tuple(c.back), size)


def steps_of(c: CardContent, all_steps: list[float]) -> list[float]:
    """The type sizes `c` may take (its own minimum and up; else the smallest)."""
    return [x for x in all_steps if x >= c.min_pt] or all_steps[-1:]
