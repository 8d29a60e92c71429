"""An army list at the current points: each unit, its wargear and its enhancement priced by the
newest dated points source of the list's own edition, beside what the list prints.

    price_list(units, detachments, records, edition, factions, printings=None) -> ListPrices

A points source is anything of the list's edition that prices the unit: a Munitorum Field Manual
entry (PDF, YAML or the points website: `points` records, their newest version), or a datasheet
that prints its points (a Wahapedia export, BSData, a list builder's data), with every printing
of it the store holds. Of those, the one with the newest date wins whatever its kind (an export
dated after the points list has the newer points); an undated source only when no dated one
prices the unit. Each `UnitPrice` names its `PriceSource`.

A list is priced when it was made; the points change under it. A player wants to know both what
the list says and what it costs today (a list that was 1,995 points may now be over 2,000). Only
points of the list's edition count (an 11th edition list is never priced by a 10th edition points
list), and of each entry only its newest version (library.points.in_force).

How a unit is priced, as the Munitorum Field Manual says: its unit size (a size between two
priced sizes pays the larger one), its requisition tier (the 3rd copy of a unit pays the "3rd+"
cost: copies are counted in list order), plus each priced wargear item it takes (per item), plus
its enhancement's cost from its detachment's entry. A unit no points list prices keeps its printed
points in the total, and is counted as such.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..names import fold
from ..records import Points, Record, UnitCost
from .armylist_match import name_forms
from .points import PointsIndex

if TYPE_CHECKING:  # only for annotations: armylist imports this module
    from ..ingest.sources.armylists import ListUnit
    from .armylist import ResolvedDetachment, ResolvedUnit

_TIER = re.compile(r"^\s*(\d+)(?:st|nd|rd|th)?\s*(?:(\+)|[-–]\s*(\d+)(?:st|nd|rd|th)?)?\s*$", re.I)


@dataclass(frozen=True)
class PriceSource:
    """Where a price came from: a points list ("Points v1.1") or a datasheet file, and its date."""

    kind: str  # "points list" | "datasheets"
    label: str
    date: str | None = None

    def describe(self) -> str:
        """"Points v1.1 (2026-07-22)", "Datasheets.csv (undated)"."""
        return f"{self.label} ({self.date or 'undated'})"


@dataclass
class UnitPrice:
    """One unit at the current points: `points` None when no points list of the edition prices it
    at its size. `enhancement` is the enhancement's current cost (None: not priced or none)."""

    points: int | None = None
    base: int | None = None
    wargear: int = 0
    enhancement: int | None = None
    tier: str | None = None
    size: str | None = None  # the priced unit size ("11"), with its description when the list gives one
    record: Points | None = None
    why: str | None = None  # why the unit has no current price
    source: PriceSource | None = None  # what priced the unit

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "unit": self.base, "wargear": self.wargear, "enhancement": self.enhancement,
                "tier": self.tier, "size": self.size, "version": self.record.version if self.record else None,
                "source": self.source.describe() if self.source else None, "unpriced": self.why}


@dataclass
class ListPrices:
    """The whole list at the current points: per unit (same order as the check's units), the total
    (units with no current price counted at their printed points) and the versions used."""

    edition: int | None
    units: list[UnitPrice] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)
    detachment_points: int | None = None

    @property
    def priced(self) -> int:
        """How many units a points list prices."""
        return sum(p.points is not None for p in self.units)

    def total(self, printed: Sequence[int | None]) -> int | None:
        """The list's total at the current points, `printed` (each unit's own points) standing in
        for units no points list prices; None when nothing is priced."""
        if not self.priced:
            return None
        return sum(p.points if p.points is not None else (own or 0) for p, own in zip(self.units, printed))

    @property
    def sources(self) -> list[PriceSource]:
        """The sources that priced units, the one pricing most first."""
        counted = Counter(p.source for p in self.units if p.source is not None and p.points is not None)
        return [s for s, _ in counted.most_common()]

    def newest(self) -> PriceSource | None:
        """The newest of the sources used (by date; an undated one only when none is dated)."""
        return max(self.sources, key=_rank, default=None)

    def label(self) -> str:
        """"Datasheets.csv (2026-08-26)", or each source used with its unit count."""
        sources = self.sources
        if not sources:
            return f"Points v{'/'.join(self.versions)}" if self.versions else "the points list"
        if len(sources) == 1:
            return sources[0].describe()
        counted = Counter(p.source for p in self.units if p.source is not None and p.points is not None)
        return ", ".join(f"{s.describe()} for {counted[s]}" for s in sources)


def tier_range(tier: str | None) -> tuple[int, int | None] | None:
    """"1st-2nd" -> (1, 2), "3rd+" -> (3, None), "2nd" -> (2, 2); None for no tier or unreadable."""
    m = _TIER.match(tier or "")
    if not m:
        return None
    lo = int(m.group(1))
    return lo, (None if m.group(2) else int(m.group(3)) if m.group(3) else lo)


def _in_tier(tier: str | None, copy: int) -> bool:
    if tier is None:
        return True
    span = tier_range(tier)
    return span is not None and span[0] <= copy and (span[1] is None or copy <= span[1])


def size_cost(costs: Sequence[UnitCost], models: int | None, copy: int) -> UnitCost | None:
    """The cost of a unit of `models` models, the `copy`-th of its name in the list: its tier's
    cost for that size, else for the next larger size (sizes between limits pay the upper one);
    a unit of one size only needs no model count."""
    tiered = [c for c in costs if c.points is not None and _in_tier(c.tier, copy)]
    sized = [(int(c.models), c) for c in tiered if str(c.models).strip().isdigit()]
    if models is None:
        return tiered[0] if len({c.models for c in tiered}) == 1 and tiered else None
    exact = [c for n, c in sized if n == models]
    if exact:
        return exact[0]
    larger = sorted(((n, c) for n, c in sized if n > models), key=lambda nc: nc[0])
    smaller = [n for n, _ in sized if n < models]
    return larger[0][1] if larger and smaller else None


def _forms(name: str) -> set[str]:
    return {fold(f) for f in name_forms(name)}


def _unit_points(index: PointsIndex, names: list[str], factions: list[str], edition: int) -> Points | None:
    for name in names:
        for faction in [*factions, None]:
            found = index.of(name, faction, "datasheet", edition)
            if found is not None and found.costs:
                return found
    return None


def _enhancement_cost(index: PointsIndex, enhancement: str, detachments: list[str], factions: list[str],
                      edition: int) -> tuple[int | None, Points | None]:
    """The enhancement's cost in the entry of one of `detachments` (each also without a bracket:
    "Lions of the Emperor (Against All Odds)"); else in the one detachment entry of the factions
    that prices an enhancement of that name (a list whose detachment is spelled otherwise)."""
    want = _forms(enhancement)

    def cost_in(entry: Points | None) -> int | None:
        for cost in entry.wargear_costs if entry is not None else ():
            if _forms(cost.name) & want and cost.points is not None:
                return cost.points
        return None

    for det in dict.fromkeys(f for d in detachments for f in name_forms(d)):
        for faction in [*factions, None]:
            entry = index.of(det, faction, "detachment", edition)
            if cost_in(entry) is not None:
                return cost_in(entry), entry
    folded = {fold(f) for f in factions}
    found = [p for p in index.entries("detachment") if fold(p.faction or "") in folded and cost_in(p) is not None]
    if len({cost_in(p) for p in found}) == 1:
        return cost_in(found[0]), found[0]
    return None, None


def _rank(source: PriceSource) -> tuple:
    # dated beats undated, newer beats older; on the same day the points list (its own purpose)
    return (source.date is not None, source.date or "", source.kind == "points list")


def record_date(record: Record, printings: Mapping[int, Any] | None = None) -> str | None:
    """A record's publication date: its source's, else its file's (as the printings know it)."""
    if record.source.date:
        return record.source.date
    entry = (printings or {}).get(id(record))
    return entry.chosen_file.published if entry is not None and entry.chosen is record else None


def _offers(ru: "ResolvedUnit", entry: Points | None, edition: int, datasheets: Mapping[str, list],
            printings: Mapping[int, Any] | None) -> list[tuple[PriceSource, Sequence[UnitCost], Sequence, Any]]:
    """Every source of `edition` that prices the unit, best first: (source, costs, wargear costs, entry)."""
    out = []
    if entry is not None and entry.costs:
        label = f"Points v{entry.version}" if entry.version else Path(entry.source.file).name
        out.append((PriceSource("points list", label, record_date(entry, printings)), entry.costs,
                    entry.wargear_costs, entry))
    d = ru.datasheet
    candidates = [d] if d is not None and d.edition == edition else []
    if d is not None and d.edition != edition:  # an older datasheet: the list's edition by its name
        candidates = [x for x in datasheets.get(fold(d.name), []) if x.faction == d.faction]
    for ds in candidates:
        entry_p = (printings or {}).get(id(ds))
        pairs = [(ds, record_date(ds, printings))]
        if entry_p is not None:
            pairs += [(o, o.source.date or info.published) for o, info in entry_p.others]
        for rec, date in pairs:
            if rec.edition == edition and rec.points:
                source = PriceSource("datasheets", Path(rec.source.file).name, date)
                out.append((source, rec.points, rec.wargear_costs, None))
    return sorted(out, key=lambda o: _rank(o[0]), reverse=True)


def price_list(units: Sequence["ResolvedUnit"], detachments: Sequence["ResolvedDetachment"],
               records: Sequence[Record], edition: int | None, factions: Sequence[str],
               printings: Mapping[int, Any] | None = None) -> ListPrices:
    """Every unit of a checked list at the newest points of `edition` (see the module docstring).
    `printings` (the corpus's) lets every printing of a datasheet offer its points, with its date."""
    prices = ListPrices(edition)
    index = PointsIndex(r for r in records if isinstance(r, Points) and r.edition == edition) if edition else None
    datasheets: dict[str, list] = {}
    for r in records:
        if r.kind == "datasheet" and r.edition == edition:
            datasheets.setdefault(fold(r.name), []).append(r)
    if not edition or (not index and not any(d.points for ds in datasheets.values() for d in ds)):
        prices.units = [UnitPrice(why=f"no points of the {edition}th edition in the store" if edition
                                  else "the list's edition is not known") for _ in units]
        return prices
    copies: Counter[str] = Counter()
    det_names = [d.name for d in detachments]
    versions: set[str] = set()
    for ru in units:
        u, d = ru.entry, ru.datasheet
        own = [*factions, d.faction] if d is not None and d.faction else list(factions)
        names = [n for n in (d.name if d is not None else None, u.name) if n]
        entry = _unit_points(index, names, own, edition) if index else None
        offers = _offers(ru, entry, edition, datasheets, printings)
        price = UnitPrice(record=entry)
        if not offers:
            older = f" (its datasheet is {d.edition}th edition)" if d is not None and d.edition != edition else ""
            price.why = f"no points of the {edition}th edition name {u.name}{older}"
            prices.units.append(price)
            continue
        copies[fold(names[0])] += 1
        models = u.models or (sum(n for _, n in u.model_lines) or None)
        found = next(((src, c, wg, e) for src, costs, wg, e in offers
                      if (c := size_cost(costs, models, copies[fold(names[0])])) is not None), None)
        if found is None:
            best = offers[0][0].describe()
            price.why = (f"{names[0]}: no cost for {models} models in {best}" if models
                         else f"{names[0]}: the list gives no unit size and {best} prices several")
            prices.units.append(price)
            continue
        price.source, cost, wargear_costs, used = found
        price.record = used
        if used is not None and used.version:
            versions.add(used.version)
        price.base, price.tier = cost.points, cost.tier
        price.size = cost.models + (f" ({cost.description})" if getattr(cost, "description", None) else "")
        taken = Counter()
        for item in u.wargear:
            for f in _forms(item.name):
                taken[f] += item.count
        price.wargear = sum((c.points or 0) * max((taken[f] for f in _forms(c.name)), default=0)
                            for c in wargear_costs)
        enhancement = ru.enhancement.name if ru.enhancement is not None else u.enhancement
        if enhancement:
            groups = [ru.enhancement.group] if ru.enhancement is not None and ru.enhancement.group else []
            price.enhancement, det = (_enhancement_cost(index, enhancement, [*groups, *det_names], own, edition)
                                      if index else (None, None))
            if det is None and ru.enhancement is not None and ru.enhancement.edition == edition \
                    and ru.enhancement.points is not None:
                price.enhancement = ru.enhancement.points  # the enhancement's own record prices it
            elif det is None:  # a unit priced without its enhancement would look cheaper than it is
                price.why = f"{enhancement}: no points of the {edition}th edition price this enhancement"
                prices.units.append(price)
                continue
            elif det.version:
                versions.add(det.version)
        price.points = price.base + price.wargear + (price.enhancement or 0)
        prices.units.append(price)
    chosen = {}
    for name in det_names if index else ():  # each detachment's Detachment Points; the sum only when all are priced
        found_dp = next((p for f in [*factions, None] for form in name_forms(name)
                         if (p := index.of(form, f, "detachment", edition)) is not None
                         and p.detachment_points is not None), None)
        if found_dp is not None:
            chosen[fold(found_dp.name)] = found_dp
    if chosen and len(chosen) == len(det_names):
        prices.detachment_points = sum(p.detachment_points for p in chosen.values())
    prices.versions = sorted(versions)
    return prices


def enhancement_pricer(records: Sequence[Record], edition: int | None):
    """A function (name, group, faction) -> the enhancement's cost in the newest points list of
    `edition` (its detachment's entry), or None when none prices it: for a list's enhancement
    cards and sheet (the points looked up once for all of them)."""
    index = PointsIndex(r for r in records if isinstance(r, Points) and r.edition == edition) if edition else None

    def price(name: str, group: str | None, faction: str | None) -> int | None:
        if not index or not group:
            return None
        return _enhancement_cost(index, name, [group], [faction] if faction else [], edition)[0]
    return price


def enhancement_points_now(records: Sequence[Record], name: str, group: str | None, faction: str | None,
                           edition: int | None) -> int | None:
    """One enhancement's cost in the newest points list of its edition (see enhancement_pricer)."""
    return enhancement_pricer(records, edition)(name, group, faction)


def price_notes(units: Sequence["ResolvedUnit"], prices: ListPrices, points_listed: int | None,
                points_limit: int | None, dp_listed: int | None = None,
                list_date: str | None = None) -> list[tuple[str, str, str | None]]:
    """(kind, message, suggestion) for the player: units the current points price differently from
    the list, the list's total at the current points, whether that is over the list's limit, and
    Detachment Points that differ from the ones the list says.

    "Update the list" is said only when the list (`list_date`, ISO) is older than the source that
    priced it; a list as new or newer may be priced by points the store does not hold yet."""
    out: list[tuple[str, str, str | None]] = []
    label = f"Points v{'/'.join(prices.versions)}" if prices.versions else "the points list"  # DP: MFM only
    if dp_listed is not None and prices.detachment_points is not None and dp_listed != prices.detachment_points:
        out.append(("points current", f"the list's detachments cost {prices.detachment_points} Detachment Points "
                    f"at the current points ({label}), not the {dp_listed} it says", None))
    differ = [(ru.entry, p) for ru, p in zip(units, prices.units)
              if p.points is not None and ru.entry.points is not None and p.points != ru.entry.points]
    if differ:
        shown = ", ".join(f"{u.name} {u.points} -> {p.points}" for u, p in differ[:5])
        newest = max((p.source for _, p in differ if p.source is not None), key=_rank, default=None)
        if newest is not None and newest.date and list_date and list_date < newest.date:
            advice = f"the list ({list_date}) is older than {newest.describe()}: update the list in its builder"
        elif newest is not None:
            advice = (f"the list is not older than {newest.describe()}: its builder may use newer points; "
                      "ingest them, or check the list")
        else:
            advice = "check the list in its builder"
        out.append(("points current", f"{len(differ)} unit(s) cost differently at the current points: "
                    f"{shown}{', ...' if len(differ) > 5 else ''}", advice))
    printed = [ru.entry.points for ru in units]
    total = prices.total(printed)
    if total is None:
        return out
    own = points_listed if points_listed is not None else sum(p or 0 for p in printed)
    unpriced = len(units) - prices.priced
    rest = f"; {unpriced} unit(s) no points source prices are counted at the list's points" if unpriced else ""
    if total != own:
        out.append(("points current", f"at the current points the list costs {total} points, "
                    f"not the {own} it says{rest}", None))
    if points_limit is not None and total > points_limit:
        out.append(("over the limit", f"at the current points the list is {total - points_limit} "
                    f"point(s) over its limit of {points_limit}", "drop or shrink a unit, or an enhancement"))
    return out


def majority_edition(units: Sequence["ListUnit"], candidates: dict) -> int | None:
    """The edition of a list that does not say: the one most units resolve in, then the one whose
    points match the list's prices most often (an 11th edition list priced for 11th edition), then
    the newest."""
    found, priced = Counter(), Counter()
    for u in units:
        recs, _ = candidates[id(u)]
        for edition in {r.edition for r in recs if r.edition}:
            found[edition] += 1
        for edition in {r.edition for r in recs if r.edition and u.points is not None
                        and any(c.points is not None and c.points <= u.points <= c.points + 60
                                and (c.points == u.points or u.enhancement) for c in (r.points or ()))}:
            priced[edition] += 1
    return max(found, key=lambda e: (found[e], priced[e], e)) if found else None
