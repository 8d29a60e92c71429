"""A newer edition's erratum that names the record shown but could not be applied (issue 27).

The Balance Dataslate of June 2024 (10th edition) changes the CP of the Imperial Knights'
Trophy Claim; the pile prints that stratagem only in the 9th edition Wahapedia export. `show`
gives the 9th edition card and says, beside it, what the newer erratum changes.
"""
from __future__ import annotations

import json
import re
import shutil

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli

pytestmark = [pytest.mark.realdata, pytest.mark.slow]


@pytest.fixture(scope="module")
def pile(real_pile, tmp_path_factory):
    """A copy of the session's store of all of ../shared/realdata (conftest `real_pile`)."""
    db = tmp_path_factory.mktemp("pile") / "all.sqlite"
    shutil.copyfile(real_pile, db)
    return db


def _dataslate_cp(shared) -> str:
    """The CP the dataslate gives Trophy Claim, read from the document itself."""
    text = (shared / "realdata" / "nov26" / "dataslate10_balance_dataslate_2024-06.md").read_text(encoding="utf-8")
    after = text.split("Trophy Claim", 1)[1][:300]
    return re.search(r"(\d)\s*CP", after).group(1)


def test_show_names_the_newer_erratum_it_could_not_apply(pile, shared):
    cp = _dataslate_cp(shared)
    result = CliRunner().invoke(cli, ["--db", str(pile), "show", "trophy claim"])
    assert result.exit_code == 0, result.output
    assert "9th edition" in result.output
    line = " ".join(result.output.split("Newer erratum, not applied:", 1)[1].split())
    assert "Balance Dataslate" in line and "10th edition" in line and f"{cp}CP" in line
    assert "no 10th edition printing of it in your documents" in line


def test_show_json_carries_the_newer_erratum(pile, shared):
    result = CliRunner().invoke(cli, ["--db", str(pile), "show", "trophy claim", "--json"])
    assert result.exit_code == 0, result.output
    newer = json.loads(result.output)["newer_errata_not_applied"]
    assert [e["edition"] for e in newer] == [10]
    assert f"{_dataslate_cp(shared)}CP" in newer[0]["text"]
