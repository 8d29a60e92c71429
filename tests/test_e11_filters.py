"""11th edition filters and the Wahapedia 11th edition sample: `stratagems --edition` (an edition
the store lacks is an error with suggestions, as an unknown faction is), and datasheet abilities
whose id the sample's Abilities.csv lacks are left out with a warning, never a nameless ability.
"""
from __future__ import annotations

import csv
import json

from ruleslawyer.cli.main import cli
from tests.conftest import seed_path


def test_stratagems_filter_by_edition(runner, shared):
    sample = shared / "realdata" / "e11" / "csv" / "ListBrewer_Data_sample_repaired"
    core11 = shared / "realdata" / "GregSQT__40k" / "15_Stratagems.pdf"  # the 11th core stratagems chapter
    assert runner.invoke(cli, ["ingest", str(sample), str(seed_path(shared, "001", ".txt")), str(core11)]).exit_code == 0
    every = runner.invoke(cli, ["stratagems", "--json", "--every-edition"])
    rows = [json.loads(line) for line in every.output.splitlines()]
    assert {10, 11} <= {r["edition"] for r in rows}  # seed 001 (10th) and the core chapter (11th)
    # the sample export's core stratagems carry 10th edition categories and no rule number: 10th
    # edition cards, not 11th edition ones
    sample_core = [r for r in rows if r["source"]["file"] == "Stratagems.csv" and not r["faction"]]
    assert sample_core and all(r["edition"] == 10 and r["category"] for r in sample_core)
    for edition in (10, 11):
        result = runner.invoke(cli, ["stratagems", "--edition", str(edition), "--json"])
        assert result.exit_code == 0, result.output
        got = [json.loads(line) for line in result.output.splitlines()]
        assert got and {g["edition"] for g in got} == {edition}
    table = runner.invoke(cli, ["stratagems", "--edition", "11"])
    assert table.exit_code == 0 and table.output.splitlines()[-1].endswith("stratagems")
    missing = runner.invoke(cli, ["stratagems", "--edition", "12"])
    assert missing.exit_code == 1 and "edition 12" in missing.output and "11" in missing.output
    typo = runner.invoke(cli, ["stratagems", "--faction", "orcs", "--edition", "11"])
    assert typo.exit_code == 1 and "Orks" in typo.output


def test_sample_abilities_missing_from_abilities_csv_are_warned_not_nameless(shared):
    """Each Datasheets_abilities.csv row that names no ability and whose id Abilities.csv lacks
    is one warning; no datasheet gets a blank or parameter-only ability ('', ' D3')."""
    from ruleslawyer.ingest.sources.wahapedia import detect

    folder = shared / "realdata" / "e11" / "csv" / "ListBrewer_Data_sample_repaired"

    def rows(name):
        with open(folder / name, encoding="utf-8-sig", newline="") as fh:
            return list(csv.DictReader(fh, delimiter="|"))

    known = {r["id"] for r in rows("Abilities.csv")}
    lost = [r for r in rows("Datasheets_abilities.csv") if not r["name"].strip() and r["ability_id"] not in known]
    assert lost  # the sample has such rows (e.g. the Warboss's and the Trukk's)
    source = detect(folder)
    sheets = [r for r in source.records() if r.kind == "datasheet"]
    assert sheets
    for d in sheets:
        for a in d.abilities:
            assert a.name.strip() and a.name == a.name.lstrip(), (d.name, a.name)
    warned = [w for w in source.warnings if "is not in Abilities.csv" in w]
    assert len(warned) == len(lost)
    assert all(any(r["ability_id"] in w for w in warned) for r in lost)


def test_points_and_conflicts_filters_check_their_faction_and_edition(runner, shared):
    """`points --edition`, and an unknown faction of `points` or `conflicts` is an error naming the
    close factions (exit 1), not an empty answer."""
    assert runner.invoke(cli, ["ingest", str(shared / "realdata" / "e11" / "mfm")]).exit_code == 0
    found = runner.invoke(cli, ["points", "--edition", "11", "--faction", "orks", "--json"])
    assert found.exit_code == 0 and found.output
    assert {json.loads(line)["edition"] for line in found.output.splitlines()} == {11}
    missing = runner.invoke(cli, ["points", "--edition", "10"])
    assert missing.exit_code == 1 and "edition 10" in missing.output and "11" in missing.output
    for command in (["points", "--faction", "orcs"], ["conflicts", "--faction", "orcs"]):
        typo = runner.invoke(cli, command)
        assert typo.exit_code == 1 and "Orks" in typo.output, command
