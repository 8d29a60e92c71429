"""Fitting each record on one card: the largest type that fits front and back, else more cards.

A datasheet's front blocks go on the front in order while they fit (a weapons table may split
between rows, its header repeated; an ability never splits); the rest, then the back blocks, go
on the back. When the back cannot hold them, the back blocks first use the front's free space.
The card's type size is the largest step, from the card size's maximum down to 7 pt, at which
that works, every rule in full (its operative text). When no size does, the record goes over two
cards (k/n), every rule still in full, at the largest type that needs no more faces. Only when
two cards do not hold them is the last resort taken: each long rule by the sentence that says
what it does, with a reference to the rules sheet by name and number (then the longest rules
by name and number only, one by one), on one card when that fits. The cards of one set are
then given one type size where that leaves every face at least 60% full (`harmonise`).

Speed: every size is first judged on estimated geometry (`measure.measure_estimate`, font
metrics only). An estimate is trusted only when each decision it leads to (does this block fit
the room left?) clears the room by a margin larger than the estimate's error; otherwise that
size is laid out with WeasyPrint (`measure.measure_exact`), all such streams of a round in one
layout. So the result is the one an exact fit at every size gives (`CardOptions(exact=True)`,
the reference, and `tests/test_cards_real.py` compares them) for a fraction of its cost. A
record over several cards is packed on estimates with a line of each face kept free; the final
layout's check (`make_cards`) refits exactly the rare face that still overflows.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from .content import Block, CardContent
from .estimate import LH, names_fit
from .measure import Face, Parts, StreamMeasure, measure_estimate, measure_exact
from .options import CardOptions
from .paginate import EPS_PX, cut_block, face_room, pack, split_text, steps_of, stream_of
from .spread import MAX_FACES, at_size, over_cards, rank_of, spread_faces, variants_of

# An estimated decision is trusted unless it is within this many lines (plus this share of
# the height involved) of its limit. Kerned font metrics and the same greedy breaking make the
# estimate agree with WeasyPrint's layout to a fraction of a pixel on almost every block; where
# they disagree it is by a whole line (a word breaking differently; about one stream in 80 on
# the real export, bench/RESULTS.md), which no band under a line would catch. So the band only
# absorbs rounding, and the final layout catches the one disagreement that would spoil a card
# (an overflow): that record is then fitted again exactly (`make_cards`).
BAND_LINES = 0.02
BAND_SHARE = 0.0
MIN_FILL = 0.6  # a face is not left emptier than this by the set's common type size

__all__ = ["Face", "assemble", "face_room", "pack", "split_text"]


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
              judge: _Judge, spill: bool = False) -> tuple[list[Block], list[Block]] | None:
    """Front and back of one card, or None when the back overflows.

    Front blocks fill the front in order; the first that does not fit is split between rows
    when it is a table and part of it fits (a text, an ability, is never split: it goes whole
    to the back); the rest of it, the later front blocks and the back blocks go on the back,
    which must hold them all. With `spill`, back blocks first fill what the front leaves free.
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
        best = None
        if b.split == "rows" and len(p.pieces) >= 2:
            for j in range(0, len(p.pieces) - 1):
                if judge.fits(used + p.split_height(j), room):
                    best = j
                else:
                    break
        cut = cut_block(b, p, best) if best is not None else None
        if cut is not None:
            front.append(cut[0])
            rest.append(cut[1:])
            i += 1
        break
    rest.extend(zip(blocks[i:n_front], parts[i:n_front]))
    later = list(zip(blocks[n_front:], parts[n_front:]))
    if spill and not rest:
        while later:
            b, p = later[0]
            need = p.height + (later[1][1].height if b.keep_with_next and len(later) > 1 else 0.0)
            if not judge.fits(used + need, room):
                break
            front.append(b)
            used += p.height
            later.pop(0)
    rest.extend(later)
    if not judge.fits(sum(p.height for _, p in rest), room):
        return None
    return front, [b for b, _ in rest]


def _pack_either(blocks, parts, n_front, room, judge):
    """The card packed as printed (front, then back); else with the back using the front's room."""
    return pack_card(blocks, parts, n_front, room, judge) or pack_card(blocks, parts, n_front, room, judge, spill=True)


def fit_cards(contents: Sequence[CardContent], opts: CardOptions, exact: frozenset[int] | set[int] = frozenset(),
              slack: dict[int, float] | None = None, *, last_resort: bool = False,
              only: set[int] | None = None) -> dict[int, tuple[CardContent, float, list[Block], list[Block]] | None]:
    """For each record (of `only`, when given): (content, size, front blocks, back blocks) on
    one card, or None.

    The content is the record's own (every rule in full, with the composition and wargear
    options) or, when that fits at no size, its first fallback that does (every rule in full,
    without them). With `last_resort`, only the last resorts are tried instead (long rules by
    their key sentence, then the longest by name and number): `assemble` asks for them only
    when two cards do not hold the rules in full. Sizes are tried largest first; a size is
    judged on estimates when they are clear, else measured with WeasyPrint, the streams of a
    round measured together. Records in `exact` or `slack` (and all with `opts.exact`) are
    measured at every size tried.
    """
    all_steps = opts.font_steps()
    slack = slack or {}
    exact = set(exact) | set(slack)
    # with `one_card`, the last resorts follow at once: one card a unit, never a second
    variants = {i: variants_of(c, last_resort) + (variants_of(c, True) if opts.one_card and not last_resort else ())
                for i, c in enumerate(contents) if c.kind != "rules" and (only is None or i in only)}
    # position per record: (variant, step)
    pos = {i: (0, 0) for i in variants}
    done: dict[int, tuple[CardContent, float, list[Block], list[Block]] | None] = {}
    measured: dict[tuple[int, int, int], StreamMeasure] = {}
    while pos:
        wanted: list[tuple[int, int, int]] = []
        for i, (v, k) in list(pos.items()):
            while v < len(variants[i]):
                c = variants[i][v]
                steps = steps_of(c, all_steps)
                if k >= len(steps):
                    v, k = v + 1, 0
                    continue
                stream = stream_of(c, steps[k])
                if k < len(steps) - 1 and not names_fit(c.front, steps[k], opts.card_mm[0] - 2 * opts.padding_mm):
                    k += 1
                    continue
                m = measured.get((i, v, k))
                if m is None and not (opts.exact or i in exact):
                    m = measure_estimate(stream, opts)
                    judge = _Judge(steps[k] * 96 / 72 * LH)
                    packed = _pack_either(stream.blocks, m.parts, len(c.front), face_room(opts, m.body_top), judge)
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
                packed = _pack_either(stream.blocks, m.parts, len(c.front), room, _Judge(1.0))
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
            streams = [stream_of(variants[i][v], steps_of(variants[i][v], all_steps)[k]) for i, v, k in wanted]
            for key, m in zip(wanted, measure_exact(streams, opts)):
                measured[key] = m
    return done


def face_fill(blocks: Sequence[Block], c: CardContent, size: float, opts: CardOptions) -> float:
    """How full a face holding `blocks` is (0..1 of its body room), from font metrics."""
    m = measure_estimate(Face(c.title, c.meta, c.kind, "front", tuple(blocks), size), opts)
    return sum(p.height for p in m.parts) / max(face_room(opts, m.body_top), 1.0)


def _fills(one, opts: CardOptions) -> list[float]:
    c, size, front, back = one
    return [face_fill(f, c, size, opts) for f in (front, back) if f]


def _sizes(fitted: dict, contents: Sequence[CardContent]) -> list[float]:
    """The type sizes of the records printed on one card (not the rules sheet)."""
    return [one[1] for i, one in fitted.items() if one is not None and contents[i].kind != "rules"]


def harmonise(fitted: dict, contents: Sequence[CardContent], opts: CardOptions,
              slack: dict[int, float], common: float | None = None) -> dict:
    """One type size for the set where the content allows: every card printed on one card takes
    the smallest size any of them needs (or `common`), unless that leaves one of its faces under
    MIN_FILL full when its own size did not (a card that is short anyway follows the set)."""
    sizes = set(_sizes(fitted, contents))
    if common is None and len(sizes) < 2:
        return fitted
    common = min(sizes) if common is None else common
    out = dict(fitted)
    for i, one in fitted.items():
        if one is None or one[1] == common or i in slack:
            continue
        c = one[0]
        stream = stream_of(c, common)
        m = measure_estimate(stream, opts)
        packed = _pack_either(stream.blocks, m.parts, len(c.front), face_room(opts, m.body_top), _Judge(1.0))
        if packed is None:
            continue
        candidate = (c, common, *packed)
        own_ok = min(_fills(one, opts)) >= MIN_FILL
        if not own_ok or min(_fills(candidate, opts)) >= MIN_FILL:
            out[i] = candidate
    return out


# ---------------------------------------------------------------- all cards
def assemble(contents: Sequence[CardContent], opts: CardOptions, slack: dict[int, float] | None = None,
             exact: frozenset[int] | set[int] = frozenset(), chosen: list | None = None
             ) -> list[tuple[Face, Face]]:
    """Every record's cards as (front, back) face pairs, numbered k/n per record.

    The order for a record's rules: (1) every rule in full on one card, its back first, (2) then
    also in the front's free space (`fit_cards`); (3) else over two cards, every rule in full,
    card k taking faces 2k-1 and 2k; (4) only when two cards do not hold them, the last resort:
    long rules by their key sentence with a rules sheet reference (then the longest by name and
    number), on one card when that fits, else over cards. The rules sheet (kind "rules") is
    always packed over faces. `slack` (px per record index) shrinks a record's room after the
    final layout found it overflowing; such records are also fitted exactly. `chosen`, when
    given, receives the content each record was printed with (its own or a fallback).
    """
    slack = slack or {}
    fitted = fit_cards(contents, opts, exact, slack)
    printed: dict[int, tuple[CardContent, float]] = {}
    spread: dict[int, list[list[Block]]] = {}
    todo = [i for i in range(len(contents)) if fitted.get(i) is None]
    for last_resort in (False, True):
        if last_resort and todo and not opts.one_card:  # (one_card: fit_cards tried them already)
            again = fit_cards(contents, opts, exact, slack, last_resort=True, only=set(todo))
            for i, one in again.items():
                # one card, unless two hold more of the rules' text (key sentences before names)
                plan = over_cards(contents[i], opts, True)
                order = variants_of(contents[i], True)
                if one is not None and (plan is None or rank_of(order, one[0]) <= rank_of(order, plan[0])):
                    fitted[i] = one
            todo = [i for i in todo if fitted.get(i) is None]
        # one_card: a unit goes over cards only when its front alone is too long, in its last resort
        last_resort = last_resort or opts.one_card
        plans = {i: over_cards(contents[i], opts, last_resort) for i in todo}
        plans = {i: plan for i, plan in plans.items() if plan is not None}
        # the set's one type size (`harmonise`) chosen before the layout, so it is laid out once
        sizes = _sizes(fitted, contents) + [size for c, size in (*printed.values(), *plans.values())
                                            if c.kind != "rules"]
        plans = at_size(plans, min(sizes, default=None), opts, slack)
        exactly = {i for i in plans if opts.exact or i in exact or i in slack or plans[i][0].kind == "rules"}
        faces = spread_faces(plans, exactly, opts, slack)
        # two cards hold every rule in full only by the estimate's margin: the exact layout decides
        close = {i for i, f in faces.items() if not last_resort and i not in exactly and len(f) > MAX_FACES}
        faces.update(spread_faces({i: plans[i] for i in close}, close, opts, slack))
        for i, (c, size) in plans.items():
            if last_resort or c.kind == "rules" or len(faces[i]) <= MAX_FACES:
                printed[i], spread[i] = (c, size), faces[i]
        todo = [i for i in todo if i not in printed]
    sizes = _sizes(fitted, contents) + [size for c, size in printed.values() if c.kind != "rules"]
    fitted = harmonise(fitted, contents, opts, slack, min(sizes, default=None))
    pairs: list[tuple[Face, Face]] = []
    for i, c in enumerate(contents):
        one = fitted.get(i)
        if chosen is not None:
            chosen.append(one[0] if one is not None else printed[i][0])
        if one is not None:
            c, size, front, back = one
            base = Face(c.title, c.meta, c.kind, "front", tuple(front), size, key=(i, "card"))
            pairs.append((base, replace(base, side="back" if back else "blank", blocks=tuple(back))))
            continue
        c, size = printed[i]
        faces = [Face(c.title, c.meta, c.kind, "front" if k % 2 == 0 else "back", tuple(b), size, key=(i, "card"))
                 for k, b in enumerate(spread[i])]
        if len(faces) % 2:
            faces.append(replace(faces[-1], side="blank", blocks=()))
        total = len(faces) // 2
        numbered = [replace(f, number=k // 2 + 1, total=total) for k, f in enumerate(faces)]
        pairs.extend(zip(numbered[0::2], numbered[1::2]))
    return pairs
