"""Opening the store file safely, and saying what is wrong with a damaged one.

A new store is made whole under a temporary name and linked into place, so no process ever
sees it half made; an existing empty (0-byte) file is refused rather than filled; a file that
cannot be written is opened read-only (reads work, writes say "store is read-only"); a store
whose tables are missing is one error line. Rows that do not decode are reported through a
reporter the CLI installs (`set_damage_reporter`), one line per record, and skipped.
"""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Callable

from .errors import StoreError

REPAIR_HINT = "run `ruleslawyer check` to see what is damaged, `ruleslawyer check --repair` to fix it"
RESTORE_HINT = "restore it from a backup, or move it aside and ingest your documents into a new store"
READ_ONLY_HINT = "check the permissions of the file and its folder, or pick another store with --db"
_REQUIRED_COLUMNS = {
    "files": {"path", "name", "sha256", "format", "size", "ingested_at", "warnings", "reader"},
    "records": {"id", "file_path", "seq", "kind", "name", "edition", "faction", "data"},
    "meta": {"key", "value"},
}
_damage_reporter: Callable[[str], None] | None = None
_reported: set[str] = set()


def set_damage_reporter(reporter: Callable[[str], None] | None) -> None:
    """Call `reporter(line)` once for each damaged row any store meets (the CLI prints them)."""
    global _damage_reporter
    _damage_reporter = reporter
    _reported.clear()


def report_damage(line: str) -> None:
    """Hand one damage line to the reporter (each line once per process)."""
    if _damage_reporter is not None and line not in _reported:
        _reported.add(line)
        _damage_reporter(line)


def damaged_row_line(path: Path, row: tuple, exc: BaseException) -> str:
    """One line naming a stored record that does not decode and why (row: id, kind, name, file, data)."""
    rid, kind, name, file, _data = row
    if isinstance(exc, KeyError):
        why = f"unknown kind {kind!r}" if str(exc.args[0] if exc.args else "") == str(kind) else f"missing {exc}"
    elif isinstance(exc, ValueError) and type(exc).__name__ == "JSONDecodeError":
        why = "its data is not valid JSON"
    else:
        why = f"{type(exc).__name__}: {exc}"
    return (f"{path}: record {rid} ({kind} {name!r} from {Path(str(file)).name}) is damaged and was skipped: "
            f"{why}")[:400]


def read_only_error(path: Path) -> StoreError:
    """The one-line error for a store that cannot be written."""
    return StoreError(f"{path}: store is read-only", hint=READ_ONLY_HINT)


def is_read_only_error(exc: BaseException) -> bool:
    """True for SQLite's "attempt to write a readonly database" and the like."""
    text = str(exc).lower()
    return "readonly" in text or "read-only" in text


DISK_FULL_HINT = "free some space on that disk, then run the command again (the store is unchanged)"


def is_disk_full_error(exc: BaseException) -> bool:
    """True for SQLite's "database or disk is full" (SQLITE_FULL) and an OSError of a full disk."""
    if isinstance(exc, OSError):
        import errno

        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    return isinstance(exc, sqlite3.DatabaseError) and "disk is full" in str(exc).lower()


def disk_full_error(path: "Path | str") -> StoreError:
    """The one-line error for a write the disk had no room for: the store is fine, not damaged."""
    return StoreError(f"{path}: the disk is full; nothing was written to the store", hint=DISK_FULL_HINT)


def check_location(path: str | Path, *, create: bool) -> None:
    """Refuse a store path whose folder does not exist (a mistyped --db), unless `create`."""
    p = Path(path).expanduser()
    if not create and not p.exists() and not p.parent.is_dir():
        raise StoreError(f"{p.parent}: no such folder for the store",
                         hint="check the --db path, or add --create to make the folder")


def open_checks(path: Path, schema: str, version: int) -> bool:
    """Prepare to open the store at `path`; True when it can only be read.

    An empty (0-byte) file is refused: it is a damaged store (a new store is never empty, see
    `_create`), and filling it with the example corpus would hide the damage. A new store is
    made complete under a temporary name and then linked into place.
    """
    try:
        st = path.stat()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        _create(path, schema, version)
        return False
    if path.is_dir():
        raise StoreError(f"{path}: is a folder, not a store file", hint="give a file name with --db")
    if st.st_size == 0:
        raise StoreError(f"{path}: the store file is empty (0 bytes), not a store",
                         hint="restore it from a backup, or delete it to start a new store")
    refuse_foreign(path)
    return cannot_write(path)


# Tables any ruleslawyer store has had since schema 1: a file holding other tables and none of
# these is another program's database, never to be altered.
_OUR_TABLES = frozenset({"files", "records"})


def refuse_foreign(path: Path) -> None:
    """Refuse an existing SQLite file that is not a ruleslawyer store (another program's data).

    Opening it as a store would add tables, switch its journal mode and set its user_version:
    changes to a file the user owns that they never asked for. The file is read, never written.
    """
    from urllib.parse import quote

    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error:
        return  # cannot even open it: the caller's own open says why
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error:
        return  # not a database, or damaged: reported by the caller's open
    finally:
        conn.close()
    if tables and not tables & _OUR_TABLES:
        shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        raise StoreError(f"{path}: not a ruleslawyer store (an SQLite file with other tables: {shown}); "
                         "left unchanged", hint="give a new file name with --db for a new store")


def cannot_write(path: Path) -> bool:
    """True when the store file at `path` exists and cannot be written (nor its -wal file made)."""
    return path.is_file() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK))


def _create(path: Path, schema: str, version: int) -> None:
    """Make a new store at `path` atomically: another process sees no file or a whole store."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(schema)
            conn.execute(f"PRAGMA user_version={version}")
        finally:
            conn.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process made it first: use theirs
        except OSError:  # no hard links here: a rename can only lose a race, never make a half store
            if not path.exists():
                os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
            try:
                leftover.unlink()
            except FileNotFoundError:
                pass


def connect(path: Path, read_only: bool) -> sqlite3.Connection:
    """A connection to the store file (read-only ones never write, not even the -shm file)."""
    if not read_only:
        return sqlite3.connect(path, timeout=60, isolation_level=None)
    from urllib.parse import quote

    # Nobody can write it through us: immutable also lets SQLite read a WAL store whose
    # folder is read-only (no -shm file can be made there).
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=60, isolation_level=None)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        conn.close()
        return sqlite3.connect(uri + "&immutable=1", uri=True, timeout=60, isolation_level=None)


def schema_damage(conn: sqlite3.Connection) -> str | None:
    """What is wrong with the tables of an open store (a table or column missing), or None."""
    try:
        for table, needed in _REQUIRED_COLUMNS.items():
            have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            if not have:
                return f"table {table!r} is missing"
            missing = sorted(needed - have)
            if missing:
                return f"table {table!r} has no column {missing[0]!r}"
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None


# Typed columns a hand edit (or another program) can break: the column, the SQLite types it may
# hold, and the value `check --repair` resets it to (an SQL expression).
TYPED_COLUMNS: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("files", "ingested_at", ("real", "integer"), "CAST(strftime('%s','now') AS REAL)"),
    ("files", "size", ("integer",), "0"),
    ("files", "preference", ("integer",), "0"),
    ("files", "edition", ("integer", "null"), "NULL"),
    ("files", "date", ("text", "null"), "NULL"),
    ("files", "version", ("text", "null"), "NULL"),
)


def column_damage(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """(table, column, row key, what it holds) for each typed value of the wrong type in `files`,
    a publication date that is not an ISO date, and a `meta` generation that is not a number."""
    found = []
    for table, column, types, _reset in TYPED_COLUMNS:
        allowed = ", ".join(f"'{t}'" for t in types)
        for key, value in conn.execute(
                f"SELECT path, {column} FROM {table} WHERE typeof({column}) NOT IN ({allowed})"):
            found.append((table, column, str(key), repr(value)[:40]))
    for key, value in conn.execute(
            "SELECT path, date FROM files WHERE date IS NOT NULL AND date NOT GLOB "
            "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*'"):
        found.append(("files", "date", str(key), repr(value)[:40]))
    for (value,) in conn.execute("SELECT value FROM meta WHERE key = 'generation'"):
        if not str(value).strip().isdigit():
            found.append(("meta", "value", "generation", repr(value)[:40]))
    return found


def reset_damaged_columns(conn: sqlite3.Connection) -> int:
    """Reset every value `column_damage` finds to its default (inside the caller's transaction);
    returns how many were reset. The generation restarts above any number a reader may have seen."""
    reset = 0
    for table, column, types, default in TYPED_COLUMNS:
        allowed = ", ".join(f"'{t}'" for t in types)
        reset += conn.execute(f"UPDATE {table} SET {column} = {default} "
                              f"WHERE typeof({column}) NOT IN ({allowed})").rowcount
    reset += conn.execute("UPDATE files SET date = NULL WHERE date IS NOT NULL AND date NOT GLOB "
                          "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*'").rowcount
    reset += conn.execute("UPDATE meta SET value = CAST(strftime('%s','now') AS TEXT) WHERE key = 'generation' "
                          "AND NOT (trim(value) != '' AND trim(value) NOT GLOB '*[^0-9]*')").rowcount
    return reset


_SCALARS = {"str": (str,), "int": (int,), "float": (float, int), "bool": (bool,), "None": (type(None),)}
_checks_by_type: dict[type, list[tuple[str, tuple[type, ...]]]] = {}


def wrong_scalar(record) -> str | None:
    """What is wrong with a decoded record's plain fields (a name that is a number, an edition
    that is text), or None. Such a row decodes but would break sorting and grouping far from
    here, so it counts as damage. Only fields annotated with plain types are looked at."""
    tp = type(record)
    checks = _checks_by_type.get(tp)
    if checks is None:
        import dataclasses

        checks = []
        for f in dataclasses.fields(tp):
            parts = [p.strip() for p in str(f.type).split("|")]
            if parts and all(p in _SCALARS for p in parts):
                checks.append((f.name, tuple(t for p in parts for t in _SCALARS[p])))
        _checks_by_type[tp] = checks
    values = record.__dict__
    for name, types in checks:
        value = values.get(name)
        if not isinstance(value, types):
            return f"{name} is {type(value).__name__} {str(value)[:40]!r}"
    return None


# ---------------------------------------------------------------- a files row read back
def stored_warnings(text: str) -> tuple[str, ...]:
    """A file's stored warnings; damaged ones read as one warning saying so."""
    try:
        return tuple(str(w) for w in json.loads(text))
    except (TypeError, ValueError):
        return ("(the stored warnings are damaged)",)


def stored_reading(text: str) -> dict:
    """A file's stored reading (how it was read); damaged or missing reads as {}."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


# A hand-edited `files` row (text where a number belongs) is reported by `check` and reset by
# `check --repair`; until then every reader gets a value it can sort and format.
def stored_number(value) -> float:
    """A stored number, or 0.0 for a value that is not one."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def stored_int(value) -> int | None:
    """A stored whole number, or None for a value that is not one."""
    return value if isinstance(value, int) else None


def stored_date(value) -> str | None:
    """A stored ISO date (its day), or None for a value that is not one."""
    text = str(value) if value is not None else ""
    return text[:10] if len(text) >= 10 and text[4] == "-" and text[:4].isdigit() else None
