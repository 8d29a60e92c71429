"""`files`, `remove`, `conflicts` and the warnings channel, through the command line."""
from __future__ import annotations

import json
import re

from ruleslawyer.cli.main import cli


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def test_an_ingest_that_stores_nothing_warns_naming_the_file_and_strict_fails(tmp_path, fresh_runner):
    empty = _write(tmp_path, "notes.txt", "shopping: milk, eggs\n")
    result = fresh_runner.invoke(cli, ["ingest", "-q", str(empty)])
    assert result.exit_code == 0
    assert "Warning: notes.txt: no records found" in result.output
    strict = fresh_runner.invoke(cli, ["ingest", "--strict", "--force", str(empty)])
    assert strict.exit_code == 1
    listed = fresh_runner.invoke(cli, ["files", "--warnings"])
    assert "notes.txt" in listed.output and "warning: no records found" in listed.output


def test_nothing_falls_back_to_the_example_corpus_after_an_empty_ingest(tmp_path, fresh_runner):
    empty = _write(tmp_path, "notes.txt", "shopping: milk, eggs\n")
    fresh_runner.invoke(cli, ["ingest", "-q", str(empty)])
    stats = fresh_runner.invoke(cli, ["stats", "--json"])
    assert json.loads(stats.output[stats.output.index("{"):])["files"] == 1  # only notes.txt


def test_example_corpus_seeds_a_new_store_says_so_and_leaves_on_the_first_own_ingest(tmp_path, fresh_runner):
    first = fresh_runner.invoke(cli, ["stats"])
    seeded = re.search(r"added the example corpus \((\d+) files\)", first.output)
    assert seeded
    doc = _write(tmp_path, "rules.md", "# Deep Strike\n\nSet it up anywhere more than 9\" away from enemies.\n")
    result = fresh_runner.invoke(cli, ["ingest", str(doc)])
    assert f"Removed the example corpus ({seeded.group(1)} files)" in result.output
    files = fresh_runner.invoke(cli, ["files", "--json"])
    assert [f["name"] for f in json.loads(files.output)] == ["rules.md"]


def test_a_store_named_with_db_is_never_seeded(tmp_path, fresh_runner):
    result = fresh_runner.invoke(cli, ["--db", str(tmp_path / "mine.sqlite"), "stats", "--json"])
    assert json.loads(result.output)["files"] == 0


def test_files_show_dates_and_preference_and_remove_drops_a_file(tmp_path, fresh_runner):
    doc = _write(tmp_path, "rules.md", "# Deep Strike\n\nSet it up anywhere more than 9\" away from enemies.\n")
    fresh_runner.invoke(cli, ["ingest", "--dated", "2025-10-22", "--prefer", str(doc)])
    [row] = json.loads(fresh_runner.invoke(cli, ["files", "--json"]).output)
    assert (row["date"], row["dated"], row["preference"], row["records"]) == ("2025-10-22", True, 1, 1)
    bad_date = fresh_runner.invoke(cli, ["ingest", "--dated", "22/10/2025", str(doc)])
    assert bad_date.exit_code == 2 and "not a date like 2025-10-22" in bad_date.output
    missing = fresh_runner.invoke(cli, ["remove", "rulez.md"])
    assert missing.exit_code == 1 and "did you mean: rules.md" in missing.output
    removed = fresh_runner.invoke(cli, ["remove", "rules.md"])
    assert removed.exit_code == 0 and "Removed" in removed.output
    assert json.loads(fresh_runner.invoke(cli, ["files", "--json"]).output) == []


def test_conflicts_and_show_name_the_other_printing(tmp_path, fresh_runner):
    a = _write(tmp_path, "a.md", "# Deep Strike\n\nSet it up anywhere more than 9\" away from enemy models.\n")
    b = _write(tmp_path, "b.md", "# Deep Strike\n\nSet it up anywhere more than 12\" away from enemy models.\n")
    fresh_runner.invoke(cli, ["ingest", "--dated", "2024-01-01", str(a)])
    fresh_runner.invoke(cli, ["ingest", "--dated", "2025-01-01", str(b)])
    shown = fresh_runner.invoke(cli, ["show", "deep strike"])
    assert '12"' in shown.output and "Also printed in: a.md" in shown.output
    older = fresh_runner.invoke(cli, ["show", "deep strike", "--source", "a.md"])
    assert '9"' in older.output
    report = fresh_runner.invoke(cli, ["conflicts"])
    assert "Deep Strike (rule" in report.output and "uses b.md" in report.output


def test_show_gives_the_current_points_of_a_newer_edition_and_says_so(runner):
    """The shipped points list (corpus/points/) is 11th edition and prices the Royal Warden; the
    shipped Royal Warden datasheet is 10th edition, so `show` gives the current (11th edition)
    points and names their edition, instead of the older datasheet's own."""
    shipped = runner.invoke(cli, ["show", "royal warden", "--json"])
    assert shipped.exit_code == 0, shipped.output
    data = json.loads(shipped.output[shipped.output.index("{"):])
    assert data["edition"] == 10 and data["current_points"]["edition"] == 11
    assert "Current points (11th edition" in runner.invoke(cli, ["show", "royal warden"]).output
