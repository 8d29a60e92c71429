"""Measuring card streams: exactly, with WeasyPrint's own layout, or estimated from font metrics.

`measure_exact` lays each stream (a Face holding blocks) out by WeasyPrint in a face as wide
as the card and unbounded in height. From the layout boxes it reads the height of every block
and, inside splittable blocks, the position of every text line or table row. Since measuring
and printing use the same templates, CSS and engine, the measured heights are the printed ones.
`measure_estimate` predicts the same geometry from the font's advance widths (`estimate.py`),
some hundred times faster; `fit.py` decides when an estimate is close enough to trust.

The layout boxes are WeasyPrint internals (`Page._page_box`, `formatting_structure.boxes`),
read only in this module (tested with WeasyPrint 70).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from .boxes import PX_PER_MM, boxes_by_id, descendants
from .content import Block
from .options import CardOptions


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
            # a text's title (<b>) is not part of the text a split cuts
            chars = sum(len(re.sub(r"\s", "", t.text)) for t in descendants(b)
                        if isinstance(t, TextBox) and t.element_tag not in ("b",)
                        and not t.element_tag.endswith("::marker"))
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
    """The box holding a block's splittable text (`div.txt`)."""
    element = getattr(box, "element", None)
    if element is None or getattr(box, "element_tag", None) is None:
        return False
    return box.element_tag == "div" and "txt" in (element.get("class") or "").split()


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


STATS = {"exact_streams": 0, "exact_layouts": 0, "estimates": 0, "final_layouts": 0}
_CACHE: dict[str, StreamMeasure] = {}
_CACHE_MAX = 4000
MEASURE_PAGE_MM = 3000.0  # tall enough for any real stream; a taller one gets a taller page


def measure_exact(streams: Sequence[Face], opts: CardOptions) -> list[StreamMeasure]:
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
    from .options import CardError
    from .render import document_html

    cw, _ = opts.card_mm
    sheets = [Sheet("measure", [Slot(f, 0, 0, cw, 0, 0, f"m{i}")]) for i, f in enumerate(streams)]
    # The measuring page must hold the tallest stream: what runs past a page's foot is not laid
    # out, and its blocks would have no boxes. Its height comes from the estimate, with room to
    # spare, and doubles when a block is still missing.
    height = max([MEASURE_PAGE_MM] + [_estimated_mm(f, opts) * 1.5 + 100 for f in streams])
    for _attempt in range(4):
        page = {"width": cw, "height": round(height), "bleed": 0, "marks": False}
        html = document_html(page, sheets, opts, title="measure", ids=True)
        STATS["exact_streams"] += len(streams)
        STATS["exact_layouts"] += 1
        boxes = boxes_by_id(HTML(string=html).render())
        wanted = [f"m{i}-b{j}" for i, f in enumerate(streams) for j in range(len(f.blocks))]
        if all(k in boxes for k in wanted) and all(f"m{i}-body" in boxes for i in range(len(streams))):
            break
        height *= 2
    else:
        raise CardError(f"{streams[0].title}: too long to lay out on a card ({round(height / 1000)} m of text)")
    out = []
    for i, f in enumerate(streams):
        face_box, body_box = boxes[f"m{i}"], boxes[f"m{i}-body"]
        parts = [_measure_block(b, boxes[f"m{i}-b{j}"]) for j, b in enumerate(f.blocks)]
        out.append(StreamMeasure(body_box.position_y - face_box.position_y + _top_padding(body_box), parts))
    return out


def _estimated_mm(stream: Face, opts: CardOptions) -> float:
    m = measure_estimate(stream, opts)
    return (m.body_top + sum(p.height for p in m.parts)) / PX_PER_MM


def _top_padding(box) -> float:
    return box.padding_top + box.border_top_width + box.margin_top




def measure_estimate(stream: Face, opts: CardOptions) -> StreamMeasure:
    """The geometry `measure_exact` would find, predicted from font metrics (`estimate.py`)."""
    from .estimate import BODY_TOP, block_geometry, header_px
    from .metrics import PT_TO_PX

    STATS["estimates"] += 1
    f = stream.font_pt * PT_TO_PX
    width_mm = opts.card_mm[0] - 2 * opts.padding_mm
    width_em = width_mm * PX_PER_MM / f
    parts = []
    for b in stream.blocks:
        h, rows, head, tail = block_geometry(b, width_em)
        parts.append(Parts(h * f, [(t * f, bt * f, n) for t, bt, n in rows], head * f, tail * f))
    title = stream.title + (" (9/9)" if stream.total > 1 else "")  # the card's number: face.html
    return StreamMeasure(header_px(title, stream.meta, stream.font_pt, width_mm, opts.padding_mm)
                         + BODY_TOP * f, parts)
