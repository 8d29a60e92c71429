"""Army lists against a real store (the 10th edition Wahapedia export, ingested once per session):
resolution, problems per line, points, the sheet, `cards --list`, `site build --list`, the CLI."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from ruleslawyer.ingest.sources.armylists import load_list
from ruleslawyer.library.armylist import check_list
from ruleslawyer.library.armylist_sheet import build_sheet
from ruleslawyer.names import fold

FIXTURES = Path(__file__).parent / "fixtures" / "armylists"


@pytest.fixture(scope="session")
def wahapedia_db(shared, tmp_path_factory) -> Path:
    """A store holding the 10th edition Wahapedia export (about 30 s, once per session)."""
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    db = tmp_path_factory.mktemp("lists") / "wahapedia.sqlite"
    with Store(db) as store:
        ingest_paths(store, [shared / "realdata" / "wahadumper__wahadumper"])
    return db


@pytest.fixture(scope="session")
def records(wahapedia_db):
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.store import Store

    with Store(wahapedia_db) as store:
        return load_corpus(store).records


@pytest.fixture(scope="session")
def exports(shared):
    return sorted((shared / "realdata" / "e11" / "lists").rglob("*.txt"))


def test_tenth_edition_exports_resolve(exports, records):
    late = [p for p in exports if p.parent.name == "late10e"]
    assert late
    total = resolved = 0
    for path in late:
        result = check_list(load_list(path), records)
        assert result.edition == 10 and result.factions, path.name
        total += len(result.units)
        resolved += sum(u.resolved for u in result.units)
        for u in result.units:
            if u.resolved:  # each resolved unit is its datasheet (names differ at most in case/plural)
                assert fold(u.datasheet.name).rstrip("s") == fold(u.entry.name).rstrip("s") or u.match == "close"
        assert [d for d in result.detachments if d.found] or not result.army.detachments, path.name
    assert resolved / total >= 0.95


def test_eleventh_edition_exports_are_read_against_tenth_edition_data(exports, records):
    eleven = [p for p in exports if p.name.startswith("11e")]
    total = resolved = 0
    for path in eleven:
        result = check_list(load_list(path), records)
        assert result.edition == 11
        total += len(result.units)
        resolved += sum(u.resolved for u in result.units)
        for u in result.units:
            kinds = {p.kind for p in result.problems if p.unit == u.entry.name}
            assert ("mixed editions" in kinds) if u.resolved else ("unknown unit" in kinds), u.entry.name
    # new 11th edition units (The Twin Lance, Kravek Morne) have no 10th edition datasheet
    assert resolved / total >= 0.9


def test_wargear_resolves_to_weapon_profiles(exports, records):
    path = next(p for p in exports if p.name == "10e_official_app_example2.txt")
    result = check_list(load_list(path), records)
    coldstar = next(u for u in result.units if u.entry.name == "Commander in Coldstar Battlesuit" and u.entry.enhancement)
    assert coldstar.enhancement is not None and coldstar.enhancement.name == "Internal Grenade Racks"
    assert {w.name for w in coldstar.chosen_weapons()} == {"Battlesuit fists", "Fusion blaster"}
    shadowsun = next(u for u in result.units if u.entry.name == "Commander Shadowsun")
    kinds = {it.item.name: it.kind for it in shadowsun.items}
    assert kinds["Flechette launcher"] == "weapon" and kinds["Advanced Guardian Drone"] == "ability"
    det = result.detachments[0]
    assert det.name == "Retaliation Cadre" and det.rules and det.stratagems and det.enhancements


def test_partly_wrong_list_gets_a_message_per_line(records):
    result = check_list(load_list(FIXTURES / "mixed_up.txt"), records)
    by_kind = {}
    for p in result.problems:
        by_kind.setdefault(p.kind, []).append(p)
    unknown = by_kind["unknown unit"][0]
    assert unknown.line == 14 and "Commander Gloriosus the Unknown" in unknown.message and unknown.suggestion
    wrong = by_kind["wrong faction"][0]
    assert wrong.line == 19 and "Necrons" in wrong.message
    gear = by_kind["unknown wargear"][0]
    assert gear.line == 28 and "Plasma trumpet" in gear.message
    points = by_kind["points"][0]
    assert "1000" in points.message
    # the rest is still there
    assert [u.entry.name for u in result.units if u.resolved] == ["Commander Farsight", "Necron Warriors",
                                                                   "Stealth Battlesuits"]


def test_lost_indentation_still_resolves_wargear(exports, records):
    path = next(p for p in exports if p.name == "11e_app_official_9.txt")
    result = check_list(load_list(path), records)
    assert any(p.kind == "indentation lost" and p.line for p in result.problems)
    reapers = next(u for u in result.units if u.entry.name == "Dark Reapers")
    assert {it.item.name for it in reapers.items if it.kind == "weapon"} >= {"Reaper launcher", "Missile launcher"}


def test_roster_fixture_resolves(records):
    result = check_list(load_list(FIXTURES / "tau_patrol.rosz"), records)
    assert [u.resolved for u in result.units] == [True, True, True, False]
    assert result.units[0].enhancement.name == "Internal Grenade Racks"
    assert result.points_total == result.army.points_listed == 405
    assert any(p.kind == "unknown unit" and "Sky Ray" in (p.suggestion or "") for p in result.problems)


def test_sheet_has_rules_once_and_reminders_by_phase(exports, records):
    path = next(p for p in exports if p.name == "10e_official_app_example1.txt")
    result = check_list(load_list(path), records)
    sheet = build_sheet(result, records)
    assert [r.name for r in sheet.army_rules] == ["Oath of Moment"]
    assert sheet.detachment_rules and sheet.stratagems and sheet.enhancements
    assert {"Portents of Wisdom", "Fury of the Storm"} <= sheet.chosen_enhancements
    names = [fold(r.name) for r in sheet.rules]
    assert len(names) == len(set(names))
    assert {"deep strike", "leader", "pistol"} <= set(names) or {"leader", "pistol"} <= set(names)
    assert sheet.reminders["command"] and sheet.reminders["fight"]
    strat_rows = [r for rows in sheet.reminders.values() for r in rows if r.who.startswith("Stratagem")]
    assert len(strat_rows) == len(sheet.stratagems)


def test_cli_check_json_and_exit_status(runner, wahapedia_db, exports, monkeypatch):
    from ruleslawyer.cli.main import cli

    monkeypatch.setenv("RULESLAWYER_DB", str(wahapedia_db))
    path = next(p for p in exports if p.name == "11e_app_official_1.txt")
    out = runner.invoke(cli, ["list", "check", str(path), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {"units", "detachments", "points_total", "points_listed", "problems"} <= set(data)
    unit = data["units"][0]
    assert {"name", "resolved", "datasheet", "edition", "points", "wargear", "enhancement"} <= set(unit)
    twin = next(u for u in data["units"] if u["name"] == "The Twin Lance")
    assert twin["resolved"] is False and twin["datasheet"] is None
    assert any(p["unit"] == "The Twin Lance" and p["suggestion"] for p in data["problems"])
    assert data["points_total"] == data["points_listed"] == 2000
    text = runner.invoke(cli, ["list", "check", str(FIXTURES / "mixed_up.txt")])
    assert text.exit_code == 0 and "line 14" in text.output
    bad = runner.invoke(cli, ["list", "check", str(FIXTURES / "phase_labels.tsv")])
    assert bad.exit_code != 0 and "Traceback" not in bad.output and "Error" in bad.output


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_cli_sheet_pdf_and_html(runner, wahapedia_db, tmp_path, monkeypatch):
    from ruleslawyer.cli.main import cli

    monkeypatch.setenv("RULESLAWYER_DB", str(wahapedia_db))
    html = tmp_path / "army.html"
    out = runner.invoke(cli, ["list", "sheet", str(FIXTURES / "tau_patrol.ros"), "--out", str(html)])
    assert out.exit_code == 0, out.output
    page = html.read_text(encoding="utf-8")
    assert "Reminders by phase" in page and "Retaliation Cadre" in page and "Tau Skyray Gunship of Dreams" in page
    pdf = tmp_path / "army.pdf"
    out = runner.invoke(cli, ["list", "sheet", str(FIXTURES / "tau_patrol.ros"), "--out", str(pdf)])
    assert out.exit_code == 0, out.output
    subprocess.run(["pdftoppm", "-png", "-r", "30", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "p")], check=True)
    assert list(tmp_path.glob("p*.png"))


def test_cli_cards_list(runner, wahapedia_db, tmp_path, monkeypatch):
    from ruleslawyer.cli.main import cli

    monkeypatch.setenv("RULESLAWYER_DB", str(wahapedia_db))
    out_file = tmp_path / "cards.html"
    out = runner.invoke(cli, ["cards", "--list", str(FIXTURES / "tau_patrol.ros"), "--out", str(out_file)])
    assert out.exit_code == 0, out.output
    page = out_file.read_text(encoding="utf-8")
    assert "Enhancement: Internal Grenade Racks" in page  # on its bearer's card
    assert "Stealth Battlesuits" in page and "Tau Skyray Gunship of Dreams" in out.output
    assert "Airbursting fragmentation projector" not in page  # only the chosen wargear
    # of the detachment's enhancements only the one the list takes gets a card; its rule gets one
    assert "Starflare Ignition System" not in page
    assert page.count("Internal Grenade Racks") >= 2
    check = check_list(load_list(FIXTURES / "tau_patrol.ros"), load_corpus_records(wahapedia_db))
    for rule in check.detachments[0].rules:
        assert rule.name in page


def load_corpus_records(db):
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.store import Store

    with Store(db) as store:
        return load_corpus(store).records


def test_site_list_page(wahapedia_db, tmp_path):
    from ruleslawyer.render.armylist import write_list_page
    from ruleslawyer.store import Store

    with Store(wahapedia_db) as store:
        page = write_list_page(store, FIXTURES / "tau_patrol.rosz", tmp_path / "site")
    assert page.exists() and "Reminders by phase" in page.read_text(encoding="utf-8")


def test_edition_is_the_lists_own_or_read_from_its_prices(exports, records):
    """With the same units in two editions, an 11th edition list takes the 11th edition datasheets (its
    markers say so); a list that says nothing takes the edition its prices match."""
    from dataclasses import replace

    from ruleslawyer.records import Datasheet, UnitCost

    newer = [replace(r, edition=11, points=tuple(UnitCost(c.models, (c.points or 0) + 1000) for c in r.points or ()))
             for r in records if isinstance(r, Datasheet) and r.faction == "T’au Empire"]
    pool = list(records) + newer
    by_name = {p.name: p for p in exports}
    eleven = check_list(load_list(by_name["11e_app_official_1.txt"]), pool)
    assert eleven.edition == 11
    assert {u.datasheet.edition for u in eleven.units if u.resolved} == {11}
    assert not [p for p in eleven.problems if p.kind == "mixed editions"]
    for name in ("10e_nr_nr1_short.txt", "10e_nr_nr1_wtc.txt"):
        silent = check_list(load_list(by_name[name]), pool)
        assert silent.edition == 10, name
        assert {u.datasheet.edition for u in silent.units if u.resolved} == {10}, name


def test_cli_site_build_with_list_on_the_shipped_corpus(runner, tmp_path):
    """`site build --list` adds the list's page; on a store without the list's faction every unit is
    listed as not found, and the page is still written."""
    from ruleslawyer.cli.main import cli

    out = runner.invoke(cli, ["site", "build", str(tmp_path / "site"), "--list", str(FIXTURES / "tau_patrol.ros")])
    assert out.exit_code == 0, out.output
    page = (tmp_path / "site" / "army-list.html").read_text(encoding="utf-8")
    assert "Stealth Battlesuits" in page and "no datasheet found" in page
    check = runner.invoke(cli, ["list", "check", str(FIXTURES / "tau_patrol.ros"), "--json"])
    assert check.exit_code == 0
    assert not any(u["resolved"] for u in json.loads(check.output)["units"])
