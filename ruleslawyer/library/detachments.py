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
from .prices import bare_name

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
    # the newest source of this edition that lists the enhancements with their costs (a points
    # list), when the current price (a Detachment Points figure) does not
    listed: object | None = None
    # where the parts were read: (file, publication date or None), one per file
    sources: list[tuple[str, str | None]] = field(default_factory=list)
    also_printed_in: list[str] = field(default_factory=list)  # other files printing the same parts
    # records of an older edition called by the detachment's name (a 9th edition stratagem
    # "Talons of the Emperor" beside the 11th edition detachment): named under "also"
    also: list[Record] = field(default_factory=list)

    def enhancement_cost(self, enhancement: Enhancement) -> int | None:
        """An enhancement's cost: the current price's (or the points list's), else the one
        printed with it."""
        for price in (self.price, self.listed):
            for item in getattr(price, "wargear_costs", ()) or ():
                if bare_name(fold(item.name)) == bare_name(fold(enhancement.name)):
                    return item.points
        return enhancement.points

    @property
    def listed_only(self) -> list:
        """The enhancements (ItemCost: name, points) the current points list names and no
        stored record describes: their costs are known, their text is not in the documents."""
        known = {bare_name(fold(e.name)) for e in self.enhancements}
        price = self.price if getattr(self.price, "wargear_costs", None) else self.listed
        return [item for item in getattr(price, "wargear_costs", ()) or ()
                if bare_name(fold(item.name)) not in known]

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
    is itself called `name` (that record is meant), unless, with no `edition` asked for, every
    such record is of an older edition than the detachment (they are then in `also`)."""
    want = fold(name)
    if not want:
        return None
    members = [r for r in corpus.records if isinstance(r, _KINDS) and fold(r.group or "") == want
               and (faction is None or fold(r.faction or "").startswith(fold(faction)))]
    if not members:
        return _priced_only(corpus, name, faction, edition)
    files = {r.source.file for r in members}
    editions = sorted({r.edition or 0 for r in members}, reverse=True)
    chosen = edition if edition is not None else editions[0]
    # A record called `name` is meant, unless it is a plain rule printed in a document that
    # prints this detachment's parts (the detachment's introduction, read as a rule), or, when
    # no edition is asked for, it is of an older edition than the detachment: the current
    # edition's thing answers, the older one is named under "also".
    named = [r for r in corpus.records if fold(getattr(r, "name", "") or "") == want
             and r.kind not in ("points", "errata", "faq") and not (r.kind == "rule" and r.source.file in files)
             and (faction is None or fold(getattr(r, "faction", None) or "").startswith(fold(faction)))
             and (edition is None or r.edition == edition)]
    older = [r for r in named if edition is None and (r.edition or 0) < (chosen or 0)]
    if exact_only and len(older) < len(named):
        return None
    members = [r for r in members if (r.edition or 0) == (chosen or 0)]
    if not members:
        return None
    from .samething import one_per_thing

    members, merged = one_per_thing(corpus, members)  # a part printed by a pack and an export is one part
    factions = {r.faction for r in members if r.faction}
    owner = sorted(factions)[0] if len(factions) == 1 else None
    detachment = Detachment(name=members[0].group or name, faction=owner, edition=chosen or None,
                            other_editions=[e for e in editions if e and e != chosen])
    for r in sorted(members, key=lambda r: fold(r.name)):
        _add(detachment, r)
    from .prices import current_price

    detachment.price = current_price(corpus, detachment.name, owner, detachment.edition, target_kind="detachment")
    if not getattr(detachment.price, "wargear_costs", None):
        from .prices import price_sources

        detachment.listed = next((p for p in price_sources(corpus, detachment.name, owner, detachment.edition,
                                                           target_kind="detachment") if p.wargear_costs), None)
    dates = {}
    for r in members:
        dates.setdefault(r.source.file, corpus.date_of(r))
    detachment.sources = sorted(dates.items())
    detachment.also_printed_in = sorted({r.source.file for r in merged} - set(dates))
    detachment.also = older
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
