"""Versioned points (Munitorum Field Manual): the current points of a unit or detachment, and what
changed between two versions.

`points` records carry their version ("1.1"). What is "in force" at a version is, for each unit or
detachment, its newest record at or before that version; a record with no costs says the entry
was not in that version. Versions compare numerically ("1.10" after "1.9").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..errors import NotFoundError, QueryError
from ..names import fold
from ..records import Points, Record


def version_key(version: str | None) -> tuple:
    """A sort key for version strings: "1.10" > "1.9" > "1.1"; None sorts first."""
    if not version:
        return ()
    return tuple(int(p) if p.isdigit() else p for p in version.lstrip("vV").split("."))


# A model count typed with a unit's name: "10 boyz", "10x boyz", "boyz x10", "boyz (10)".
_COUNT_FIRST = re.compile(r"^\s*(\d{1,3})\s*[x×]?\s+(\S.*?)\s*$", re.I)
_COUNT_LAST = re.compile(r"^\s*(\S.*?)\s+(?:[x×]\s*(\d{1,3})|(\d{1,3})\s*[x×]|\((\d{1,3})\))\s*$", re.I)


def model_count(name: str) -> tuple[str, int | None]:
    """A unit name with the model count a player typed with it split off: ("boyz", 10) for
    "10 boyz", "boyz x10" or "boyz (10)"; (name, None) when it names no count."""
    for pattern in (_COUNT_FIRST, _COUNT_LAST):
        m = pattern.match(name or "")
        if m:
            groups = [g for g in m.groups() if g]
            count = next(g for g in groups if g.isdigit())
            bare = next(g for g in groups if not g.isdigit())
            return bare, int(count)
    return name, None


def at_size(price, count: int):
    """A copy of a price (a points record or a library.prices.Price) with only its costs for a
    unit of `count` models, in every tier; None when it has no such size."""
    import dataclasses

    costs = tuple(c for c in price.costs if str(c.models).strip() == str(count))
    return dataclasses.replace(price, costs=costs) if costs else None


def _key(record: Points) -> tuple[str, str, str, int]:
    # the edition too: a 10th edition points list does not price an 11th edition unit
    return (fold(record.faction or ""), record.target_kind, fold(record.name), record.edition or 0)


def _present(record: Points | None) -> bool:
    return record is not None and bool(record.costs or record.wargear_costs or record.detachment_points is not None)


def versions(records: Iterable[Record]) -> list[str]:
    """Every points version in the records, oldest first."""
    return sorted({r.version for r in records if isinstance(r, Points) and r.version}, key=version_key)


def in_force(records: Iterable[Record], version: str | None = None) -> dict[tuple, Points]:
    """Each unit's or detachment's points at `version` (default: the newest), absent ones left out."""
    by_key: dict[tuple, Points] = {}
    oldest: dict[tuple, Points] = {}
    wanted = version_key(version) if version else None
    for r in records:
        if not isinstance(r, Points):
            continue
        first = oldest.get(_key(r))
        if first is None or version_key(r.version) < version_key(first.version):
            oldest[_key(r)] = r
        if wanted is not None and version_key(r.version) > wanted:
            continue
        best = by_key.get(_key(r))
        if best is None or version_key(r.version) >= version_key(best.version):
            by_key[_key(r)] = r
    # An entry first seen in a later version, with no record saying it was absent before (a
    # changelog only records what changed): it is taken as unchanged since the data starts.
    for key, first in oldest.items():
        by_key.setdefault(key, first)
    return {k: v for k, v in by_key.items() if _present(v)}


def current_points(records: Sequence[Record], name: str | None = None, *, faction: str | None = None) -> list[Points]:
    """The newest points of every entry matching `name` (a part of the name) and `faction`."""
    pool = list(in_force(records).values())
    if faction:
        wanted = fold(faction)
        known = {fold(p.faction or "") for p in pool}
        if not any(k.startswith(wanted) for k in known):
            from .factions import suggest_factions

            names = sorted({p.faction for p in pool if p.faction})
            raise NotFoundError(f"no points for faction {faction!r}",
                                suggestions=suggest_factions(faction, names) or names[:8])
        pool = [p for p in pool if fold(p.faction or "").startswith(wanted)]
    if name:
        want = fold(name)
        exact = [p for p in pool if fold(p.name) == want]
        pool = exact or [p for p in pool if want in fold(p.name)]
        if not pool:
            raise NotFoundError(f"no points for {name!r}", hint="ingest the Munitorum Field Manual data first, "
                                "or try a part of the name")
    return sorted(pool, key=lambda p: (fold(p.faction or ""), p.target_kind, fold(p.name)))


# A catalogue's trailing tag ("Anrakyr the Traveller [Legends]", "... [Crucible]"): points lists
# name the unit without it.
_TAG = re.compile(r"\s*\[[^\]]*\]\s*$")


class PointsIndex:
    """The current points of every entry, looked up by exact name: made once for many look-ups
    (a faction's cards, every datasheet page of the site)."""

    def __init__(self, records: Iterable[Record]):
        self._by_name: dict[tuple[str, str], list[tuple[str, Points]]] = {}
        for (faction, target_kind, name, _edition), p in in_force(records).items():
            self._by_name.setdefault((target_kind, name), []).append((faction, p))

    def __bool__(self) -> bool:
        return bool(self._by_name)

    def entries(self, target_kind: str = "datasheet") -> list[Points]:
        """Every current entry of one kind (a list's enhancement looked up in all its detachments)."""
        return [p for (kind, _), found in self._by_name.items() if kind == target_kind for _, p in found]

    def of(self, name: str, faction: str | None = None, target_kind: str = "datasheet",
           edition: int | None = None) -> Points | None:
        """The current points record of the entry called `name` (of `faction` and `edition`, when
        given; a points list of no stated edition fits any), or None when no points list names
        it or several factions' entries could be meant."""
        for key in dict.fromkeys((fold(name), fold(_TAG.sub("", name)))):
            found = [p for f, p in self._by_name.get((target_kind, key), ())
                     if (faction is None or f == fold(faction)) and (not edition or not p.edition or p.edition == edition)]
            if found:
                return found[0] if len(found) == 1 else None
        return None


def points_of(records: Iterable[Record], name: str, faction: str | None = None,
              target_kind: str = "datasheet", edition: int | None = None) -> Points | None:
    """The current points record of one datasheet (or detachment) by exact name, for `show`, the
    cards and the site: None when no points list (of its edition) names it."""
    return PointsIndex(records).of(name, faction, target_kind, edition)


def base_text(base: str) -> str:
    """A datasheet's base size as its header lists it beside the points: "base 40mm", and a
    printed note kept as printed after a colon ("base: Use model", for a hull with no base)."""
    return f"base {base}" if base[:1].isdigit() else f"base: {base}"


def costs_text(costs: Sequence) -> str:
    """Unit costs as one line, by tier where the list prices repeated units differently:
    "5 models: 75 pts; 10 models: 150 pts", or "1st-2nd: 5 models 75 pts, 10 models 150 pts;
    3rd+: 5 models 85 pts, 10 models 160 pts". A size the points list describes is given as
    described: "1 Runtherd, 10 Gretchin: 45 pts"."""
    def one(c, sep: str) -> str:
        pts = "?" if c.points is None else c.points
        plural = "" if str(c.models).strip() == "1" else "s"
        label = f"{c.models} model{plural}" if str(c.models).strip().isdigit() else str(c.models)
        if getattr(c, "description", None):  # what the size holds ("1 Runtherd, 10 Gretchin") says more
            label = c.description
        return f"{label}{sep} {pts} pts"

    tiers: dict[str | None, list] = {}
    for c in costs:
        tiers.setdefault(getattr(c, "tier", None), []).append(c)
    if list(tiers) == [None]:
        return "; ".join(one(c, ":") for c in costs)
    return "; ".join((f"{tier}: " if tier else "") + ", ".join(one(c, "") for c in group)
                     for tier, group in tiers.items())


def points_text(points: Points) -> str:
    """One line of a points record: a unit's costs (by tier) and wargear, or a detachment's
    Detachment Points and its enhancements' costs."""
    parts = []
    if points.target_kind == "detachment":
        if points.detachment_points is not None:
            parts.append(f"{points.detachment_points} DP")
        if points.wargear_costs:
            parts.append("enhancements " + ", ".join(f"{c.name} {'?' if c.points is None else c.points} pts"
                                                      for c in points.wargear_costs))
        return f"{points.name}: " + "; ".join(parts) if parts else points.name
    if points.costs:
        parts.append(costs_text(points.costs))
    if points.wargear_costs:
        parts.append("wargear " + wargear_text(points.wargear_costs))
    return "; ".join(parts)


def wargear_text(costs: Sequence) -> str:
    """Wargear costs as one line: "ard case +15 pts, kustom shoota +5 pts"."""
    return ", ".join(f"{c.name} +{c.points if c.points is not None else '?'} pts" for c in costs)


@dataclass(frozen=True)
class PointsChange:
    """One entry whose points differ between two versions (`before`/`after` None: added/removed)."""

    faction: str | None
    name: str
    target_kind: str
    before: Points | None
    after: Points | None

    @property
    def status(self) -> str:
        if self.before is None:
            return "added"
        if self.after is None:
            return "removed"
        return "changed"


def _same(a: Points, b: Points) -> bool:
    return (set(a.costs) == set(b.costs) and set(a.wargear_costs) == set(b.wargear_costs)
            and a.detachment_points == b.detachment_points)


def points_changes(records: Sequence[Record], *, old: str | None = None, new: str | None = None,
                   faction: str | None = None) -> tuple[str, str, list[PointsChange]]:
    """(old version, new version, changes) between two versions: by default the two newest."""
    known = versions(records)
    if len(known) < 2 and not (old and new):
        raise QueryError("fewer than two points versions in the store",
                         hint="ingest a Munitorum Field Manual with its changelog, or two versions of it")
    for v in (old, new):
        if v and v.lstrip("vV") not in known:
            raise NotFoundError(f"no points version {v!r}", suggestions=known)
    new = (new or known[-1]).lstrip("vV")
    older = [v for v in known if version_key(v) < version_key(new)]
    old = (old or (older[-1] if older else known[0])).lstrip("vV")
    before, after = in_force(records, old), in_force(records, new)
    changes = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a is not None and b is not None and _same(a, b):
            continue
        ref = b or a
        if faction and not fold(ref.faction or "").startswith(fold(faction)):
            continue
        changes.append(PointsChange(faction=ref.faction, name=ref.name, target_kind=ref.target_kind, before=a,
                                    after=b))
    return old, new, changes


def _of_edition(records: list[Record], edition: int | None) -> list[Record]:
    """The points records of `edition` (all when None); an edition no points record has is
    NotFoundError naming the editions there are."""
    if edition is None:
        return records
    known = sorted({r.edition for r in records if r.edition})
    if edition not in known:
        raise NotFoundError(f"no points of edition {edition}", suggestions=[str(e) for e in known],
                            hint="leave out --edition for every edition")
    return [r for r in records if r.edition == edition]


def find_points(store, name: str | None = None, *, faction: str | None = None,
                edition: int | None = None) -> list[Points]:
    """The current points in `store` matching `name`, `faction` and `edition` (see current_points)."""
    return current_points(_of_edition(list(store.records("points")), edition), name, faction=faction)


def changes_edition(records: Sequence[Record], edition: int | None = None, faction: str | None = None,
                    wanted: Sequence[str] = ()) -> int | None:
    """The edition whose points versions are compared: `edition` when given, else the newest
    edition with points records (of `faction`, when given) in at least two versions, else the newest
    edition with points. Versions of two editions' documents are never compared with each other;
    `wanted` versions (--from/--to) pick the newest edition that has them all."""
    if edition is not None:
        return edition
    pool = [r for r in records if isinstance(r, Points) and r.edition
            and (not faction or fold(r.faction or "").startswith(fold(faction)))]
    editions = sorted({r.edition for r in pool}, reverse=True)
    for e in editions:
        known = versions(r for r in pool if r.edition == e)
        if wanted and all(v.lstrip("vV") in known for v in wanted):
            return e
        if not wanted and len(known) >= 2:
            return e
    return editions[0] if editions else None


def find_points_changes(store, *, old: str | None = None, new: str | None = None, faction: str | None = None,
                        edition: int | None = None) -> tuple[str, str, list[PointsChange], int | None]:
    """What changed in `store` between two points versions of one edition (see points_changes and
    changes_edition): (old version, new version, changes, the edition compared)."""
    records = list(store.records("points"))
    edition = changes_edition(records, edition, faction, [v for v in (old, new) if v])
    return (*points_changes(_of_edition(records, edition), old=old, new=new, faction=faction), edition)
