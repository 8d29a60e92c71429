"""What a parsed army list holds: its header (factions, detachments, size, total) and its units.

These are plain values, not store records: an army list is the player's input, read to be
resolved against the records (library/armylist.py). Every line of the input either becomes part
of this structure or a `ListNote` naming its line, so nothing is dropped silently.
"""
from __future__ import annotations

from dataclasses import dataclass, field

MAX_UNITS = 1000  # an Apocalypse list has a few hundred units; more is not an army list


@dataclass
class ListItem:
    """One piece of wargear (or an option the list names) with how many the unit takes."""

    name: str
    count: int = 1
    model: str | None = None  # the model line it was listed under, when the format says
    line: int | None = None  # the list line naming it


@dataclass
class ListUnit:
    """One unit of the list as written: name, points, models, wargear, enhancement, roles."""

    name: str
    line: int
    points: int | None = None
    models: int | None = None  # "10x Kroot Carnivores": the size the list gives
    model_lines: list[tuple[str, int]] = field(default_factory=list)  # (model name, count)
    wargear: list[ListItem] = field(default_factory=list)
    enhancement: str | None = None
    enhancement_points: int | None = None
    warlord: bool = False
    section: str | None = None  # the list's own heading: CHARACTERS, BATTLELINE, Epic Hero...
    attached_as: str | None = None  # Leader / Bodyguard / Support (11th edition app)
    attached_group: int | None = None  # "Attached unit 2"
    attached_to: str | None = None  # a unit name the list says this one leads or joins
    options: list[str] = field(default_factory=list)  # other choices ("Daemonic Allegiance: Tzeentch")
    flat: bool = False  # the list's indentation was lost: models and wargear told apart by guess


@dataclass
class ListNote:
    """A message about one line of the list (1-based), for the player to read."""

    line: int | None
    kind: str
    message: str


@dataclass
class ArmyList:
    """A parsed army list. `edition` is what the list's own markers say (None when they say nothing)."""

    format: str
    title: str | None = None
    factions: list[str] = field(default_factory=list)
    detachments: list[str] = field(default_factory=list)
    detachment_points: int | None = None
    force_disposition: str | None = None
    battle_size: str | None = None
    points_listed: int | None = None
    points_limit: int | None = None
    warlord: str | None = None
    units: list[ListUnit] = field(default_factory=list)
    notes: list[ListNote] = field(default_factory=list)
    edition: int | None = None
    edition_markers: list[str] = field(default_factory=list)
    app_version: str | None = None
    date: str | None = None  # ISO day the list was saved (its file's last change), for "is it older?"

    def note(self, line: int | None, kind: str, message: str) -> None:
        """Record a message about `line`."""
        self.notes.append(ListNote(line, kind, message))
