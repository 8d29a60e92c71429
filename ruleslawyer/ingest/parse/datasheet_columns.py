"""Weapon tables that a text dump printed column by column.

A text dump of datasheet cards (a PDF's text read box by box) can set a card's weapon table as
its parts, one after another: the weapon names under each title, then each characteristic as
a label and the values under it, the ranged table's column before the melee table's:

    RANGED WEAPONS / Gauntlet of Fire [TORRENT] / Staff of the Destroyer
    MELEE WEAPONS / Staff of the Destroyer [DEVASTATING WOUNDS]
    RANGE / 12" / 18"      RANGE / Melee      A / D6 / 3      A / 4      BS / N/A / 2+      WS / 2+  …

`weapon_columns` puts the rows back together from that structure: the n-th printing of a
label belongs to the n-th table that has the column, and each column holds one value per weapon
of its table. When the counts do not agree the columns are not guessed at: None.
"""
from __future__ import annotations

import re

from .datasheet_lines import Line, is_value, label_key

_TITLES = {"RANGEDWEAPONS": False, "MELEEWEAPONS": True}
_COLUMNS = ("RANGE", "A", "BS", "WS", "S", "AP", "D")
_SKILL = {"BS": False, "WS": True}  # the skill column each table has


def _value(text: str) -> bool:
    t = text.strip()
    return bool(t) and (is_value(t) or t.casefold() == "melee" or t in ("N/A", "-", "\u2013")
                        or re.fullmatch(r"\d*D\d+(?:\+\d+)?|\d+\+?|[-+]?\d+\"?", t) is not None)


def weapon_columns(lines: list[Line], k: int, end: int) -> tuple[list[tuple[str, ...]], int] | None:
    """(rows, index after the table) for a weapon table printed column by column from lines[k]
    (a weapon title): a header row then one row per weapon, for each table; None when lines[k]
    does not start one, or its columns do not add up."""
    tables: list[tuple[bool, list[str]]] = []
    i = k
    while i < end and label_key(lines[i].text) in _TITLES and lines[i].kind != "row":
        melee = _TITLES[label_key(lines[i].text)]
        names: list[str] = []
        i += 1
        while i < end and lines[i].kind != "row" and label_key(lines[i].text) not in _TITLES \
                and label_key(lines[i].text) not in _COLUMNS and not _value(lines[i].text):
            text = lines[i].text.strip()
            if names and (text.startswith("[") or names[-1].rstrip().endswith(("[", ","))):
                names[-1] = f"{names[-1].rstrip()} {text}"  # its keywords wrapped onto a line of their own
            else:
                names.append(text)
            i += 1
        if not names:
            return None
        tables.append((melee, names))
    if not tables or i >= end or label_key(lines[i].text) not in _COLUMNS:
        return None
    columns: dict[tuple[int, str], list[str]] = {}
    seen: dict[str, int] = {}
    while i < end and label_key(lines[i].text) in _COLUMNS and lines[i].kind != "row":
        label = label_key(lines[i].text)
        values = []
        i += 1
        while i < end and _value(lines[i].text) and label_key(lines[i].text) not in _COLUMNS:
            values.append(lines[i].text.strip())
            i += 1
        if label in _SKILL:
            table = next((n for n, (melee, _) in enumerate(tables) if melee == _SKILL[label]), None)
        else:
            table = seen.get(label, 0)
            seen[label] = table + 1
        if table is None or table >= len(tables) or (table, label) in columns:
            return None
        columns[table, label] = values
    rows: list[tuple[str, ...]] = []
    for n, (melee, names) in enumerate(tables):
        skill = "WS" if melee else "BS"
        order = ("RANGE", "A", skill, "S", "AP", "D")
        if any(len(columns.get((n, c), ())) != len(names) for c in order):
            return None  # a column with a value too many or too few: the rows cannot be rebuilt
        rows.append(("MELEE WEAPONS" if melee else "RANGED WEAPONS",) + order)
        rows.extend((name,) + tuple(columns[n, c][w] for c in order) for w, name in enumerate(names))
    return rows, i
