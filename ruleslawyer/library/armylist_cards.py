"""The records to print as cards for an army list: each unit's datasheet showing the wargear the
list chose (with its enhancement as an ability on its bearer), then the chosen detachments'
stratagems and enhancements.

    list_card_records(store, path) -> ListCards

The cards package prints datasheets and stratagems; an enhancement goes to it as a stratagem-
shaped record (category "Enhancement", its restriction and text as target and effect), so it
gets a card of its own without the cards package knowing army lists.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..records import Ability, Datasheet, Enhancement, Record, Stratagem
from .armylist import ListCheck, ResolvedUnit, check_list


@dataclass
class ListCards:
    """What to print: `records` in order, the corpus records rules are resolved in, and the check."""

    records: list[Record]
    corpus_records: list[Record]
    check: ListCheck


def unit_card_record(u: ResolvedUnit) -> Datasheet | None:
    """The unit's datasheet narrowed to its chosen weapons, its enhancement added as an ability,
    and its list name in the title when that differs (None when the unit is unresolved)."""
    d = u.datasheet
    if d is None:
        return None
    weapons = tuple(u.chosen_weapons()) or d.weapons  # a list that names no weapon keeps them all
    abilities = d.abilities
    if u.enhancement is not None:
        e = u.enhancement
        pts = f" ({e.points} pts)" if e.points is not None else ""
        abilities = abilities + (Ability(f"Enhancement: {e.name}{pts}", e.text, "enhancement"),)
    elif u.entry.enhancement:
        abilities = abilities + (Ability(f"Enhancement: {u.entry.enhancement}",
                                         "(not found in the store; see the list check)", "enhancement"),)
    if u.entry.warlord:
        abilities = abilities + (Ability("Warlord", "This model is your Warlord.", "list"),)
    return replace(d, weapons=weapons, abilities=abilities)


def enhancement_card(e: Enhancement) -> Stratagem:
    """An enhancement as a stratagem-shaped record, for the cards package."""
    return Stratagem(name=e.name, source=e.source, edition=e.edition, faction=e.faction, cp=None,
                     category=f"Enhancement{f', {e.points} pts' if e.points is not None else ''}",
                     group=e.group, effect=e.text, restrictions=e.restriction, fluff=None)


def list_card_records(store, path: str | Path) -> ListCards:
    """Read the list at `path`, check it against the store, and give the records to print."""
    from ..ingest.sources.armylists import load_list
    from .corpus import load_corpus

    corpus = load_corpus(store).records
    check = check_list(load_list(path), corpus)
    out: list[Record] = []
    for u in check.units:
        card = unit_card_record(u)
        if card is not None:
            out.append(card)
    for det in check.detachments:
        out.extend(det.stratagems)
        out.extend(enhancement_card(e) for e in det.enhancements)
    return ListCards(out, corpus, check)
