"""The price `show` gives the record it picked (`pick.pick_record`): one place that asks the
price resolver (`prices`) for a datasheet, a detachment rule's detachment or one enhancement."""
from __future__ import annotations

from ..names import fold
from ..records import Record
from .corpus import Corpus
from .reconcile import identity


def shown_price(corpus: Corpus, record: Record, newest: bool = False) -> tuple[object | None, object | None]:
    """(price, points) `show` gives a picked record: the current price (`prices.Price`) of a
    datasheet, or of the detachment of a detachment rule or enhancement (narrowed to the
    enhancement), and the points entries of its name. With `newest` (no edition asked for) a
    unit is priced in its current edition: the newest that prices it, which may be newer than its
    newest datasheet (`Price.edition` says). (None, None) for other kinds."""
    if record.kind not in ("datasheet", "detachment_rule", "enhancement"):
        return None, None
    from .points import points_of
    from .prices import current_price

    name, target = (record.name, "datasheet") if record.kind == "datasheet" else (record.group, "detachment")
    if not name:
        return None, None
    faction = getattr(record, "faction", None)
    if record.kind == "enhancement":
        return _enhancement_price(corpus, record, newest), points_of(corpus.records, name, faction, target,
                                                                     record.edition)
    if newest and record.kind == "datasheet" and record.edition:
        # priced as its card and page price it: the picked printing is its name's newest
        from .prices import PriceIndex, datasheet_price

        price = datasheet_price(PriceIndex(corpus), record, {(fold(name), fold(faction or "")): record.edition})
    else:
        price = current_price(corpus, name, faction, record.edition, target_kind=target)
    # the record's own printed points need no line of their own: its card already gives them
    own = price is not None and price.record is not None and identity(price.record) == identity(record) \
        and price.file == record.source.file
    return (None if own else price), points_of(corpus.records, name, faction, target, record.edition)


def _enhancement_price(corpus: Corpus, record: Record, newest: bool):
    """An enhancement's current cost: its detachment's price, narrowed to this enhancement, from
    the newest source (of the newest edition from the record's on, with `newest`) that names it;
    None when no source names it (its printed cost stands)."""
    import dataclasses

    from .prices import price_sources

    sources = [p for p in price_sources(corpus, record.group, getattr(record, "faction", None),
                                        None if newest else record.edition, target_kind="detachment")
               if not record.edition or not p.edition or (p.edition >= record.edition if newest
                                                          else p.edition == record.edition)]
    sources.sort(key=lambda p: p.edition or 0, reverse=True)  # stable: newest first within an edition
    for price in sources:
        item = next((c for c in price.wargear_costs if fold(c.name) == fold(record.name)), None)
        if item is not None:
            return dataclasses.replace(price, name=record.name, wargear_costs=(item,), detachment_points=None)
    return None
