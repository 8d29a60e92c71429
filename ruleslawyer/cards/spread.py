"""Records over several cards: how many faces a record takes, at what type size, with which of
its contents (every rule in full over two cards, else a last resort), and its blocks over those
faces. `fit.py` asks for them when a record fits no single card.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from .content import Block, CardContent
from .estimate import LH
from .measure import measure_estimate, measure_exact
from .options import CardOptions
from .paginate import face_room, pack, steps_of, stream_of

RULES_SHEET_PT = 7.0
MAX_FACES = 4  # two cards: more, and the rules are named with their numbers instead
MARGIN_LINES = 1.0  # a face of a record over several cards planned on estimates keeps this free

__all__ = ["MAX_FACES", "at_size", "estimated", "largest", "many_faces", "over_cards", "plain_content", "rank_of",
           "spread_faces", "variants_of"]


def variants_of(c: CardContent, last_resort: bool) -> tuple[CardContent, ...]:
    """The contents of a record to try, in order: every rule in full, or the last resorts."""
    return tuple(v for v in (c, *c.fallbacks) if v.last_resort == last_resort)


def rank_of(order: Sequence[CardContent], c: CardContent) -> int:
    """Where `c` is in `order` (by identity; past the end when it is not there)."""
    return next((k for k, v in enumerate(order) if v is c), len(order))


def many_faces(c: CardContent, size: float, opts: CardOptions, slack: float, exact: bool) -> list[list[Block]]:
    """A record over as many faces as it needs at `size` (the face count reserves room in the
    header for "k/n"). Measured exactly when `exact` (`assemble` measures all such records
    together first), else estimated from font metrics with MARGIN_LINES of each face kept free
    for a line the estimate breaks differently; the final layout's check refits the rare face
    that still overflows, exactly (`make_cards`)."""
    stream = replace(stream_of(c, size), total=9)
    if exact:
        m = measure_exact([stream], opts)[0]
        return pack(stream.blocks, m.parts, face_room(opts, m.body_top, slack))
    m = measure_estimate(stream, opts)
    margin = MARGIN_LINES * size * 96 / 72 * LH
    return pack(stream.blocks, m.parts, face_room(opts, m.body_top, slack + margin))


def spread_faces(plans: dict, exactly: set[int], opts: CardOptions, slack: dict[int, float]) -> dict:
    """The faces of each record of `plans` ((content, size) by record), those in `exactly`
    measured exactly, all in one layout."""
    if exactly:
        measure_exact([replace(stream_of(*plans[i]), total=9) for i in exactly], opts)
    return {i: many_faces(c, size, opts, slack.get(i, 0.0), i in exactly) for i, (c, size) in plans.items()}


def plain_content(c: CardContent) -> CardContent:
    """What a record prints over several cards: every rule in full, without the optional extras."""
    plain = [v for v in (c, *c.fallbacks) if not v.last_resort and not v.referenced]
    return plain[-1] if plain else c


def estimated(c: CardContent, size: float, opts: CardOptions) -> tuple[int, int]:
    """(faces, texts divided between two faces) of `c` at `size`, from font metrics (no layout)."""
    stream = replace(stream_of(c, size), total=9)
    m = measure_estimate(stream, opts)
    faces = pack(stream.blocks, m.parts, face_room(opts, m.body_top))
    return len(faces), sum(1 for f in faces for b in f if b.continued and b.split == "text")


def largest(c: CardContent, opts: CardOptions) -> float | None:
    """The largest type size (of those `c` may take) at which `c` takes no more faces than at
    the floor and divides no more texts between faces (an ability is divided only when it is
    taller than a face even at the floor)."""
    at_floor = estimated(replace(c, min_pt=0.0), opts.floor_pt, opts)
    return next((x for x in steps_of(c, opts.font_steps())
                 if all(n <= m for n, m in zip(estimated(c, x, opts), at_floor))), None)


def over_cards(c: CardContent, opts: CardOptions, last_resort: bool = False) -> tuple[CardContent, float] | None:
    """For a record that fits no single card: the content and type size to print it over cards
    with, or None. First every rule in full over two cards (MAX_FACES faces), with the
    composition and wargear options when they take no more faces; None when two cards do not
    hold them. With `last_resort` (then), the first of the last resorts that two cards hold:
    long rules by their key sentence, then the longest by name and number; past two cards
    only when even the front is that long. The type is the largest at which it takes no more
    faces than at the floor. Chosen on estimates; `assemble` lays the choices out exactly, all
    in one layout. The rules sheet goes over as many faces as it needs, at its own size."""
    if c.kind == "rules":
        return c, RULES_SHEET_PT
    floor = opts.floor_pt
    plain = plain_content(c)
    if not last_resort:
        if estimated(plain, floor, opts)[0] > MAX_FACES:
            return None
        # the composition and wargear options too, when they take no more faces
        same = c is not plain and estimated(c, floor, opts)[0] <= estimated(plain, floor, opts)[0]
        extra = largest(c, opts) if same else None
        return (c, extra) if extra is not None else (plain, largest(plain, opts) or floor)
    kept = [v for v in (c, *c.fallbacks) if v.last_resort] or [plain]
    chosen = next((v for v in kept if estimated(v, floor, opts)[0] <= MAX_FACES), kept[-1])
    return chosen, largest(chosen, opts) or floor


def at_size(plans: dict, common: float | None, opts: CardOptions, slack: dict[int, float]) -> dict:
    """`plans` ((content, size) of records over several cards) at the set's type size `common`
    where, by the estimates, that takes no more faces and divides no more rules."""
    if common is None:
        return plans
    return {i: (c, common) if (c.kind != "rules" and size > common >= c.min_pt and i not in slack and
                               all(n <= m for n, m in zip(estimated(c, common, opts), estimated(c, size, opts))))
            else (c, size) for i, (c, size) in plans.items()}
