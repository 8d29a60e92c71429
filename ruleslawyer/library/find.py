"""Find records by name: exact, then prefix, then whole words, then close spellings."""
from __future__ import annotations

import difflib
from typing import Iterable, Sequence

from ..errors import AmbiguousNameError, NotFoundError
from ..names import fold
from ..records import Erratum, Record, record_name


def find_by_name(records: Sequence[Record], name: str, *, kinds: Iterable[str] | None = None,
                 edition: int | None = None, faction: str | None = None) -> list[Record]:
    """Records whose name matches `name`: exact first, then prefix, then close (typos).

    Returns every record of the best tier (several when the name is shared across kinds,
    groups, factions or editions); raises NotFoundError with suggestions when nothing is close.
    `faction` keeps records of a faction whose name starts with it ("aeld" -> Aeldari).

    FAQs and errata are named after what they are about, so they are looked among only when
    `kinds` asks for them: an FAQ by its question, an erratum by its title or its target
    (the rule or unit it changes).
    """
    kinds = set(kinds) if kinds else None
    wanted_faction = fold(faction) if faction else None
    pool = [r for r in records if (r.kind in kinds if kinds is not None else r.kind not in _ABOUT_OTHERS)
            and (edition is None or r.edition == edition)
            and (wanted_faction is None or fold(getattr(r, "faction", None) or "").startswith(wanted_faction))]
    want = fold(name)
    if not want:
        raise NotFoundError("give a name to look up")
    names: dict[str, list[Record]] = {}
    for r in pool:
        for key in dict.fromkeys(fold(n) for n in _names(r) if n):
            names.setdefault(key, []).append(r)
    if want in names:
        return names[want]
    prefix = [r for key, rs in names.items() if key.startswith(want) for r in rs]
    if prefix:
        return prefix
    words = [r for key, rs in names.items() if f" {want} " in f" {key} " for r in rs]
    if words:
        return words
    close = difflib.get_close_matches(want, list(names), n=5, cutoff=0.8)
    if close:
        return [r for key in close[:1] for r in names[key]]
    suggestions = difflib.get_close_matches(want, list(names), n=5, cutoff=0.5)
    shown = [record_name(names[s][0]) for s in suggestions]
    raise NotFoundError(f"no record named {name!r}", suggestions=shown,
                        hint="try `ruleslawyer search` for a text search")


_ABOUT_OTHERS = ("errata", "faq", "points")  # kinds named after another record (points: a unit's prices)


def _names(record: Record) -> list[str]:
    """The names `record` answers to: its display name, and an erratum's target as well."""
    if isinstance(record, Erratum):
        return [record_name(record), record.target or ""]
    return [record_name(record)]


def _distinct(records: Sequence[Record]) -> list[Record]:
    """`records` without repeats that differ only in the file they came from."""
    from ..records_json import to_dict

    seen: dict[str, Record] = {}
    for r in records:
        data = to_dict(r)
        data.pop("source", None)
        seen.setdefault(repr(sorted(data.items())), r)
    return list(seen.values())


def find_one(records: Sequence[Record], name: str, **kw) -> Record:
    """The single record `name` refers to, or AmbiguousNameError listing the candidates."""
    found = find_by_name(records, name, **kw)
    if len(found) == 1:
        return found[0]
    exact = [r for r in found if fold(name) in (fold(n) for n in _names(r) if n)]
    if len(exact) == 1:
        return exact[0]
    same = _distinct(exact or found)
    if len(same) == 1:  # one entry read from two copies of a document (a PDF and its text)
        return same[0]
    raise AmbiguousNameError(f"{len(found)} records match {name!r}", candidates=found,
                             hint="add --kind, --edition or --faction, or give the full name")
