"""Ingest reads what can be read: only regular files, past loops and odd names, format by content."""
from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.errors import LoadError
from ruleslawyer.ingest import formats
from ruleslawyer.ingest.pipeline import ingest_paths, printable
from tests.conftest import ROOT

CORPUS = ROOT / "ruleslawyer" / "corpus"
RULE = b"Overwatch Drill\n\nA unit may fire at a charging enemy unit, hitting only on unmodified 6s.\n"


def _ingest(tmp_path: Path, *paths) -> tuple[int, list[str], str]:
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "s.sqlite"), "ingest", "-q", *map(str, paths)])
    return result.exit_code, result.stderr.splitlines(), result.stdout


def test_fifo_device_and_socket_are_skipped_with_one_line_each(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    os.mkfifo(folder / "pipe.txt")  # reading it would wait for a writer forever
    (folder / "zero.txt").symlink_to("/dev/zero")  # reading it would never end
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(folder / "sock.md"))
    (folder / "good.txt").write_bytes(RULE)
    try:
        code, errors, out = _ingest(tmp_path, folder, "/dev/null")
    finally:
        sock.close()
    assert code == 1
    assert len(errors) == 4, errors
    by_name = {e.removeprefix("Error: ").split(":")[0].rsplit("/", 1)[-1]: e for e in errors}
    assert "a FIFO" in by_name["pipe.txt"] and "a character device" in by_name["zero.txt"]
    assert "a socket" in by_name["sock.md"] and "character device" in by_name["null"]
    assert out.strip().startswith("1 files read")


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_an_army_list_that_is_not_a_regular_file_is_one_line(special, tmp_path):
    """`list check` read a FIFO or /dev/zero until it hung or ran out of memory."""
    path = tmp_path / "list.txt"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(special)
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "s.sqlite"), "list", "check", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "not a regular file" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_the_size_limit_counts_what_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(formats, "MAX_FILE_BYTES", 1000)
    big = tmp_path / "big.txt"
    big.write_bytes(RULE * 100)
    with pytest.raises(LoadError, match="too large"):
        formats.read_file(big)
    assert formats.read_file(tmp_path / "big.txt", limit=10**6) == RULE * 100


def test_symlink_loops_and_long_paths_are_one_line_per_entry(tmp_path):
    folder = tmp_path / "in"
    (folder / "a" / "b").mkdir(parents=True)
    (folder / "a" / "b" / "up").symlink_to("../..")  # a folder inside itself
    (folder / "self.txt").symlink_to("self.txt")  # a file link to itself
    (folder / "a" / "rule.txt").write_bytes(RULE)
    deep = folder / "deep"
    deep.mkdir()
    long_name = "x" * 300 + ".txt"  # longer than any file system's name limit
    code, errors, out = _ingest(tmp_path, folder, deep / long_name)
    assert code == 1
    assert len(errors) == 3, errors
    assert any("up: a symlink loop" in e for e in errors)
    assert any("self.txt: a symlink loop" in e or "self.txt: a broken or looping symlink" in e for e in errors)
    assert any(long_name[:20] in e and ("too long" in e or "no such file" in e) for e in errors)
    assert out.strip().startswith("1 files read")


def test_file_names_are_shown_escaped_and_odd_bytes_ingest(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    raw = os.fsencode(folder)
    names = [b"new\nline.txt", b"\x1b[31mred.txt", b"latin\xff1.txt"]
    for n, name in enumerate(names):
        with open(raw + b"/" + name, "wb") as f:
            f.write(RULE.replace(b"Drill", b"Drill %d" % n))
    with open(raw + b"/broken\n\x1b[2J.pdf", "wb") as f:
        f.write(b"\x00\x01\x02" * 100)
    code, errors, out = _ingest(tmp_path, folder)
    assert code == 1 and len(errors) == 1
    assert "\x1b" not in errors[0] and "broken\\n\\x1b[2J.pdf" in errors[0]
    assert out.strip().startswith("3 files read")
    stats = CliRunner().invoke(cli, ["--db", str(tmp_path / "s.sqlite"), "stats"]).stdout
    assert "new\\nline.txt" in stats and "\\x1b[31mred.txt" in stats and "latin\\xff1.txt" in stats
    assert "\x1b" not in stats
    again = ingest_paths_count(tmp_path, folder)
    assert again == (0, 3)  # the odd names are keyed stably: unchanged the second time


def test_warnings_and_file_listings_show_names_escaped(tmp_path):
    """A file read with a warning (nothing recognised) is named escaped in the warning line and in `files`."""
    folder = tmp_path / "in"
    folder.mkdir()
    with open(os.fsencode(folder) + b"/new\nline \x1b[31mred.txt", "wb") as f:
        f.write(b"just some words\n")
    db = str(tmp_path / "s.sqlite")
    result = CliRunner().invoke(cli, ["--db", db, "ingest", "--no-index", str(folder)])
    warning = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert warning == ["Warning: new\\nline \\x1b[31mred.txt: no records found: nothing in this file was "
                       "recognised as rules"], result.stderr
    listing = CliRunner().invoke(cli, ["--db", db, "files", "--warnings"]).stdout
    # the file's line, how it was read, its warning: three lines, none obeying an escape
    assert "\x1b" not in listing and len(listing.splitlines()) == 3, listing


def ingest_paths_count(tmp_path: Path, folder: Path) -> tuple[int, int]:
    from ruleslawyer.store import Store

    with Store(tmp_path / "s.sqlite") as store:
        report = ingest_paths(store, [folder])
    return report.read, report.unchanged


def test_printable_escapes_controls_and_keeps_text():
    assert printable("Look Out, Sir — ‘quoted’ café") == "Look Out, Sir — ‘quoted’ café"
    assert printable("a\nb\x1b[0m\u202e") == "a\\nb\\x1b[0m\\u202e"


def test_html_named_pdf_is_read_as_html(tmp_path):
    page = tmp_path / "warden.pdf"
    page.write_bytes((CORPUS / "necrons-royal-warden.html").read_bytes())
    code, errors, out = _ingest(tmp_path, page)
    assert code == 0, errors
    assert "datasheet" in out and "stratagem" in out


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le"])
def test_utf16_html_is_sniffed_as_html(codec):
    data = (CORPUS / "necrons-royal-warden.html").read_text("utf-8").encode(codec)
    assert formats.sniff_format(data, "page.txt") == "html"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "cp1252", "utf-8-sig"])
def test_text_in_any_common_encoding_is_read(codec, tmp_path):
    """UTF-16 with or without its byte-order mark, Windows-1252, UTF-8 with a BOM: the same records."""
    text = (CORPUS / "core-rules-summary.md").read_text("utf-8").replace("\u2019", "'")
    plain = tmp_path / "plain" / "rules.md"
    plain.parent.mkdir()
    plain.write_text(text, encoding="utf-8")
    other = tmp_path / "other" / "rules.md"
    other.parent.mkdir()
    other.write_bytes(text.encode(codec))
    code, errors, out = _ingest(tmp_path / "plain", plain)
    code2, errors2, out2 = _ingest(tmp_path / "other", other)
    assert code == code2 == 0, errors2
    assert out.splitlines()[-1] == out2.splitlines()[-1] and "rule" in out2  # the same counts by kind


def test_a_page_whose_first_tag_comes_late_is_html():
    data = b"<?xml version='1.0'?>\n<!-- " + b"x" * 10000 + b" -->\n\n<html><body><p>Rule</p></body></html>"
    assert formats.sniff_format(data, "page.txt") == "html"
    prose = b"Notes\n" + b"words " * 2000 + b"\nA line that mentions <html> in passing.\n"
    assert formats.sniff_format(prose, "notes.txt") == "text"


def test_binary_named_pdf_is_still_refused_clearly():
    with pytest.raises(LoadError, match="no %PDF header"):
        formats.sniff_format(bytes(range(256)) * 20, "broken.pdf")


def _nest(top: Path, levels: int, name: str, files: dict[int, str]) -> None:
    """Folders `levels` deep under `top` (made relative to an open folder: the full path may
    exceed what open() accepts), with RULE written as files[depth] at those depths."""
    top.mkdir()
    here = os.open(top, os.O_RDONLY)
    try:
        for depth in range(levels + 1):
            if depth in files:
                with open(os.open(files[depth], os.O_WRONLY | os.O_CREAT, dir_fd=here), "wb") as f:
                    f.write(RULE)
            if depth < levels:
                os.mkdir(name, dir_fd=here)
                deeper = os.open(name, os.O_RDONLY, dir_fd=here)
                os.close(here)
                here = deeper
    finally:
        os.close(here)


def test_a_tree_nested_deeper_than_the_recursion_limit_is_walked(tmp_path):
    import sys

    from ruleslawyer.ingest.pipeline import gather

    _nest(tmp_path / "in", 300, "d", {300: "deep.txt"})
    gather([])  # its detectors imported before the limit is lowered
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # a walk that recursed once per folder would fail here
    try:
        items = gather([tmp_path / "in"])
    finally:
        sys.setrecursionlimit(limit)
    assert [Path(i).name for i in items] == ["deep.txt"]


def test_paths_too_long_are_one_line_each_and_the_walk_goes_on(tmp_path):
    _nest(tmp_path / "in", 22, "n" * 200, {2: "rule.txt", 22: "deep.txt"})  # about 4,400 characters deep
    code, errors, out = _ingest(tmp_path, tmp_path / "in")
    assert out.strip().startswith("1 files read")
    assert code == 1 and len(errors) == 1 and "too long" in errors[0], errors[:3]
