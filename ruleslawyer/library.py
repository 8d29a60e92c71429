"""The read side of the library: open the store, get records with errata applied, find by name.

Everything that answers questions (show, search, site, cards) goes through `load_corpus`, so
they all see the same amended records. Nothing here imports click.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from .errors import AmbiguousNameError, NotFoundError
from .records import Record, record_name
from .store import Store


def open_store(db: str | Path | None = None, *, seed_corpus: bool = False) -> Store:
    """Open the store at `db` (default location when None).

    With `seed_corpus`, an empty store first ingests the shipped corpus, so query commands
    answer at once on a new machine.
    """
    store = Store(db)
    if seed_corpus and store.is_empty():
        from .ingest.pipeline import ensure_corpus

        ensure_corpus(store)
    return store


@dataclass
class Corpus:
    """The records with errata applied, plus what the errata step did.

    `records` are the current versions (amended copies where an erratum applied, new rules an
    erratum added); `originals` the records as parsed; `outcomes` one entry per erratum.
    """

    records: list[Record]
    originals: list[Record]
    outcomes: list = field(default_factory=list)
    # id(record) -> hash of its stored form, for the originals read from a store (they stay alive
    # in `originals`, so the ids stay theirs); the site keys its caches by it. Amended copies have none.
    stored_hashes: dict[int, str] = field(default_factory=dict)

    def of_kind(self, *kinds: str) -> list[Record]:
        return [r for r in self.records if r.kind in kinds]


def load_corpus(store: Store, *, amended: bool = True) -> Corpus:
    """All stored records; with `amended`, errata applied to copies (originals kept)."""
    pairs = list(store.records_with_hashes())
    originals = [r for r, _ in pairs]
    hashes = {id(r): h for r, h in pairs}
    if not amended:
        return Corpus(records=originals, originals=originals, stored_hashes=hashes)
    from .amend import apply_errata

    result = apply_errata(originals)
    return Corpus(records=result.records, originals=originals, outcomes=result.outcomes, stored_hashes=hashes)


_APOSTROPHES = re.compile(r"[\u2019'`]")
_NOT_NAME = re.compile(r"[^a-z0-9+]+")


def fold(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form of a name, for matching."""
    if text.isascii():  # no accents to strip (most names): skip the per-character pass
        s = text.casefold()
    else:
        s = unicodedata.normalize("NFKD", text)
        s = "".join(c for c in s if not unicodedata.combining(c)).casefold()
    return _NOT_NAME.sub(" ", _APOSTROPHES.sub("", s)).strip()


def find_by_name(records: Sequence[Record], name: str, *, kinds: Iterable[str] | None = None,
                 edition: int | None = None, faction: str | None = None) -> list[Record]:
    """Records whose name matches `name`: exact first, then prefix, then close (typos).

    Returns every record of the best tier (several when the name is shared across kinds,
    groups, factions or editions); raises NotFoundError with suggestions when nothing is close.
    `faction` keeps records of a faction whose name starts with it ("aeld" -> Aeldari).
    """
    kinds = set(kinds) if kinds else None
    wanted_faction = fold(faction) if faction else None
    pool = [r for r in records if (kinds is None or r.kind in kinds)
            and (edition is None or r.edition == edition) and r.kind not in ("errata", "faq")
            and (wanted_faction is None or fold(getattr(r, "faction", None) or "").startswith(wanted_faction))]
    want = fold(name)
    if not want:
        raise NotFoundError("give a name to look up")
    names = {}
    for r in pool:
        names.setdefault(fold(record_name(r)), []).append(r)
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


def find_one(records: Sequence[Record], name: str, **kw) -> Record:
    """The single record `name` refers to, or AmbiguousNameError listing the candidates."""
    found = find_by_name(records, name, **kw)
    if len(found) == 1:
        return found[0]
    exact = [r for r in found if fold(record_name(r)) == fold(name)]
    if len(exact) == 1:
        return exact[0]
    raise AmbiguousNameError(f"{len(found)} records match {name!r}", candidates=found,
                             hint="add --kind, --edition or --faction, or give the full name")
