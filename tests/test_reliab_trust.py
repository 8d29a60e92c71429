"""Trustworthy with the user's files (issue 31): nothing a user owns is overwritten or changed by
surprise, ambiguous names change nothing, ingest never reads its own output, hand-edited stores
do not crash commands, and the preview server stays inside its folder and stays up.

Each test reproduces one reported failure; each failed before its fix.
"""
from __future__ import annotations

import errno
import hashlib
import http.client
import json
import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli


def _run(db: Path, *args: str):
    result = CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)
    return result


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _two_rules_files(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "house" / "rules.md", tmp_path / "club" / "rules.md"
    for path, roll in ((a, "6s"), (b, "5s")):
        path.parent.mkdir(parents=True)
        path.write_text(f"# Overwatch\n\nShoot at a unit that charges you, hitting on {roll} only.\n")
    return a, b


# ------------------------------------------------------------ 1. ambiguous file names
def test_remove_refuses_a_name_that_several_stored_files_share(tmp_path):
    db = tmp_path / "s.sqlite"
    _two_rules_files(tmp_path)
    assert _run(db, "ingest", str(tmp_path / "house"), str(tmp_path / "club")).exit_code == 0
    result = _run(db, "remove", "rules.md")
    assert result.exit_code == 1
    assert "names 2 stored files" in result.output and "house/rules.md" in result.output
    assert "club/rules.md" in result.output and "nothing was removed" in result.output
    listed = _run(db, "files").output
    assert "house/rules.md" in listed and "club/rules.md" in listed  # both kept, told apart
    removed = _run(db, "remove", "house/rules.md")
    assert removed.exit_code == 0 and "Removed house/rules.md" in removed.output
    assert [f["path"] for f in json.loads(_run(db, "files", "--json").output)] == [
        str((tmp_path / "club" / "rules.md").resolve())]


# ------------------------------------------------------------ 2, 6. outputs never clobber
@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_export_refuses_to_write_over_the_store(tmp_path, suffix):
    db = tmp_path / "s.sqlite"
    _two_rules_files(tmp_path)
    _run(db, "ingest", str(tmp_path / "house"))
    before = _sha(db)
    result = _run(db, "export", "-o", str(db) + suffix)
    assert result.exit_code == 1 and "is the store" in result.output
    assert _sha(db) == before
    assert _run(db, "check").exit_code == 0


def test_export_on_a_full_disk_keeps_the_old_file_and_says_why(tmp_path, monkeypatch):
    db = tmp_path / "s.sqlite"
    _two_rules_files(tmp_path)
    _run(db, "ingest", str(tmp_path / "house"))
    out = tmp_path / "records.jsonl"
    out.write_text("the export of yesterday\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("ruleslawyer.outputs.os.fsync", full)
    result = _run(db, "export", "-o", str(out))
    assert result.exit_code == 1
    assert "the disk is full" in result.output and "Traceback" not in result.output
    assert out.read_text() == "the export of yesterday\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".records")] == []  # no partial file left


def test_export_replaces_the_file_once_complete(tmp_path):
    db = tmp_path / "s.sqlite"
    _two_rules_files(tmp_path)
    _run(db, "ingest", str(tmp_path / "house"))
    out = tmp_path / "records.jsonl"
    out.write_text("old\n")
    assert _run(db, "export", "-o", str(out)).exit_code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["name"] for r in rows] == ["Overwatch"]


# ------------------------------------------------------------ 3. another program's database
def test_a_foreign_sqlite_file_is_refused_and_left_unchanged(tmp_path):
    other = tmp_path / "notes.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()
    before = _sha(other)
    for command in (["stats"], ["search", "overwatch"], ["files"], ["check"]):
        result = _run(other, *command)
        assert result.exit_code == 1, command
        assert "not a ruleslawyer store" in result.output and "Traceback" not in result.output
    assert _sha(other) == before
    assert not (tmp_path / "notes.db-wal").exists()


# ------------------------------------------------------------ 5, 11. ingest reads documents only
def test_ingest_skips_a_site_it_built_and_a_store(tmp_path, monkeypatch):
    work = tmp_path / "work"
    (work / "docs").mkdir(parents=True)
    (work / "docs" / "rules.md").write_text("# Overwatch\n\nShoot at a unit that charges you, on 6s only.\n")
    db = work / "s.sqlite"
    assert _run(db, "ingest", str(work / "docs")).exit_code == 0
    assert _run(db, "site", "build", str(work / "site")).exit_code == 0
    monkeypatch.chdir(work)
    result = _run(db, "ingest", "--force", ".")
    assert result.exit_code == 0
    assert "Skipped: site: a site ruleslawyer built" in result.output
    assert "1 files read" in result.output
    assert [f["name"] for f in json.loads(_run(db, "files", "--json").output)] == ["rules.md"]
    named = _run(db, "ingest", str(db))
    assert "an SQLite database (a store), not a document" in named.output and named.exit_code == 0


def test_ingest_does_not_follow_a_folder_symlink_out_of_the_named_folder(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Not Mine\n\nA rule from a folder nobody named.\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "rules.md").write_text("# Overwatch\n\nShoot at a unit that charges you, on 6s only.\n")
    (docs / "up").symlink_to(outside, target_is_directory=True)
    db = tmp_path / "s.sqlite"
    result = _run(db, "ingest", str(docs))
    assert result.exit_code == 0
    assert "a symlink to a folder outside" in result.output and "not followed" in result.output
    assert [f["name"] for f in json.loads(_run(db, "files", "--json").output)] == ["rules.md"]


# ------------------------------------------------------------ 8. hand-edited store values
@pytest.mark.parametrize("edit", [
    "UPDATE files SET ingested_at = 'yesterday'",
    "UPDATE files SET ingested_at = x'00ff'",
    "UPDATE files SET date = 'soon'",
    "UPDATE meta SET value = 'many' WHERE key = 'generation'",
    "UPDATE files SET preference = 'high'",
])
def test_hand_edited_values_are_found_by_check_and_repaired(tmp_path, edit):
    db = tmp_path / "s.sqlite"
    _two_rules_files(tmp_path)
    _run(db, "ingest", str(tmp_path / "house"))
    conn = sqlite3.connect(db)
    conn.execute(edit)
    conn.commit()
    conn.close()
    for command in (["show", "overwatch"], ["export"], ["files"], ["search", "overwatch"]):
        result = _run(db, *command)
        assert "Traceback" not in result.output and result.exit_code == 0, (command, result.output)
    checked = _run(db, "check")
    assert checked.exit_code == 1 and "not a value of its type" in checked.output
    repaired = _run(db, "check", "--repair")
    assert "reset 1 damaged value" in repaired.output
    assert _run(db, "check").exit_code == 0


# ------------------------------------------------------------ 12. the preview server
@pytest.fixture
def small_site(tmp_path):
    db = tmp_path / "s.sqlite"
    _two_rules_files(tmp_path)
    _run(db, "ingest", str(tmp_path / "house"))
    out = tmp_path / "site"
    assert _run(db, "site", "build", str(out)).exit_code == 0
    return out


def _serve(out: Path):
    from ruleslawyer.site.serve import make_server

    server = make_server(out, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _get(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def test_serve_does_not_follow_symlinks_out_of_the_site(small_site, tmp_path):
    secret = tmp_path / "private"
    secret.mkdir()
    (secret / "passwd").write_text("root:x:0:0\n")
    (small_site / "etc_link").symlink_to(secret, target_is_directory=True)
    (small_site / "store.html").symlink_to(tmp_path / "s.sqlite")
    server = _serve(small_site)
    try:
        port = server.server_address[1]
        assert _get(port, "/index.html") == 200
        assert _get(port, "/etc_link/passwd") == 404
        assert _get(port, "/store.html") == 404
    finally:
        server.shutdown()
        server.server_close()


def test_serve_drops_a_head_that_trickles_past_its_deadline(small_site, monkeypatch):
    from ruleslawyer.site import serve

    monkeypatch.setattr(serve, "HEAD_SECONDS", 1.0)
    server = _serve(small_site)
    try:
        port = server.server_address[1]
        slow = socket.create_connection(("127.0.0.1", port))
        started = time.monotonic()
        closed = False
        for byte in b"GET /index.html HTTP/1.1\r\nHost: x\r\n":  # one byte every 0.3 s: each read is quick
            try:
                slow.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            slow.settimeout(0.3)
            try:
                if slow.recv(1) == b"":
                    closed = True
                    break
            except socket.timeout:
                pass
        assert closed and time.monotonic() - started < 5  # cut at the deadline, not after the whole trickle
        assert _get(port, "/") == 200  # and everyone else is still served
    finally:
        server.shutdown()
        server.server_close()


def test_serve_queues_a_burst_of_connections(small_site):
    server = _serve(small_site)
    try:
        assert server.request_queue_size >= 128
        port = server.server_address[1]
        statuses = []
        lock = threading.Lock()

        def fetch():
            code = _get(port, "/index.html")
            with lock:
                statuses.append(code)

        threads = [threading.Thread(target=fetch) for _ in range(150)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert statuses.count(200) == 150
    finally:
        server.shutdown()
        server.server_close()


# ------------------------------------------------------------ 14, 15. full disk, damaged pages
def _many_rules(folder: Path, files: int = 12, rules: int = 40) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for f in range(files):
        body = "\n\n".join(f"## Rule {f} {r}\n\nWhen rule {f}-{r} applies, roll {r % 6 + 1} dice and keep the "
                           f"highest; {'padding words ' * 30}" for r in range(rules))
        (folder / f"rules{f:02}.md").write_text(f"# Book {f}\n\n{body}\n")


def test_a_full_disk_is_named_and_the_store_is_unchanged(tmp_path):
    from ruleslawyer.errors import StoreError
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    db = tmp_path / "s.sqlite"
    _two_rules_files(tmp_path)
    _many_rules(tmp_path / "big", files=1, rules=400)
    with Store(db) as store:
        ingest_paths(store, [tmp_path / "house"])
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk is all but full
        with pytest.raises(StoreError) as raised:  # the batch stops: every next file would fail the same way
            ingest_paths(store, [tmp_path / "big"])
        assert "the disk is full" in str(raised.value) and "damaged" not in str(raised.value)
        assert "check" not in (raised.value.hint or "")
        assert [f.name for f in store.files()] == ["rules.md"]
    assert _run(db, "check").exit_code == 0


def test_check_repair_salvages_a_store_with_damaged_pages(tmp_path):
    db = tmp_path / "s.sqlite"
    _many_rules(tmp_path / "docs")
    assert _run(db, "ingest", str(tmp_path / "docs")).exit_code == 0
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    pages = db.stat().st_size // 4096
    with open(db, "r+b") as handle:  # one page of records in the middle is overwritten
        handle.seek(pages // 2 * 4096)
        handle.write(b"\xde\xad\xbe\xef" * 1024)
    checked = _run(db, "check")
    assert checked.exit_code == 1 and "pages of the file are damaged" in checked.output
    repaired = _run(db, "check", "--repair")
    assert "salvaged 12 file(s)" in repaired.output and "the damaged store is kept as" in repaired.output
    assert "Traceback" not in repaired.output
    assert _run(db, "check").exit_code == 0
    files = json.loads(_run(db, "files", "--json").output)
    assert len(files) == 12 and sum(f["records"] for f in files) == 12 * 40  # lost rows read again from disk
    assert list(tmp_path.glob("s.sqlite.damaged-*"))


# ------------------------------------------------------------ 16, 17. site builds into one folder
def test_a_second_build_into_a_folder_being_written_says_so(small_site, tmp_path):
    import fcntl

    from ruleslawyer.site.writer import LOCK

    with open(small_site / LOCK, "a+b") as held:  # a build in another process holds the folder
        fcntl.flock(held, fcntl.LOCK_EX)
        result = _run(tmp_path / "s.sqlite", "site", "build", "--force", str(small_site))
    assert result.exit_code == 1
    assert "another ruleslawyer build is writing this folder" in result.output
    assert "permission" not in result.output
    assert _run(tmp_path / "s.sqlite", "site", "build", str(small_site)).exit_code == 0  # free again


def test_a_site_whose_manifest_was_deleted_is_adopted_with_force(small_site, tmp_path):
    from ruleslawyer.site.writer import MANIFEST

    (small_site / MANIFEST).unlink()
    refused = _run(tmp_path / "s.sqlite", "site", "build", str(small_site))
    assert refused.exit_code == 1 and "--force" in refused.output
    adopted = _run(tmp_path / "s.sqlite", "site", "build", "--force", str(small_site))
    assert adopted.exit_code == 0, adopted.output
    assert (small_site / MANIFEST).is_file()


# ------------------------------------------------------------ 13. names that would steer the terminal
def test_bidi_and_control_characters_in_names_are_shown_escaped(tmp_path):
    from ruleslawyer.printable import terminal_safe

    doc = tmp_path / "evil.md"
    doc.write_text("# Over\u202ewatch\u202c\n\nShoot at a unit that charges you, hitting on 6s only.\n")
    db = tmp_path / "s.sqlite"
    assert _run(db, "ingest", str(doc)).exit_code == 0
    shown = _run(db, "show", "overwatch")
    assert shown.exit_code == 0, shown.output
    assert "\u202e" not in shown.output and "\\u202e" in shown.output
    assert terminal_safe("bold \x1b[1mname\x1b[0m\tok\n") == "bold \x1b[1mname\x1b[0m\tok\n"  # our styles kept
    assert terminal_safe("a\x1b]0;title\x07b") == "a\\x1b]0;title\\x07b"  # anything else escaped


# ------------------------------------------------------------ 3. a read-only open writes nothing
def test_a_read_only_open_never_writes_the_store(tmp_path):
    from ruleslawyer.errors import StoreError
    from ruleslawyer.records import Rule, Source
    from ruleslawyer.store import Store

    db = tmp_path / "s.sqlite"
    _two_rules_files(tmp_path)
    _run(db, "ingest", str(tmp_path / "house"))
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = _sha(db)
    with Store(db, read_only=True) as store:
        assert [r.name for r in store.records()] == ["Overwatch"]
        with pytest.raises(StoreError, match="read-only"):
            store.replace_file(path="x", name="x", sha256="0", format="text", size=0,
                               records=[Rule("New", Source("x"))])
    assert _sha(db) == before
    with pytest.raises(StoreError, match="no store here"):
        Store(tmp_path / "missing.sqlite", read_only=True)
    assert not (tmp_path / "missing.sqlite").exists()


# ------------------------------------------------------------ 5, 6, 9. cards and lists
def test_cards_on_a_full_disk_keep_the_old_file(runner, tmp_path, monkeypatch):
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "cards.html"
    out.write_text("yesterday's cards")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("ruleslawyer.outputs.os.fsync", full)
    result = runner.invoke(cli, ["cards", "royal warden", "--out", str(out)])
    assert result.exit_code == 1 and "the disk is full" in result.output and "Traceback" not in result.output
    assert out.read_text() == "yesterday's cards"
    assert [p.name for p in out.parent.iterdir()] == ["cards.html"]  # no partial file beside it


def test_ingest_skips_the_cards_it_printed(runner, tmp_path):
    (tmp_path / "printed").mkdir()
    pdf = tmp_path / "printed" / "cards.pdf"
    assert runner.invoke(cli, ["cards", "royal warden", "--out", str(pdf)]).exit_code == 0
    result = runner.invoke(cli, ["ingest", str(pdf.parent)])
    assert result.exit_code == 0, result.output
    assert "cards or a list sheet ruleslawyer printed" in result.output and "0 files read" in result.output


def test_site_build_with_an_unreadable_list_writes_nothing(runner, tmp_path):
    bad = tmp_path / "list.txt"
    bad.write_text("hello there\n")
    result = runner.invoke(cli, ["site", "build", str(tmp_path / "site"), "--list", str(bad)])
    assert result.exit_code == 1 and "not an army list" in result.output
    assert not (tmp_path / "site").exists()


# ------------------------------------------------------------ 4. rules written in other scripts
def test_markdown_in_other_scripts_gives_records_that_show_finds(tmp_path):
    doc = tmp_path / "scripts.md"
    doc.write_text("# Быстрый воин\n\nКогда этот отряд атакует, бросьте кубик.\n\n"
                   "# 速い戦士\n\nこのユニットが攻撃するとき、ダイスを振る。\n", encoding="utf-8")
    db = tmp_path / "s.sqlite"
    assert "2 rule" in _run(db, "ingest", str(doc)).output
    rows = [json.loads(line) for line in _run(db, "export").output.splitlines()]
    assert [r["text"] for r in rows] == ["Когда этот отряд атакует, бросьте кубик.",
                                         "このユニットが攻撃するとき、ダイスを振る。"]
    assert "бросьте кубик" in _run(db, "show", "быстрый воин").output
    assert "ダイスを振る" in _run(db, "show", "速い戦士").output
