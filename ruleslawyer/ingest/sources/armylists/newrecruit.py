"""New Recruit and BattleScribe text exports: the WTC and GW formats ("+++" header), the markdown
roster ("# ++ Army Roster ++") and the short one-line-per-unit format.

Units are "Name (N pts)" or "Name [N pts]", optionally "Char2: 3x Name", optionally followed by
": wargear, 2x wargear" on the same line. Under a unit: "• Nx Model" lines with wargear nested
deeper ("• Nx weapon" or "N with weapon, weapon"), "Enhancement: X (+N pts)", "Warlord",
"Leading X" / "Attached to X". The "+++" header gives the faction keyword, detachment, force
disposition (11th edition), total points, warlord and which character carries which enhancement.
"""
from __future__ import annotations

import re

from .common import mark_edition, points_in, split_count, split_detachments, split_items, strip_bullet, text_column
from .model import ArmyList, ListUnit

_UNIT = re.compile(r"^(?:(?P<label>Char\d+):\s*)?(?:(?P<n>\d{1,6})\s*[x×]\s+)?(?P<name>[^\[(:•]+?)\s*"
                   r"[(\[](?P<pts>\d[\d,.]*)\s*pts?\s*[)\]]\s*(?::\s*(?P<items>.*))?$", re.IGNORECASE)
_WITH = re.compile(r"^(\d{1,6})\s+with\s+(.+)$", re.IGNORECASE)
_HEADER_KEY = re.compile(r"^\+\s*([A-Z][A-Z ]+?)\s*:\s*(.*)$")
_ENH_ON = re.compile(r"^(?P<name>.+?)\s*\(on\s+(?:(?P<label>Char\d+):\s*)?(?P<unit>.+?)\)\s*$", re.IGNORECASE)


def looks_like_newrecruit(text: str) -> bool:
    """True for the "+++" header, the "++ Army Roster ++" heading or "Name (N pts)" unit lines."""
    if re.search(r"^\+{5,}", text, re.MULTILINE) or re.search(r"\+\+ Army Roster\b", text):
        return True
    lines = [ln for ln in text.splitlines() if ln.strip()]
    hits = sum(1 for ln in lines if _UNIT.match(ln.strip()))
    return bool(lines) and hits >= max(1, len([ln for ln in lines if not ln[:1].isspace()]) // 3)


def parse_newrecruit(text: str) -> ArmyList:
    """Parse a New Recruit / BattleScribe text export into an ArmyList."""
    lines = [ln.rstrip() for ln in text.splitlines()]
    fmt = "newrecruit-wtc" if any(ln.startswith("+++") for ln in lines) else (
        "newrecruit-roster" if re.search(r"\+\+ Army Roster\b", text) else "newrecruit-short")
    army = ArmyList(format=fmt)
    enh_on: list[tuple[int, str, str | None, str]] = []  # (line, enhancement, char label, unit name)
    labels: dict[str, ListUnit] = {}
    section = None
    unit: ListUnit | None = None
    model: tuple[str, int, int] | None = None  # (name, count, column)
    last_key = None
    for k, raw in enumerate(lines):
        lineno = k + 1
        s = raw.strip()
        if not s:
            continue
        if s.startswith("+++") or s == "+":
            continue
        roster = re.match(r"^\+\+\s*(.*?)\s*\+\+$", s)  # "++ Army Roster (Xenos - Necrons) [2,000pts] ++"
        if roster:
            m = re.search(r"\(([^)]*)\)", roster.group(1))
            if m and not army.factions:
                army.factions = [m.group(1).strip()]
            army.points_listed = points_in(roster.group(1).replace("[", " ").replace("]", " ")) or army.points_listed
            continue
        plus = re.match(r"^\+\s+(.+?)\s+\+$", s)  # "+ Epic Hero +": a BattleScribe section
        if plus:
            section, unit = re.sub(r"\s*\[.*\]\s*$", "", plus.group(1)), None
            continue
        header = _HEADER_KEY.match(s)
        if header or (s.startswith("&") and last_key == "ENHANCEMENT"):
            key, value = (header.group(1).strip(), header.group(2).strip()) if header else ("ENHANCEMENT", s[1:].strip())
            last_key = key
            _header_value(army, lineno, key, value, enh_on)
            continue
        if re.match(r"^created with\b", s, re.IGNORECASE):
            mark_edition(army, s)
            continue
        if s.startswith("#"):
            heading = s.lstrip("#").strip()
            if "army roster" in heading.casefold():
                army.points_listed = points_in(heading.replace("[", "(").replace("]", ")")) or army.points_listed
            else:
                section = re.sub(r"\s*\[.*\]\s*$", "", heading)
            unit = None
            continue
        if k == 0 and re.search(r"-\s*\[\d+\s*pts\]\s*$", s):  # "Xenos - T'au Empire - My list - [1985 pts]"
            parts = [p.strip() for p in s.rsplit("[", 1)[0].split(" - ") if p.strip()]
            army.factions = parts[:-1] if len(parts) > 1 else parts
            army.title = parts[-1] if len(parts) > 1 else None
            army.points_listed = points_in(s)
            continue
        if section == "Configuration" and ":" in s:
            key, value = (x.strip() for x in s.split(":", 1))
            _header_value(army, lineno, key.upper(), value, enh_on)
            continue
        if section == "Configuration" and unit is None:
            continue  # "Show/Hide Options" and other switches of the builder
        m = _UNIT.match(s) if not strip_bullet(raw)[1] and not raw[:1].isspace() else None
        if m and not _WITH.match(s):
            unit = ListUnit(name=m.group("name").strip(), line=lineno, points=points_in(s.replace("[", "(")),
                            models=int(m.group("n")) if m.group("n") else None, section=section)
            army.units.append(unit)
            if m.group("label"):
                labels[m.group("label").casefold()] = unit
            model = None
            if m.group("items"):
                _items(unit, m.group("items"), None, unit.models or 1, lineno)
            continue
        if _is_heading(s):
            section, unit = s.title(), None
            continue
        if unit is None:
            army.note(lineno, "unread line", f"line {lineno}: not understood, left out: {s!r}")
            continue
        model = _body_line(army, unit, lineno, raw, model, lines[k + 1] if k + 1 < len(lines) else "")
    _assign_enhancements(army, enh_on, labels)
    for u in army.units:
        if u.model_lines and u.models is None:
            u.models = sum(c for _, c in u.model_lines)
    if army.warlord is None:
        army.warlord = next((u.name for u in army.units if u.warlord), None)
    mark_edition(army, text)
    return army


def _is_heading(s: str) -> bool:
    letters = [c for c in s if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters) and not re.search(r"\d", s)


def _header_value(army: ArmyList, lineno: int, key: str, value: str, enh_on: list) -> None:
    key = key.upper()
    if key.startswith("FACTION"):
        army.factions = [value]
    elif key.startswith("DETACHMENT"):
        army.detachments = split_detachments(value)
    elif key.startswith("FORCE DISPOSITION"):
        army.force_disposition = value
        mark_edition(army, "force disposition")
    elif key.startswith("TOTAL"):
        army.points_listed = points_in(value)
    elif key.startswith("BATTLE SIZE"):
        army.battle_size = re.sub(r"^\d+\.\s*", "", re.sub(r"\s*\(.*$", "", value))
        army.points_limit = points_in(value.replace("Point limit", "points"))
    elif key.startswith("WARLORD"):
        army.warlord = re.sub(r"^Char\d+:\s*", "", value)
    elif key.startswith("ENHANCEMENT"):
        m = _ENH_ON.match(value)
        if m:
            enh_on.append((lineno, m.group("name").strip(), m.group("label"), m.group("unit").strip()))
        else:
            army.note(lineno, "unread line", f"line {lineno}: enhancement without a bearer: {value!r}")
    elif key.startswith(("NUMBER OF UNITS", "SECONDARY", "SHOW/HIDE", "GAME TYPE")):
        pass  # counted again from the units; secondaries are a mission choice, not list content
    else:
        army.note(lineno, "unread line", f"line {lineno}: header entry not understood: {key}: {value}")


def _items(unit: ListUnit, text: str, model: str | None, times: int, line: int | None = None) -> None:
    w = _WITH.match(text.strip())
    if w:
        times, text = int(w.group(1)), w.group(2)
    for item in split_items(text, model, times):
        item.line = line
        enh = re.match(r"^enhancements?\s*:\s*(.+)$", item.name, re.IGNORECASE)
        if item.name.casefold() == "warlord":
            unit.warlord = True
        elif enh:
            unit.enhancement = re.sub(r"\s*\(\+?\s*\d+\s*pts?\)\s*$", "", enh.group(1)).strip()
        else:
            unit.wargear.append(item)


def _body_line(army: ArmyList, unit: ListUnit, lineno: int, raw: str, model, following: str):
    s, bulleted = strip_bullet(raw)
    low = s.casefold()
    col = text_column(raw)
    if model is not None and col <= model[2]:
        model = None
    if re.match(r"enhancements?\s*:", low):
        value = s.split(":", 1)[1].strip()
        unit.enhancement = re.sub(r"\s*\(\+?\s*\d+\s*pts?\)\s*$", "", value, flags=re.IGNORECASE).strip()
        unit.enhancement_points = points_in(value)
        return model
    if low == "warlord":
        unit.warlord = True
        return model
    if low.startswith("leading "):
        unit.attached_as, unit.attached_to = "Leader", s[8:].strip()
        return model
    if low.startswith("attached to "):
        unit.attached_as, unit.attached_to = "Bodyguard", s[12:].strip()
        return model
    if re.search(r"\(\+\s*\d+\s*pts?\)\s*$", s, re.IGNORECASE):  # "Fusion Blades (+25 pts)": the enhancement
        unit.enhancement = re.sub(r"\s*\(\+.*$", "", s).strip()
        unit.enhancement_points = points_in(s)
        return model
    if _WITH.match(s):
        _items(unit, s, model[0] if model else None, 1, lineno)
        return model
    if bulleted and ":" in s:  # "• 1x Long-quill: Close combat weapon, Kroot pistol"
        head, rest = s.split(":", 1)
        count, name = split_count(head)
        unit.model_lines.append((name, count))
        _items(unit, rest, name, 1 if _WITH.match(rest.strip()) or _totals(rest, count) else count, lineno)
        return None
    deeper_next = following.strip() and text_column(following) > col
    count, name = split_count(s)
    if bulleted and deeper_next and re.match(r"^\d+\s*[x×]\s", s):
        unit.model_lines.append((name, count))
        return (name, count, col)
    if s:
        _items(unit, s, model[0] if model else None, 1, lineno)
    return model


def _totals(text: str, models: int) -> bool:
    """Whether "N x item" counts on a model line are totals for all its models (BattleScribe:
    "10x Necron Warrior: 10x Gauss flayer") rather than per model (New Recruit: "2x Broadside
    Shas'ui: Crushing bulk, 2x Missile Drone", where uncounted items show it is per model)."""
    parts = [p.strip() for p in split_items_raw(text)]
    counts = [re.match(r"^(\d{1,6})\s*[x×]\s", p) for p in parts if p]
    return bool(counts) and all(counts) and all(int(m.group(1)) % models == 0 for m in counts) and models > 1


def split_items_raw(text: str) -> list[str]:
    """The comma-separated parts of an item list, brackets kept whole."""
    out, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")" and depth > 0
        if ch == "," and depth == 0:
            out.append(current)
            current = ""
        else:
            current += ch
    return out + [current]


def _assign_enhancements(army: ArmyList, enh_on: list, labels: dict) -> None:
    """Give each header enhancement ("X (on Char2: Name)") to its bearer, unless the unit names it."""
    for lineno, name, label, unit_name in enh_on:
        bearer = labels.get(label.casefold()) if label else None
        if bearer is None or bearer.name.casefold() != unit_name.casefold():
            bearer = next((u for u in army.units if u.name.casefold() == unit_name.casefold()
                           and u.enhancement in (None, name)), bearer)
        if bearer is None:
            army.note(lineno, "unread line", f"line {lineno}: enhancement {name!r} is on {unit_name!r}, "
                      f"which the list does not have")
        elif bearer.enhancement is None:
            bearer.enhancement = name
