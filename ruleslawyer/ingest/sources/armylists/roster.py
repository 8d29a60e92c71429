"""BattleScribe / New Recruit roster files: `.ros` (XML) and `.rosz` (the same XML, zipped).

A roster holds forces (one per catalogue: `catalogueName` is the faction); each force holds
selections. A selection of type "unit" or "model" is a unit; selections nested in it are its
models (type "model") and wargear (type "upgrade"). Top-level upgrades are the army's
configuration: the detachment ("Detachment" / "Detachment Choice") and battle size selections.
Points are the "pts" costs of a selection and everything nested in it.
"""
from __future__ import annotations

import io
import re
import zipfile
import zlib
from xml.etree import ElementTree

from .model import ArmyList, ListItem, ListUnit

MAX_ROSTER_BYTES = 64 * 1024 * 1024  # a roster is a few hundred KB
_CONFIG_NAMES = ("detachment", "battle size", "show/hide", "game type", "configuration")


class RosterError(ValueError):
    """The bytes are not a readable roster."""


def roster_xml(data: bytes) -> bytes:
    """The XML of a `.ros` (returned as is) or `.rosz` (the first `.ros` member of the zip)."""
    if data[:2] == b"PK":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                members = [m for m in z.infolist() if m.filename.lower().endswith(".ros")] or z.infolist()
                if not members:
                    raise RosterError("the .rosz archive is empty")
                if members[0].file_size > MAX_ROSTER_BYTES:  # a zip bomb, or not a roster
                    raise RosterError(f"the roster in the .rosz archive is {members[0].file_size} bytes; "
                                      f"the limit is {MAX_ROSTER_BYTES // (1024 * 1024)} MB")
                with z.open(members[0]) as fh:
                    xml = fh.read(MAX_ROSTER_BYTES + 1)  # the size in the directory may lie
                if len(xml) > MAX_ROSTER_BYTES:
                    raise RosterError(f"the roster in the .rosz archive is over {MAX_ROSTER_BYTES // (1024 * 1024)} MB")
                return xml
        except RosterError:
            raise
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError, OSError) as exc:
            # damaged data, an unsupported compression method, an encrypted member
            raise RosterError(f"not a readable .rosz archive ({exc})") from None
    return data


def looks_like_roster(data: bytes) -> bool:
    """True for zipped data or XML whose root element is a `roster`."""
    if data[:2] == b"PK":
        return True
    head = data[:400].lstrip()
    return head.startswith(b"<") and b"<roster" in data[:2000]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(el, name: str):
    return [c for c in el if _local(c.tag) == name]


def _child(el, name: str):
    found = _children(el, name)
    return found[0] if found else None


def _own_points(sel) -> float:
    costs = _child(sel, "costs")
    total = 0.0
    if costs is not None:
        for c in _children(costs, "cost"):
            if (c.get("name") or "").strip().casefold() in ("pts", "points"):
                total += float(c.get("value") or 0)
    return total


def _points(sel) -> float:
    subs = _child(sel, "selections")
    return _own_points(sel) + sum(_points(s) for s in (_children(subs, "selection") if subs is not None else []))


def _subs(sel) -> list:
    subs = _child(sel, "selections")
    return _children(subs, "selection") if subs is not None else []


def _categories(sel) -> list[str]:
    cats = _child(sel, "categories")
    return [c.get("name") or "" for c in _children(cats, "category")] if cats is not None else []


def parse_roster(data: bytes) -> ArmyList:
    """Parse `.ros` or `.rosz` bytes into an ArmyList."""
    xml = roster_xml(data)
    try:
        root = ElementTree.fromstring(xml)
    except (ElementTree.ParseError, LookupError, ValueError) as exc:  # LookupError: an unknown declared encoding
        raise RosterError(f"not a readable roster ({exc})") from None
    if _local(root.tag) != "roster":
        raise RosterError(f"the XML root is <{_local(root.tag)}>, not <roster>")
    army = ArmyList(format="battlescribe-rosz" if data[:2] == b"PK" else "battlescribe-ros")
    army.title = root.get("name")
    total = _own_points(root)
    army.points_listed = int(total) if _child(root, "costs") is not None else None
    limits = _child(root, "costLimits")
    if limits is not None:
        for lim in _children(limits, "costLimit"):
            if (lim.get("name") or "").casefold() in ("pts", "points") and float(lim.get("value") or -1) > 0:
                army.points_limit = int(float(lim.get("value")))
    forces = _child(root, "forces")
    for force in (_children(forces, "force") if forces is not None else []):
        faction = force.get("catalogueName")
        if faction and faction not in army.factions:
            army.factions.append(faction)
        for sel in _subs(force):
            _top_selection(army, sel)
    army.warlord = next((u.name for u in army.units if u.warlord), None)
    return army


def _top_selection(army: ArmyList, sel) -> None:
    name = (sel.get("name") or "").strip()
    kind = (sel.get("type") or "").casefold()
    low = name.casefold()
    if kind in ("unit", "model"):
        army.units.append(_unit(sel))
    elif low.startswith(_CONFIG_NAMES):
        chosen = [(s.get("name") or "").strip() for s in _subs(sel)]
        if low.startswith("detachment"):
            army.detachments.extend(c for c in chosen if c)
        elif low.startswith("battle size") and chosen:
            army.battle_size = re.sub(r"\s*\(.*$", "", chosen[0])
        if "force disposition" in low:
            army.force_disposition = chosen[0] if chosen else None
    else:
        army.note(None, "unread selection", f"selection {name!r} ({kind or 'no type'}) is not a unit; left out")


def _unit(sel) -> ListUnit:
    unit = ListUnit(name=(sel.get("name") or "").strip(), line=0, points=int(round(_points(sel))),
                    section=next((c for c in _categories(sel) if c), None))
    models = 0
    if (sel.get("type") or "").casefold() == "model":
        models = int(sel.get("number") or 1)
    _walk(unit, sel, None)
    if unit.model_lines:
        models = sum(c for _, c in unit.model_lines)
    unit.models = models or None
    return unit


def _walk(unit: ListUnit, sel, model: str | None) -> None:
    for sub in _subs(sel):
        name = (sub.get("name") or "").strip()
        kind = (sub.get("type") or "").casefold()
        number = int(sub.get("number") or 1)
        cats = [c.casefold() for c in _categories(sub)]
        if kind == "model":
            unit.model_lines.append((name, number))
            _walk(unit, sub, name)
        elif name.casefold() == "warlord":
            unit.warlord = True
        elif any("enhancement" in c for c in cats):
            unit.enhancement = name
            unit.enhancement_points = int(round(_points(sub))) or None
        else:
            unit.wargear.append(ListItem(name, number, model))
            _walk(unit, sub, model)
