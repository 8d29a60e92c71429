"""Every record kind, as frozen dataclasses (their records.md JSON shape: records_json.py).

Records are values: parsers build them, the store keeps them, the errata step makes amended
copies with `dataclasses.replace` and never edits them in place. Each record carries the
`Source` it came from and an `edition` (an int, or None when nothing implies one).

`records_json.to_dict(record)` gives the interchange shape of ../shared/records.md (what
`ruleslawyer export --format jsonl` writes); `records_json.from_dict(data)` reads it back,
including the extra fields this project holds beyond records.md (fluff, summary, amendments).
"""
from __future__ import annotations

import typing
from dataclasses import dataclass, field
from typing import Mapping, Union


@dataclass(frozen=True)
class Source:
    """Where a record came from: file name, page (1-based, None when unknown), format, sha256.

    `locator` narrows it further for structured sources (a CSV row id, an XML element id).
    """

    file: str
    page: int | None = None
    format: str | None = None
    sha256: str | None = None
    locator: str | None = None
    date: str | None = None  # the document's publication date (ISO "2025-10-22") where it says so
    version: str | None = None  # the document's own version ("1.2", a catalogue revision)


# ---------------------------------------------------------------- datasheet parts
@dataclass(frozen=True)
class Profile:
    """One characteristic row. `stats` maps the document's characteristic names to values."""

    name: str
    stats: Mapping[str, str] = field(default_factory=dict)
    models: str | None = None


@dataclass(frozen=True)
class Weapon:
    """One weapon profile. 9th edition fills `type`; 10th edition fills `A` and `skill`."""

    name: str
    range: str | None = None
    type: str | None = None
    A: str | None = None
    skill: str | None = None
    S: str | None = None
    AP: str | None = None
    D: str | None = None
    abilities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ability:
    """A named ability on a datasheet. Empty text means the rule is printed elsewhere."""

    name: str
    text: str = ""
    category: str | None = None  # core / faction / unit / wargear / None


@dataclass(frozen=True)
class Leader:
    """A LEADER (or 11th edition SUPPORT) box: its wording and the units it can join."""

    text: str
    attaches_to: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnitCost:
    """Points for one unit size ("5" models); 11th edition prices repeated units in tiers
    ("1st-2nd", "3rd+"), kept in `tier`. `description` is what the points list says the size
    holds when it says more than a count ("1 Runtherd, 10 Gretchin")."""

    models: str
    points: int | None
    tier: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class ItemCost:
    """Points for one piece of wargear or one option (11th edition wargear costs)."""

    name: str
    points: int | None


@dataclass(frozen=True)
class TableRow:
    """One row of a reference table: its label (None when rows are unlabelled) and cells."""

    label: str | None
    cells: tuple[str, ...] = ()


@dataclass(frozen=True)
class Change:
    """One applied amendment: which FAQ entry changed this record, and how."""

    document: str | None
    version: str | None
    page: str | None
    operation: str
    location: str | None
    old_text: str
    new_text: str
    erratum_id: str | None = None


# ---------------------------------------------------------------- records
@dataclass(frozen=True)
class Datasheet:
    """A unit's datasheet: profiles, weapons, abilities, keywords, options and points."""

    name: str
    source: Source
    edition: int | None = None
    faction: str | None = None
    power: int | None = None
    points: tuple[UnitCost, ...] | None = None
    base: str | None = None
    faction_keywords: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    profiles: tuple[Profile, ...] = ()
    invulnerable_save: str | None = None
    weapons: tuple[Weapon, ...] = ()
    abilities: tuple[Ability, ...] = ()
    wargear_options: tuple[str, ...] = ()
    composition: tuple[str, ...] = ()
    leader: Leader | None = None
    support: Leader | None = None  # 11th edition SUPPORT box: units this model can support
    wargear_costs: tuple[ItemCost, ...] = ()
    damaged: str | None = None
    role: str | None = None
    changes: tuple[Change, ...] = ()
    kind: typing.ClassVar[str] = "datasheet"


@dataclass(frozen=True)
class Stratagem:
    """A stratagem: cost, category, its detachment or set (`group`), WHEN/TARGET/EFFECT."""

    name: str
    source: Source
    edition: int | None = None
    faction: str | None = None
    cp: int | None = None
    category: str | None = None
    group: str | None = None
    when: str | None = None
    target: str | None = None
    effect: str | None = None
    restrictions: str | None = None
    fluff: str | None = None
    number: str | None = None  # 11th edition core stratagems are numbered ("15.04")
    changes: tuple[Change, ...] = ()
    kind: typing.ClassVar[str] = "stratagem"


@dataclass(frozen=True)
class Enhancement:
    """An enhancement of a detachment: points, restriction and text."""

    name: str
    source: Source
    edition: int | None = None
    faction: str | None = None
    points: int | None = None
    group: str | None = None
    restriction: str | None = None
    text: str = ""
    fluff: str | None = None
    upgrade: bool | None = None  # 11th edition: an upgrade rather than a character enhancement
    support: bool | None = None  # 11th edition: may be given to a SUPPORT model
    changes: tuple[Change, ...] = ()
    kind: typing.ClassVar[str] = "enhancement"


@dataclass(frozen=True)
class DetachmentRule:
    """A detachment's rule (or an army rule given per detachment)."""

    name: str
    source: Source
    edition: int | None = None
    faction: str | None = None
    group: str | None = None
    text: str = ""
    fluff: str | None = None
    detachment_points: int | None = None  # 11th edition: what the detachment costs
    force_disposition: str | None = None  # 11th edition: "Take and Hold", "Purge the Foe", ...
    changes: tuple[Change, ...] = ()
    kind: typing.ClassVar[str] = "detachment_rule"


@dataclass(frozen=True)
class Rule:
    """A core, special or army rule, glossary entry or summary section, with its heading path."""

    name: str
    source: Source
    edition: int | None = None
    section: tuple[str, ...] = ()
    text: str = ""
    faction: str | None = None
    fluff: str | None = None
    summary: tuple[str, ...] = ()
    step: int | None = None
    footnote: str | None = None
    number: str | None = None  # the printed rule number ("24.12"), 11th edition
    changes: tuple[Change, ...] = ()
    kind: typing.ClassVar[str] = "rule"


@dataclass(frozen=True)
class Erratum:
    """One amendment from an FAQ/errata document: where, what operation, the new wording."""

    document: str | None
    version: str | None
    page: str | None
    target: str | None
    source: Source
    location: str | None = None
    operation: str = "replace"
    text: str = ""
    edition: int | None = None
    title: str | None = None
    bullets: tuple[str, ...] = ()
    designers_note: str | None = None
    highlight: str | None = None  # "new" (magenta) / "revised" (blue) colour flag of the FAQ
    old_text: str | None = None  # the quoted wording a "Change '…' to '…'" entry replaces
    faction_heading: str | None = None  # the faction heading an unpaged (index-card) entry sits under
    faction: str | None = None  # the faction the entry amends, when a known faction's heading is over it
    kind: typing.ClassVar[str] = "errata"


@dataclass(frozen=True)
class Note:
    """A designer's note or clarification that changes no wording."""

    name: str
    source: Source
    document: str | None = None
    version: str | None = None
    text: str = ""
    edition: int | None = None
    highlight: str | None = None
    kind: typing.ClassVar[str] = "note"


@dataclass(frozen=True)
class Faq:
    """A question and its answer from an FAQ document."""

    question: str
    answer: str
    source: Source
    document: str | None = None
    version: str | None = None
    page: str | None = None
    edition: int | None = None
    highlight: str | None = None
    kind: typing.ClassVar[str] = "faq"


@dataclass(frozen=True)
class RefTable:
    """A reference table (To Wound chart, weapon table): columns and labelled rows."""

    name: str
    source: Source
    edition: int | None = None
    columns: tuple[str, ...] = ()
    rows: tuple[TableRow, ...] = ()
    row_header: str | None = None
    column_header: str | None = None
    faction: str | None = None  # a faction's own table (its base sizes), None for a game-wide one
    kind: typing.ClassVar[str] = "table"


@dataclass(frozen=True)
class Points:
    """A versioned points entry (Munitorum Field Manual) for a unit or a detachment.

    `target_kind` is "datasheet" or "detachment"; the current points of a datasheet come from the
    newest version that names it."""

    name: str
    source: Source
    edition: int | None = None
    faction: str | None = None
    version: str | None = None
    target_kind: str = "datasheet"
    costs: tuple[UnitCost, ...] = ()
    wargear_costs: tuple[ItemCost, ...] = ()
    detachment_points: int | None = None
    force_disposition: str | None = None  # a detachment's, where the points list prints it
    kind: typing.ClassVar[str] = "points"


Record = Union[Datasheet, Stratagem, Enhancement, DetachmentRule, Rule, Erratum, Note, Faq, RefTable, Points]
RECORD_TYPES: dict[str, type] = {
    cls.kind: cls
    for cls in (Datasheet, Stratagem, Enhancement, DetachmentRule, Rule, Erratum, Note, Faq, RefTable, Points)
}
KINDS: tuple[str, ...] = tuple(RECORD_TYPES)


def record_name(record: Record) -> str:
    """The display name of any record (errata and FAQ entries have no `name` field)."""
    if isinstance(record, Erratum):
        return record.title or record.target or f"Page {record.page}"
    if isinstance(record, Faq):
        return record.question
    return record.name
