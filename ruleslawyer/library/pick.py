"""Pick the one record a user means: newest edition by default, with its other printings.

`show`, the cards and the site's lists give the newest edition of a name that several editions
share, and say which other editions exist; `show --source FILE` picks one file's printing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..errors import AmbiguousNameError
from ..names import fold
from ..records import Record, record_name
from .corpus import Corpus
from .find import find_by_name
from .reconcile import Printings, identity


@dataclass
class Picked:
    """The record meant, its printings (when several files print it), other editions of it."""

    record: Record
    printings: Printings | None = None
    other_editions: list[int] = field(default_factory=list)
    # the current Munitorum Field Manual entry of a datasheet, or of the detachment of a
    # detachment rule or enhancement, if any
    points: Record | None = None


def newest_editions(records: Sequence[Record]) -> tuple[list[Record], dict[int, list[int]]]:
    """Records with only the newest edition of each name/kind/faction/group kept, and for each
    kept record (by id) the older editions that exist."""
    best: dict[tuple, Record] = {}
    editions: dict[tuple, set[int]] = {}
    for r in records:
        key = _edition_free(r)
        editions.setdefault(key, set()).add(r.edition or 0)
        current = best.get(key)
        if current is None or (r.edition or 0) > (current.edition or 0):
            best[key] = r
    kept = [r for r in records if best.get(_edition_free(r)) is r]
    others = {id(r): sorted((e for e in editions[_edition_free(r)] if e and e != (r.edition or 0)), reverse=True)
              for r in kept}
    return kept, others


def _edition_free(r: Record) -> tuple:
    key = identity(r)
    if key is None:
        return ("unmerged", id(r))
    kind, name, faction, _edition, group, version = key
    return kind, name, faction, group, version


def printings_index(corpus: Corpus) -> dict[tuple, Printings]:
    """The corpus's printings by record identity (an amended copy keeps its original's)."""
    return {identity(p.chosen): p for p in corpus.printings.values()}


def pick_record(corpus: Corpus, name: str, *, kind: str | None = None, edition: int | None = None,
                faction: str | None = None) -> Picked:
    """The record `name` refers to (see module docstring), or AmbiguousNameError."""
    found = find_by_name(corpus.records, name, kinds=[kind] if kind else None, edition=edition, faction=faction)
    exact = [r for r in found if fold(record_name(r)) == fold(name)]
    pool = exact or found
    others: dict[int, list[int]] = {}
    if edition is None and len(pool) > 1:
        pool, others = newest_editions(pool)
    if len(pool) != 1:
        raise AmbiguousNameError(f"{len(found)} records match {name!r}", candidates=found,
                                 hint="add --kind, --edition or --faction, or give the full name")
    record = pool[0]
    current = None
    if record.kind in ("datasheet", "detachment_rule", "enhancement"):
        from .points import points_of

        # a detachment's rules and enhancements are priced by the detachment's entry (its group)
        name, target = (record.name, "datasheet") if record.kind == "datasheet" else (record.group, "detachment")
        if name:
            current = points_of(corpus.records, name, getattr(record, "faction", None), target, record.edition)
    return Picked(record, printings_index(corpus).get(identity(record)), others.get(id(record), []), current)
