"""`ruleslawyer show` on datasheets, through the CLI, against a store holding seeds 000 and 001.

The store is filled once per session with the real pipeline (every family parser), so these
tests see what a user sees after `ruleslawyer ingest`.
"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli

from .conftest import seed_path


@pytest.fixture(scope="session")
def seeded_db(shared, tmp_path_factory):
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    db = tmp_path_factory.mktemp("show") / "seeded.sqlite"
    with Store(db) as store:
        ingest_paths(store, [seed_path(shared, "000"), seed_path(shared, "001")])
    return db


@pytest.fixture
def show(seeded_db, monkeypatch):
    monkeypatch.setenv("RULESLAWYER_DB", str(seeded_db))
    monkeypatch.setenv("COLUMNS", "100")
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, ["show", *args])


def test_show_skorpekh_lord_prints_the_card(show):
    result = show("skorpekh lord")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("SKORPEKH LORD") and "Power 7" in lines[0] and "Necrons" in lines[0]
    profile = next(line for line in lines if line.startswith("1 "))
    assert profile.split() == ["1", "Skorpekh", "Lord", '8"', "2+", "2+", "6", "6", "6", "4", "10", "3+"]
    assert "Invulnerable save: 4+" in lines
    assert any(line.startswith("Enmitic annihilator") and "Assault 2D3" in line for line in lines)
    assert any(line.startswith("• Phase Shifter: 4+ invulnerable save.") for line in lines)
    assert "Keywords: INFANTRY, CHARACTER, SKORPEKH LORD" in lines
    assert all(len(line) <= 100 for line in lines)


def test_show_chronomancer_prints_the_tenth_edition_card(show):
    result = show("chronomancer")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("CHRONOMANCER") and "1 model: 65 pts" in lines[0]
    assert ["Chronomancer", '5"', "4", "4+", "4", "6+", "1"] in [line.split() for line in lines]
    weapons = [line.split() for line in lines if line.startswith("Aeonstave")]
    assert weapons == [["Aeonstave", '18"', "D6", "4+", "5", "-1", "1", "blast"],
                       ["Aeonstave", "Melee", "3", "4+", "5", "-1", "1", "-"]]
    assert "LEADER" in lines and "Faction keywords: NECRONS" in lines


def test_show_tolerates_a_typo(show):
    result = show("skorpek lord")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("SKORPEKH LORD")


def test_show_unknown_name_exits_1_with_suggestions(show):
    result = show("skorpekh lordd", "of", "nothing")
    assert result.exit_code == 1
    assert result.output.startswith("Error: no record named")
    result = show("plasmanser")
    assert result.exit_code == 0 and result.output.startswith("PLASMANCER")
    result = show("cryptothral squadron")
    assert result.exit_code == 1 and "did you mean: Cryptothralls" in result.output


def test_show_json_prints_the_record(show):
    result = show("necron warriors", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["kind"] == "datasheet" and data["power"] == 5
    assert data["profiles"][0]["models"] == "10-20"
    assert data["wargear_options"] == ["Any model can be equipped with 1 gauss reaper instead of 1 gauss flayer."]


def test_show_narrow_terminal_keeps_lines_inside_the_width(seeded_db, monkeypatch):
    monkeypatch.setenv("RULESLAWYER_DB", str(seeded_db))
    monkeypatch.setenv("COLUMNS", "60")
    result = CliRunner().invoke(cli, ["show", "assault intercessor squad"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(len(line) <= 60 for line in lines), [line for line in lines if len(line) > 60]
    assert any(line.startswith("Plasma pistol - Supercharge") for line in lines)


def test_show_prefix_matching_two_datasheets_lists_them(show):
    result = show("skorpekh")
    assert result.exit_code == 1
    assert "2 records match 'skorpekh'" in result.output
    assert "Skorpekh Lord (datasheet, Necrons, 9th ed.)" in result.output
    assert "Skorpekh Destroyers (datasheet, Necrons, 9th ed.)" in result.output


def test_show_edition_filter(show):
    assert show("chronomancer", "--edition", "10").exit_code == 0
    assert show("chronomancer", "--edition", "9").exit_code == 1


def test_show_prints_the_number_of_an_11th_edition_rule_and_stratagem():
    """11th edition rules and core stratagems are numbered ("24.12"): `show` prints the number."""
    from ruleslawyer.records import Rule, Source, Stratagem
    from ruleslawyer.termview import format_record

    rule = Rule("Feel No Pain", Source("core.pdf"), edition=11, number="24.12", text="Roll one D6.")
    assert format_record(rule, 80).splitlines()[0] == "24.12 Feel No Pain"
    strat = Stratagem("Command Re-roll", Source("core.pdf"), edition=11, cp=1, number="15.02", effect="Re-roll.")
    assert format_record(strat, 80).splitlines()[0].startswith("15.02 COMMAND RE-ROLL")
    unnumbered = Rule("Feel No Pain", Source("core.pdf"), edition=10, text="Roll one D6.")
    assert format_record(unnumbered, 80).splitlines()[0] == "Feel No Pain"


def test_show_prices_a_detachment_rule_and_enhancement_by_their_detachment():
    """The points list prices a detachment (its Detachment Points and enhancements): `show` of one
    of its rules or enhancements gives that entry, of the newest version and the same edition."""
    from ruleslawyer.library.corpus import Corpus
    from ruleslawyer.library.pick import pick_record
    from ruleslawyer.records import DetachmentRule, Enhancement, ItemCost, Points, Source
    from ruleslawyer.termview import format_printings

    def host(version, dp, cost):
        return Points("Test Host", Source("testers.yaml"), edition=11, faction="Testers", version=version,
                      target_kind="detachment", detachment_points=dp, wargear_costs=(ItemCost("Test Relic", cost),))

    rule = DetachmentRule("Test Doctrine", Source("c.json"), edition=11, faction="Testers", group="Test Host", text="Go.")
    relic = Enhancement("Test Relic", Source("c.json"), edition=11, faction="Testers", group="Test Host", points=15)
    old_rule = DetachmentRule("Old Doctrine", Source("c.json"), edition=10, faction="Testers", group="Test Host")
    records = [rule, relic, old_rule, host("1.1", 3, 20), host("1.0", 2, 15)]
    corpus = Corpus(records=records, originals=list(records))
    for name in ("Test Doctrine", "Test Relic"):
        picked = pick_record(corpus, name)
        assert (picked.points.version, picked.points.detachment_points) == ("1.1", 3)
        line = format_printings(None, [], picked.record, picked.points)[0]
        assert line == "Current points (testers.yaml v1.1): Test Host: 3 DP; enhancements Test Relic 20 pts"
    assert pick_record(corpus, "Old Doctrine").points is None  # a 10th edition detachment


def test_show_gives_detachment_points_force_disposition_and_upgrade():
    from ruleslawyer.records import DetachmentRule, Enhancement, Source
    from ruleslawyer.termview import format_record

    rule = DetachmentRule("Test Doctrine", Source("c.csv"), edition=11, faction="Testers", group="Test Host",
                          text="Go.", detachment_points=2, force_disposition="Purge the Foe")
    assert format_record(rule, 80).splitlines()[1] == ("Test Host Detachment rule – Testers – 2 Detachment Points – "
                                                       "Force Disposition: Purge the Foe")
    relic = Enhancement("Test Relic", Source("c.csv"), edition=11, faction="Testers", group="Test Host", upgrade=True)
    assert format_record(relic, 80).splitlines()[1] == "Test Host Detachment – Testers – upgrade"
    tenth = Enhancement("Old Relic", Source("c.csv"), edition=10, faction="Testers", group="Test Host")
    assert format_record(tenth, 80).splitlines()[1] == "Test Host Detachment – Testers"


def test_show_header_keeps_the_tiers_of_a_datasheets_points():
    """Without the tier, "1 model: 125 pts, 1 model: 140 pts" reads as two prices for one size."""
    from ruleslawyer.records import Datasheet, Source, UnitCost
    from ruleslawyer.termview import format_record

    d = Datasheet("Warboss In Mega Armour", Source("d.csv"), edition=11, faction="Orks",
                  points=(UnitCost("1", 125, "1st-2nd"), UnitCost("1", 140, "3rd+")))
    head = " ".join(format_record(d, 120).splitlines()[:2])
    assert "1st-2nd: 1 model 125 pts; 3rd+: 1 model 140 pts" in head
