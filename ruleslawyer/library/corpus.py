"""The read side of the library: open the store, get records with errata applied, find by name.

Everything that answers questions (show, search, site, cards) goes through `load_corpus`, so
they all see the same amended records. Nothing here imports click.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..records import Record
from ..store import Store


def open_store(db: str | Path | None = None, *, seed_corpus: bool = False) -> Store:
    """Open the store at `db` (default location when None).

    With `seed_corpus`, an empty store first ingests the shipped corpus, so query commands
    answer at once on a new machine.
    """
    store = Store(db)
    if seed_corpus and store.is_empty():
        from ..ingest.pipeline import ensure_corpus

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
    from ..amend.apply import apply_errata

    result = apply_errata(originals)
    return Corpus(records=result.records, originals=originals, outcomes=result.outcomes, stored_hashes=hashes)
