"""The store and the ingest pipeline: incremental, atomic per file, bad input reported and skipped."""
from __future__ import annotations

import sqlite3

import pytest

from ruleslawyer.ingest.parse import parsing
from ruleslawyer.ingest.pipeline import ingest_paths
from ruleslawyer.records import Rule
from ruleslawyer.store import SCHEMA_VERSION, Store


pytestmark = pytest.mark.usefixtures("stand_in_parser")


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def names(store):
    return sorted(r.name for r in store.records())


def test_unchanged_file_is_skipped_and_changed_file_replaced(tmp_path, tmp_store):
    doc = write(tmp_path / "a.md", "# Alpha\n\ntext\n\n# Beta\n")
    first = ingest_paths(tmp_store, [doc])
    assert (first.read, first.unchanged, len(first.failed)) == (1, 0, 0)
    assert names(tmp_store) == ["Alpha", "Beta"]
    generation = tmp_store.generation
    again = ingest_paths(tmp_store, [doc])
    assert (again.read, again.unchanged) == (0, 1)
    assert tmp_store.generation == generation
    write(doc, "# Gamma\n")
    ingest_paths(tmp_store, [doc])
    assert names(tmp_store) == ["Gamma"]
    assert tmp_store.generation > generation


def test_a_newer_reader_reads_unchanged_files_again(tmp_path, tmp_store, monkeypatch):
    from ruleslawyer.ingest import pipeline

    doc = write(tmp_path / "a.md", "# Alpha\n")
    ingest_paths(tmp_store, [doc])
    assert ingest_paths(tmp_store, [doc]).unchanged == 1
    monkeypatch.setattr(pipeline, "reader_version", lambda: "a-later-parser")  # an upgraded ruleslawyer
    upgraded = ingest_paths(tmp_store, [doc])
    assert (upgraded.read, upgraded.unchanged) == (1, 0)
    assert ingest_paths(tmp_store, [doc]).unchanged == 1


def test_a_schema_1_store_is_upgraded_in_place(tmp_path):
    db = tmp_path / "old.sqlite"
    conn = sqlite3.connect(db)
    conn.executescript("""
        CREATE TABLE files (path TEXT PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL, format TEXT NOT NULL,
            size INTEGER NOT NULL, ingested_at REAL NOT NULL, title TEXT, edition INTEGER,
            warnings TEXT NOT NULL DEFAULT '[]');
        CREATE TABLE records (id INTEGER PRIMARY KEY, file_path TEXT NOT NULL, seq INTEGER NOT NULL,
            kind TEXT NOT NULL, name TEXT NOT NULL, edition INTEGER, faction TEXT, data TEXT NOT NULL);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO files VALUES ('a.md', 'a.md', 'ab', 'text', 1, 0, NULL, NULL, '[]');
        PRAGMA user_version=1;
    """)
    conn.close()
    with Store(db) as store:
        assert store.is_unchanged("a.md", "ab")  # nothing lost
        assert not store.is_unchanged("a.md", "ab", reader="any")  # read again by the next ingest
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        assert store.files()[0].date is None  # schema 3 adds publication dates; none known here
        assert store.files()[0].reading == {}  # schema 4 adds how a file was read; unknown for old rows


def test_bad_files_are_reported_and_the_rest_ingested(tmp_path, tmp_store):
    good = write(tmp_path / "good.md", "# Good\n")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "garbage.txt").write_bytes(bytes(range(256)) * 40)
    (tmp_path / "fake.pdf").write_bytes(b"this is not a pdf at all")
    report = ingest_paths(tmp_store, [tmp_path])
    failed = {r.path.rsplit("/", 1)[-1]: r.error for r in report.failed}
    assert set(failed) == {"empty.txt", "garbage.txt", "fake.pdf"}
    assert "empty" in failed["empty.txt"] and "binary" in failed["garbage.txt"] and "PDF" in failed["fake.pdf"]
    assert all("\n" not in e for e in failed.values())
    assert report.read == 1 and names(tmp_store) == ["Good"]
    assert {f.name for f in tmp_store.files()} == {good.name}


def test_failed_parse_leaves_store_unchanged(tmp_path, tmp_store, monkeypatch):
    doc = write(tmp_path / "a.md", "# Alpha\n")
    ingest_paths(tmp_store, [doc])

    def broken(doc, ctx):
        yield Rule(name="half", source=ctx.source(), text="")
        raise ValueError("parser bug")

    monkeypatch.setattr(parsing, "family_parsers", lambda: [broken])
    write(doc, "# Changed\n")
    report = ingest_paths(tmp_store, [doc])
    assert len(report.failed) == 1 and "internal error" in report.failed[0].error
    assert names(tmp_store) == ["Alpha"]


def test_missing_path_reported(tmp_store, tmp_path):
    report = ingest_paths(tmp_store, [tmp_path / "nope.pdf"])
    assert report.failed and "no such file" in report.failed[0].error


def test_corrupt_store_file_is_a_clean_error(tmp_path):
    from ruleslawyer.errors import StoreError

    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a database" * 100)
    with pytest.raises(StoreError, match="bad.sqlite"):
        Store(bad)


def test_store_uses_wal_for_concurrent_readers(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        mode = store.conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    sqlite3.connect(tmp_path / "s.sqlite").close()


def _open_and_write(path: str, n: int, start_at: float, results) -> None:
    import time

    from ruleslawyer.records import Rule, Source
    from ruleslawyer.store import Store

    while time.time() < start_at:  # every process opens the new store at the same instant
        pass
    try:
        with Store(path) as store:
            store.replace_file(path=f"f{n}", name=f"f{n}", sha256=str(n), format="text", size=1,
                               records=[Rule(name=f"R{n}", source=Source(f"f{n}"))])
        results.put("ok")
    except Exception as exc:  # reported back to the test, which shows it
        results.put(repr(exc))


def test_processes_opening_a_new_store_at_once_all_succeed(tmp_path):
    """Regression: processes creating the same new store at once got "database is locked"
    (the old code failed about one round in three of this test)."""
    import multiprocessing
    import time

    ctx = multiprocessing.get_context("fork")
    for round_ in range(8):
        db = str(tmp_path / f"race{round_}.sqlite")
        results = ctx.Queue()
        start_at = time.time() + 0.5
        procs = [ctx.Process(target=_open_and_write, args=(db, n, start_at, results)) for n in range(6)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(timeout=120)
        assert [results.get(timeout=5) for _ in procs] == ["ok"] * 6
        with Store(db) as store:
            assert sorted(r.name for r in store.records()) == [f"R{n}" for n in range(6)]
