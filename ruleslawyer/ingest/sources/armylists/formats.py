"""The army-list formats ruleslawyer reads, as entries of the `ruleslawyer.lists` registry.

A format is an object with a `name`, `looks_like(data) -> bool` and `parse(data) -> ArmyList`;
`binary` formats get the raw bytes (a zipped roster), the others the text, decoded and with
its line endings made plain. `parse_list` tries the registered formats in order (their entry
point names: pyproject.toml), so a plugin package adds a list app by declaring one more.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .app_text import looks_like_app, parse_app_text
from .model import ArmyList
from .newrecruit import looks_like_newrecruit, parse_newrecruit
from .roster import looks_like_roster, parse_roster


@dataclass(frozen=True)
class ListFormat:
    """One army-list format: how to recognise it and how to read it."""

    name: str
    looks_like: Callable[[object], bool]
    parse: Callable[[object], ArmyList]
    binary: bool = False  # gets bytes (BattleScribe's .rosz is a zip), not text


def _newrecruit_not_app(text: str) -> bool:
    # The official app's export also has New Recruit-like lines; its own markers decide.
    low = text.casefold()
    return looks_like_newrecruit(text) and not ("exported with app version" in low or " points)" in low)


BATTLESCRIBE_ROSTER = ListFormat("BattleScribe roster (.ros/.rosz)", looks_like_roster, parse_roster, binary=True)
NEW_RECRUIT = ListFormat("New Recruit / BattleScribe text export", _newrecruit_not_app, parse_newrecruit)
OFFICIAL_APP = ListFormat("official app export", looks_like_app, parse_app_text)
