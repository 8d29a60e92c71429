"""Table lookups, the S-vs-T wound rule, and the errata/table/wound/show commands."""
from __future__ import annotations

import json
import re

import pytest

from ruleslawyer.cli.main import cli
from ruleslawyer.errors import QueryError
from ruleslawyer.ingest.formats import load_file
from ruleslawyer.ingest.parse.parsing import parse_document
from ruleslawyer.library.lookup import find_table, lookup, wound_roll
from tests.conftest import seed_path


@pytest.mark.parametrize("s, t, roll", [(4, 5, "5+"), (8, 4, "2+"), (4, 4, "4+"), (5, 4, "3+"), (2, 4, "6+"),
                                         (3, 7, "6+"), (3, 5, "5+"), (9, 5, "3+"), (10, 5, "2+")])
def test_wound_rule(s, t, roll):
    assert wound_roll(s, t).roll == roll


def test_wound_rule_rejects_zero():
    with pytest.raises(QueryError):
        wound_roll(0, 4)


@pytest.fixture(scope="module")
def charts(shared):
    records = []
    for prefix in ("000", "001", "002"):
        records.extend(parse_document(load_file(seed_path(shared, prefix, ".txt"))))
    return records


def test_printed_9th_edition_chart_agrees_with_the_rule(charts):
    """Reading the parsed Wound Roll chart row by row gives what the rule computes."""
    chart = find_table(charts, "wound roll", edition=9)
    for s in range(1, 13):
        for t in range(1, 13):
            assert lookup(chart, s=s, t=t) == wound_roll(s, t).roll, (s, t)


def test_fifth_edition_chart_by_row_and_column(charts):
    chart = find_table(charts, "to wound")
    assert chart.edition == 5
    assert lookup(chart, "4", "5") == "5+"
    assert lookup(chart, s=4, t=5) == "5+"
    assert lookup(chart, s=1, t=5) == "-"
    assert lookup(chart, s=10, t=10) == "4+"
    with pytest.raises(QueryError, match="no row '11'"):
        lookup(chart, "11", "2")
    to_hit = find_table(charts, "shooting to hit")
    assert lookup(to_hit, "To-Hit", "4") == "3+"


def test_same_name_in_two_editions(charts):
    assert find_table(charts, "wound roll").edition == 10
    assert find_table(charts, "wound roll", edition=9).edition == 9
    # The 10th edition page lost its digits ("+"); the case still gives the roll.
    assert lookup(find_table(charts, "wound roll"), s=4, t=8) == "6+"


# ---------------------------------------------------------------- CLI
@pytest.fixture(scope="module")
def db(shared, tmp_path_factory):
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    path = tmp_path_factory.mktemp("lookup") / "store.sqlite"
    with Store(path) as store:
        ingest_paths(store, [seed_path(shared, p, ".txt") for p in ("000", "002", "003")])
    return path


@pytest.fixture
def run(db, monkeypatch):
    from click.testing import CliRunner

    monkeypatch.setenv("RULESLAWYER_DB", str(db))
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, list(args))


def test_table_cell(run):
    for args in (("--row", "4", "--col", "5"), ("--s", "4", "--t", "5")):
        result = run("table", "to wound", *args)
        assert (result.exit_code, result.output) == (0, "5+\n")


def test_table_whole_chart_aligned(run):
    result = run("table", "to wound")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "To Wound (5th edition)"
    header = next(line for line in lines if re.match(r"Strength\s+1\s", line))
    row4 = next(line for line in lines if line.startswith("4 "))
    # Every value ends under the end of its column label.
    ends = [m.end() for m in re.finditer(r"\S+", header)][1:]
    assert [m.end() for m in re.finditer(r"\S+", row4)][1:] == ends
    assert row4.split()[1:] == ["2+", "2+", "3+", "4+", "5+", "6+", "6+", "-", "-", "-"]


def test_table_errors_are_one_line(run):
    result = run("table", "to wound", "--row", "12", "--col", "1")
    assert result.exit_code == 1 and result.output.startswith("Error: 'To Wound' has no row '12'")
    result = run("table", "no such chart at all")
    assert result.exit_code == 1 and result.output.startswith("Error:")


def test_wound_command(run):
    result = run("wound", "4", "5")
    assert result.exit_code == 0
    assert result.output.splitlines() == ["5+", "S 4 vs T 5: S is lower than T."]
    assert run("wound", "8", "4").output.splitlines()[0] == "2+"


def test_wound_cases_read_back_as_their_own_chart_rows():
    """Each case the wound rule states in our words is recognised like a printed chart row."""
    from ruleslawyer.library.lookup import _condition_key

    for s, t in ((8, 4), (5, 4), (4, 4), (3, 4), (2, 4)):
        roll = wound_roll(s, t)
        assert _condition_key(roll.case) == roll.key, roll


def test_errata_command_counts(run, db):
    from ruleslawyer.amend.apply import apply_errata
    from ruleslawyer.store import Store

    with Store(db) as store:
        outcomes = apply_errata(list(store.records())).outcomes
    applied = sum(o.applied for o in outcomes)
    assert 0 < applied < len(outcomes)  # seeds 000 + 003: most entries land, some cannot
    result = run("errata")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[-1] == f"{len(outcomes)} entries: {applied} applied, {len(outcomes) - applied} not applied"
    assert len(lines) - 1 == len(outcomes)
    assert any(x.startswith("p219 Look Out, Sir [replace] -> applied to Look Out, Sir") for x in lines)
    *unapplied, summary = run("errata", "--unapplied", "--document", "core book").output.splitlines()
    assert unapplied and all("-> NOT applied: " in x for x in unapplied)
    assert summary == f"{len(unapplied)} of {len(outcomes)} entries not applied"
    data = json.loads(run("errata", "--json").output)
    assert {"erratum", "applied", "target", "reason"} <= set(data[0])
    bad = run("errata", "--document", "codex: orks")
    assert bad.exit_code == 1 and "Core Book" in bad.output


def _gold_opening(shared, prefix, match):
    """The first eight words of the gold record of seed `prefix` that `match` picks (read at test time)."""
    gold = shared / "gold" / (seed_path(shared, prefix, ".txt").stem + ".jsonl")
    rows = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines() if line.strip()]
    (row,) = [r for r in rows if match(r)]
    return " ".join(row["text"].split()[:8])


def test_show_amended_and_as_printed(run, shared):
    new = _gold_opening(shared, "003", lambda r: r["kind"] == "errata" and r["target"] == "Look Out, Sir")
    old = _gold_opening(shared, "000", lambda r: r["kind"] == "rule" and r["name"] == "Look Out, Sir")
    assert new != old
    amended = run("show", "Look Out, Sir")
    assert amended.exit_code == 0
    flat = " ".join(amended.output.split())  # the view wraps lines
    assert new in flat and old not in flat
    assert "1.7" in amended.output and "Core Book" in amended.output
    printed = run("show", "Look Out, Sir", "--as-printed")
    assert printed.exit_code == 0
    flat = " ".join(printed.output.split())
    assert old in flat and new not in flat


@pytest.mark.parametrize("label, key", [("S is TWICE T or more", "twice"), ("S is 2x T or more", "twice"),
                                        ("S is more than T", "greater"), ("S equals T", "equal"),
                                        ("S is LESS than T.", "lower"), ("S is the same as T", "equal"),
                                        ("S is half T or less", "half")])
def test_condition_labels(label, key):
    from ruleslawyer.library.lookup import _condition_key

    assert _condition_key(label) == key
