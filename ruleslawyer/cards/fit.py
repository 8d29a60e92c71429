"""Fitting each record on one card: the largest type that fits front and back, else more cards.

A datasheet's front blocks go on the front in order while they fit (a weapons table may split
between rows, its header repeated); the rest, then the back blocks, go on the back. The card's
type size is the largest step, from the card size's maximum down to 6.5 pt, at which the back
holds all that. A record that fits no size continues, at 6.5 pt, on a second card (k/n),
texts splitting between lines.

Speed: every size is first judged on estimated geometry (`measure.measure_estimate`, font
metrics only). An estimate is trusted only when each decision it leads to (does this block fit
the room left?) clears the room by a margin larger than the estimate's error; otherwise that
size is laid out with WeasyPrint (`measure.measure_exact`), all such streams of a round in one
layout. So the result is the one an exact fit at every size gives (`CardOptions(exact=True)`,
the reference, and `tests/test_cards_fit.py` compares them) for a fraction of its cost.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from .content import Block, CardContent
from .estimate import names_fit
from .measure import Face, Parts, StreamMeasure, measure_estimate, measure_exact
from .options import CardOptions

EPS_PX = 2.0
MIN_LINES = 2  # lines kept together at either side of a text split
# An estimated decision is trusted unless it is within this many lines (plus this share of
# the height involved) of its limit. Kerned font metrics and the same greedy breaking make the
# estimate agree with WeasyPrint's layout to a fraction of a pixel on almost every block; where
# they disagree it is by a whole line (a word breaking differently; about one stream in 80 on
# the real export, bench/RESULTS.md), which no band under a line would catch. So the band only
# absorbs rounding, and the final layout catches the one disagreement that would spoil a card
# (an overflow): that record is then fitted again exactly (`make_cards`).
BAND_LINES = 0.02
BAND_SHARE = 0.0
RULES_SHEET_PT = 7.0

__all__ = ["Face", "assemble", "face_room", "pack", "split_text"]


def face_room(opts: CardOptions, body_top_px: float, slack_px: float = 0.0) -> float:
    """Body height available on a face: card height less header and bottom padding."""
    from .boxes import PX_PER_MM

    _, ch = opts.card_mm
    return ch * PX_PER_MM - body_top_px - opts.padding_mm * PX_PER_MM - slack_px


# ---------------------------------------------------------------- one card: front and back
class _Judge:
    """Records how close the decisions of one packing came to their limits."""

    def __init__(self, line_px: float):
        self.line_px = line_px
        self.sure = True

    def fits(self, need: float, room: float) -> bool:
        margin = room - EPS_PX - need
        if abs(margin) < BAND_LINES * self.line_px + BAND_SHARE * need:
            self.sure = False
        return margin >= 0


def pack_card(blocks: Sequence[Block], parts: Sequence[Parts], n_front: int, room: float,
              judge: _Judge) -> tuple[list[Block], list[Block]] | None:
    """Front and back of one card, or None when the back overflows.

    Front blocks fill the front in order; the first that does not fit is split (a table
    between rows, a text between lines, two lines at least on each side) when part of it
    fits; the rest of it, the later front blocks and the back blocks go on the back, which
    must hold them all.
    """
    front: list[Block] = []
    used = 0.0
    i = 0
    rest: list[tuple[Block, Parts]] = []
    while i < n_front:
        b, p = blocks[i], parts[i]
        if judge.fits(used + p.height, room):
            front.append(b)
            used += p.height
            i += 1
            continue
        keep = MIN_LINES if b.split == "text" else 1
        best = None
        if b.split and len(p.pieces) >= 2 * keep:
            for j in range(keep - 1, len(p.pieces) - keep):
                if judge.fits(used + p.split_height(j), room):
                    best = j
                else:
                    break
        cut = _cut(b, p, best) if best is not None else None
        if cut is not None:
            front.append(cut[0])
            rest.append(cut[1:])
            i += 1
        break
    rest.extend(zip(blocks[i:n_front], parts[i:n_front]))
    rest.extend(zip(blocks[n_front:], parts[n_front:]))
    if not judge.fits(sum(p.height for _, p in rest), room):
        return None
    return front, [b for b, _ in rest]


def _cut(block: Block, parts: Parts, j: int) -> tuple[Block, Block, Parts] | None:
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


def _stream(c: CardContent, size: float) -> Face:
    return Face(c.title, c.meta, c.kind, "front", tuple(c.front) + tuple(c.back), size)


def fit_cards(contents: Sequence[CardContent], opts: CardOptions, exact: frozenset[int] | set[int] = frozenset(),
              slack: dict[int, float] | None = None) -> dict[int, tuple[CardContent, float, list[Block], list[Block]] | None]:
    """For each record: (content, size, front blocks, back blocks) on one card, or None.

    The content is the record's own or, when that fits at no size, its first fallback that
    does (shorter rules on the back). Sizes are tried largest first; a size is judged on
    estimates when they are clear, else measured with WeasyPrint, the streams of a round
    measured together. Records in `exact` or `slack` (and all with `opts.exact`) are measured
    at every size tried.
    """
    steps = opts.font_steps()
    slack = slack or {}
    exact = set(exact) | set(slack)
    variants = {i: (c, *c.fallbacks) for i, c in enumerate(contents) if c.kind != "rules"}
    # position per record: (variant, step)
    pos = {i: (0, 0) for i in variants}
    done: dict[int, tuple[CardContent, float, list[Block], list[Block]] | None] = {}
    measured: dict[tuple[int, int, int], StreamMeasure] = {}
    while pos:
        wanted: list[tuple[int, int, int]] = []
        for i, (v, k) in list(pos.items()):
            while v < len(variants[i]):
                c = variants[i][v]
                if k >= len(steps):
                    v, k = v + 1, 0
                    continue
                stream = _stream(c, steps[k])
                if k < len(steps) - 1 and not names_fit(c.front, steps[k], opts.card_mm[0] - 2 * opts.padding_mm):
                    k += 1
                    continue
                m = measured.get((i, v, k))
                if m is None and not (opts.exact or i in exact):
                    m = measure_estimate(stream, opts)
                    judge = _Judge(steps[k] * 96 / 72 * 1.2)
                    packed = pack_card(stream.blocks, m.parts, len(c.front), face_room(opts, m.body_top), judge)
                    if not judge.sure:
                        m = None
                    elif packed is not None:
                        done[i] = (c, steps[k], *packed)
                        break
                    else:
                        k += 1
                        continue
                if m is None:
                    wanted.append((i, v, k))
                    break
                room = face_room(opts, m.body_top, slack.get(i, 0.0))
                packed = pack_card(stream.blocks, m.parts, len(c.front), room, _Judge(1.0))
                if packed is not None:
                    done[i] = (c, steps[k], *packed)
                    break
                k += 1
            if i in done:
                del pos[i]
            elif v >= len(variants[i]):
                done[i] = None
                del pos[i]
            else:
                pos[i] = (v, k)
        if wanted:
            streams = [_stream(variants[i][v], steps[k]) for i, v, k in wanted]
            for key, m in zip(wanted, measure_exact(streams, opts)):
                measured[key] = m
    return done


# ---------------------------------------------------------------- several cards
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
    return _cut(block, parts, best) if best is not None else None


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


def _many_faces(c: CardContent, size: float, opts: CardOptions, slack: float) -> list[list[Block]]:
    """A record over as many faces as it needs at `size`, measured exactly (the face count
    reserves room in the header for "k/n"; `assemble` measures all such records together first)."""
    stream = replace(_stream(c, size), total=9)
    m = measure_exact([stream], opts)[0]
    return pack(stream.blocks, m.parts, face_room(opts, m.body_top, slack))


def _many_size(c: CardContent, opts: CardOptions) -> float:
    return RULES_SHEET_PT if c.kind == "rules" else opts.floor_pt


# ---------------------------------------------------------------- all cards
def assemble(contents: Sequence[CardContent], opts: CardOptions, slack: dict[int, float] | None = None,
             exact: frozenset[int] | set[int] = frozenset(), chosen: list | None = None
             ) -> list[tuple[Face, Face]]:
    """Every record's cards as (front, back) face pairs, numbered k/n per record.

    A record that fits one card gets its front and back; one that does not is packed over
    faces at the floor size, card k taking faces 2k-1 and 2k. The rules sheet (kind "rules")
    is always packed over faces. `slack` (px per record index) shrinks a record's room after
    the final layout found it overflowing; such records are also fitted exactly. `chosen`,
    when given, receives the content each record was printed with (its own or a fallback).
    """
    slack = slack or {}
    fitted = fit_cards(contents, opts, exact, slack)
    many = [c for i, c in enumerate(contents) if fitted.get(i) is None]
    if many:  # one layout for every record that takes several cards (cached for _many_faces)
        measure_exact([replace(_stream(c, _many_size(c, opts)), total=9) for c in many], opts)
    pairs: list[tuple[Face, Face]] = []
    for i, c in enumerate(contents):
        one = fitted.get(i)
        if chosen is not None:
            chosen.append(one[0] if one is not None else c)
        if one is not None:
            c, size, front, back = one
            base = Face(c.title, c.meta, c.kind, "front", tuple(front), size, key=(i, "card"))
            pairs.append((base, replace(base, side="back" if back else "blank", blocks=tuple(back))))
            continue
        size = _many_size(c, opts)
        faces = [Face(c.title, c.meta, c.kind, "front" if k % 2 == 0 else "back", tuple(b), size, key=(i, "card"))
                 for k, b in enumerate(_many_faces(c, size, opts, slack.get(i, 0.0)))]
        if len(faces) % 2:
            faces.append(replace(faces[-1], side="blank", blocks=()))
        total = len(faces) // 2
        numbered = [replace(f, number=k // 2 + 1, total=total) for k, f in enumerate(faces)]
        pairs.extend(zip(numbered[0::2], numbered[1::2]))
    return pairs
