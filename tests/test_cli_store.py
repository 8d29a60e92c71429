"""`ingest`, `export` and `stats` through the command line (CliRunner)."""
from __future__ import annotations

import json

import pytest

from ruleslawyer.cli.main import cli

pytestmark = pytest.mark.usefixtures("stand_in_parser")


def test_ingest_summary_and_exit_status(runner, tmp_path):
    (tmp_path / "a.md").write_text("# Alpha\n\n# Beta\n", encoding="utf-8")
    (tmp_path / "bad.pdf").write_bytes(b"nope")
    result = runner.invoke(cli, ["ingest", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[-1] == "1 files read, 0 unchanged, 1 failed; 2 rule"
    assert any(line.startswith("Error: ") and "bad.pdf" in line for line in lines)
    again = runner.invoke(cli, ["ingest", str(tmp_path / "a.md")])
    assert again.exit_code == 0
    assert again.output.strip() == "0 files read, 1 unchanged, 0 failed; no records"


def test_export_jsonl_and_json(runner, tmp_path):
    (tmp_path / "a.md").write_text("# Alpha\n\n# Beta\n", encoding="utf-8")
    runner.invoke(cli, ["ingest", str(tmp_path)])
    result = runner.invoke(cli, ["export", "--format", "jsonl", "--kind", "rule"])
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["name"] for r in rows] == ["Alpha", "Beta"]
    assert rows[0]["kind"] == "rule" and rows[0]["source"]["file"] == "a.md"
    out = tmp_path / "out.json"
    assert runner.invoke(cli, ["export", "--format", "json", "-o", str(out)]).exit_code == 0
    assert len(json.loads(out.read_text())) == 2


def test_export_unknown_kind_is_a_usage_error(runner, tmp_path):
    (tmp_path / "a.md").write_text("# Alpha\n", encoding="utf-8")
    runner.invoke(cli, ["ingest", str(tmp_path)])
    result = runner.invoke(cli, ["export", "--kind", "spaceship"])
    assert result.exit_code == 2 and "unknown kind 'spaceship'" in result.output


def test_stats(runner, tmp_path):
    (tmp_path / "a.md").write_text("# Alpha\n", encoding="utf-8")
    runner.invoke(cli, ["ingest", str(tmp_path)])
    result = runner.invoke(cli, ["stats", "--json"])
    data = json.loads(result.output)
    assert data["files"] == 1 and data["kinds"] == {"rule": 1}


def test_store_error_is_one_line(runner, tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"garbage" * 200)
    result = runner.invoke(cli, ["--db", str(bad), "stats"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and len(result.output.strip().splitlines()) == 1
