"""Verify a store and repair what is damaged: what `ruleslawyer check` runs.

Checks, in order: SQLite's own `integrity_check`, the tables and columns the store needs, and
every stored record (its JSON decodes, its kind is one this version knows, its file is listed).
Repair drops what cannot be read and re-reads the files it came from when they are still on
disk, so the store ends up as an ingest of those files would leave it; files that are gone
are marked to be read again by the next ingest of them.
"""
from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..records import KINDS
from ..records_json import from_dict
from ..storefile import wrong_scalar
from ..store import Store


@dataclass
class CheckReport:
    """What `check_store` found (one line per problem) and, after a repair, what it did."""

    path: Path
    problems: list[str] = field(default_factory=list)
    repaired: list[str] = field(default_factory=list)
    records: int = 0
    files: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def check_store(db: str | Path | None = None, *, repair: bool = False) -> CheckReport:
    """Check the store at `db` (default store when None); with `repair`, fix what is found.

    Raises StoreError when the file cannot be opened at all (not a database, empty, read-only
    and asked to repair).
    """
    store = Store(db, check_schema=False)
    try:
        report = CheckReport(store.path)
        damaged_files = _check(store, report)
        if repair and report.problems:
            if store.read_only:
                from ..storefile import read_only_error

                raise read_only_error(store.path)
            if any(p.startswith("SQLite integrity check") for p in report.problems):
                store.close()  # the salvage replaces the file: nothing may hold it open
                _salvage(report)
                return report
            _repair(store, report, damaged_files)
        return report
    finally:
        store.close()


def _salvage(report: CheckReport) -> None:
    """Damaged pages: copy what SQLite can read into a new store, then read the files whose
    records were lost again where they are still on disk."""
    from .salvage import salvage_store

    saved = salvage_store(report.path)
    report.repaired.append(f"salvaged {saved.kept_files} file(s) and {saved.kept_records} record(s) into a new store"
                           f"; the damaged store is kept as {saved.damaged_copy.name}")
    if saved.to_ingest:
        report.repaired.append(f"{len(saved.to_ingest)} file(s) lost records and must be read again: "
                               + ", ".join(Path(f).name for f in saved.to_ingest[:10]))
        with Store(report.path) as store:
            _reread(store, report, set(saved.to_ingest))


def _check(store: Store, report: CheckReport) -> set[str]:
    """Fill `report.problems`; return the file paths whose records are damaged or missing."""
    from ..storefile import column_damage, schema_damage

    conn = store.conn
    try:
        integrity = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:  # damage deep enough that the check itself stops
        integrity = [f"{exc} (the check could not finish)"]
    if integrity != ["ok"]:
        report.problems.extend(f"SQLite integrity check: {line}" for line in integrity[:20])
        report.problems.append("SQLite integrity check: pages of the file are damaged; `check --repair` copies "
                               "what can still be read into a new store")
        return set()
    damage = schema_damage(conn)
    if damage:
        report.problems.append(f"schema: {damage}")
        if "'records'" in damage:  # every file lost its records
            return {row[0] for row in conn.execute("SELECT path FROM files")} if "'files'" not in damage else set()
        return set()
    files = {row[0] for row in conn.execute("SELECT path FROM files")}
    report.files = len(files)
    for table, column, key, value in column_damage(conn):
        report.problems.append(f"{table}.{column} of {key!r} holds {value}, not a value of its type")
    damaged: set[str] = set()
    for rid, kind, name, file, data in conn.execute(
            "SELECT id, kind, name, file_path, data FROM records ORDER BY file_path, seq"):
        report.records += 1
        why = _row_problem(kind, data)
        if why is None and file not in files:
            why = "its file is not listed in the store"
        if why is not None:
            report.problems.append(f"record {rid} ({kind} {name!r} from {Path(str(file)).name}): {why}")
            damaged.add(file)
    return damaged


def _row_problem(kind: str, data: str) -> str | None:
    """Why a stored row cannot be read back as a record, or None."""
    if kind not in KINDS:
        return f"unknown kind {kind!r}"
    try:
        value = json.loads(data)
    except (TypeError, ValueError):
        return "its data is not valid JSON"
    if not isinstance(value, dict):
        return "its data is not a record"
    if value.get("kind") != kind:
        return f"its data says kind {value.get('kind')!r}, the row {kind!r}"
    try:
        wrong = wrong_scalar(from_dict(value))
    except Exception as exc:  # any failure to rebuild the record is damage in the row
        return f"does not decode ({type(exc).__name__}: {exc})"
    return f"does not decode ({wrong})" if wrong else None


def _repair(store: Store, report: CheckReport, damaged_files: set[str]) -> None:
    """Re-create missing tables, drop damaged rows, re-read their files where they still exist."""
    conn = store.conn
    conn.execute("BEGIN IMMEDIATE")
    try:
        store.create_missing_tables()
        from ..storefile import reset_damaged_columns

        reset = reset_damaged_columns(store.conn)
        dropped = 0
        for rid, kind, file, data in list(conn.execute("SELECT id, kind, file_path, data FROM records")):
            files_known = conn.execute("SELECT 1 FROM files WHERE path = ?", (file,)).fetchone()
            if _row_problem(kind, data) is not None or not files_known:
                conn.execute("DELETE FROM records WHERE id = ?", (rid,))
                damaged_files.add(file)
                dropped += 1
        # A file whose records were damaged must be read again, even unchanged.
        for file in sorted(damaged_files):
            conn.execute("UPDATE files SET reader = '' WHERE path = ?", (file,))
        conn.execute("INSERT INTO meta (key, value) VALUES ('generation', '1') "
                     "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    if reset:
        report.repaired.append(f"reset {reset} damaged value(s) in the files and meta tables")
    if dropped:
        report.repaired.append(f"dropped {dropped} damaged record(s)")
    if any("integrity" in p for p in report.problems):
        conn.execute("REINDEX")
        report.repaired.append("rebuilt the SQLite indexes")
    _reread(store, report, damaged_files)


def _reread(store: Store, report: CheckReport, files: set[str]) -> None:
    """Ingest again the damaged files that are still on disk; the others wait for their next ingest."""
    from ..ingest.pipeline import ingest_paths

    present = sorted(f for f in files if os.path.lexists(f))
    gone = sorted(set(files) - set(present))
    if present:
        result = ingest_paths(store, present, force=True)
        report.repaired.append(f"read {result.read} file(s) again")
        report.repaired.extend(f"could not read again: {r.error}" for r in result.failed)
    if gone:
        report.repaired.append(f"{len(gone)} file(s) no longer on disk; ingest them again to restore their records: "
                               + ", ".join(Path(g).name for g in gone[:10]))

