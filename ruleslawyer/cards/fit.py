"""Fitting card content to card faces, measured with WeasyPrint's own layout.

Each stream (the front or back content of a card) is laid out by WeasyPrint in a face as wide
as the card and unbounded in height, once per type size tried. From the layout boxes we read
the height of every block and, inside splittable blocks, the position of every text line or
table row. A stream keeps the base size when it fits one face; otherwise it takes the size its
measured height predicts, stepped down until it fits; at the floor size it is packed greedily
over several faces, splitting a text between lines (orphans kept to two lines) or a table
between rows (the header repeats). Since measuring and printing use the same templates, CSS
and engine, the measured heights are the printed ones; `make_cards` checks the final layout
again (`render.overflows`) and repacks a face that still overflows.

The layout boxes are WeasyPrint internals (`Page._page_box`, `formatting_structure.boxes`),
read only in this module (tested with WeasyPrint 70).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from .boxes import PX_PER_MM, boxes_by_id, descendants
from .content import Block, CardContent
from .options import CardOptions

EPS_PX = 2.0
MIN_LINES = 2  # lines kept together at either side of a split


@dataclass(frozen=True)
class Face:
    """One printed side of a card: whose, which side, which blocks, at what size, k of n."""

    title: str
    meta: tuple[str, ...]
    kind: str
    side: str  # front | back | blank
    blocks: tuple[Block, ...]
    font_pt: float
    number: int = 1
    total: int = 1
    key: tuple[int, str] = (0, "front")  # (record index, stream side), to repack an overflow


@dataclass
class Parts:
    """Measured geometry of one block, in px relative to the block's top.

    `pieces` are the text lines or table rows that a split may separate: (top, bottom, chars).
    `head` is the height above the first piece (title, table header), `tail` below the last.
    """

    height: float
    pieces: list[tuple[float, float, int]] = field(default_factory=list)
    head: float = 0.0
    tail: float = 0.0

    def split_height(self, j: int) -> float:
        """Height of the first part when split after piece j."""
        return self.head + (self.pieces[j][1] - self.pieces[0][0]) + self.tail

    def rest(self, j: int) -> "Parts":
        """Geometry of the continuation after piece j (same head and tail, later pieces)."""
        later = self.pieces[j + 1:]
        shift = later[0][0] - self.pieces[0][0]
        moved = [(t - shift, b - shift, c) for t, b, c in later]
        return Parts(self.head + (moved[-1][1] - moved[0][0]) + self.tail, moved, self.head, self.tail)


@dataclass
class StreamMeasure:
    body_top: float  # px from the face's top to the top of its body (below the header)
    parts: list[Parts]


# ---------------------------------------------------------------- measuring
def _line_pieces(container, top: float) -> list[tuple[float, float, int]]:
    from weasyprint.formatting_structure.boxes import LineBox, TextBox

    pieces = []
    for b in descendants(container):
        if isinstance(b, LineBox):
            # list bullets are ::marker boxes: drawn, but not characters of the source text
            chars = sum(len(re.sub(r"\s", "", t.text)) for t in descendants(b)
                        if isinstance(t, TextBox) and not t.element_tag.endswith("::marker"))
            pieces.append((b.position_y - top, b.position_y + b.height - top, chars))
    return pieces


def _row_pieces(block_box, top: float) -> list[tuple[float, float, int]]:
    from weasyprint.formatting_structure.boxes import TableRowBox, TableRowGroupBox

    pieces = []
    for b in descendants(block_box):
        if isinstance(b, TableRowGroupBox) and not b.is_header:
            for row in b.children:
                if isinstance(row, TableRowBox):
                    pieces.append((row.position_y - top, row.position_y + row.height - top, 0))
    return pieces


def _is_text_container(box) -> bool:
    """The box holding a block's splittable text: an ability's <dd>, a rule's .rule-text."""
    element = getattr(box, "element", None)
    if element is None or getattr(box, "element_tag", None) is None:
        return False
    return box.element_tag == "dd" or "rule-text" in (element.get("class") or "").split()


def _measure_block(block: Block, box) -> Parts:
    top = box.position_y
    height = box.margin_height()
    pieces: list[tuple[float, float, int]] = []
    if block.split == "rows":
        pieces = _row_pieces(box, top)
    elif block.split == "text":
        text_box = next((b for b in descendants(box) if _is_text_container(b)), None)
        if text_box is not None:
            pieces = _line_pieces(text_box, top)
    if not pieces:
        return Parts(height)
    return Parts(height, pieces, pieces[0][0], height - pieces[-1][1])


_CACHE: dict[str, StreamMeasure] = {}
_CACHE_MAX = 4000


def measure(streams: Sequence[Face], opts: CardOptions) -> list[StreamMeasure]:
    """Lay out each stream (a Face holding all its blocks) and measure its blocks.

    Results are cached per stream, card size and type size for the life of the process, so
    the same cards imposed another way (sheet, duplex) are not measured again.
    """
    keys = [repr((opts.card_mm, opts.padding_mm, f.title, f.meta, f.kind, f.side, f.font_pt, f.blocks))
            for f in streams]
    todo = [i for i, k in enumerate(keys) if k not in _CACHE]
    if todo:
        if len(_CACHE) > _CACHE_MAX:
            _CACHE.clear()
        for i, m in zip(todo, _measure([streams[i] for i in todo], opts)):
            _CACHE[keys[i]] = m
    return [_CACHE[k] for k in keys]


def _measure(streams: Sequence[Face], opts: CardOptions) -> list[StreamMeasure]:
    from weasyprint import HTML

    from .impose import Sheet, Slot
    from .render import document_html

    cw, _ = opts.card_mm
    sheets = [Sheet("measure", [Slot(f, 0, 0, cw, 0, 0, f"m{i}")]) for i, f in enumerate(streams)]
    page = {"width": cw, "height": 3000, "bleed": 0, "marks": False}
    html = document_html(page, sheets, opts, title="measure", ids=True)
    boxes = boxes_by_id(HTML(string=html).render())
    out = []
    for i, f in enumerate(streams):
        face_box, body_box = boxes[f"m{i}"], boxes[f"m{i}-body"]
        parts = [_measure_block(b, boxes[f"m{i}-b{j}"]) for j, b in enumerate(f.blocks)]
        out.append(StreamMeasure(body_box.position_y - face_box.position_y + _top_padding(body_box), parts))
    return out


def _top_padding(box) -> float:
    return box.padding_top + box.border_top_width + box.margin_top


# ---------------------------------------------------------------- packing
def split_text(text: str, chars: int) -> tuple[str, str]:
    """Cut `text` after its first `chars` rendered (non-space, non-bullet) characters."""
    from ..render.templating import BULLET

    count = 0
    pos = 0
    for line in text.split("\n"):
        bullet = BULLET.match(line)
        start = bullet.end() if bullet else 0
        for k in range(start, len(line)):
            if not line[k].isspace():
                if count == chars:
                    cut = pos if k == start else pos + k  # at a line's start, keep its bullet
                    return text[:cut].rstrip(), text[cut:]
                count += 1
        pos += len(line) + 1
    return text, ""


def _split(block: Block, parts: Parts, room: float) -> tuple[Block, Block, Parts] | None:
    """The largest first part of `block` that fits `room`, its continuation and its geometry."""
    n = len(parts.pieces)
    keep = MIN_LINES if block.split == "text" else 1
    best = None
    for j in range(keep - 1, n - keep):
        if parts.split_height(j) <= room - EPS_PX:
            best = j
    if best is None:
        return None
    if block.split == "rows":
        rows = block.data["weapons"]
        return (block.with_rows(rows[:best + 1], block.continued),
                block.with_rows(rows[best + 1:], True), parts.rest(best))
    chars = sum(c for _, _, c in parts.pieces[:best + 1])
    first, rest = split_text(block.text_of(), chars)
    if not rest.strip():
        return None
    return block.with_text(first, block.continued, last=False), block.with_text(rest, True), parts.rest(best)


def pack(blocks: Sequence[Block], parts: Sequence[Parts], room: float) -> list[list[Block]]:
    """Blocks over faces of `room` px: whole when they fit, else split, else on the next face."""
    faces: list[list[Block]] = [[]]
    used = 0.0
    queue = list(zip(blocks, parts))
    while queue:
        block, geo = queue.pop(0)
        need = geo.height
        if block.keep_with_next and queue:
            nxt = queue[0][1]
            need += min(nxt.height, nxt.split_height(min(MIN_LINES, len(nxt.pieces)) - 1) if nxt.pieces else nxt.height)
        if used + need <= room - EPS_PX:
            faces[-1].append(block)
            used += geo.height
            continue
        cut = _split(block, geo, room - used) if block.split and not block.keep_with_next else None
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
    _, ch = opts.card_mm
    return ch * PX_PER_MM - body_top_px - opts.padding_mm * PX_PER_MM - slack_px


def fit_streams(streams: Sequence[Face], opts: CardOptions, slack: Sequence[float] | None = None) -> list[list[Face]]:
    """Each stream as faces: one face at the base or a predicted smaller size, else several at the floor.

    Sizes are tried in rounds, one WeasyPrint layout per size per round: every stream at the
    base size first; one that does not fit jumps to the size its measured height predicts
    (text area grows with the square of the type size), then steps down until it fits, and
    at the floor it is split over several faces.
    """
    slack = list(slack or [0.0] * len(streams))
    steps = opts.font_steps()
    result: list[list[Face] | None] = [None] * len(streams)
    trying: dict[int, int] = {}  # stream index -> index into steps
    for i, s in enumerate(streams):
        if s.blocks:
            trying[i] = 0
        else:
            result[i] = [s]
    while trying:
        by_step: dict[int, list[int]] = {}
        for i, k in trying.items():
            by_step.setdefault(k, []).append(i)
        trying = {}
        for k, members in sorted(by_step.items()):
            size = steps[k]
            sized = [replace(streams[i], font_pt=size) for i in members]
            for i, face, m in zip(members, sized, measure(sized, opts)):
                room = face_room(opts, m.body_top, slack[i])
                packed = pack(face.blocks, m.parts, room)
                if len(packed) == 1 or k == len(steps) - 1:
                    result[i] = [replace(face, blocks=tuple(b)) for b in packed]
                    continue
                need = sum(p.height for p in m.parts)
                guess = size * (room / need) ** 0.5 if need > 0 else size
                trying[i] = max(k + 1, next((j for j, st in enumerate(steps) if st <= guess + 1e-6), len(steps) - 1))
    return [r or [] for r in result]


def assemble(contents: Sequence[CardContent], opts: CardOptions, slack: dict[tuple[int, str], float] | None = None
             ) -> list[tuple[Face, Face]]:
    """Every record's cards as (front, back) face pairs, numbered k/n per record.

    A record's faces run front stream then back stream; physical card k takes faces 2k-1 and
    2k, so a back stream that needs a second face continues on the next card's front.
    """
    slack = slack or {}
    streams: list[Face] = []
    keys: list[tuple[int, str]] = []
    for i, c in enumerate(contents):
        for side, blocks in (("front", c.front), ("back", c.back)):
            if blocks or side == "front":
                streams.append(Face(c.title, c.meta, c.kind, side, tuple(blocks), opts.base_pt, key=(i, side)))
                keys.append((i, side))
    fitted = fit_streams(streams, opts, [slack.get(k, 0.0) for k in keys])
    per_record: dict[int, list[Face]] = {}
    for (i, _side), faces in zip(keys, fitted):
        per_record.setdefault(i, []).extend(faces)
    pairs: list[tuple[Face, Face]] = []
    for i in range(len(contents)):
        faces = per_record.get(i, [])
        if len(faces) % 2:
            last = faces[-1]
            faces.append(Face(last.title, last.meta, last.kind, "blank", (), last.font_pt, key=last.key))
        total = len(faces) // 2
        numbered = [replace(f, number=k // 2 + 1, total=total) for k, f in enumerate(faces)]
        pairs.extend(zip(numbered[0::2], numbered[1::2]))
    return pairs
