"""A damaged, empty, read-only or misplaced store: one line each, never a traceback; `check`."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.errors import StoreError
from ruleslawyer.store import Store
from tests.conftest import ROOT


def _seeded(tmp_path: Path) -> Path:
    """A store holding the shipped corpus (the first query command ingests it)."""
    db = tmp_path / "s.sqlite"
    result = CliRunner().invoke(cli, ["stats"], env={"RULESLAWYER_DB": str(db)})  # a default store is seeded
    assert result.exit_code == 0, result.output
    return db


def _damage(db: Path, *statements: str) -> None:
    conn = sqlite3.connect(db)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def _rows(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT id, kind, name FROM records ORDER BY id").fetchall()
    finally:
        conn.close()


def _invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_damaged_rows_are_skipped_with_one_line_each_and_the_rest_works(tmp_path):
    db = _seeded(tmp_path)
    rows = _rows(db)
    bad_json, bad_kind = rows[2], rows[4]
    _damage(db, f"UPDATE records SET data = '{{not json' WHERE id = {bad_json[0]}",
            f"UPDATE records SET kind = 'hologram', data = json_set(data, '$.kind', 'hologram') WHERE id = {bad_kind[0]}")
    export = _invoke("--db", str(db), "export")
    assert export.exit_code == 0, export.stderr
    exported = [json.loads(line) for line in export.stdout.splitlines()]
    assert len(exported) == len(rows) - 2
    warnings = export.stderr.splitlines()
    assert len(warnings) == 2
    assert f"record {bad_json[0]}" in warnings[0] and "not valid JSON" in warnings[0] and bad_json[2] in warnings[0]
    assert f"record {bad_kind[0]}" in warnings[1] and "unknown kind 'hologram'" in warnings[1]
    stats = _invoke("--db", str(db), "stats")
    assert stats.exit_code == 0 and f"{len(rows)} records" in stats.stdout
    some = next(name for _id, kind, name in rows if kind == "rule" and (_id, kind, name) not in (bad_json, bad_kind))
    show = _invoke("--db", str(db), "show", some)
    assert show.exit_code == 0, show.stderr
    assert "Traceback" not in export.stderr + show.stderr


def test_rows_whose_values_have_the_wrong_type_are_damage_too(tmp_path):
    """A row that decodes but holds text for a number (or a number for a name) broke the site
    build with a TypeError far from the store; it is skipped with one line like other damage."""
    db = _seeded(tmp_path)
    rows = _rows(db)
    strat = next(r for r in rows if r[1] == "stratagem")
    sheet = next(r for r in rows if r[1] == "datasheet")
    _damage(db, f"UPDATE records SET data = json_set(data, '$.edition', 'x') WHERE id = {strat[0]}",
            f"UPDATE records SET data = json_set(data, '$.name', 5) WHERE id = {sheet[0]}")
    site = _invoke("--db", str(db), "site", "build", str(tmp_path / "site"))
    assert site.exit_code == 0, site.output
    warnings = site.stderr.splitlines()
    assert len(warnings) == 2 and "edition is str 'x'" in warnings[1] and "name is int '5'" in warnings[0], warnings
    export = _invoke("--db", str(db), "export")
    assert export.exit_code == 0 and len(export.stdout.splitlines()) == len(rows) - 2
    found = _invoke("--db", str(db), "check")
    assert found.exit_code == 1 and len(found.stderr.splitlines()) == 2, found.stderr


def test_check_finds_and_repairs_damaged_rows(tmp_path):
    db = _seeded(tmp_path)
    rows = _rows(db)
    _damage(db, f"UPDATE records SET data = 'garbage' WHERE id = {rows[0][0]}",
            f"UPDATE records SET kind = 'zzz' WHERE id = {rows[1][0]}")
    found = _invoke("--db", str(db), "check")
    assert found.exit_code == 1
    problems = found.stderr.splitlines()
    assert len(problems) == 2 and all(line.startswith("Problem: record ") for line in problems)
    repaired = _invoke("--db", str(db), "check", "--repair")
    assert repaired.exit_code == 0, repaired.stderr
    assert "dropped 2 damaged record(s)" in repaired.stdout
    again = _invoke("--db", str(db), "check")
    assert again.exit_code == 0 and again.stdout.rstrip().endswith(": ok")
    with Store(db) as store:  # the corpus files are on disk: their records were read again
        assert sum(1 for _ in store.records()) == len(rows)


def test_a_dropped_table_is_one_line_and_check_repairs_it(tmp_path):
    db = _seeded(tmp_path)
    count = len(_rows(db))
    _damage(db, "DROP TABLE records")
    for command in (["export"], ["stats"], ["show", "look out sir"], ["search", "overwatch"]):
        result = _invoke("--db", str(db), *command)
        assert result.exit_code == 1, (command, result.output)
        assert result.stderr.count("\n") == 1 and "table 'records' is missing" in result.stderr, command
        assert "check --repair" in result.stderr
    assert _invoke("--db", str(db), "check", "--repair").exit_code == 0
    with Store(db) as store:
        assert sum(1 for _ in store.records()) == count


def test_a_garbled_store_file_is_one_line(tmp_path):
    db = _seeded(tmp_path)
    _damage(db, "PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    data[4096:] = b"\xa5" * (len(data) - 4096)  # every page after the schema is garbage
    db.write_bytes(bytes(data))
    result = _invoke("--db", str(db), "export")
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_file_that_is_not_sqlite_is_not_sent_to_check(tmp_path):
    """`check --repair` cannot mend a file that is not SQLite at all: the hint says restore it instead."""
    db = tmp_path / "s.sqlite"
    db.write_bytes(bytes(range(256)) * 16)
    for args in (["export"], ["check"]):
        result = _invoke("--db", str(db), *args)
        assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
        assert "not a database" in result.stderr and "restore it from a backup" in result.stderr
        assert "check --repair" not in result.stderr


def test_an_empty_store_file_is_reported_not_filled(tmp_path):
    db = tmp_path / "empty.sqlite"
    db.write_bytes(b"")
    result = _invoke("--db", str(db), "stats")
    assert result.exit_code == 1 and "empty (0 bytes)" in result.stderr
    assert db.stat().st_size == 0
    with pytest.raises(StoreError, match="empty"):
        Store(db)


def test_db_in_a_missing_folder_needs_create(tmp_path):
    db = tmp_path / "no" / "such" / "store.sqlite"
    result = _invoke("--db", str(db), "stats")
    assert result.exit_code == 1 and "no such folder" in result.stderr and "--create" in result.stderr
    assert not db.parent.exists()
    made = _invoke("--db", str(db), "--create", "stats")
    assert made.exit_code == 0 and db.is_file()


def test_a_new_store_is_never_seen_half_made(tmp_path):
    """A new store is made under another name and linked into place: no 0-byte file, no leftovers."""
    db = tmp_path / "new.sqlite"
    with Store(db) as store:
        assert store.is_empty()
    assert db.stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("new.sqlite")) == []


def _as_other_user(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """Run the CLI as a user who cannot write what root made (as root: as nobody, via setpriv)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: cannot drop to another user")
        prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    return subprocess.run([*prefix, sys.executable, "-m", "ruleslawyer", *args], cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, "HOME": str(cwd), "PYTHONPATH": str(ROOT)}, timeout=300)


@pytest.fixture
def shared_tmp():
    """A folder every user can enter (pytest's own tmp folder is private to its user)."""
    folder = Path(tempfile.mkdtemp(prefix="rl-reliab-"))
    folder.chmod(0o755)
    yield folder
    subprocess.run(["chmod", "-R", "u+rwX", str(folder)], check=False)
    subprocess.run(["rm", "-rf", str(folder)], check=False)


def test_a_read_only_store_reads_and_refuses_writes_with_one_line(shared_tmp, shared):
    db = _seeded(shared_tmp)
    db.chmod(0o444)
    shared_tmp.chmod(0o555)
    stats = _as_other_user(["--db", str(db), "stats"], shared_tmp)
    assert stats.returncode == 0, stats.stderr
    ingest = _as_other_user(["--db", str(db), "ingest", str(shared / "seeds")], shared_tmp)
    assert ingest.returncode == 1
    assert ingest.stderr.strip().splitlines() == [
        f"Error: {db}: store is read-only (hint: check the permissions of the file and its folder, "
        "or pick another store with --db)"]


def test_an_unreadable_path_is_one_line_and_the_batch_goes_on(shared_tmp, shared):
    folder = shared_tmp / "in"
    (folder / "locked").mkdir(parents=True)
    (folder / "locked").chmod(0o700)
    secret = folder / "secret.txt"
    secret.write_text("Secret Rule\n\nNobody may read this.\n")
    secret.chmod(0o600)
    good = folder / "good.md"
    good.write_bytes((shared / "seeds").glob("000_*.txt").__next__().read_bytes())
    shared_tmp.chmod(0o777)
    folder.chmod(0o755)
    result = _as_other_user(["--db", str(shared_tmp / "s.sqlite"), "ingest", str(folder), str(secret)], shared_tmp)
    assert result.returncode == 1
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 2 and all("permission denied" in e.lower() for e in errors), errors
    assert result.stdout.strip().splitlines()[-1].startswith("1 files read, 0 unchanged, 2 failed")
