"""The `search` command: output lines, --json, exit status, one-line errors; concurrent ingests."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from ruleslawyer.cli.main import cli
from ruleslawyer.index import lifecycle
from ruleslawyer.store import Store

from .conftest import seed_path
from .search_helpers import RECORDS, fill


@pytest.fixture
def runner(fresh_runner):
    """These tests fill the store with their own records: start from an empty one."""
    return fresh_runner


def _store_with_records():
    with Store(os.environ["RULESLAWYER_DB"]) as store:
        fill(store, RECORDS)


def test_one_line_per_hit(runner):
    _store_with_records()
    result = runner.invoke(cli, ["search", "overwatch", "--limit", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 2
    # the newest edition's answer first; each line names its kind, edition and file
    assert lines[0].startswith("[stratagem] Fire Overwatch Core 10th ed. · made-up.txt — ")
    assert lines[1].startswith("[rule] Overwatch 9th ed. · made-up.txt — ")
    assert "\x1b[" not in result.output  # no colour when stdout is not a terminal


def test_options_and_typo_note(runner):
    _store_with_records()
    result = runner.invoke(cli, ["search", "protocls", "--kind", "stratagem", "--faction", "necrons", "--edition", "10"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "Showing results for: protocols"
    assert "Protocol of the Hungry Void" in result.output and "Reanimation" not in result.output


def test_json_output(runner):
    _store_with_records()
    result = runner.invoke(cli, ["search", "unit reanimates", "--json", "--limit", "1"])
    data = json.loads(result.output)
    hit = data["hits"][0]
    assert hit["kind"] == "rule" and hit["name"] == "Reanimation Protocols" and hit["score"] > 0
    assert [hit["snippet"][s:e] for s, e in hit["highlights"]] == ["unit", "reanimates"]


def test_no_hits_exit_1_with_suggestions(runner):
    _store_with_records()
    result = runner.invoke(cli, ["search", "overwatch", "kind:enhancement"])
    assert result.exit_code == 1
    assert "No results for 'overwatch kind:enhancement'. Try: remove the filters (kind:enhancement)" in result.output


def test_malformed_query_is_one_error_line(runner):
    _store_with_records()
    for query, start in [('"feel no', "Error: unbalanced quote"), ("colour:red", "Error: unknown field 'colour:'")]:
        result = runner.invoke(cli, ["search", query])
        assert result.exit_code == 1
        assert result.output.startswith(start) and "hint:" in result.output
        assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_two_ingests_at_once_keep_store_and_index_whole(shared, tmp_path):
    """Two `ruleslawyer ingest` processes on one store, then two searches that both find the
    index stale: the store holds every file once and the index is built once, intact."""
    db = tmp_path / "store.sqlite"
    env = {**os.environ, "RULESLAWYER_DB": str(db)}
    seeds = [str(seed_path(shared, p)) for p in ("000", "001", "002", "003")]

    def run_together(*argvs):
        procs = [subprocess.Popen([sys.executable, "-m", "ruleslawyer", *argv], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for argv in argvs]
        return [(p.wait(timeout=120), *p.communicate()) for p in procs]

    results = run_together(["ingest", "-q", *seeds[:3]], ["ingest", "-q", *seeds[1:]])
    assert all(code == 0 for code, _, _ in results), results
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        files = conn.execute("SELECT COUNT(*), COUNT(DISTINCT path) FROM files").fetchone()
        per_file = dict(conn.execute("SELECT file_path, COUNT(*) FROM records GROUP BY file_path"))
    assert files == (4, 4)
    with Store(tmp_path / "alone.sqlite") as alone:  # the same files ingested one process alone
        from ruleslawyer.ingest.pipeline import ingest_paths

        ingest_paths(alone, seeds)
        assert sorted(per_file.values()) == sorted(f.record_count for f in alone.files())

    results = run_together(["search", "--json", "stratagem"], ["search", "--json", "stratagem"])
    assert all(code == 0 for code, _, _ in results), results
    assert json.loads(results[0][1])["hits"] == json.loads(results[1][1])["hits"] != []
    root = lifecycle.index_root(db)
    assert len(list(root.glob("build-*"))) == 1  # built once, by whichever got the lock first
    with Store(db) as store:
        assert lifecycle.read_current(root)["generation"] == store.generation


def test_search_process_does_not_import_what_it_does_not_need(tmp_path):
    """Start-up is mostly imports: a search on a fresh index loads neither the records module,
    the store, nor the libraries of other commands (the PDF reader, the templates)."""
    db = tmp_path / "store.sqlite"
    with Store(db) as store:
        fill(store, RECORDS)
    env = {**os.environ, "RULESLAWYER_DB": str(db)}
    subprocess.run([sys.executable, "-m", "ruleslawyer", "search", "overwatch"], env=env, check=True,
                   capture_output=True)  # builds the index
    probe = ("import sys, runpy; sys.argv = ['ruleslawyer', 'search', 'overwatch']\n"
             "try:\n    runpy.run_module('ruleslawyer', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print(' '.join(m for m in ('ruleslawyer.records', 'ruleslawyer.store', 'ruleslawyer.ingest', 'pdfplumber', 'jinja2', 'weasyprint')"
             " if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == ""
