"""The read side of the library: open the store, get records with errata applied, find by name.

Everything that answers questions (show, search, site, cards) goes through `load_corpus`, so
they all see the same amended records. Nothing here imports click.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ..errors import StoreError
from ..records import Record
from ..store import Store, StoredFile
from .reconcile import FileInfo, identity, reconcile


def open_store(db: str | Path | None = None, *, read_only: bool = False) -> Store:
    """Open the store at `db` (default location when None); `read_only` never writes it (see
    Store). Whether an empty store gets the example corpus is the command line's decision."""
    return Store(db, read_only=read_only)


@dataclass
class Corpus:
    """The records with errata applied, plus what the errata step did.

    `records` are the current versions (amended copies where an erratum applied, new rules an
    erratum added); `originals` the records as parsed; `outcomes` one entry per erratum.
    """

    records: list[Record]
    originals: list[Record]
    outcomes: list = field(default_factory=list)
    # id(chosen record) -> its printings, where several files print one record (see reconcile)
    printings: dict[int, Any] = field(default_factory=dict)
    # id(record) -> hash of its stored form, for the originals read from a store (they stay alive
    # in `originals`, so the ids stay theirs); the site keys its caches by it. Amended copies have none.
    stored_hashes: dict[int, str] = field(default_factory=dict)
    # the file each record names (`record.source.file`) -> its dating facts, for saying where
    # and when an answer was printed
    files: dict[str, FileInfo] = field(default_factory=dict)
    # the date the corpus was frozen at (`load_corpus(..., as_of=)`), and how many files were
    # left out as published after it / kept although their publication date is unknown
    as_of: str | None = None
    left_out: int = 0
    undated: int = 0
    # errata, FAQ answers and notes of document versions a newer stored version supersedes: not
    # current (not in `records`), kept for what a reference of an earlier date has
    superseded: list[Record] = field(default_factory=list)

    def file_of(self, record: Record) -> FileInfo | None:
        """The dating facts of the file `record` was read from (None when not stored)."""
        return self.files.get(record.source.file)

    def date_of(self, record: Record) -> str | None:
        """The publication date of `record`: its own (a dated section or points version), else its
        file's; None when only the ingest day is known."""
        if record.source.date:
            return record.source.date
        info = self.files.get(record.source.file)
        return info.published if info else None

    def as_of_note(self) -> str | None:
        """The line every answer of a frozen corpus carries ("As of 2026-10-01: …"), or None."""
        if not self.as_of:
            return None
        note = f"As of {self.as_of}: only documents published on or before that date"
        if self.left_out:
            note += f" ({self.left_out} later files left out)"
        if self.undated:
            note += f"; {self.undated} files of unknown date kept"
        return note


SETTINGS_FILE = "ruleslawyer.toml"


def source_ranking(store: Store) -> dict[str, int]:
    """File-name patterns and their preference from `ruleslawyer.toml` beside the store:

        [precedence]
        "Datasheets.csv" = 10     # glob patterns; higher wins over newer dates
        "*.html" = -5
    """
    path = Path(store.path).parent / SETTINGS_FILE
    if not path.is_file():
        return {}
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise StoreError(f"{path}: cannot read the settings: {exc}", hint="fix or remove the file") from None
    table = data.get("precedence", {})
    if not isinstance(table, dict) or not all(isinstance(v, int) for v in table.values()):
        raise StoreError(f"{path}: [precedence] must map file-name patterns to whole numbers")
    return table


def preference_of(f: StoredFile, ranking: Mapping[str, int]) -> int:
    """A stored file's preference: its own (`ingest --prefer`) plus every ruleslawyer.toml
    pattern its name or path matches."""
    from fnmatch import fnmatch

    return f.preference + sum(v for pattern, v in ranking.items() if fnmatch(f.name, pattern) or fnmatch(f.path, pattern))


def file_infos(store: Store) -> dict[str, FileInfo]:
    """Each stored file's precedence facts (date, format, preference), by path."""
    ranking = source_ranking(store)
    return {f.path: FileInfo(f.path, f.name, f.effective_date, f.format, preference_of(f, ranking), f.version, f.date)
            for f in store.files()}


def as_of_printings(store: Store, records: list[dict], as_of: str) -> list[dict | None]:
    """Each record dict (records.md shape, as search hits hold them) as the reference of `as_of`
    has it: itself when published on or before that date, else the printing of the same record
    (`reconcile.identity`) current then, an older file's; else None (nothing of it was
    published yet). A kind whose printings never merge (errata, FAQ entries, notes) is itself
    when its file was published by then, else the same entry (`entry_key`) of the version of
    its document current then."""
    from ..records_json import from_dict, to_dict

    as_of = check_date(as_of)
    frozen = load_corpus(store, as_of=as_of)
    kept = {key: r for r in frozen.records if (key := identity(r)) is not None}
    entries = {entry_key(r): r for r in frozen.records if identity(r) is None}
    out = []
    for data in records:
        record = from_dict(data)
        key = identity(record)
        if key is None:  # never merged: itself, if its file is in the reference of that date
            if (data.get("source") or {}).get("file") in frozen.files:
                out.append(data)
            else:
                older = entries.get(entry_key(record))
                out.append(to_dict(older) if older is not None else None)
            continue
        record = kept.get(key)
        if record is None:
            out.append(None)
        elif (data.get("source") or {}).get("file") == record.source.file:
            out.append(data)  # the printing the search found is the one of that date
        else:
            out.append(to_dict(record))
    return out


def entry_key(record: Record) -> tuple:
    """What makes an erratum, FAQ answer or note of one version of a document the same entry
    in another version: its document, kind, and what it amends or asks (its target, place and
    operation; its question; its name)."""
    from ..names import fold
    from ..records import record_name

    return (fold(getattr(record, "document", None) or ""), record.kind, fold(record_name(record)),
            fold(getattr(record, "target", None) or ""), fold(getattr(record, "location", None) or ""),
            getattr(record, "operation", None))


def load_corpus(store: Store, *, amended: bool = True, reconciled: bool = True,
                choose: Mapping[str, str] | None = None, as_of: str | None = None) -> Corpus:
    """The stored records as one reference.

    With `reconciled`, printings of one record in several files are one entry (the newest or
    preferred printing; the others kept in `printings`); with `amended`, errata are applied to
    copies of the printings older than them (originals kept). `choose` maps a folded record name
    to the file whose printing to use. `as_of` ("2026-10-01") freezes the reference at a date:
    files, records and points versions published after it are left out (a file whose
    publication date is unknown is kept, and counted in `Corpus.undated`).
    """
    infos = file_infos(store)
    triples = list(store.records_by_file())
    left_out = undated = 0
    if as_of:
        as_of = check_date(as_of)
        late = {p for p, info in infos.items() if info.published and info.published > as_of}
        left_out = len(late)
        undated = sum(1 for info in infos.values() if not info.published)
        # a record that states its own date (a points version, a dated section) is judged by it,
        # the others by their file's: a points file of August still holds its June version
        triples = [t for t in triples if (t[1].source.date <= as_of if t[1].source.date else t[0] not in late)]
    hashes = {id(r): h for _, r, h in triples}
    files = {r.source.file: infos[p] for p, r, _ in triples if p in infos}
    extra = {"files": files, "as_of": as_of, "left_out": left_out, "undated": undated}
    if reconciled:
        merged = reconcile(((r, infos[p]) for p, r, _ in triples if p in infos), choose=choose)
        originals, printings = merged.records, merged.printings
    else:
        originals, printings = [r for _, r, _ in triples], {}
    if not amended:
        return Corpus(records=originals, originals=originals, printings=printings, stored_hashes=hashes, **extra)
    from ..amend.apply import apply_errata

    # Errata are weighed against publication dates only: a file dated just by the day it was
    # ingested is not known to be newer than an erratum. Records name the file they came from
    # (a CSV export's member file, not its folder), so dates are looked up by that name.
    published = {r.source.file: infos[p].published for p, r, _ in triples if p in infos and infos[p].published}
    result = apply_errata(originals, dated=lambda r: r.source.date or published.get(r.source.file))
    return Corpus(records=result.records, originals=originals, outcomes=result.outcomes, printings=printings,
                  stored_hashes=hashes, superseded=result.superseded, **extra)


def check_date(text: str) -> str:
    """`text` as an ISO date ("2026-10-01"), or QueryError saying what a date looks like."""
    import datetime

    from ..errors import QueryError

    try:
        return datetime.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise QueryError(f"not a date: {text!r}", hint="give a date as YYYY-MM-DD, e.g. 2026-10-01") from None
