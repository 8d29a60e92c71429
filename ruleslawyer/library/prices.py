"""One current price per unit or detachment: the newest dated source of its edition, whatever
its kind.

A unit's points are printed in many places: Munitorum Field Manual versions (PDF, YAML, saved
pages), a Wahapedia export's datasheet costs, a BattleScribe catalogue's costs. Each is a
*price source* with a date (the document's own publication date, a points version's date, else
the day the file was ingested). The current price is the newest source of the unit's edition;
`show`, `points`, the cards, the site and `list check` all ask `current_price` (or, for many
look-ups, `PriceIndex`), so they agree on one number and can say where it comes from.

    from ruleslawyer.library.prices import current_price
    price = current_price(corpus, "Warboss", "Orks", 11)            # or as_of="2026-10-01"
    price.text, price.file, price.date                            # "1 model: 100 pts", ...
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..names import fold
from ..records import Datasheet, DetachmentRule, Enhancement, ItemCost, Points, Record, UnitCost
from .corpus import Corpus
from .points import version_key

_TAG_END = " ["  # a catalogue's trailing tag ("Warboss on Warbike [Legends]") is not in points lists


@dataclass(frozen=True)
class Price:
    """One source's price of a unit (costs by size and tier, wargear), of a detachment (its
    Detachment Points and enhancement costs) or of one enhancement (its cost as a 1-model size, and
    its detachment), with where and when it was printed."""

    name: str
    faction: str | None
    edition: int | None
    target_kind: str  # "datasheet", "detachment" or "enhancement"
    costs: tuple[UnitCost, ...]
    wargear_costs: tuple[ItemCost, ...]
    detachment_points: int | None
    file: str
    date: str | None  # publication date (ISO); None when only the ingest day is known
    ingested: str | None  # the ingest day of an undated file
    kind: str  # "points list" (a Field Manual version), "datasheet" (a export's or catalogue's costs)
    version: str | None = None
    record: Record | None = None
    detachment: str | None = None  # an enhancement's detachment, where the source names it

    @property
    def source(self):
        """The Source of the record the price was read from (its file, page, version)."""
        from ..records import Source

        return self.record.source if self.record is not None else Source(self.file, version=self.version)

    @property
    def text(self) -> str:
        """The price as one line ("1st-2nd: 1 model 210 pts; 3rd+: 1 model 230 pts", "3 DP; ...")."""
        from .points import costs_text, wargear_text

        if self.target_kind == "enhancement":
            return "; ".join(f"{'?' if c.points is None else c.points} pts" for c in self.costs)
        parts = []
        if self.detachment_points is not None:
            parts.append(f"{self.detachment_points} DP")
        if self.costs:
            parts.append(costs_text(self.costs))
        if self.wargear_costs and self.target_kind == "detachment":
            parts.append("enhancements " + ", ".join(f"{c.name} {'?' if c.points is None else c.points} pts"
                                                      for c in self.wargear_costs))
        elif self.wargear_costs:
            parts.append("wargear " + wargear_text(self.wargear_costs))
        return "; ".join(parts)

    @property
    def where(self) -> str:
        """Where the price is printed: "orks.yaml v1.1, 2026-07-22" or "Necrons.json v8, undated"."""
        version = f" v{self.version}" if self.version else ""
        when = self.date or "undated"
        return f"{self.file}{version}, {when}"

    def same_as(self, other: "Price") -> bool:
        """Whether two sources ask the same price (unit sizes and points; tiers and wording aside)."""
        return (_cost_set(self.costs) == _cost_set(other.costs)
                and (self.detachment_points is None or other.detachment_points is None
                     or self.detachment_points == other.detachment_points))


def _cost_set(costs) -> frozenset:
    return frozenset((str(c.models).strip(), c.points, c.tier or "") for c in costs)


def _rank(price: Price) -> tuple:
    # newest first: a stated date beats an ingest day, then the date, then a points version
    return (price.date is not None, price.date or price.ingested or "", version_key(price.version),
            price.kind == "points list")


class PriceIndex:
    """Every price source of a corpus, looked up by unit or detachment: made once for many look-ups
    (a faction's cards, the site, a list check)."""

    def __init__(self, corpus: Corpus, *, as_of: str | None = None):
        self._by_name: dict[tuple[str, str], list[Price]] = {}
        for price in _sources(corpus):
            if as_of and price.date and price.date > as_of:
                continue
            self._by_name.setdefault((price.target_kind, fold(price.name)), []).append(price)

    def sources(self, name: str, faction: str | None = None, edition: int | None = None,
                target_kind: str = "datasheet") -> list[Price]:
        """Every source's price of `name` (of `faction` and `edition` when given; a source of no
        stated edition fits any), newest first."""
        keys = dict.fromkeys((fold(name), fold(name.split(_TAG_END)[0])))
        for key in keys:
            found = [p for p in self._by_name.get((target_kind, key), ())
                     if (faction is None or not p.faction or fold(p.faction) == fold(faction))
                     and (not edition or not p.edition or p.edition == edition)]
            if found:
                return sorted(found, key=_rank, reverse=True)
        return []

    def current(self, name: str, faction: str | None = None, edition: int | None = None,
                target_kind: str = "datasheet", *, at_least: int | None = None) -> Price | None:
        """The newest source's price, or None when no source prices it (or when sources of two
        factions price it and no faction was given). With `at_least` (and no `edition`), the
        unit's current edition is the newest edition from `at_least` on that prices it (a unit
        whose newest datasheet is 10th edition is priced by an 11th edition points list)."""
        found = self.sources(name, faction, edition, target_kind)
        if at_least is not None and edition is None:
            newest = max((p.edition or 0 for p in found), default=0)
            found = [p for p in found if (p.edition or 0) == newest and newest >= at_least] \
                or self.sources(name, faction, at_least, target_kind)
        if not found:
            return None
        if faction is None and len({fold(p.faction or "") for p in found if p.faction}) > 1:
            return None
        return found[0]


def newest_datasheet_editions(records: Iterable[Record]) -> dict[tuple[str, str], int]:
    """The newest edition of each datasheet name and faction among `records`."""
    newest: dict[tuple[str, str], int] = {}
    for r in records:
        if isinstance(r, Datasheet) and r.edition:
            key = (fold(r.name), fold(r.faction or ""))
            newest[key] = max(newest.get(key, 0), r.edition)
    return newest


def datasheet_price(index: "PriceIndex", record: Datasheet, newest: dict[tuple[str, str], int]) -> "Price | None":
    """The price a datasheet's card or page shows. The newest datasheet of its name is priced as
    `show` prices it, by the newest edition that prices it (a 10th edition datasheet with no 11th
    edition one, by the 11th edition points list); an older edition's printing, by its edition."""
    if record.edition and newest.get((fold(record.name), fold(record.faction or "")), 0) <= record.edition:
        price = index.current(record.name, record.faction, at_least=record.edition)
        if price is None:  # a printing an update carried into a new edition no list of that edition
            # prices yet: the newest older edition's price (its `edition` says which)
            older = [p for p in index.sources(record.name, record.faction)
                     if p.edition and p.edition < record.edition]
            price = max(older, key=lambda p: p.edition, default=None)  # sources come newest first
        return price
    return index.current(record.name, record.faction, record.edition)


def current_price(corpus: Corpus, name: str, faction: str | None = None, edition: int | None = None, *,
                  target_kind: str = "datasheet", as_of: str | None = None,
                  at_least: int | None = None) -> Price | None:
    """The current price of one unit (or, with target_kind="detachment", one detachment): the
    newest dated source of its edition, whatever its kind. `as_of` leaves out sources published
    after that date (a corpus loaded with `load_corpus(..., as_of=)` has done so already);
    `at_least` (instead of `edition`): the newest edition from that one on that prices it."""
    return PriceIndex(corpus, as_of=as_of).current(name, faction, edition, target_kind, at_least=at_least)


def price_sources(corpus: Corpus, name: str, faction: str | None = None, edition: int | None = None, *,
                  target_kind: str = "datasheet", as_of: str | None = None) -> list[Price]:
    """Every source's price of one unit or detachment, newest first (see `current_price`)."""
    return PriceIndex(corpus, as_of=as_of).sources(name, faction, edition, target_kind)


def _printings(corpus: Corpus, kinds: tuple[type, ...]) -> Iterable[Record]:
    """Every printing of the records of `kinds`: the chosen ones and the others of each."""
    for r in corpus.records:
        if isinstance(r, kinds):
            yield r
    for p in corpus.printings.values():
        if isinstance(p.chosen, kinds):
            for r, _ in p.others:
                yield r


def _sources(corpus: Corpus) -> Iterable[Price]:
    for r in _printings(corpus, (Points, Datasheet, DetachmentRule, Enhancement)):
        info = corpus.file_of(r)
        date = corpus.date_of(r)
        ingested = info.date if info is not None and not info.published else None
        common = dict(name=r.name, faction=r.faction, edition=r.edition, file=r.source.file, date=date,
                      ingested=ingested, record=r)
        if isinstance(r, Points):
            if not (r.costs or r.wargear_costs or r.detachment_points is not None):
                continue  # a version saying the entry was dropped
            if r.target_kind == "detachment":  # each enhancement is priced by its detachment's record
                for item in r.wargear_costs:
                    yield Price(target_kind="enhancement", costs=(UnitCost("1", item.points),), wargear_costs=(),
                                detachment_points=None, kind="points list", version=r.version or r.source.version,
                                detachment=r.name, **{**common, "name": item.name})
            yield Price(target_kind=r.target_kind, costs=r.costs, wargear_costs=r.wargear_costs,
                        detachment_points=r.detachment_points, kind="points list",
                        version=r.version or r.source.version, **common)
        elif isinstance(r, Datasheet) and r.points:
            yield Price(target_kind="datasheet", costs=r.points, wargear_costs=r.wargear_costs,
                        detachment_points=None, kind="datasheet", version=r.source.version, **common)
        elif isinstance(r, Enhancement) and r.points is not None:
            yield Price(target_kind="enhancement", costs=(UnitCost("1", r.points),), wargear_costs=(),
                        detachment_points=None, kind="enhancement", version=r.source.version,
                        detachment=r.group, **common)
        elif isinstance(r, DetachmentRule) and r.detachment_points is not None and r.group:
            yield Price(target_kind="detachment", costs=(), wargear_costs=(), detachment_points=r.detachment_points,
                        kind="detachment", version=r.source.version,
                        **{**common, "name": r.group})


@dataclass(frozen=True)
class PricedEntry:
    """One unit's or detachment's current price and every source's, newest first."""

    current: Price
    sources: tuple[Price, ...]

    @property
    def disagreeing(self) -> list[Price]:
        """The sources asking another price than the current one."""
        return [p for p in self.sources if p is not self.current and not p.same_as(self.current)]


def bare_name(folded_name: str) -> str:
    """A folded MFM enhancement name without its "(Upgrade)" label ("tools of dominion upgrade")."""
    return folded_name[:-len(" upgrade")] if folded_name.endswith(" upgrade") else folded_name


def _entry_key(price: Price) -> tuple[str, str, str]:
    """What makes two sources prices of one thing: its kind, bare folded name and faction."""
    return price.target_kind, bare_name(fold(price.name.split(_TAG_END)[0])), fold(price.faction or "")


def priced_entries(corpus: Corpus, name: str | None = None, *, faction: str | None = None,
                   edition: int | None = None) -> list[PricedEntry]:
    """Every priced unit and detachment matching `name` (exact name first, else a part of it) and
    `faction`, at the newest edition priced for it unless `edition` is given; NotFoundError when
    none matches. Enhancements (priced by their detachment's points record or their own printing)
    are found by name only: by their exact name, or a part of it when no unit or detachment has it."""
    from ..errors import NotFoundError

    groups: dict[tuple, list[Price]] = {}
    every = list(_sources(corpus))
    if edition is not None and not any(p.edition == edition for p in every):
        known = sorted({p.edition for p in every if p.edition})
        raise NotFoundError(f"no points of edition {edition}", suggestions=[str(e) for e in known],
                            hint="leave out --edition for the newest edition priced")
    for price in every:
        if faction and not fold(price.faction or "").startswith(fold(faction)):
            continue
        if edition is not None and price.edition != edition:
            continue
        groups.setdefault(_entry_key(price), []).append(price)
    if not name:
        groups = {k: v for k, v in groups.items() if k[0] != "enhancement"}
    else:
        want = fold(name)
        exact = {k: v for k, v in groups.items() if k[1] in (want, bare_name(want))}
        found = exact or {k: v for k, v in groups.items() if want in k[1] and k[0] != "enhancement"} \
            or {k: v for k, v in groups.items() if want in k[1]}
        if not found and len(want.split()) > 1:  # "ork boyz": a faction's word, then the name
            head, rest = want.split(" ", 1)
            found = {k: v for k, v in groups.items() if k[1] == rest
                     and any(word.startswith(head) for word in k[2].split())}
        groups = found
        if not groups:
            raise NotFoundError(f"no points for {name!r}", hint="ingest a points list, an export or a catalogue "
                                "with points, or try a part of the name")
    out = []
    for prices in groups.values():
        newest_edition = max(p.edition or 0 for p in prices)
        prices = sorted((p for p in prices if (p.edition or 0) == newest_edition), key=_rank, reverse=True)
        newest_per_file: dict[str, Price] = {}  # an older version of the same list is superseded, not a source
        for p in prices:
            newest_per_file.setdefault(p.file, p)
        prices = list(newest_per_file.values())
        out.append(PricedEntry(prices[0], tuple(prices)))
    return sorted(out, key=lambda e: (fold(e.current.faction or ""), e.current.target_kind, fold(e.current.name)))


def price_histories(corpus: Corpus) -> list[list[Price]]:
    """The dated price sources of every unit, detachment and enhancement, one list for each (and
    its faction and edition), oldest first: what `changes` compares, one source to the next."""
    groups: dict[tuple, list[Price]] = {}
    for price in _sources(corpus):
        if price.date is None:
            continue
        groups.setdefault((*_entry_key(price), price.edition), []).append(price)
    return [sorted(prices, key=_rank) for prices in groups.values()]
