"""What the 11th edition Wahapedia export adds to the 10th edition tables.

- `Datasheets_models_cost.csv` interleaves heading rows with the priced rows: "YOUR UNIT COSTS",
  "YOUR 1ST TO 2ND UNITS COST" / "YOUR 3RD + UNIT COSTS" (the price of repeated units, kept as
  the tier "1st-2nd" / "3rd+") and "WARGEAR OPTIONS" (then "per Paired Krumpas | 5" rows).
- Core abilities print their rule number beside the name (`<span class="h_number">24.12</span>`).
- `Source.csv` (one row per publication: version, errata date) and `Last_update.csv` date records.
- Weapon keywords may be plain text ("LETHAL HITS: non-MONSTER/VEHICLE, Rapid Fire 1"), not links.
"""
from __future__ import annotations

import re
from datetime import datetime

from ...records import ItemCost, UnitCost
from ..load.fragments import fragment_text, link_texts

_TIER = re.compile(r"^\s*your\s+(.*?)\s*units?\s+costs?\s*$", re.I)
_ORDINAL = re.compile(r"(\d+)\s*(st|nd|rd|th)", re.I)
_NUMBER = re.compile(r'<span class="h_number">\s*([\d.]+)\s*</span>', re.I)


def tier_label(words: str) -> str | None:
    """"1ST TO 2ND" -> "1st-2nd", "3RD +" -> "3rd+", "" -> None (a plain unit price)."""
    ordinals = [f"{n}{s.lower()}" for n, s in _ORDINAL.findall(words)]
    if not ordinals:
        return None
    if len(ordinals) >= 2:
        return f"{ordinals[0]}-{ordinals[1]}"
    return ordinals[0] + ("+" if "+" in words else "")


def _number(value: str) -> int | None:
    m = re.fullmatch(r"\s*\+?\s*(\d+)\s*(?:pts)?\s*", value or "")
    return int(m.group(1)) if m else None


def unit_costs(rows: list[dict[str, str]], where: str,
               warnings: list[str]) -> tuple[tuple[UnitCost, ...] | None, tuple[ItemCost, ...]]:
    """Unit prices (with their tier) and wargear costs from one datasheet's cost rows."""
    costs, wargear, tier, in_wargear = [], [], None, False
    for row in rows:
        label, cost = fragment_text(row.get("description")).strip(), (row.get("cost") or "").strip()
        heading = _TIER.match(label)
        if not cost and heading:
            tier, in_wargear = tier_label(heading.group(1)), False
            continue
        if not cost and re.match(r"^\s*wargear", label, re.I):
            in_wargear = True
            continue
        if not cost and not label:
            continue
        points = _number(cost)
        if points is None:
            warnings.append(f"{where}: cost {cost!r} of {label!r} is not a number; kept without points")
        if in_wargear or cost.startswith("+"):  # "+30" for an added model or item: on top of the unit
            wargear.append(ItemCost(name=re.sub(r"^\s*per\s+", "", label, flags=re.I), points=points))
        else:
            counts = re.findall(r"(\d+)\s+[^\d,]+", label)  # "1 Runtherd, 10 Gretchin": 11 models, said so
            plain = re.fullmatch(r"\s*\d+\s+models?\s*", label, re.I)
            costs.append(UnitCost(models=str(sum(map(int, counts))) if counts else label, points=points, tier=tier,
                                  description=None if plain or not counts else label))
    return tuple(costs) or None, tuple(wargear)


def rule_number(description: str | None) -> str | None:
    """The rule number printed beside an ability's name ("24.12"), if any."""
    m = _NUMBER.search(description or "")
    return m.group(1) if m else None


def without_number(description: str | None) -> str:
    """The description HTML without its rule-number span (so the title line is the bare name)."""
    return _NUMBER.sub("", description or "")


def weapon_keywords(description: str | None) -> tuple[str, ...]:
    """Weapon keywords, lower-cased: the link texts, or the comma-separated plain text."""
    links = link_texts(description)
    if links:
        return tuple(t.lower() for t in links)
    text = fragment_text(description)
    return tuple(k.strip().lower() for k in text.split(",") if k.strip() and k.strip() not in ("-", "—"))


def iso_date(value: str | None) -> str | None:
    """"26.08.2026 0:00:00" or "2026-09-13 03:43:55" -> "2026-08-26"; None for "01.01.0001" and junk."""
    value = (value or "").strip()
    for fmt in ("%d.%m.%Y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%d.%m.%Y", "%Y-%m-%d"):
        try:
            parsed = datetime.strptime(value, fmt)
        except ValueError:
            continue
        return parsed.date().isoformat() if parsed.year > 1900 else None
    return None


def publications(rows: list[dict[str, str]]) -> dict[str, tuple[str | None, str | None]]:
    """Source.csv: publication id -> (date, version)."""
    return {r.get("id", ""): (iso_date(r.get("errata_date")), (r.get("version") or "").strip() or None)
            for r in rows if r.get("id")}


def flag(value: str | None) -> bool | None:
    """"true"/"false" columns as booleans; empty as None."""
    value = (value or "").strip().lower()
    return True if value == "true" else False if value == "false" else None
