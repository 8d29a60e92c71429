"""The SQLite record store: one transaction per ingested file, keyed by content hash.

Re-ingesting an unchanged file does nothing; a changed file replaces its records in one
transaction, so a failed file leaves the store as it was. The store keeps records exactly as
parsed (originals); errata are applied later, on read (`ruleslawyer.corpus`).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from .errors import StoreError
from .paths import default_db_path  # noqa: F401  (re-exported: callers import it from here)
from .storefile import (stored_date, stored_int, stored_number, stored_reading, stored_warnings,
                        REPAIR_HINT, READ_ONLY_HINT, RESTORE_HINT, damaged_row_line, disk_full_error,
                        is_disk_full_error, is_read_only_error, open_checks, read_only_error, report_damage,
                        schema_damage, connect, wrong_scalar)
from .records import Record, record_name
from .records_json import from_dict, to_dict

SCHEMA_VERSION = 4
# One encoder for every record row (json.dumps with options makes a new one per call).
_RECORD_JSON = json.JSONEncoder(ensure_ascii=False)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    format TEXT NOT NULL,
    size INTEGER NOT NULL,
    ingested_at REAL NOT NULL,
    title TEXT,
    edition INTEGER,
    warnings TEXT NOT NULL DEFAULT '[]',
    reader TEXT NOT NULL DEFAULT '',
    date TEXT,
    version TEXT,
    preference INTEGER NOT NULL DEFAULT 0,
    reading TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS files_sha ON files(sha256);
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    file_path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    edition INTEGER,
    faction TEXT,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_kind ON records(kind);
CREATE INDEX IF NOT EXISTS records_file ON records(file_path);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def _while_locked(step, seconds: float = 60.0) -> None:
    """Run `step`, retrying while SQLite says the database is locked (up to `seconds`)."""
    deadline = time.monotonic() + seconds
    delay = 0.01
    while True:
        try:
            return step()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


@dataclass(frozen=True)
class StoredFile:
    path: str
    name: str
    sha256: str
    format: str
    size: int
    ingested_at: float
    title: str | None
    edition: int | None
    warnings: tuple[str, ...]
    record_count: int = 0
    date: str | None = None  # publication date (ISO) where the document says so or the user set it
    version: str | None = None
    preference: int = 0  # the user's ranking (`ingest --prefer`, ruleslawyer.toml): higher wins
    # How the file was read, as the ingest stored it (JSON object; {} for files read before
    # schema 4): "read_as" (datasheet_cards, faction_pack, points_list, faq_errata,
    # rules_update, rules_chapter, army_list, notes, unknown, ...), "evidence" (why), "coverage"
    # (0..1, the share of body text placed in records), "unread_pages" (page numbers) and
    # "inferred" ({"edition"|"faction"|"date": {"value": ..., "reason": "..."}}).
    reading: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def effective_date(self) -> str:
        """The date printings are ranked by: the publication date, else the day it was ingested."""
        return self.date or time.strftime("%Y-%m-%d", time.gmtime(self.ingested_at))


class Store:
    """A record store in one SQLite file. Use as a context manager or call `close()`."""

    def __init__(self, path: str | Path | None = None, *, check_schema: bool = True, read_only: bool = False):
        """Open (or create) the store at `path`. With `read_only` the file must exist and is
        opened in SQLite's read-only mode: nothing, not even its journal mode, is changed."""
        self.path = Path(path) if path else default_db_path()
        self.read_only = False
        self.damaged: list[str] = []  # one line per stored record that could not be decoded
        try:
            if read_only and not self.path.is_file():
                raise StoreError(f"{self.path}: no store here", hint="ingest your documents first")
            self.read_only = open_checks(self.path, _SCHEMA, SCHEMA_VERSION) or read_only
            # isolation_level=None: we open our own transactions (BEGIN IMMEDIATE) so two
            # ingest processes queue for the write lock instead of failing half-way.
            self.conn = connect(self.path, self.read_only)
            self.conn.execute("PRAGMA busy_timeout=60000")
            self.conn.execute("PRAGMA foreign_keys=ON")
            if self.read_only:
                self._check_version()
            else:
                _while_locked(self._prepare)
            if check_schema:
                damage = schema_damage(self.conn)
                if damage:
                    raise StoreError(f"{self.path}: the store is damaged: {damage}", hint=REPAIR_HINT)
        except sqlite3.DatabaseError as exc:
            if is_read_only_error(exc):
                raise read_only_error(self.path) from None
            # Not SQLite at all (or its header destroyed): `check --repair` cannot mend that.
            hint = RESTORE_HINT if "not a database" in str(exc) else REPAIR_HINT
            raise StoreError(f"{self.path}: cannot open the store: {exc}", hint=hint) from None
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot create the store: {exc.strerror or exc}") from None

    def _check_version(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise StoreError(f"{self.path}: made by {'a newer' if version > SCHEMA_VERSION else 'an older'} "
                             f"ruleslawyer (schema {version}) and read-only here", hint=READ_ONLY_HINT)

    def _prepare(self) -> None:
        """Switch to WAL and create the schema, each only if not done yet.

        Changing the journal mode or the schema needs a lock that SQLite does not always wait
        for (a second process opening a new store at the same moment gets "database is
        locked" at once), so these steps are skipped when done and retried when locked.
        """
        if self.conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            self.conn.execute("PRAGMA journal_mode=WAL")
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: made by a newer ruleslawyer (schema {version})")
        if version < SCHEMA_VERSION:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                if version == 1:  # schema 2 records which code read each file
                    self.conn.execute("ALTER TABLE files ADD COLUMN reader TEXT NOT NULL DEFAULT ''")
                if 1 <= version <= 2:  # schema 3: each file's publication date, version and preference
                    self.conn.execute("ALTER TABLE files ADD COLUMN date TEXT")
                    self.conn.execute("ALTER TABLE files ADD COLUMN version TEXT")
                    self.conn.execute("ALTER TABLE files ADD COLUMN preference INTEGER NOT NULL DEFAULT 0")
                if 1 <= version <= 3:  # schema 4: how each file was read (see StoredFile.reading)
                    self.conn.execute("ALTER TABLE files ADD COLUMN reading TEXT NOT NULL DEFAULT '{}'")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise

    def create_missing_tables(self) -> None:
        """Create any table or index of the schema that is missing (repair; inside the caller's transaction)."""
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                self.conn.execute(statement)

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    # ------------------------------------------------------------ writing
    def is_unchanged(self, path: str, sha256: str, reader: str | None = None) -> bool:
        """True when `path` was ingested with exactly this content (and, given `reader`, read by
        that version of the reading code: a newer parser reads the file again)."""
        row = self.conn.execute("SELECT sha256, reader FROM files WHERE path = ?", (path,)).fetchone()
        return row is not None and row[0] == sha256 and (reader is None or row[1] == reader)

    def same_content_elsewhere(self, path: str, sha256: str) -> str | None:
        """The path of another stored file with this content, if any (a copy of it)."""
        row = self.conn.execute("SELECT path FROM files WHERE sha256 = ? AND path != ?", (sha256, path)).fetchone()
        return row[0] if row else None

    def replace_file(self, *, path: str, name: str, sha256: str, format: str, size: int,
                     records: Iterable[Record], title: str | None = None, edition: int | None = None,
                     warnings: Iterable[str] = (), reader: str = "", date: str | None = None,
                     version: str | None = None, preference: int | None = None,
                     reading: dict | None = None) -> int:
        """Store `records` as the whole content of `path`, replacing what it had, atomically.

        `reading` says how the file was read (see `StoredFile.reading`).

        `reader` names the version of the code that read the file (see `is_unchanged`); `date`
        and `version` are the document's own (publication date, version); `preference` the
        user's ranking of the file (kept from the last ingest when None).
        """
        rows = []
        for seq, rec in enumerate(records):
            rows.append((path, seq, rec.kind, record_name(rec), rec.edition, getattr(rec, "faction", None),
                         _RECORD_JSON.encode(to_dict(rec))))
        self._refuse_if_read_only()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            if preference is None:
                row = self.conn.execute("SELECT preference FROM files WHERE path = ?", (path,)).fetchone()
                preference = row[0] if row else 0
            self.conn.execute("DELETE FROM records WHERE file_path = ?", (path,))
            self.conn.execute("DELETE FROM files WHERE path = ?", (path,))
            self.conn.execute(
                "INSERT INTO files (path, name, sha256, format, size, ingested_at, title, edition, warnings, reader,"
                " date, version, preference, reading) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (path, name, sha256, format, size, time.time(), title, edition, json.dumps(list(warnings)), reader,
                 date, version, preference, json.dumps(reading or {}, ensure_ascii=False)))
            self.conn.executemany(
                "INSERT INTO records (file_path, seq, kind, name, edition, faction, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows)
            self._bump_generation()
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.DatabaseError) and is_read_only_error(exc):
                raise read_only_error(self.path) from None
            if is_disk_full_error(exc):
                raise disk_full_error(self.path) from None
            raise
        return len(rows)

    def remove_file(self, path: str) -> bool:
        """Forget a file and its records; True if it was there."""
        self._refuse_if_read_only()
        self.conn.execute("BEGIN IMMEDIATE")
        cur = self.conn.execute("DELETE FROM files WHERE path = ?", (path,))
        self.conn.execute("DELETE FROM records WHERE file_path = ?", (path,))
        if cur.rowcount:
            self._bump_generation()
        self.conn.execute("COMMIT")
        return bool(cur.rowcount)

    def _bump_generation(self) -> None:
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES ('generation', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")

    # ------------------------------------------------------------ reading
    @property
    def generation(self) -> int:
        """A counter bumped by every change: derived data (the index) records which it saw."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        try:
            return int(row[0]) if row else 0
        except (TypeError, ValueError):  # a hand-edited value: `check` reports it, --repair resets it
            return -1

    def is_empty(self) -> bool:
        return self.conn.execute("SELECT 1 FROM records LIMIT 1").fetchone() is None

    def records(self, kind: str | Iterable[str] | None = None, *, file: str | None = None) -> Iterator[Record]:
        """Stored records in ingest order, optionally of some kinds or from one file path.

        A row that does not decode (damaged JSON, a kind this version does not know) is skipped
        and reported once (see `report_damage`): the rest of the store stays usable.
        """
        for row in self._record_rows(kind, file):
            record = self._decode(row)
            if record is not None:
                yield record

    def _decode(self, row: tuple) -> Record | None:
        """The record of one stored row, or None (reported) when the row is damaged."""
        try:
            record = from_dict(json.loads(row[4]))
            wrong = wrong_scalar(record)
            if wrong:
                raise TypeError(wrong)
            return record
        except Exception as exc:  # any failure to decode is damage in the file, not a bug here
            line = damaged_row_line(self.path, row, exc)
            self.damaged.append(line)
            report_damage(line)
            return None

    def _refuse_if_read_only(self) -> None:
        if self.read_only:
            raise read_only_error(self.path)

    def _record_rows(self, kind: str | Iterable[str] | None, file: str | None) -> Iterator[tuple]:
        """(id, kind, name, file_path, data) of the matching rows, in ingest order."""
        sql, args = "SELECT id, kind, name, file_path, data FROM records", []
        where = []
        if kind is not None:
            kinds = [kind] if isinstance(kind, str) else list(kind)
            where.append(f"kind IN ({','.join('?' * len(kinds))})")
            args.extend(kinds)
        if file is not None:
            where.append("file_path = ?")
            args.append(file)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY file_path, seq"
        yield from self.conn.execute(sql, args)

    def files(self) -> list[StoredFile]:
        """Every stored file with its dating, warnings and record count, by path."""
        counts = dict(self.conn.execute("SELECT file_path, COUNT(*) FROM records GROUP BY file_path"))
        out = []
        for row in self.conn.execute(
                "SELECT path, name, sha256, format, size, ingested_at, title, edition, warnings, date, version,"
                " preference, reading FROM files ORDER BY path"):
            out.append(StoredFile(*row[:5], stored_number(row[5]), row[6], stored_int(row[7]), warnings=stored_warnings(row[8]),
                                  record_count=counts.get(row[0], 0), date=stored_date(row[9]),
                                  version=None if row[10] is None else str(row[10]),
                                  preference=int(stored_number(row[11])), reading=stored_reading(row[12])))
        return out

    def set_file_dating(self, path: str, *, date: str | None = None, version: str | None = None,
                        preference: int | None = None) -> None:
        """Set a stored file's publication date, version or preference (None leaves it as is)."""
        sets, args = [], []
        for column, value in (("date", date), ("version", version), ("preference", preference)):
            if value is not None:
                sets.append(f"{column} = ?")
                args.append(value)
        if not sets:
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(f"UPDATE files SET {', '.join(sets)} WHERE path = ?", (*args, path))
        self._bump_generation()
        self.conn.execute("COMMIT")

    def records_by_file(self) -> Iterator[tuple[str, Record, str]]:
        """(file path, record, hash of its stored form) for every record, in ingest order.
        Damaged rows are skipped as in `records`."""
        sha1 = hashlib.sha1
        for row in self._record_rows(None, None):
            record = self._decode(row)
            if record is not None:
                yield row[3], record, sha1(row[4].encode("utf-8")).hexdigest()

    def counts_by_kind(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT kind, COUNT(*) FROM records GROUP BY kind ORDER BY kind"))

    def counts_by_faction(self) -> dict[str, int]:
        return dict(self.conn.execute(
            "SELECT COALESCE(faction, '(none)'), COUNT(*) FROM records GROUP BY faction ORDER BY faction"))
