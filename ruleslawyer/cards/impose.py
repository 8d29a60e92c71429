"""Imposition: where each card face sits on a printed page, and the crop marks around them.

All lengths are millimetres from the top-left corner of the page. Cards keep their
orientation; the sheet is turned (portrait or landscape) to whichever holds more of them.
With bleed, neighbouring cards are separated by twice the bleed so each keeps its own.

Duplex: the back sheet holds each card's back at the mirror image of its front's place,
mirrored about the sheet's long edge, which is the edge a printer flips on with
"flip on long edge". On a portrait sheet that mirrors left-right; on a landscape sheet
top-bottom.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from .options import SHEET_SIZES, CardOptions

MARGIN_MM = 6.0  # room left around the grid for the crop marks (and printers' dead margin)
MARK_GAP_MM = 1.5  # crop marks start this far outside the cut line (plus the bleed)
MARK_LEN_MM = 4.0


@dataclass(frozen=True)
class Slot:
    """One face placed on a page: its trim box in mm, its bleed, and an id for measuring."""

    face: Any
    left: float
    top: float
    width: float
    height: float
    bleed: float = 0.0
    fid: str = ""


@dataclass(frozen=True)
class Mark:
    """A crop mark: a vertical ("v") or horizontal ("h") line of `length` mm from (left, top)."""

    axis: str
    left: float
    top: float
    length: float


@dataclass
class Sheet:
    """One printed page: the faces on it and its crop marks. side: front, back, mixed or card."""

    side: str
    slots: list[Slot] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)


@dataclass(frozen=True)
class Grid:
    """How cards sit on a sheet: sheet size, columns, rows, origin of the grid, gutter."""

    width: float
    height: float
    cols: int
    rows: int
    x0: float
    y0: float
    gutter: float
    card_w: float
    card_h: float

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def long_edge_vertical(self) -> bool:
        return self.height >= self.width

    def slot_box(self, col: int, row: int) -> tuple[float, float]:
        return (self.x0 + col * (self.card_w + self.gutter), self.y0 + row * (self.card_h + self.gutter))

    def mirror(self, col: int, row: int) -> tuple[int, int]:
        """Where the back of the card at (col, row) goes for flip-on-long-edge printing."""
        if self.long_edge_vertical:
            return self.cols - 1 - col, row
        return col, self.rows - 1 - row


def _fit(n: float, total: float, size: float, gutter: float) -> int:
    return max(0, int((total - 2 * MARGIN_MM + gutter + 1e-9) // (size + gutter)))


def make_grid(opts: CardOptions) -> Grid:
    """The sheet orientation and grid holding the most cards (portrait on a tie)."""
    cw, ch = opts.card_mm
    gutter = 2 * opts.bleed
    sw, sh = SHEET_SIZES[opts.sheet]
    best = None
    for w, h in ((sw, sh), (sh, sw)):
        cols, rows = _fit(0, w, cw, gutter), _fit(0, h, ch, gutter)
        if best is None or cols * rows > best[2] * best[3]:
            best = (w, h, cols, rows)
    w, h, cols, rows = best
    if cols * rows == 0:
        from .options import CardError

        raise CardError(f"a {opts.size} card ({cw:g} x {ch:g} mm) does not fit on {opts.sheet} "
                        f"with crop marks", hint="use --sheet none, or a smaller --size")
    grid_w = cols * cw + (cols - 1) * gutter
    grid_h = rows * ch + (rows - 1) * gutter
    return Grid(w, h, cols, rows, round((w - grid_w) / 2, 3), round((h - grid_h) / 2, 3), gutter, cw, ch)


def crop_marks(grid: Grid, bleed: float) -> list[Mark]:
    """Marks on every cut line, in the margin around the grid, never inside a card or its bleed."""
    gap = MARK_GAP_MM + bleed
    xs = sorted({round(grid.slot_box(c, 0)[0] + dx, 3) for c in range(grid.cols) for dx in (0, grid.card_w)})
    ys = sorted({round(grid.slot_box(0, r)[1] + dy, 3) for r in range(grid.rows) for dy in (0, grid.card_h)})
    top, bottom = ys[0], ys[-1]
    left, right = xs[0], xs[-1]
    room_v = min(top, grid.height - bottom) - gap
    room_h = min(left, grid.width - right) - gap
    len_v = max(0.0, min(MARK_LEN_MM, room_v - 0.5))
    len_h = max(0.0, min(MARK_LEN_MM, room_h - 0.5))
    marks: list[Mark] = []
    if len_v > 0:
        for x in xs:
            marks.append(Mark("v", x, round(top - gap - len_v, 3), round(len_v, 3)))
            marks.append(Mark("v", x, round(bottom + gap, 3), round(len_v, 3)))
    if len_h > 0:
        for y in ys:
            marks.append(Mark("h", round(left - gap - len_h, 3), y, round(len_h, 3)))
            marks.append(Mark("h", round(right + gap, 3), y, round(len_h, 3)))
    return marks


def impose(cards: Sequence[tuple[Any, Any]], opts: CardOptions) -> tuple[dict, list[Sheet]]:
    """Pages for `cards` (pairs of front and back faces): (page geometry, sheets).

    sheet "none": one face per page, the page the card's size, front then back of each card.
    A sheet without duplex: the faces in order, front beside back, blank backs left out.
    With duplex: a front sheet, then its back sheet with every back mirrored behind its front.
    """
    cw, ch = opts.card_mm
    if opts.sheet == "none":
        sheets = [Sheet("card", [Slot(face, 0, 0, cw, ch, opts.bleed, f"f{i}")])
                  for i, face in enumerate(f for pair in cards for f in pair)]
        page = {"width": cw, "height": ch, "bleed": opts.bleed, "marks": opts.bleed >= 2}
        return page, sheets
    grid = make_grid(opts)
    marks = crop_marks(grid, opts.bleed)
    page = {"width": grid.width, "height": grid.height, "bleed": 0, "marks": False}
    sheets: list[Sheet] = []
    n = grid.per_sheet
    if not opts.duplex:
        faces = [f for pair in cards for f in pair if f.side != "blank"]
        for start in range(0, len(faces), n):
            sheet = Sheet("mixed", marks=marks)
            for i, face in enumerate(faces[start:start + n]):
                x, y = grid.slot_box(i % grid.cols, i // grid.cols)
                sheet.slots.append(Slot(face, x, y, cw, ch, opts.bleed, f"f{start + i}"))
            sheets.append(sheet)
        return page, sheets
    for start in range(0, len(cards), n):
        front, back = Sheet("front", marks=marks), Sheet("back", marks=marks)
        for i, (f, b) in enumerate(cards[start:start + n]):
            col, row = i % grid.cols, i // grid.cols
            x, y = grid.slot_box(col, row)
            front.slots.append(Slot(f, x, y, cw, ch, opts.bleed, f"c{start + i}f"))
            mx, my = grid.slot_box(*grid.mirror(col, row))
            back.slots.append(Slot(b, mx, my, cw, ch, opts.bleed, f"c{start + i}b"))
        sheets.extend([front, back])
    return page, sheets
