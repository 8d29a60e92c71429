"""Army lists: the formats players export, read into one `ArmyList` shape.

    parse_list(data, name="") -> ArmyList   (text or bytes; the format is sniffed from the content)
    load_list(path) -> ArmyList            (the one function here that opens a file)

Formats: the official app's text export (10th and 11th edition), New Recruit / BattleScribe text
exports (WTC, GW, markdown roster and short), BattleScribe rosters (.ros XML, .rosz zip).
"""
from __future__ import annotations

import time
from pathlib import Path

from ....errors import LoadError
from .app_text import looks_like_app, parse_app_text
from .model import MAX_UNITS, ArmyList, ListItem, ListNote, ListUnit
from .newrecruit import looks_like_newrecruit, parse_newrecruit
from .roster import RosterError, looks_like_roster, parse_roster

# A list export is a few KB, a roster a few hundred. Reading one takes some 40 times its size in
# memory (lines, items, notes), so the limit keeps the worst case under 200 MB.
MAX_LIST_BYTES = 4 * 1024 * 1024

__all__ = ["MAX_LIST_BYTES", "MAX_UNITS", "ArmyList", "ListItem", "ListNote", "ListUnit", "load_list", "parse_list"]


def parse_list(data: str | bytes, name: str = "list") -> ArmyList:
    """Parse an army list from its text or bytes; raises LoadError when no format fits."""
    if isinstance(data, bytes):
        if looks_like_roster(data):
            try:
                return parse_roster(data)
            except RosterError as exc:
                raise LoadError(name, str(exc)) from None
        text = data.decode("utf-8-sig", errors="replace")
    else:
        text = data.lstrip("\ufeff")
    if looks_like_roster(text[:2000].encode("utf-8", errors="replace")):
        try:
            return parse_roster(text.encode("utf-8"))
        except RosterError as exc:
            raise LoadError(name, str(exc)) from None
    text = text.replace("\r\n", "\n").replace("\t", "    ")
    if not text.strip():
        raise LoadError(name, "the list is empty")
    if looks_like_newrecruit(text) and not _app_markers(text):
        army = parse_newrecruit(text)
    elif looks_like_app(text):
        army = parse_app_text(text)
    else:
        raise LoadError(name, "not an army list this version can read",
                        hint="export it from the official app, New Recruit or BattleScribe (.ros/.rosz)")
    if len(army.units) > MAX_UNITS:
        raise LoadError(name, f"{len(army.units)} units; no army list has over {MAX_UNITS}")
    if not army.units:
        raise LoadError(name, "no units found in the list",
                        hint="export it from the official app, New Recruit or BattleScribe (.ros/.rosz)")
    return army


def _app_markers(text: str) -> bool:
    low = text.casefold()
    return "exported with app version" in low or " points)" in low


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
