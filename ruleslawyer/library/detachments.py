"""A detachment as one answer: its rule, its enhancements with their costs, its stratagems and
its Detachment Points, gathered from the records that name it as their group.

Detachments are not records of their own: a detachment rule, an enhancement and a stratagem
each carry the detachment's name in `group`, and the points list prices the detachment as an
entry of its own (`Points.target_kind == "detachment"`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..names import fold
from ..records import DetachmentRule, Enhancement, Record, Stratagem
from .corpus import Corpus

_KINDS = (DetachmentRule, Enhancement, Stratagem)


@dataclass
class Detachment:
    """One detachment of one faction and edition, and the current price of it (a prices.Price)."""

    name: str
    faction: str | None
    edition: int | None
    rules: list[DetachmentRule] = field(default_factory=list)
    enhancements: list[Enhancement] = field(default_factory=list)
    stratagems: list[Stratagem] = field(default_factory=list)
    price: object | None = None
    other_editions: list[int] = field(default_factory=list)
    # the price of a newer edition whose rules the store does not hold (a points list only)
    newer_price: object | None = None

    def enhancement_cost(self, enhancement: Enhancement) -> int | None:
        """An enhancement's cost: the current price's, else the one printed with it."""
        for item in getattr(self.price, "wargear_costs", ()) or ():
            if fold(item.name) == fold(enhancement.name):
                return item.points
        return enhancement.points

    @property
    def detachment_points(self) -> int | None:
        """What the detachment costs in Detachment Points (11th edition)."""
        dp = getattr(self.price, "detachment_points", None)
        if dp is not None:
            return dp
        return next((r.detachment_points for r in self.rules if r.detachment_points is not None), None)


def find_detachment(corpus: Corpus, name: str, *, faction: str | None = None, edition: int | None = None,
                    exact_only: bool = True) -> Detachment | None:
    """The detachment called `name` (its newest edition unless `edition`), or None when no rule,
    enhancement or stratagem names it as its group. With `exact_only`, None also when a record
    is itself called `name` (that record is meant)."""
    want = fold(name)
    if not want:
        return None
    members = [r for r in corpus.records if isinstance(r, _KINDS) and fold(r.group or "") == want
               and (faction is None or fold(r.faction or "").startswith(fold(faction)))]
    if not members:
        return _priced_only(corpus, name, faction, edition)
    if exact_only and any(fold(getattr(r, "name", "") or "") == want for r in corpus.records
                          if r.kind not in ("points", "errata", "faq")):
        return None
    editions = sorted({r.edition or 0 for r in members}, reverse=True)
    chosen = edition if edition is not None else editions[0]
    members = [r for r in members if (r.edition or 0) == (chosen or 0)]
    if not members:
        return None
    factions = {r.faction for r in members if r.faction}
    owner = sorted(factions)[0] if len(factions) == 1 else None
    detachment = Detachment(name=members[0].group or name, faction=owner, edition=chosen or None,
                            other_editions=[e for e in editions if e and e != chosen])
    for r in sorted(members, key=lambda r: fold(r.name)):
        _add(detachment, r)
    from .prices import current_price

    detachment.price = current_price(corpus, detachment.name, owner, detachment.edition, target_kind="detachment")
    newer = _priced_only(corpus, detachment.name, owner, None)
    if newer is not None and (newer.edition or 0) > (detachment.edition or 0):
        detachment.newer_price = newer.price
    return detachment


def _add(detachment: Detachment, record: Record) -> None:
    if isinstance(record, DetachmentRule):
        detachment.rules.append(record)
    elif isinstance(record, Enhancement):
        detachment.enhancements.append(record)
    elif isinstance(record, Stratagem):
        detachment.stratagems.append(record)


def _priced_only(corpus: Corpus, name: str, faction: str | None, edition: int | None) -> Detachment | None:
    """A detachment only a points list names (its rules not ingested): its price alone."""
    from .prices import price_sources

    prices = [p for p in price_sources(corpus, name, faction, edition, target_kind="detachment")
              if fold(p.name) == fold(name)]
    if not prices:
        return None
    price = prices[0]
    return Detachment(name=price.name, faction=price.faction, edition=price.edition, price=price)
