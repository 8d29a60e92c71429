"""The click-free path of `ruleslawyer search` (cli/fast.py) prints what click's path prints,
with the same exit status, and leaves everything it does not recognise to click."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ruleslawyer.cli import fast, group
from ruleslawyer.cli.context import style
from ruleslawyer.store import Store

from .test_search import RECORDS, _fill


@pytest.fixture
def store_env(tmp_path, monkeypatch):
    db = tmp_path / "store.sqlite"
    with Store(db) as store:
        _fill(store, RECORDS)
    monkeypatch.setenv("RULESLAWYER_DB", str(db))
    return db


def _through_click(argv, capsys):
    try:
        group.cli.main(args=list(argv), prog_name="ruleslawyer", standalone_mode=True)
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def _through_fast(argv, capsys):
    code = fast.run(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


CASES = [
    ["search", "overwatch"],
    ["search", "reanimation", "protocols", "--limit", "2"],
    ["search", "--limit=3", "fight"],
    ["search", "protocls", "--kind", "stratagem", "--faction", "necrons", "--edition", "10"],
    ["search", "unit reanimates", "--json", "--limit", "1"],
    ["search", "--json", "kind:stratagem"],
    ["search", "overwatch", "kind:enhancement"],  # no hits: suggestions, exit 1
    ["search", "zzzqqqx"],
    ["search", '"feel no'],  # malformed: one error line
    ["search", "colour:red"],
    ["search", "fight", "--faction", "necronz"],  # a mistyped faction: error with suggestions
    ["search", "fight", "--kind=stratagem", "--edition=10"],
]


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a[1:]))
def test_fast_path_prints_what_click_prints(store_env, capsys, argv):
    _through_click(["search", "warmup"], capsys)  # build the index once, outside the comparison
    fast_result = _through_fast(argv, capsys)
    click_result = _through_click(argv, capsys)
    assert fast_result[0] is not None, "the fast path should handle this argv"
    assert fast_result == click_result
    assert fast_result[1] or fast_result[2]  # each case prints something


def test_fast_path_reports_a_missing_folder_like_click(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RULESLAWYER_DB", str(tmp_path / "no" / "such" / "store.sqlite"))
    fast_result = _through_fast(["search", "fight"], capsys)
    click_result = _through_click(["search", "fight"], capsys)
    assert fast_result == click_result and fast_result[0] == 1 and fast_result[2].startswith("Error: ")


@pytest.mark.parametrize("argv", [
    [], ["search"], ["--help"], ["search", "--help"], ["search", "-h", "x"], ["show", "fight"],
    ["--db", "x.sqlite", "search", "fight"], ["search", "fight", "--limit", "0"], ["search", "fight", "--limit", "501"],
    ["search", "fight", "--limit", "1_0"], ["search", "fight", "--limit"], ["search", "fight", "--kind"],
    ["search", "fight", "--kind", "rule", "--kind", "stratagem"], ["search", "fight", "--json=1"],
    ["search", "fight", "--colour", "red"], ["search", "--", "fight"], ["search", "-"], ["search", "fight", "--kind="],
    ["search", "fight", "--kin", "rule"],
], ids=lambda a: " ".join(a) or "nothing")
def test_anything_unusual_goes_to_click(argv):
    assert fast.parse(argv) is None


def test_unusual_argv_gets_clicks_answer(store_env, capsys):
    """Through the entry point, an argv the fast path declines is click's to answer."""
    for argv, code in ([["search", "fight", "--limit", "0"], 2], [["search"], 2], [["search", "--help"], 0]):
        expected = _through_click(argv, capsys)
        script = "import sys; from ruleslawyer.cli.main import cli; sys.argv = ['ruleslawyer'] + sys.argv[1:]; cli()"
        done = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True,
                              env={**os.environ, "COLUMNS": "80"})
        assert done.returncode == expected[0] == code
        assert done.stdout == expected[1]
        assert done.stderr == expected[2]


def test_styles_are_clicks():
    import click

    assert style("Fight", bold=True) == click.style("Fight", bold=True)
    assert style("fight", fg="yellow", bold=True) == click.style("fight", fg="yellow", bold=True)


def test_plain_search_process_does_not_import_click(store_env):
    env = {**os.environ}
    subprocess.run([sys.executable, "-m", "ruleslawyer", "search", "overwatch"], env=env, check=True,
                   capture_output=True)  # builds the index
    probe = ("import sys, runpy; sys.argv = ['ruleslawyer', 'search', 'overwatch', '--limit', '3']\n"
             "try:\n    runpy.run_module('ruleslawyer', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print('click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert len(lines) >= 2 and lines[-1] == "False"
