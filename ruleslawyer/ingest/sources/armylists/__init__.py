"""Army lists: the formats players export, read into one `ArmyList` shape.

    parse_list(data, name="") -> ArmyList   (text or bytes; the format is sniffed from the content)
    load_list(path) -> ArmyList            (the one function here that opens a file)

Formats: the official app's text export (10th and 11th edition), New Recruit / BattleScribe text
exports (WTC, GW, markdown roster and short), BattleScribe rosters (.ros XML, .rosz zip).
"""
from __future__ import annotations

import time
from pathlib import Path

from .... import registry
from ....errors import LoadError
from .model import MAX_UNITS, ArmyList, ListItem, ListNote, ListUnit
from .roster import RosterError

# A list export is a few KB, a roster a few hundred. Reading one takes some 40 times its size in
# memory (lines, items, notes), so the limit keeps the worst case under 200 MB.
MAX_LIST_BYTES = 4 * 1024 * 1024

__all__ = ["MAX_LIST_BYTES", "MAX_UNITS", "ArmyList", "ListItem", "ListNote", "ListUnit", "load_list", "parse_list"]


def parse_list(data: str | bytes, name: str = "list") -> ArmyList:
    """Parse an army list from its text or bytes; raises LoadError when no format fits.

    The formats are the `ruleslawyer.lists` registry's (see `formats.py`), tried in order:
    binary ones on the bytes, the others on the text."""
    formats = registry.load_all(registry.LISTS)
    raw = data if isinstance(data, bytes) else data.lstrip("\ufeff").encode("utf-8", errors="replace")
    for fmt in formats:
        if getattr(fmt, "binary", False) and fmt.looks_like(raw):
            try:
                return _checked(fmt.parse(raw), name)
            except RosterError as exc:
                raise LoadError(name, str(exc)) from None
    text = data.decode("utf-8-sig", errors="replace") if isinstance(data, bytes) else data.lstrip("\ufeff")
    text = text.replace("\r\n", "\n").replace("\t", "    ")
    if not text.strip():
        raise LoadError(name, "the list is empty")
    for fmt in formats:
        if not getattr(fmt, "binary", False) and fmt.looks_like(text):
            return _checked(fmt.parse(text), name)
    raise LoadError(name, "not an army list this version can read",
                    hint="export it from the official app, New Recruit or BattleScribe (.ros/.rosz)")


def _checked(army: ArmyList, name: str) -> ArmyList:
    if len(army.units) > MAX_UNITS:
        raise LoadError(name, f"{len(army.units)} units; no army list has over {MAX_UNITS}")
    if not army.units:
        raise LoadError(name, "no units found in the list",
                        hint="export it from the official app, New Recruit or BattleScribe (.ros/.rosz)")
    return army


def load_list(path: str | Path) -> ArmyList:
    """Read the file at `path` and parse it (see `parse_list`)."""
    from ...formats import read_file

    p = Path(path)
    # Only a regular file, and at most a few MB: a FIFO or /dev/zero named by mistake would hang.
    data = read_file(p, limit=MAX_LIST_BYTES)
    army = parse_list(data, name=str(p))
    try:  # an export says no date; the day its file was saved is when the list was priced at the latest
        army.date = time.strftime("%Y-%m-%d", time.gmtime(p.stat().st_mtime))
    except OSError:
        pass
    return army
