"""BattleScribe unit sizes and prices: model counts from constraints, points tiers from modifiers.

Unit sizes come from the min/max constraints of the model entries and groups (raised by
modifiers that set those constraints). The larger sizes are priced by `set pts` modifiers
conditioned on the model count; 11th edition prices later copies of a datasheet with an
`increment pts` modifier whose local condition counts the copies before it.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Iterator

from .bs_tree import children, grand, local, number

MAX_LINK_DEPTH = 12


def _hidden(el: ET.Element) -> bool:
    return el.get("hidden") == "true"


def repeat_surcharge(entry: ET.Element, pts_ids: set[str]) -> tuple[int, int] | None:
    """(copies at the listed price, surcharge) from an `increment pts` modifier whose local condition
    counts earlier copies of the datasheet ("at least 2 before this one": the 3rd and later)."""
    for mod in _modifiers(entry):
        value = number(mod.get("value"))
        if mod.get("type") != "increment" or mod.get("field") not in pts_ids or not value:
            continue
        for group in mod.iter():
            if local(group.tag) != "localConditionGroup" or group.get("type") not in ("atLeast", "greaterThan"):
                continue
            if not any(local(c.tag) == "condition" and c.get("type") == "before" for c in group.iter()):
                continue
            count = number(group.get("value"))
            if count is not None and count >= 0:
                return int(count) + (1 if group.get("type") == "greaterThan" else 0), int(value)
    return None


def _conditions(mod: ET.Element) -> list[ET.Element]:
    """A modifier's conditions, directly or inside condition groups (not local condition groups)."""
    out = list(grand(mod, "conditions", "condition"))
    for group in grand(mod, "conditionGroups", "conditionGroup"):
        if children(group, "localConditionGroups"):
            return []  # a condition on earlier copies of the unit, not on its size
        out.extend(_conditions(group))
    return out


def _modifiers(el: ET.Element) -> list[ET.Element]:
    out = list(grand(el, "modifiers", "modifier"))
    for group in grand(el, "modifierGroups", "modifierGroup"):
        out.extend(_modifiers(group))
    return out


def tier_modifiers(entry: ET.Element, pts_ids: set[str], warnings: list[str], file_name: str) -> list[tuple[int, float]]:
    """(smallest model count, points) of each `set pts` modifier conditioned on the model count."""
    tiers: dict[int, float] = {}
    for mod in _modifiers(entry):
        if mod.get("type") != "set" or mod.get("field") not in pts_ids:
            continue
        value = number(mod.get("value"))
        for cond in _conditions(mod):
            if cond.get("childId") != "model" or cond.get("field") != "selections":
                continue
            count = number(cond.get("value"))
            if value is None or count is None:
                warnings.append(f"{file_name}: {entry.get('name')}: points modifier {mod.get('value')!r} at "
                                f"{cond.get('value')!r} models is not a number; left out")
                continue
            if cond.get("type") in ("atLeast", "greaterThan", "equalTo"):
                tiers[int(count) + (1 if cond.get("type") == "greaterThan" else 0)] = value
    return list(tiers.items())


def unit_size(lo: int, hi: int | None) -> str:
    return str(lo) if not hi or hi == lo else f"{lo}-{hi}"


def _bounds(el: ET.Element) -> tuple[int | None, int | None]:
    """min/max selections of an entry or link from its own constraints, a max raised by modifiers that set it."""
    lo = hi = None
    raise_to: dict[str, float] = {}
    for mod in _modifiers(el):
        value = number(mod.get("value"))
        if mod.get("type") in ("set", "increment") and value is not None:
            raise_to[mod.get("field", "")] = max(raise_to.get(mod.get("field", ""), 0), value)
    for c in grand(el, "constraints", "constraint"):
        if c.get("field") != "selections" or c.get("scope") not in ("parent", None):
            continue
        value = number(c.get("value"))
        if value is None:
            continue
        if c.get("type") == "min":
            lo = int(value)
        elif c.get("type") == "max":
            hi = int(max(value, raise_to.get(c.get("id", ""), value)))
    return lo, hi


def _children_of(el: ET.Element, index) -> Iterator[tuple[ET.Element, ET.Element]]:
    """(child or link, resolved target) for the entries and groups directly under `el`."""
    for child in grand(el, "selectionEntries", "selectionEntry") + grand(el, "selectionEntryGroups",
                                                                         "selectionEntryGroup"):
        if not _hidden(child):
            yield child, child
    for link in grand(el, "entryLinks", "entryLink"):
        target = index.get(link.get("targetId"))
        if target is not None and not _hidden(link):
            yield link, target


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _models(el: ET.Element, index, depth: int) -> tuple[int, int | None] | None:
    """The model count under `el` (min, max or None), or None when it holds no model.

    An entry's constraints bound how often it is taken; a group's bound how many of its children
    are taken in all: models when its children are models ("10-20 Warriors"), options when they
    are boxes of models ("1 Spanner and 4 Burna Boyz" or "2 Spanners and 8 Burna Boyz").
    """
    if depth > MAX_LINK_DEPTH:
        return None
    models, boxes = [], []
    for child, target in _children_of(el, index):
        lo, hi = _bounds(child)
        if child is not target:  # a link: its own constraints first, then the target's
            t_lo, t_hi = _bounds(target)
            lo, hi = (lo if lo is not None else t_lo), (hi if hi is not None else t_hi)
        if target.get("type") == "model":
            models.append((lo or 0, hi))
            continue
        inner = _models(target, index, depth + 1)
        if inner is None:
            continue
        if local(target.tag) == "selectionEntryGroup":
            models.append(inner)  # a group's own constraints were applied inside it
        else:
            boxes.append((inner, lo, hi))
    if not models and not boxes:
        return None
    g_lo, g_hi = _bounds(el) if local(el.tag) == "selectionEntryGroup" else (None, None)
    if boxes and not models and (g_lo is not None or g_hi is not None):
        lo = (g_lo or 0) * min(b[0][0] for b in boxes)
        highs = [b[0][1] for b in boxes]
        hi = None if g_hi is None or None in highs else g_hi * max(highs)
        return lo, hi
    lo_total = sum(m[0] for m in models) + sum(inner[0] * (lo or 0) for inner, lo, _ in boxes)
    hi_total: int | None = 0
    for m in models:
        hi_total = _add(hi_total, m[1])
    for inner, _, hi in boxes:
        hi_total = _add(hi_total, None if inner[1] is None else inner[1] * (hi if hi is not None else 1))
    if models and not boxes and local(el.tag) == "selectionEntryGroup":
        return (g_lo if g_lo is not None else lo_total), (g_hi if g_hi is not None else hi_total)
    return lo_total, hi_total


def model_bounds(entry: ET.Element, index) -> tuple[int, int | None]:
    """The smallest and largest legal model count of a unit (1 for a lone model)."""
    if entry.get("type") == "model":
        return 1, 1
    found = _models(entry, index, 0)
    if found is None:
        return 1, 1
    lo, hi = found
    return max(lo, 1), hi
