"""`list check` opens with one summary line, folds repeated per-unit notes, prices each unit by the
newest dated points source of the list's edition (whatever its kind) and says which, and never
uses an older edition's datasheet without saying so."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

from ruleslawyer.ingest.sources.armylists import load_list
from ruleslawyer.library.armylist import check_list
from ruleslawyer.records import Datasheet, Points, Profile, Source, UnitCost

FIXTURES = Path(__file__).parent / "fixtures" / "armylists"

LIST = """Test list ({total} Points)

Testers
Incursion (1,000 Points)

OTHER DATASHEETS

{units}
Exported with App Version: v2.6.0 (1), Data Version: v950
"""


def unit(name: str, pts: int, models: int = 10) -> str:
    return f"{name} ({pts} Points)\n  • {models}x Test Boy\n     ◦ {models}x Big axe\n\n"


def sheet(name, edition=11, points=None, date=None, file="sheets.json", faction="Testers"):
    return Datasheet(name=name, source=Source(file=file, date=date), edition=edition, faction=faction,
                     points=tuple(UnitCost("10", p) for p in points) if points else None,
                     profiles=(Profile("Test Boy", {"M": '6"', "T": "5", "Sv": "5+", "W": "1"}),),
                     keywords=("INFANTRY",))


def mfm(name, points, date="2026-07-22", version="1.1"):
    return Points(name=name, source=Source(file="testers.yaml", date=date, version=version), edition=11,
                  faction="Testers", version=version, costs=(UnitCost("10", points),))


def check(tmp_path, units: str, records, *, saved: str | None = None):
    path = tmp_path / "army.txt"
    total = sum(int(n) for n in re.findall(r"\((\d+) Points\)", units))
    path.write_text(LIST.format(total=total, units=units), encoding="utf-8")
    if saved:
        stamp = time.mktime(time.strptime(saved, "%Y-%m-%d"))
        os.utime(path, (stamp, stamp))
    return check_list(load_list(path), records)


def test_the_newest_dated_source_prices_the_unit_whatever_its_kind(tmp_path):
    records = [sheet("Test Boyz", points=[90], date="2026-09-13", file="Datasheets.csv"), mfm("Test Boyz", 80)]
    result = check(tmp_path, unit("Test Boyz", 90), records)
    price = result.prices.units[0]
    assert price.points == 90 and price.source.label == "Datasheets.csv" and price.source.date == "2026-09-13"
    assert not [p for p in result.problems if p.kind == "points current"]  # the list agrees with it
    # an undated source never beats a dated one
    records = [sheet("Test Boyz", points=[90]), mfm("Test Boyz", 80)]
    result = check(tmp_path, unit("Test Boyz", 90), records)
    assert result.prices.units[0].points == 80 and result.prices.units[0].source.label == "Points v1.1"
    assert "Points v1.1 (2026-07-22)" in result.prices.label()


def test_update_the_list_only_when_it_is_older_than_the_source(tmp_path):
    records = [sheet("Test Boyz"), mfm("Test Boyz", 80)]
    old = check(tmp_path, unit("Test Boyz", 70), records, saved="2026-07-01")
    note = next(p for p in old.problems if p.kind == "points current" and "cost differently" in p.message)
    assert "update the list" in note.suggestion and "2026-07-01" in note.suggestion
    new = check(tmp_path, unit("Test Boyz", 70), records, saved="2026-10-01")
    note = next(p for p in new.problems if p.kind == "points current" and "cost differently" in p.message)
    assert "update the list" not in note.suggestion and "Points v1.1 (2026-07-22)" in note.suggestion


def test_an_older_editions_datasheet_is_said_and_never_priced_by_its_own_points(tmp_path):
    records = [sheet("Test Boyz", points=[80]), mfm("Test Boyz", 80),
               sheet("Test Runtherd", edition=9, points=[25])]
    result = check(tmp_path, unit("Test Boyz", 80) + unit("Test Runtherd", 25, 1), records)
    runtherd = result.units[1]
    assert runtherd.datasheet.edition == 9
    summary = result.summary()
    assert "1 unit on 9th edition datasheets (Test Runtherd)" in summary
    price = result.prices.units[1]
    assert price.points is None and "9th edition" in price.why
    assert not [p for p in result.problems if p.kind == "points version"]


def test_the_nearest_newer_edition_when_the_lists_is_missing(tmp_path):
    records = [sheet("Test Boyz", edition=e, points=[80]) for e in (9, 11, 12)]
    units = unit("Test Boyz", 80)
    path = tmp_path / "ten.txt"
    path.write_text(LIST.format(total=80, units=units).replace("v2.6.0", "v1.45.0"), encoding="utf-8")
    result = check_list(load_list(path), records)
    assert result.edition == 10 and result.units[0].datasheet.edition == 11


def test_summary_first_and_repeated_notes_folded(tmp_path):
    records = [sheet(f"Test Unit {i}", edition=10) for i in range(6)]
    result = check(tmp_path, "".join(unit(f"Test Unit {i}", 80) for i in range(6)) + unit("Nobody", 10), records)
    mixed = [p for p in result.problems if p.kind == "mixed editions"]
    assert len(mixed) == 6
    lines = result.problem_lines()
    folded = [p for p in lines if p.kind == "mixed editions"]
    assert len(folded) == 1 and folded[0].message.startswith("6 units use 10th edition datasheets")
    assert all(f"Test Unit {i}" in folded[0].message for i in range(6))
    assert result.summary().startswith("6 of 7 units resolved \u00b7 ")
    assert "11th edition" in result.summary() and "6 units on 10th edition datasheets" in result.summary()
    assert result.to_json()["summary"] == result.summary()


def test_cli_opens_with_the_summary_and_a_resolved_list_has_few_problem_lines(e11_orks_store, monkeypatch):
    from click.testing import CliRunner

    from ruleslawyer.cli.main import cli

    monkeypatch.setenv("RULESLAWYER_DB", str(e11_orks_store))
    out = CliRunner().invoke(cli, ["list", "check", str(FIXTURES / "e11_orks_app_old_points.txt")])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert re.fullmatch(r"8 of 8 units resolved · [\d,]+ pts \(list 980\) · 11th edition", lines[0])
    problems = lines[lines.index(next(ln for ln in lines if ln.endswith("problem(s):"))) + 1:]
    assert 0 < len(problems) <= 5
    assert any(ln.startswith("Priced by Points v1.1 (") for ln in lines)


def test_a_wargear_problem_repeated_over_units_and_lines_is_one_line(tmp_path):
    records = [sheet("Test Boyz"), sheet("Test Nobz")]
    units = "".join(unit(n, 80).replace("Big axe", "Shiny gun") for n in ("Test Boyz", "Test Boyz", "Test Nobz"))
    result = check(tmp_path, units, records)
    raw = [p for p in result.problems if p.kind == "unknown wargear"]
    assert len(raw) == 3 and all(p.item == "Shiny gun" for p in raw)
    folded = [p for p in result.problem_lines() if p.kind == "unknown wargear"]
    assert len(folded) == 1
    message = folded[0].message
    assert "'Shiny gun'" in message and "Test Boyz (lines" in message and "Test Nobz (line " in message
    assert all(str(p.line) in message for p in raw)
