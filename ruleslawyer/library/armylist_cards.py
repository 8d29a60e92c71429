"""The records to print as cards for an army list: each unit's datasheet showing the wargear the
list chose (with its enhancement as an ability on its bearer), then the chosen detachments' rules
and stratagems, and the enhancements the list takes (not every one its detachments offer).

    list_card_records(store, path) -> ListCards

The cards package prints datasheets and stratagems; an enhancement goes to it as a stratagem-
shaped record (category "Enhancement", its restriction and text as target and effect), so it
gets a card of its own without the cards package knowing army lists.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..records import Ability, Datasheet, DetachmentRule, Enhancement, Record, Stratagem
from .armylist import ListCheck, ResolvedUnit, check_list
from .armylist_points import UnitPrice, enhancement_pricer


@dataclass
class ListCards:
    """What to print: `records` in order, the corpus records rules are resolved in, and the check."""

    records: list[Record]
    corpus_records: list[Record]
    check: ListCheck


def unit_card_record(u: ResolvedUnit, price: UnitPrice | None = None) -> Datasheet | None:
    """The unit's datasheet narrowed to its chosen weapons, its enhancement added as an ability
    (at its current points when `price`, the unit at the current points, has them), and its
    list name in the title when that differs (None when the unit is unresolved)."""
    d = u.datasheet
    if d is None:
        return None
    weapons = tuple(u.chosen_weapons()) or d.weapons  # a list that names no weapon keeps them all
    abilities = d.abilities
    if u.enhancement is not None:
        e = u.enhancement
        now = price.enhancement if price is not None and price.enhancement is not None else e.points
        pts = f" ({now} pts)" if now is not None else ""
        abilities = abilities + (Ability(f"Enhancement: {e.name}{pts}", e.text, "enhancement"),)
    elif u.entry.enhancement:
        abilities = abilities + (Ability(f"Enhancement: {u.entry.enhancement}",
                                         "(not found in the store; see the list check)", "enhancement"),)
    if price is not None and price.points is not None and u.entry.points is not None and price.points != u.entry.points:
        # the list was priced under other points: the card says what this unit costs now
        tier = f", {price.tier} tier" if price.tier else ""
        by = f" by {price.source.describe()}" if price.source is not None else ""
        abilities = abilities + (Ability("Points now", f"{price.points} pts{by}{tier} (the list says {u.entry.points})",
                                         "list"),)
    if u.entry.warlord:
        abilities = abilities + (Ability("Warlord", "This model is your Warlord.", "list"),)
    return replace(d, weapons=weapons, abilities=abilities)


def enhancement_card(e: Enhancement, points: int | None = None) -> Stratagem:
    """An enhancement as a stratagem-shaped record, for the cards package; `points` (its cost in
    the newest points list of its edition) over the points its own record prints."""
    pts = points if points is not None else e.points
    return Stratagem(name=e.name, source=e.source, edition=e.edition, faction=e.faction, cp=None,
                     category=f"Enhancement{f', {pts} pts' if pts is not None else ''}",
                     group=e.group, effect=e.text, restrictions=e.restriction, fluff=None)


def list_card_records(store, path: str | Path, *, as_of: str | None = None) -> ListCards:
    """Read the list at `path`, check it against the store (as of a date, when given), and give
    the records to print."""
    from ..ingest.sources.armylists import load_list
    from .corpus import load_corpus

    loaded = load_corpus(store, as_of=as_of)
    corpus = loaded.records
    check = check_list(load_list(path), corpus, printings=loaded.printings)
    out: list[Record] = []
    prices = check.prices.units if check.prices is not None else [None] * len(check.units)
    for u, price in zip(check.units, prices):
        card = unit_card_record(u, price)
        if card is not None:
            out.append(card)
    now = enhancement_pricer(corpus, check.edition)
    for det in check.detachments:
        out.extend(detachment_rule_card(r) for r in det.rules)
        out.extend(det.stratagems)
    # only the enhancements the list takes, each once, at their current points
    taken = {id(u.enhancement): u.enhancement for u in check.units if u.enhancement is not None}
    out.extend(enhancement_card(e, now(e.name, e.group, e.faction)) for e in taken.values())
    return ListCards(out, corpus, check)


def detachment_rule_card(rule: DetachmentRule) -> Stratagem:
    """A detachment's rule as a stratagem-shaped record (category "Detachment rule"), for its card."""
    return Stratagem(name=rule.name, source=rule.source, edition=rule.edition, faction=rule.faction, cp=None,
                     category="Detachment rule", group=rule.group, effect=rule.text, fluff=None)
