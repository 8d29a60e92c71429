"""Every record kind, as frozen dataclasses, and the records.md JSON shape.

Records are values: parsers build them, the store keeps them, the errata step makes amended
copies with `dataclasses.replace` and never edits them in place. Each record carries the
`Source` it came from and an `edition` (an int, or None when nothing implies one).

`to_dict(record)` gives the interchange shape of ../shared/records.md (what
`ruleslawyer export --format jsonl` writes); `from_dict(data)` reads it back, including the
extra fields this project holds beyond records.md (fluff, summary, provenance, amendments).
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping, Union


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


# ---------------------------------------------------------------- JSON shape
_ATOMS = frozenset({str, int, float, bool, type(None)})


@lru_cache(maxsize=None)
def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names in order (asked per value when exporting: once per class)."""
    return tuple(f.name for f in dataclasses.fields(cls))


def _plain(value: Any) -> Any:
    if type(value) in _ATOMS:  # most values: checked first, as every record has many
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if isinstance(value, Profile):
            out = {"name": value.name, "models": value.models}
            out.update(value.stats)
            return out
        if isinstance(value, UnitCost):  # `tier` only where a document prices repeated units (11th)
            out = {"models": value.models, "points": value.points}
            if value.tier is not None:
                out["tier"] = value.tier
            if value.description is not None:  # optional too: older exports have none
                out["description"] = value.description
            return out
        return {name: _plain(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def to_dict(record: Record, *, include_changes: bool = False) -> dict[str, Any]:
    """The records.md JSON shape of a record: `kind` first, then every field, `source` last.

    `changes` (the errata log of an amended copy) is left out unless asked for, so an export
    of the store is exactly the records as parsed.
    """
    out: dict[str, Any] = {"kind": record.kind}
    for name in _field_names(type(record)):
        if name == "source" or (name == "changes" and not include_changes):
            continue
        out[name] = _plain(getattr(record, name))
    src = record.source
    out["source"] = {"file": src.file, "page": src.page, "format": src.format, "sha256": src.sha256}
    for extra in ("locator", "date", "version"):  # optional: older exports have none of them
        if getattr(src, extra):
            out["source"][extra] = getattr(src, extra)
    return out


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    """The resolved field types of a dataclass (resolving them is slow: once per class)."""
    return typing.get_type_hints(cls)


@lru_cache(maxsize=None)
def _init_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls) if f.init)


def _same(value: Any) -> Any:
    return value


@lru_cache(maxsize=None)
def _builder(tp: Any) -> Callable[[Any], Any]:
    """A function rebuilding a value of type `tp` from its JSON form, made once per type.

    Reading the annotations for every value (typing.get_origin and friends) was three quarters
    of loading 50,000 stored records; the made functions read them once. A JSON null stays None
    at every level, an unknown key of a dataclass is ignored.
    """
    origin = typing.get_origin(tp)
    if origin is Union or origin is types.UnionType:
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return _builder(args[0]) if len(args) == 1 else _same
    if origin is tuple:
        item = _builder(typing.get_args(tp)[0])
        if item is _same:
            return lambda v: None if v is None else tuple(v)
        return lambda v: None if v is None else tuple(map(item, v))
    if tp is Profile:
        def profile(v: Any) -> Profile | None:
            if v is None:
                return None
            stats = {k: x for k, x in v.items() if k not in ("name", "models")}
            return Profile(name=v.get("name", ""), stats=stats, models=v.get("models"))
        return profile
    if dataclasses.is_dataclass(tp):
        return _dataclass_builder(tp)
    return _same


def _dataclass_builder(tp: type) -> Callable[[Any], Any]:
    """The builder for one record dataclass (see `_builder`).

    A frozen dataclass's __init__ sets each field through object.__setattr__, which was half of
    loading 50,000 stored records. The builder fills a copy of the defaults in field order and
    gives it to a bare instance instead: the same object __init__ would make (equal, same hash,
    same field order), since no record class has __post_init__ or a default factory. A value
    missing a required field goes through __init__ to get its usual TypeError.
    """
    hints, names = _hints(tp), _init_names(tp)
    typed = [(k, b) for k in sorted(names) if (b := _builder(hints[k])) is not _same]
    fields = [f for f in dataclasses.fields(tp) if f.init]
    if (hasattr(tp, "__post_init__") or any(f.default_factory is not dataclasses.MISSING for f in fields)
            or len(fields) != len(dataclasses.fields(tp))):
        raise TypeError(f"{tp.__name__}: the fast builder needs plain fields with plain defaults")
    template = {f.name: f.default for f in fields}
    required = [f.name for f in fields if f.default is dataclasses.MISSING]
    new, set_attribute = object.__new__, object.__setattr__

    def build(v: Any) -> Any:
        if v is None:
            return None
        values = template.copy()
        for k, x in v.items():
            if k in names:
                values[k] = x
        for k, b in typed:
            if k in v:
                values[k] = b(values[k])
        for k in required:
            if k not in v:
                return tp(**{k: x for k, x in values.items() if x is not dataclasses.MISSING})
        record = new(tp)
        set_attribute(record, "__dict__", values)
        return record
    return build


def from_dict(data: Mapping[str, Any]) -> Record:
    """Rebuild a record from `to_dict` output (unknown keys are ignored)."""
    return _builder(RECORD_TYPES[data["kind"]])(data)
