"""Salvage a store whose pages are damaged: copy every row SQLite can still read into a new
store, keep the damaged file beside it, and name the files to ingest again.

Used by `check --repair` when SQLite's integrity check fails: dropping rows inside a file with
broken pages cannot make it whole, but most of its tables usually still read.
"""
from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

# Rows are read in runs of rowids; a run that meets a damaged page is read again row by row,
# so one bad page costs only the rows on it.
_RUN = 512
_FILE_COLUMNS = ("path", "name", "sha256", "format", "size", "ingested_at", "title", "edition", "warnings", "reader",
                 "date", "version", "preference", "reading")
_RECORD_COLUMNS = ("file_path", "seq", "kind", "name", "edition", "faction", "data")


@dataclass
class Salvage:
    """What a salvage kept and lost, and where the damaged original now is."""

    kept_files: int = 0
    kept_records: int = 0
    lost_rows: int = 0
    to_ingest: list[str] = field(default_factory=list)  # files whose records are incomplete
    damaged_copy: Path | None = None


def salvage_store(path: Path) -> Salvage:
    """Copy what can be read from the damaged store at `path` into a new store that takes its
    place; the damaged file is kept as `<name>.damaged-<time>`. Files whose records could not
    all be read are marked to be read again by the next ingest and listed in `to_ingest`."""
    from ..store import Store

    result = Salvage()
    new_path = path.with_name(f".{path.name}.salvage-{os.getpid()}")
    for leftover in _with_companions(new_path):
        leftover.unlink(missing_ok=True)
    old = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        files = _readable_rows(old, "files", _available(old, "files", _FILE_COLUMNS), result)
        records = _readable_rows(old, "records", _RECORD_COLUMNS, result)
    finally:
        old.close()
    with Store(new_path) as new:
        conn = new.conn
        conn.execute("BEGIN IMMEDIATE")
        columns = _available_names(files)
        known = set()
        for row in files:
            conn.execute(f"INSERT OR IGNORE INTO files ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                         tuple(row[c] for c in columns))
            known.add(row["path"])
        seqs: dict[str, list[int]] = {}
        for row in records:
            if row["file_path"] not in known:
                result.lost_rows += 1
                continue
            conn.execute(f"INSERT INTO records ({', '.join(_RECORD_COLUMNS)}) VALUES ({', '.join('?' * 7)})",
                         tuple(row[c] for c in _RECORD_COLUMNS))
            seqs.setdefault(row["file_path"], []).append(row["seq"])
        # A file whose record numbers have gaps (or that kept none) lost rows on a bad page.
        incomplete = sorted(p for p in known if _has_gaps(seqs.get(p, [])))
        for p in incomplete:
            conn.execute("UPDATE files SET reader = '' WHERE path = ?", (p,))
        conn.execute("INSERT INTO meta (key, value) VALUES ('generation', ?) "
                     "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (str(int(time.time())),))
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        result.kept_files = len(known)
        result.kept_records = sum(len(v) for v in seqs.values())
        result.to_ingest = incomplete
    stamp = time.strftime("%Y%m%d-%H%M%S")
    result.damaged_copy = path.with_name(f"{path.name}.damaged-{stamp}")
    for src, suffix in zip(_with_companions(path), ("", "-wal", "-shm")):
        if src.exists():
            os.replace(src, str(result.damaged_copy) + suffix)
    os.replace(new_path, path)
    for leftover in _with_companions(new_path)[1:]:
        leftover.unlink(missing_ok=True)
    return result


def _with_companions(path: Path) -> list[Path]:
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def _has_gaps(seqs: list[int]) -> bool:
    return not seqs or sorted(seqs) != list(range(len(seqs)))


def _available(conn: sqlite3.Connection, table: str, wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The columns of `wanted` the damaged table has (an older schema lacks the newer ones)."""
    try:
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
    except sqlite3.DatabaseError:
        return wanted[:10]
    return tuple(c for c in wanted if c in have) or wanted[:10]


def _available_names(rows: list[dict]) -> tuple[str, ...]:
    return tuple(rows[0]) if rows else _FILE_COLUMNS


def _readable_rows(conn: sqlite3.Connection, table: str, columns: tuple[str, ...], result: Salvage) -> list[dict]:
    """Every row of `table` that reads, in rowid order; unreadable ones are counted in `result`."""
    select = f"SELECT rowid, {', '.join(columns)} FROM {table}"
    try:
        return [dict(zip(columns, row[1:])) for row in conn.execute(select + " ORDER BY rowid")]
    except sqlite3.DatabaseError:
        pass
    try:
        top = conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0] or 0
    except sqlite3.DatabaseError:
        top = 1_000_000  # the b-tree's root is unreadable too: probe a generous range
    rows: list[dict] = []
    for start in range(0, top + 1, _RUN):
        try:
            rows.extend(dict(zip(columns, row[1:])) for row in conn.execute(
                select + " WHERE rowid BETWEEN ? AND ? ORDER BY rowid", (start, start + _RUN - 1)))
            continue
        except sqlite3.DatabaseError:
            pass
        for rowid in range(start, start + _RUN):
            try:
                row = conn.execute(select + " WHERE rowid = ?", (rowid,)).fetchone()
            except sqlite3.DatabaseError:
                result.lost_rows += 1
                continue
            if row is not None:
                rows.append(dict(zip(columns, row[1:])))
    return rows
