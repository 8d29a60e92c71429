"""The MFM data changelog, read backwards: earlier versions' points from the current ones.

A section "## [2026-07-22] — MFM v1.1" lists what that version added, changed and removed:

    - **Necrons**: Doomsday Ark — 1 model [[1,2]]: 200 → 210 pts (+10)     (a unit price)
    - **Necrons**: Skorpekh Lord — 1 model [[3,)] (100 pts)                  (added)
    - **Necrons**: removed Skorpekh Lord — 1 model (was 90 pts)
    - **Astra Militarum**: Leman Russ Commander — Demolisher battle cannon (15 pts)   (wargear)
    - **Necrons**: Cursed Legion — DP: 3 → 2                                  (a detachment)
    - **Adeptus Custodes**: Shield Host · From the Hall of Armouries: 25 → 20 pts     (an enhancement)

Undoing every line of the newest version gives the state of the version before it. Lines of
other shapes (objectives, leader lists, version bumps) change no points and are passed over; a
line that looks like a points line but cannot be read is a warning.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...names import fold
from ...records import ItemCost, UnitCost

_SECTION = re.compile(r"^##\s*\[([^\]]*)\]\s*[—-]+\s*.*?\bv(\d+(?:\.\d+)*)\s*$")
_KIND = re.compile(r"^###\s*(Added|Changed|Removed)\b", re.I)
_LINE = re.compile(r"^-\s*\*\*(.+?)\*\*:\s*(.+?)\s*$")
_SIZE = re.compile(r"^(\d+)\s+models?\s*(?:\[\[(\d+),(\d*)[\])]\])?$")
_CHANGE = re.compile(r"^(.*?):\s*(\d+)\s*→\s*(\d+)\s*(?:pts)?\b")
_WAS = re.compile(r"^(.*?)\s*\((?:was\s+)?(\d+)\s*pts\)\s*$")


@dataclass(frozen=True)
class Entry:
    """The points of one unit or detachment in one version (empty: not in that version)."""

    faction: str
    name: str
    kind: str  # "datasheet" / "detachment"
    version: str | None
    costs: tuple[UnitCost, ...] = ()
    wargear: tuple[ItemCost, ...] = ()
    dp: int | None = None
    source: tuple = ("", None, None)
    disposition: str | None = None  # a detachment's Force Disposition ("Take and Hold")

    @property
    def key(self) -> tuple[str, str, str]:
        return (fold(self.faction), self.kind, fold(self.name))


_RANGE = re.compile(r"^\s*\[\s*(\d+)\s*,\s*(\d*)\s*[\])]\s*$")


def tier_of(range_text: str | None) -> str | None:
    """"[1,2]" -> "1st-2nd", "[3,)" -> "3rd+", "[1,)" -> None (every copy costs the same)."""
    m = _RANGE.match(range_text or "")
    if not m:
        return None
    lo, hi = int(m.group(1)), m.group(2)
    if lo == 1 and not hi:
        return None
    if hi and int(hi) == lo:
        return _ordinal(lo)
    return f"{_ordinal(lo)}-{_ordinal(int(hi))}" if hi else f"{_ordinal(lo)}+"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _tier(lo: str | None, hi: str | None) -> str | None:
    return tier_of(f"[{lo},{hi})") if lo else None


def _sections(text: str) -> list[tuple[str, str, list[tuple[str, str, str]]]]:
    """(version, date, [(kind, faction, rest)]) per section, newest first as written."""
    out: list = []
    kind = None
    for line in text.splitlines():
        m = _SECTION.match(line.strip())
        if m:
            out.append((m.group(2), m.group(1), []))
            kind = None
            continue
        m = _KIND.match(line.strip())
        if m:
            kind = m.group(1).lower()
            continue
        m = _LINE.match(line.strip())
        if m and out and kind:
            out[-1][2].append((kind, m.group(1).strip(), m.group(2).strip()))
    return out


def previous_versions(text: str, current: dict[tuple, Entry], warnings: list[str]) -> list[Entry]:
    """Entries of earlier versions (and "absent" markers) for what the changelog says changed."""
    sections = _sections(text)
    versions = list(dict.fromkeys(v for v, _, _ in sections))
    state = dict(current)
    out: list[Entry] = []
    now = next((e.version for e in current.values() if e.version), None)
    if not versions or now not in versions:
        return out
    factions = {e.key[0] for e in current.values()}  # the changelog covers factions this data may not hold
    sections = [(v, d, [line for line in lines if fold(line[1]) in factions]) for v, d, lines in sections]
    # A version's entries carry the date the changelog gives it (its first section's), not the
    # data file's: `--as-of` between two versions then picks the older one.
    dated: dict[str, str] = {}
    for version, date, _ in sections:
        if date and (version not in dated or date < dated[version]):
            dated[version] = date

    def at(entry: Entry, version: str, **changes) -> Entry:
        file, _, date = entry.source
        return replace(entry, version=version, source=(file, version, dated.get(version) or date), **changes)

    for i in range(versions.index(now), len(versions) - 1):
        newer, older = versions[i], versions[i + 1]
        before = dict(state)
        for version, _, lines in sections:
            if version == newer:
                for kind, faction, rest in lines:
                    _undo(state, kind, faction, rest, warnings)
        for key in set(before) | set(state):
            old, new = state.get(key), before.get(key)
            if old == new:
                continue
            template = old or new
            if old is None or not (old.costs or old.wargear or old.dp is not None):
                out.append(at(template, older, costs=(), wargear=(), dp=None))
            else:
                out.append(at(old, older))
            if new is None:  # removed in the newer version: say so at that version
                out.append(at(template, newer, costs=(), wargear=(), dp=None))
        state = {k: at(v, older) for k, v in state.items()}
    return out


def _entry(state: dict, faction: str, name: str, kind: str) -> Entry:
    key = (fold(faction), kind, fold(name))
    return state.get(key) or Entry(faction=faction, name=name, kind=kind, version=None)


def _undo(state: dict, kind: str, faction: str, rest: str, warnings: list[str]) -> None:
    """Apply one changelog line backwards to `state`."""
    removed = rest.lower().startswith("removed ")
    if removed:
        rest = rest[len("removed "):]
    if rest.lower().startswith("new detachment "):
        entry = _entry(state, faction, rest[len("new detachment "):].strip(), "detachment")
        state[entry.key] = replace(entry, costs=(), wargear=(), dp=None)
        return
    if "·" in rest:  # an enhancement of a detachment: "Shield Host · Name: 25 → 20 pts" / "(30 pts)"
        det, _, item = rest.partition("·")
        _undo_item(state, faction, det.strip(), "detachment", item.strip(), kind, warnings)
        return
    name, sep, what = rest.partition(" — ")
    if not sep:
        return  # a version bump or a note
    name, what = name.strip(), what.strip()
    m = re.match(r"^DP:\s*(\d+)\s*→\s*(\d+)", what)
    if m:
        entry = _entry(state, faction, name, "detachment")
        state[entry.key] = replace(entry, dp=int(m.group(1)))
        return
    size_part = re.split(r":|\(", what, maxsplit=1)[0].strip()
    size = _SIZE.match(size_part)
    if not size:
        _undo_item(state, faction, name, "datasheet", what, kind, warnings)
        return
    models, tier = size.group(1), _tier(size.group(2), size.group(3))
    entry = _entry(state, faction, name, "datasheet")
    costs = [c for c in entry.costs if not (c.models == models and c.tier == tier)]
    change, was = _CHANGE.match(what), _WAS.match(what)
    if kind == "changed" and change:
        costs.append(UnitCost(models=models, points=int(change.group(2)), tier=tier))
    elif kind == "removed" or removed:
        if was:
            costs.append(UnitCost(models=models, points=int(was.group(2)), tier=tier))
    elif kind != "added":
        warnings.append(f"DATA-CHANGELOG: cannot read {faction}: {rest!r}; left out")
        return
    state[entry.key] = replace(entry, costs=tuple(sorted(costs, key=_order)))


def _order(cost: UnitCost) -> tuple:
    return (cost.tier or "", int(cost.models) if cost.models.isdigit() else 0)


def _undo_item(state: dict, faction: str, name: str, kind_of: str, what: str, kind: str, warnings: list[str]) -> None:
    """Undo a wargear or enhancement line: "Item (15 pts)", "Item: 20 → 25 pts", "Item (was 5 pts)"."""
    change, was = _CHANGE.match(what), _WAS.match(what)
    if not (change or was):
        return  # leader lists, objectives, renamings: no points
    item = (change or was).group(1).strip()
    entry = _entry(state, faction, name, kind_of)
    items = [w for w in entry.wargear if fold(w.name) != fold(item)]
    if kind == "changed" and change:
        items.append(ItemCost(name=item, points=int(change.group(2))))
    elif kind == "removed" and was:
        items.append(ItemCost(name=item, points=int(was.group(2))))
    elif kind != "added":
        warnings.append(f"DATA-CHANGELOG: cannot read {faction}: {name} {what!r}; left out")
        return
    state[entry.key] = replace(entry, wargear=tuple(items))
