"""The official Warhammer 40,000 app's text export (10th and 11th edition variants).

Shape: a header (list name with its total, factions, detachment line, in 11th edition a Force
Disposition and "(N Detachment Points)", the battle size), then units under headings
(CHARACTERS, BATTLELINE, OTHER DATASHEETS; ATTACHED UNITS with "Attached unit N" groups), each
"Name (N points)" followed by bullet lines: "Attached as: Leader (Character)", "Warlord",
"Enhancements: X", and "Nx Model" lines whose wargear is nested under them. Nesting is read from
where each line's words start; when a paste lost the indentation, models and wargear are told
apart by bullets (a bulleted line opens a group, unbulleted lines continue it) and the unit is
flagged `flat` with a note on its line.
"""
from __future__ import annotations

import re

from .common import battle_size, mark_edition, points_in, split_count, split_detachments, strip_bullet, text_column
from .model import ArmyList, ListItem, ListUnit

_UNIT = re.compile(r"^(?P<name>[^•◦].*?)\s*\((?P<pts>[\d,.]+)\s*points?\)\s*$", re.IGNORECASE)
_ATTACHED_GROUP = re.compile(r"^attached units?\s*(\d{1,6})?\s*$", re.IGNORECASE)
_DETACHMENT_POINTS = re.compile(r"\s*\((\d{1,6})\s*detachment points?\)\s*$", re.IGNORECASE)
_FOOTER = re.compile(r"^exported with\b", re.IGNORECASE)


def looks_like_app(text: str) -> bool:
    """True when `text` reads as an official app export: "Name (N points)" lines with bullets under them."""
    lines = text.splitlines()
    hits = 0
    for i, line in enumerate(lines[:-1]):
        if _UNIT.match(line.strip()) and not line[:1].isspace() and strip_bullet(lines[i + 1])[1]:
            hits += 1
    return hits >= 1 or bool(re.search(r"^Exported with App Version", text, re.MULTILINE))


def parse_app_text(text: str) -> ArmyList:
    """Parse an official app text export into an ArmyList (notes for every line not understood)."""
    army = ArmyList(format="app")
    lines = [ln.rstrip() for ln in text.splitlines()]
    header: list[tuple[int, str]] = []
    i, n = 0, len(lines)
    in_header = True
    section = group = None
    while i < n:
        raw = lines[i]
        s, bulleted = strip_bullet(raw)
        lineno = i + 1
        if not s:
            i += 1
            continue
        if _FOOTER.match(s):
            mark_edition(army, s)
            i += 1
            continue
        unit_match = _UNIT.match(s) if not bulleted and not raw[:1].isspace() else None
        nxt = _next_nonblank(lines, i + 1)
        body_follows = nxt is not None and (strip_bullet(lines[nxt])[1] or lines[nxt][:1].isspace())
        if in_header and unit_match and not body_follows:
            size = battle_size(s)
            if size:
                army.battle_size, army.points_limit = size, points_in(s)
            elif army.title is None:
                army.title, army.points_listed = unit_match.group("name"), points_in(s)
            else:
                header.append((lineno, s))
            i += 1
            continue
        if in_header and _ATTACHED_GROUP.match(s):
            in_header = False
            continue
        if in_header and not unit_match and not _is_heading(s) and battle_size(s) and points_in(s):
            army.battle_size, army.points_limit = battle_size(s), points_in(s)
            i += 1
            continue
        if in_header and not unit_match and not _is_heading(s) and not bulleted:
            header.append((lineno, s))
            i += 1
            continue
        in_header = False
        m = _ATTACHED_GROUP.match(s) if not bulleted else None
        if m:
            in_header = False
            if m.group(1):
                group = int(m.group(1))
            else:
                section, group = "Attached units", None
            i += 1
            continue
        if _is_heading(s) and not unit_match:
            section, group = s.title(), None
            i += 1
            continue
        if unit_match:
            unit = ListUnit(name=unit_match.group("name").strip(), line=lineno, points=points_in(s),
                            section=section, attached_group=group)
            j = i + 1
            body: list[tuple[int, str]] = []
            while j < n and lines[j].strip() and not (_UNIT.match(lines[j].strip()) and not strip_bullet(lines[j])[1]
                                                      and not lines[j][:1].isspace()):
                if _FOOTER.match(lines[j].strip()) or (_is_heading(lines[j].strip()) and not lines[j][:1].isspace()
                                                       and not strip_bullet(lines[j])[1]):
                    break
                body.append((j + 1, lines[j]))
                j += 1
            _read_body(army, unit, body)
            army.units.append(unit)
            i = j
            continue
        army.note(lineno, "unread line", f"line {lineno}: not understood, left out: {s!r}")
        i += 1
    _read_header(army, header)
    mark_edition(army, text)
    if army.warlord is None:
        army.warlord = next((u.name for u in army.units if u.warlord), None)
    return army


def _next_nonblank(lines: list[str], start: int) -> int | None:
    for k in range(start, len(lines)):
        if lines[k].strip():
            return k
    return None


def _is_heading(s: str) -> bool:
    letters = [c for c in s if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters) and not re.search(r"\d", s)


def _read_header(army: ArmyList, header: list[tuple[int, str]]) -> None:
    """Factions, detachments and force disposition from the header lines, by their order."""
    names = [(ln, s) for ln, s in header]
    marked = [k for k, (_, s) in enumerate(names) if _DETACHMENT_POINTS.search(s)]
    if marked:
        k = marked[0]
        line = names[k][1]
        army.detachment_points = int(_DETACHMENT_POINTS.search(line).group(1))
        army.detachments = split_detachments(_DETACHMENT_POINTS.sub("", line))
        army.factions = [s for _, s in names[:k]]
        after = [s for _, s in names[k + 1:]]
        if after:
            army.force_disposition = after[0]
        for ln, s in names[k + 2:]:
            army.note(ln, "unread line", f"line {ln}: header line not understood: {s!r}")
    elif len(names) >= 2:
        army.factions = [s for _, s in names[:-1]]
        army.detachments = split_detachments(names[-1][1])
    elif names:
        army.factions = [names[0][1]]


def _read_body(army: ArmyList, unit: ListUnit, body: list[tuple[int, str]]) -> None:
    """The bullet lines under a unit: roles, warlord, enhancement, options, models and wargear."""
    items: list[tuple[int, int, str, bool]] = []  # (line, column, text, bulleted)
    for lineno, raw in body:
        s, bulleted = strip_bullet(raw)
        low = s.casefold()
        if low.startswith("attached as"):
            role = s.split(":", 1)[1].strip() if ":" in s else ""
            unit.attached_as = re.sub(r"\s*\(.*\)\s*$", "", role).strip() or None
        elif low == "warlord":
            unit.warlord = True
        elif re.match(r"enhancements?\s*:", low):
            value = s.split(":", 1)[1].strip()
            unit.enhancement = re.sub(r"\s*\((?:upgrade|\+?\s*\d+\s*(?:pts|points))\)\s*$", "", value,
                                      flags=re.IGNORECASE).strip()
            unit.enhancement_points = points_in(value) if "+" in value else None
        elif re.match(r"^\d+\s*[x×]\s", s, re.IGNORECASE):
            items.append((lineno, text_column(raw), s, bulleted))
        elif ":" in s or bulleted:
            unit.options.append(s)
        else:
            army.note(lineno, "unread line", f"line {lineno}: not understood under {unit.name}: {s!r}")
    if not items:
        return
    # A continuation line (no bullet) that starts left of the line above it: the paste lost its indentation.
    flat = any(not b and col < items[k - 1][1] for k, (_, col, _, b) in enumerate(items) if k)
    if flat:
        unit.flat = True
        army.note(unit.line, "indentation lost",
                  f"line {unit.line}: {unit.name}: the list lost its indentation; models and wargear were "
                  f"told apart by the bullets, check them")
        _read_flat(unit, items)
    else:
        _read_nested(unit, items)
    if unit.model_lines:
        unit.models = sum(c for _, c in unit.model_lines)


def _read_nested(unit: ListUnit, items: list[tuple[int, int, str, bool]]) -> None:
    model = None
    model_col = None
    for k, (lineno, col, s, _) in enumerate(items):
        count, name = split_count(s)
        has_children = k + 1 < len(items) and items[k + 1][1] > col
        if has_children:
            model, model_col = name, col
            unit.model_lines.append((name, count))
            continue
        if model_col is not None and col <= model_col:
            model = model_col = None
        unit.wargear.append(ListItem(name, count, model, lineno))


def _read_flat(unit: ListUnit, items: list[tuple[int, int, str, bool]]) -> None:
    groups: list[list[tuple[int, str]]] = []
    for lineno, _, s, bulleted in items:
        if bulleted or not groups:
            groups.append([(lineno, s)])
        else:
            groups[-1].append((lineno, s))
    expecting_model, model = len(groups) > 1, None
    for k, group in enumerate(groups):
        last = k == len(groups) - 1
        if expecting_model and len(group) == 1 and not last:
            count, model = split_count(group[0][1])
            unit.model_lines.append((model, count))
            expecting_model = False
            continue
        for lineno, s in group:
            count, name = split_count(s)
            unit.wargear.append(ListItem(name, count, model, lineno))
        expecting_model = True
