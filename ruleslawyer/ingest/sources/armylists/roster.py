"""BattleScribe / New Recruit roster files: `.ros` (XML) and `.rosz` (the same XML, zipped).

A roster holds forces (one per catalogue: `catalogueName` is the faction); each force holds
selections. A selection of type "unit" or "model" is a unit; selections nested in it are its
models (type "model") and wargear (type "upgrade"). Top-level upgrades are the army's
configuration: the detachment ("Detachment" / "Detachment Choice") and battle size selections.
Points are the "pts" costs of a selection and everything nested in it.
"""
from __future__ import annotations

import io
import math
import re
import zipfile
import zlib
from xml.etree import ElementTree
from xml.parsers import expat

from .model import MAX_UNITS, ArmyList, ListItem, ListUnit

MAX_ROSTER_BYTES = 8 * 1024 * 1024  # a roster is a few hundred KB; parsing one takes some 30 times its size
MAX_DEPTH = 5000  # XML nesting: a roster nests selections a few levels deep
MAX_ELEMENTS = 400_000  # a 2,000 point roster has a few thousand
MAX_NUMBER = 1_000_000  # a cost or a count beyond this is not a real one
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


class _Reader:
    """One roster being read: its XML tree, the line of every element, and the army it fills.

    Numbers in the XML are the file's word, not trusted: a cost of "inf", "NaN" or "lots", or a
    number="four", becomes a note naming its line (the value counted as 0, the number as 1).
    """

    def __init__(self, root, lines: dict, army: ArmyList):
        self.root, self.lines, self.army = root, lines, army

    def line(self, el) -> int | None:
        return self.lines.get(el)

    def number(self, el, attr: str, default: float, what: str) -> float:
        raw = el.get(attr)
        if raw is None or not raw.strip():
            return default
        try:
            value = float(raw) if len(raw) <= 40 else math.inf
        except ValueError:
            value = math.nan
        if math.isfinite(value) and abs(value) <= MAX_NUMBER:
            return value
        line = self.line(el)
        self.army.note(line, "bad number", f"line {line}: {what}: {attr} {raw[:40]!r} is not a usable number; "
                       f"counted as {default:g}")
        return default

    def own_points(self, sel) -> float:
        costs = _child(sel, "costs")
        total = 0.0
        if costs is not None:
            for c in _children(costs, "cost"):
                if (c.get("name") or "").strip().casefold() in ("pts", "points"):
                    total += self.number(c, "value", 0.0, f"cost of {(sel.get('name') or 'the roster').strip()!r}")
        return total

    def points(self, sel) -> float:
        """The points of `sel` and every selection nested in it (walked without recursion)."""
        total, stack = 0.0, [sel]
        while stack:
            s = stack.pop()
            total += self.own_points(s)
            stack.extend(_subs(s))
        return total

    def count(self, sel) -> int:
        return int(self.number(sel, "number", 1, f"selection {(sel.get('name') or '').strip()!r}"))


def _subs(sel) -> list:
    subs = _child(sel, "selections")
    return _children(subs, "selection") if subs is not None else []


def _categories(sel) -> list[str]:
    cats = _child(sel, "categories")
    return [c.get("name") or "" for c in _children(cats, "category")] if cats is not None else []


def _parse_xml(xml: bytes):
    """The element tree of `xml` and the line each element starts on (expat, which never recurses).

    More than MAX_ELEMENTS elements, or nesting deeper than MAX_DEPTH, is refused: no roster
    comes near either."""
    builder = ElementTree.TreeBuilder()
    lines: dict = {}
    parser = expat.ParserCreate(namespace_separator="}")
    depth = [0, 0]  # current depth, elements seen

    def start(tag, attrs):
        depth[0] += 1
        depth[1] += 1
        if depth[0] > MAX_DEPTH:
            raise RosterError(f"selections nested over {MAX_DEPTH} deep (line {parser.CurrentLineNumber}); "
                              f"not a roster a list builder writes")
        if depth[1] > MAX_ELEMENTS:
            raise RosterError(f"over {MAX_ELEMENTS:,} XML elements; not a roster a list builder writes")
        el = builder.start("{" + tag if "}" in tag else tag, attrs)
        lines[el] = parser.CurrentLineNumber

    def end(tag):
        depth[0] -= 1
        builder.end("{" + tag if "}" in tag else tag)

    parser.StartElementHandler, parser.EndElementHandler = start, end
    try:
        parser.Parse(xml, True)
        root = builder.close()
    except (expat.ExpatError, LookupError, ValueError, AssertionError) as exc:
        raise RosterError(f"not a readable roster ({exc})") from None
    return root, lines


def parse_roster(data: bytes) -> ArmyList:
    """Parse `.ros` or `.rosz` bytes into an ArmyList."""
    root, lines = _parse_xml(roster_xml(data))
    if _local(root.tag) != "roster":
        raise RosterError(f"the XML root is <{_local(root.tag)}>, not <roster>")
    army = ArmyList(format="battlescribe-rosz" if data[:2] == b"PK" else "battlescribe-ros")
    reader = _Reader(root, lines, army)
    army.title = root.get("name")
    costs = _child(root, "costs")
    if costs is not None:
        bad = len(army.notes)
        total = reader.own_points(root)
        army.points_listed = int(total) if len(army.notes) == bad else None
    limits = _child(root, "costLimits")
    if limits is not None:
        for lim in _children(limits, "costLimit"):
            if (lim.get("name") or "").casefold() in ("pts", "points"):
                value = reader.number(lim, "value", -1.0, "the points limit")
                if value > 0:
                    army.points_limit = int(value)
    forces = _child(root, "forces")
    for force in (_children(forces, "force") if forces is not None else []):
        faction = force.get("catalogueName")
        if faction and faction not in army.factions:
            army.factions.append(faction)
        for sel in _subs(force):
            _top_selection(reader, sel)
    army.warlord = next((u.name for u in army.units if u.warlord), None)
    return army


def _top_selection(reader: _Reader, sel) -> None:
    army = reader.army
    name = (sel.get("name") or "").strip()
    kind = (sel.get("type") or "").casefold()
    low = name.casefold()
    if kind in ("unit", "model"):
        if len(army.units) >= MAX_UNITS:
            raise RosterError(f"over {MAX_UNITS} units; no army list has that many")
        army.units.append(_unit(reader, sel))
    elif low.startswith(_CONFIG_NAMES):
        chosen = [(s.get("name") or "").strip() for s in _subs(sel)]
        if low.startswith("detachment"):
            army.detachments.extend(c for c in chosen if c)
        elif low.startswith("battle size") and chosen:
            army.battle_size = re.sub(r"\s*\(.*$", "", chosen[0])
        if "force disposition" in low:
            army.force_disposition = chosen[0] if chosen else None
    else:
        line = reader.line(sel)
        army.note(line, "unread selection", f"line {line}: selection {name!r} ({kind or 'no type'}) is not a unit; "
                  "left out")


def _unit(reader: _Reader, sel) -> ListUnit:
    line = reader.line(sel) or 0
    unit = ListUnit(name=(sel.get("name") or "").strip(), line=line, points=int(round(reader.points(sel))),
                    section=next((c for c in _categories(sel) if c), None))
    models = 0
    if (sel.get("type") or "").casefold() == "model":
        models = reader.count(sel)
    _walk(reader, unit, sel)
    if unit.model_lines:
        models = sum(c for _, c in unit.model_lines)
    unit.models = models or None
    return unit


def _walk(reader: _Reader, unit: ListUnit, sel) -> None:
    """The unit's models, wargear and enhancement, in document order, with an explicit stack."""
    stack = [(sub, None) for sub in reversed(_subs(sel))]
    while stack:
        sub, model = stack.pop()
        name = (sub.get("name") or "").strip()
        kind = (sub.get("type") or "").casefold()
        number = reader.count(sub)
        cats = [c.casefold() for c in _categories(sub)]
        if kind == "model":
            unit.model_lines.append((name, number))
            stack.extend((s, name) for s in reversed(_subs(sub)))
        elif name.casefold() == "warlord":
            unit.warlord = True
        elif any("enhancement" in c for c in cats):
            unit.enhancement = name
            unit.enhancement_points = int(round(reader.points(sub))) or None
        else:
            unit.wargear.append(ListItem(name, number, model, reader.line(sub)))
            stack.extend((s, model) for s in reversed(_subs(sub)))
