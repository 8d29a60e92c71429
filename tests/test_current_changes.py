"""`changes --since` lists every price change, whatever kind of source prints the newer price
(issue 27): the 11th edition Wahapedia export's datasheet costs against the Field Manual before."""
from __future__ import annotations

import re
import shutil

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli

pytestmark = [pytest.mark.realdata, pytest.mark.slow]

EXPORT = "e11/csv/ListBrewer_Data_sample_repaired"


@pytest.fixture(scope="module")
def pile(real_pile, tmp_path_factory):
    """A copy of the session's store of all of ../shared/realdata (conftest `real_pile`)."""
    db = tmp_path_factory.mktemp("pile") / "all.sqlite"
    shutil.copyfile(real_pile, db)
    return db


def _export_first_cost(shared, unit: str) -> int:
    """The first cost the export prints for `unit` (Datasheets.csv id, then Datasheets_models_cost.csv)."""
    folder = shared / "realdata" / EXPORT
    ids = [line.split("|")[0] for line in (folder / "Datasheets.csv").read_text(encoding="utf-8").splitlines()
           if line.split("|")[1:2] == [unit]]
    costs = [line.split("|")[3] for line in (folder / "Datasheets_models_cost.csv").read_text(encoding="utf-8")
             .splitlines() if line.split("|")[0] == ids[0] and line.split("|")[3].isdigit()]
    return int(costs[0])


def _mfm_first_cost(shared, unit: str) -> int:
    text = (shared / "realdata" / "e11" / "mfm" / "orks.yaml").read_text(encoding="utf-8")
    block = text.split(f"  - name: {unit}\n", 1)[1]
    return int(re.search(r"points: (\d+)", block).group(1))


def test_changes_since_lists_the_exports_new_prices(pile, shared):
    old, new = _mfm_first_cost(shared, "Trukk"), _export_first_cost(shared, "Trukk")
    assert old != new  # the two documents disagree: that is the change to report
    result = CliRunner().invoke(cli, ["--db", str(pile), "changes", "--since", "2026-08-01"])
    assert result.exit_code == 0, result.output
    assert any(re.search(rf"Trukk \(Orks\): points {old} -> {new} · ", line) for line in result.output.splitlines())
    only_points = CliRunner().invoke(cli, ["--db", str(pile), "changes", "--since", "2026-08-01", "--kind", "points"])
    assert f"points {old} -> {new}" in only_points.output
