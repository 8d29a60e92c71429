"""Records in the interchange shape of records.md: `to_dict(record)` and `from_dict(data)`.

The shape: `kind` first, then every field, `source` last; profiles flatten their stats, unit
costs give `tier` and `description` only where set. Rebuilding is the hot path of reading a
store (50,000 records), hence the builders made once per type.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from functools import lru_cache
from typing import Any, Callable, Mapping, Union

from .records import RECORD_TYPES, Profile, Record, UnitCost

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
