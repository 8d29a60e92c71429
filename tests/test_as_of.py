"""`--as-of DATE` on search, list check, cards and site build (issue 27): only what was published
on or before the date, and every answer says so. Two printings of one house rule, dated 2024
and 2025, tell the dates apart."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"


@pytest.fixture
def dated_store(tmp_path) -> Path:
    db = tmp_path / "s.sqlite"
    for name, date in (("house-rules.md", "2024-06-01"), ("house-rules-2025.md", "2025-02-01")):
        result = CliRunner().invoke(cli, ["--db", str(db), "ingest", str(EXAMPLES / name), "--dated", date])
        assert result.exit_code == 0, result.output
    return db


def _run(db, *args):
    return CliRunner().invoke(cli, ["--db", str(db), *args])


def test_search_as_of_gives_the_printing_of_that_date(dated_store):
    now = json.loads(_run(dated_store, "search", "overwatch", "--json").output)
    assert "once per turn" in now["hits"][0]["text"] and now["as_of"] is None
    then = json.loads(_run(dated_store, "search", "overwatch", "--json", "--as-of", "2024-12-31").output)
    assert then["as_of"].startswith("As of 2024-12-31")
    assert [h["source"]["file"] for h in then["hits"]] == ["house-rules.md"]
    assert "once per turn" not in then["hits"][0]["text"]
    before = _run(dated_store, "search", "overwatch", "--as-of", "2023-12-31")
    assert before.exit_code == 1 and "As of 2023-12-31" in before.output  # nothing was published yet


def test_a_malformed_date_is_one_error_line(dated_store):
    result = _run(dated_store, "search", "overwatch", "--as-of", "2024-13-01")
    assert result.exit_code == 1 and "not a date" in result.output and "Traceback" not in result.output


def test_site_build_as_of_leaves_out_later_documents(dated_store, tmp_path):
    result = _run(dated_store, "site", "build", str(tmp_path / "site"), "--as-of", "2024-12-31")
    assert result.exit_code == 0 and "As of 2024-12-31" in result.output
    pages = "".join(p.read_text("utf-8") for p in (tmp_path / "site").rglob("*.html"))
    assert "unmodified 6s" in pages and "once per turn" not in pages


def test_list_check_and_cards_say_the_date(runner, tmp_path):
    checked = runner.invoke(cli, ["list", "check", str(EXAMPLES / "army-list.txt"), "--as-of", "2026-10-01"])
    assert checked.exit_code == 0 and "As of 2026-10-01" in checked.output
    as_json = json.loads(runner.invoke(cli, ["list", "check", str(EXAMPLES / "army-list.txt"), "--json",
                                             "--as-of", "2026-10-01"]).output)
    assert as_json["as_of"].startswith("As of 2026-10-01")
    cards = runner.invoke(cli, ["cards", "royal warden", "--out", str(tmp_path / "c.html"), "--as-of", "2026-10-01"])
    assert cards.exit_code == 0 and "As of 2026-10-01" in cards.output, cards.output


def test_points_as_of_a_date_between_two_versions_give_the_older(shared, tmp_path):
    db = tmp_path / "mfm.sqlite"
    assert _run(db, "ingest", str(shared / "realdata" / "e11" / "mfm")).exit_code == 0
    now = _run(db, "points", "doomsday ark").output
    then = _run(db, "points", "doomsday ark", "--as-of", "2026-07-01").output
    assert "v1.1" in now and "v1.0" not in now
    assert "v1.0, 2026-06-22" in then and "As of 2026-07-01" in then  # the changelog's date for v1.0


def test_search_as_of_keeps_errata_and_faqs_of_documents_published_by_then(runner):
    now = json.loads(runner.invoke(cli, ["search", "look out sir", "--json"]).output)["hits"]
    later = json.loads(runner.invoke(cli, ["search", "look out sir", "--json", "--as-of", "2030-01-01"]).output)["hits"]
    assert "errata" in {h["kind"] for h in now}
    assert [(h["kind"], h["name"] if "name" in h else h.get("target")) for h in later] == \
        [(h["kind"], h["name"] if "name" in h else h.get("target")) for h in now]
