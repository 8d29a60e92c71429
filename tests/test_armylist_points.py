"""An army list priced at the current points of its own edition (the newest Munitorum Field Manual
version), beside the points it prints: unit size, requisition tier, wargear, enhancement, and the
total against the list's limit. Made-up records check the rules; the real 11th edition files (MFM
YAML, BSData Orks, a New Recruit WTC export) check them on real data, expected values read from the
YAML itself with PyYAML.
"""
from __future__ import annotations

import re
from pathlib import Path


from ruleslawyer.records import Datasheet, Enhancement, ItemCost, Points, Profile, Source, UnitCost

FIXTURES = Path(__file__).parent / "fixtures" / "armylists"

LIST = """Test list ({total} Points)

Testers
Test Host (2 Detachment Points)
Purge the Foe
Incursion (1,000 Points)

CHARACTERS

Test Boss ({boss} Points)
  • Warlord
  • 1x Big axe
  • Enhancements: Shiny Hat

OTHER DATASHEETS

{units}
Exported with App Version: v2.6.0 (1), Data Version: v950
"""


def _unit(pts: int, models: int = 10, extra: str = "") -> str:
    return (f"Test Boyz ({pts} Points)\n  • 1x Boss Test\n     ◦ 1x Big axe\n"
            f"  • {models - 1}x Test Boy\n     ◦ {models - 1}x Big axe\n{extra}\n")


def _sheet(name, edition=11):
    return Datasheet(name=name, source=Source(file="sheets.json"), edition=edition, faction="Testers",
                     points=(UnitCost("1" if name == "Test Boss" else "10", 50),),
                     profiles=(Profile("Boy", {"M": '6"', "T": "5", "Sv": "5+", "W": "1"}),),
                     keywords=("INFANTRY",))


def _pts(name, version, costs=(), wargear=(), kind="datasheet", dp=None, edition=11):
    return Points(name=name, source=Source(file="testers.yaml", version=version), edition=edition,
                  faction="Testers", version=version, target_kind=kind, costs=tuple(costs),
                  wargear_costs=tuple(wargear), detachment_points=dp)


def _records(*extra):
    hat = Enhancement(name="Shiny Hat", source=Source(file="sheets.json"), edition=11, faction="Testers",
                      points=20, group="Test Host", text="Shiny.")
    return [_sheet("Test Boss"), _sheet("Test Boyz"), hat,
            _pts("Test Boss", "1.0", [UnitCost("1", 60)]),
            _pts("Test Boss", "1.1", [UnitCost("1", 70)]),
            _pts("Test Boyz", "1.1", [UnitCost("10", 80, "1st-2nd"), UnitCost("20", 150, "1st-2nd"),
                                      UnitCost("10", 90, "3rd+"), UnitCost("20", 170, "3rd+")],
                 [ItemCost("Kustom thing", 5)]),
            _pts("Test Host", "1.1", wargear=[ItemCost("Shiny Hat", 30)], kind="detachment", dp=2),
            *extra]


def _check(tmp_path, text, records):
    from ruleslawyer.ingest.sources.armylists import load_list
    from ruleslawyer.library.armylist import check_list

    path = tmp_path / "army.txt"
    path.write_text(text, encoding="utf-8")
    return check_list(load_list(path), records)


def test_tier_and_size_rules():
    from ruleslawyer.library.armylist_points import size_cost, tier_range

    assert tier_range("1st-2nd") == (1, 2) and tier_range("3rd+") == (3, None) and tier_range("2nd") == (2, 2)
    costs = [UnitCost("5", 75, "1st-2nd"), UnitCost("10", 150, "1st-2nd"),
             UnitCost("5", 85, "3rd+"), UnitCost("10", 160, "3rd+")]
    assert size_cost(costs, 5, 1).points == 75 and size_cost(costs, 10, 3).points == 160
    assert size_cost(costs, 7, 2).points == 150  # between the limits: pays the upper size
    assert size_cost(costs, 12, 1) is None and size_cost(costs, 3, 1) is None
    assert size_cost([UnitCost("1", 40)], None, 1).points == 40


def test_list_is_priced_at_the_newest_points_of_its_edition(tmp_path):
    """Boss: v1.1 70 (not v1.0's 60) + Shiny Hat 30 (its detachment's entry, not the record's 20);
    Boyz: 1st and 2nd copies 80, the 3rd 90, one with a priced item (+5 each)."""
    units = _unit(80) + _unit(80) + _unit(85, extra="  • 1x Kustom thing")
    check = _check(tmp_path, LIST.format(total=245 + 80, boss=80, units=units), _records())
    prices = [p.points for p in check.prices.units]
    assert prices == [70 + 30, 80, 80, 90 + 5]
    assert check.prices.units[0].enhancement == 30
    assert check.points_current == sum(prices)
    assert check.prices.detachment_points == 2
    data = check.to_json()
    assert data["points_current"] == sum(prices) and data["points_current_versions"] == ["1.1"]
    assert data["units"][3]["points_current"]["tier"] == "3rd+"
    kinds = {p.kind for p in check.problems}
    assert "points current" in kinds and "over the limit" not in kinds
    current = [p.message for p in check.problems if p.kind == "points current"]
    assert any("Test Boyz 85 -> 95" in m for m in current)


def test_list_now_over_its_limit_is_a_problem(tmp_path):
    units = "".join(_unit(140, 20) for _ in range(6))  # printed 6 x 140 + 80 = 920 <= 1000
    check = _check(tmp_path, LIST.format(total=920, boss=80, units=units), _records())
    assert check.points_current == 100 + 2 * 150 + 4 * 170
    over = [p for p in check.problems if p.kind == "over the limit"]
    assert len(over) == 1 and f"{check.points_current - 1000} point(s) over its limit of 1000" in over[0].message


def test_only_points_of_the_lists_edition(tmp_path):
    """A 10th edition points list never prices an 11th edition list; with none of its edition the
    list keeps its own points and no current total is claimed."""
    from dataclasses import replace

    # no source of the 11th edition prices anything: the datasheets print no points here
    records = [replace(r, points=None) if isinstance(r, Datasheet) else r
               for r in _records() if not isinstance(r, Points)]
    records.append(_pts("Test Boyz", "9.9", [UnitCost("10", 10)], edition=10))
    check = _check(tmp_path, LIST.format(total=160, boss=80, units=_unit(80)), records)
    assert check.edition == 11
    assert check.points_current is None and all(p.points is None for p in check.prices.units)
    assert not [p for p in check.problems if p.kind in ("points current", "over the limit")]


def test_an_unpriced_enhancement_leaves_its_unit_unpriced(tmp_path):
    """Without its enhancement's current cost the unit would look cheaper: it keeps its printed points.
    The enhancement's own record of the list's edition is a source of its cost too."""
    from dataclasses import replace

    records = [r for r in _records() if not (isinstance(r, Points) and r.target_kind == "detachment")]
    check = _check(tmp_path, LIST.format(total=160, boss=80, units=_unit(80)), records)
    hat = next(r for r in records if isinstance(r, Enhancement))
    assert check.prices.units[0].enhancement == hat.points
    records = [replace(r, points=None) if isinstance(r, Enhancement) else r for r in records]
    check = _check(tmp_path, LIST.format(total=160, boss=80, units=_unit(80)), records)
    boss = check.prices.units[0]
    assert boss.points is None and "Shiny Hat" in boss.why
    assert check.points_current == 80 + 80


def test_list_cards_give_the_current_enhancement_points(tmp_path):
    from ruleslawyer.ingest.sources.armylists import load_list
    from ruleslawyer.library.armylist import check_list
    from ruleslawyer.library.armylist_cards import enhancement_card, unit_card_record
    from ruleslawyer.library.armylist_points import enhancement_points_now

    records = _records()
    path = tmp_path / "army.txt"
    path.write_text(LIST.format(total=160, boss=80, units=_unit(80)), encoding="utf-8")
    check = check_list(load_list(path), records)
    card = unit_card_record(check.units[0], check.prices.units[0])
    assert any(a.name == "Enhancement: Shiny Hat (30 pts)" for a in card.abilities)
    now = next(a.text for a in card.abilities if a.name == "Points now")
    assert now == "100 pts by Points v1.1 (undated) (the list says 80)"  # 70 (v1.1) + 30 for the hat
    same = unit_card_record(check.units[1], check.prices.units[1])  # 80 printed, 80 now: nothing to say
    assert not any(a.name == "Points now" for a in same.abilities)
    hat = check.detachments[0].enhancements[0]
    now = enhancement_points_now(records, hat.name, hat.group, hat.faction, 11)
    assert now == 30 and enhancement_card(hat, now).category == "Enhancement, 30 pts"
    assert enhancement_points_now(records, hat.name, hat.group, hat.faction, 10) is None


# ------------------------------------------------------------------ real 11th edition data
def _yaml(shared, faction_file):
    import yaml

    return yaml.safe_load((shared / "realdata" / "e11" / "mfm" / faction_file).read_text(encoding="utf-8"))


def _cost(data, unit, models, copy=1):
    """A unit's cost in the YAML for a size and the copy's "[lo,hi]" range, read here by hand."""
    entry = next(u for u in data["units"] if u["name"].casefold() == unit.casefold())
    for price in entry["pricing"]:
        lo, hi = re.match(r"\[(\d+),(\d*)\)?\]?", price["range"]).groups()
        if int(lo) <= copy and (not hi or copy <= int(hi)):
            return next(c["points"] for c in price["costs"] if c["models"] == models)
    raise AssertionError(f"{unit}: no price")


def _enhancement(data, detachment, name):
    det = next(d for d in data["detachments"] if d["name"].casefold() == detachment.casefold())
    return next(e["points"] for e in det["enhancements"] if e["name"] == name)


def test_real_orks_list_at_the_current_points(e11_orks_store, shared):
    """A list of real Orks datasheets printed at older points: the check reprices it by MFM v1.1
    (the 4th and 5th Boyz pay the 4th+ tier) and finds it over its 1,000 points."""
    from ruleslawyer.library.armylist import check_list_file
    from ruleslawyer.store import Store

    orks = _yaml(shared, "orks.yaml")
    with Store(e11_orks_store) as store:
        check = check_list_file(store, FIXTURES / "e11_orks_app_old_points.txt")
    assert check.edition == 11 and check.factions == ["Orks"] and all(u.resolved for u in check.units)
    boss = _cost(orks, "Warboss", 1) + _enhancement(orks, "Bully Boyz", "Da Biggest Boss")
    boyz = [_cost(orks, "Boyz", 20, n) for n in (1, 2, 3, 4)] + [_cost(orks, "Boyz", 10, 5)]
    wagon = _cost(orks, "Battlewagon", 1) + next(w["points"] for u in orks["units"] if u["name"] == "Battlewagon"
                                                 for w in u["wargear"] if w["item"].casefold() == "ard case")
    grots = _cost(orks, "Gretchin", 10)
    expected = [boss, *boyz, wagon, grots]
    assert [p.points for p in check.prices.units] == expected
    assert check.points_total == 980 and check.points_current == sum(expected) > 1000
    assert any(p.kind == "over the limit" for p in check.problems)


def test_real_wtc_list_enhancements_at_the_current_points(e11_orks_store, shared):
    """The New Recruit WTC export of Adeptus Custodes: no Custodes datasheets stored, yet its units
    and enhancements are priced by the MFM by name; Allarus Custodians now cost less."""
    from ruleslawyer.library.armylist import check_list_file
    from ruleslawyer.store import Store

    custodes = _yaml(shared, "adeptus-custodes.yaml")
    with Store(e11_orks_store) as store:
        check = check_list_file(store, shared / "realdata" / "e11" / "lists" / "11e_nr_wtc_0.txt")
    assert check.factions == ["Adeptus Custodes"]
    by_name = {u.entry.name: p for u, p in zip(check.units, check.prices.units)}
    blade = by_name["Blade Champion"]
    assert blade.enhancement == _enhancement(custodes, "Lions of the Emperor", "Superior Creation")
    assert blade.points == _cost(custodes, "Blade Champion", 1) + blade.enhancement
    assert by_name["Allarus Custodians"].points == _cost(custodes, "Allarus Custodians", 6)
    assert check.prices.priced == len(check.units)
    assert check.points_current == sum(p.points for p in check.prices.units)
    assert check.points_current != check.army.points_listed


def test_cli_list_check_says_the_current_total(e11_orks_store, monkeypatch):
    from click.testing import CliRunner

    from ruleslawyer.cli.main import cli

    monkeypatch.setenv("RULESLAWYER_DB", str(e11_orks_store))
    out = CliRunner().invoke(cli, ["list", "check", str(FIXTURES / "e11_orks_app_old_points.txt")])
    assert out.exit_code == 0, out.output
    assert re.search(r"Priced by Points v1\.1 \(\d{4}-\d\d-\d\d\): \d+ points, \d+ over the limit of 1000",
                     out.output)
    assert "Boyz (150 pts, now 170)" in out.output


def test_list_sheet_gives_the_current_total_and_enhancement_costs(tmp_path):
    from ruleslawyer.library.armylist_sheet import build_sheet

    records = _records()
    check = _check(tmp_path, LIST.format(total=160, boss=80, units=_unit(80)), records)
    sheet = build_sheet(check, records)
    assert f"{check.points_current} points at the current points ({check.prices.label()})" in sheet.subtitle
    assert [(e.name, e.points) for e in sheet.enhancements] == [("Shiny Hat", 30)]


def test_detachment_points_that_changed_are_said(tmp_path):
    text = LIST.format(total=160, boss=80, units=_unit(80))  # the list says 2 Detachment Points
    same = _check(tmp_path, text, _records())
    assert same.prices.detachment_points == 2
    assert not [p for p in same.problems if "Detachment Points" in p.message]
    records = [r for r in _records() if not (isinstance(r, Points) and r.target_kind == "detachment")]
    records.append(_pts("Test Host", "1.1", wargear=[ItemCost("Shiny Hat", 30)], kind="detachment", dp=3))
    changed = _check(tmp_path, text, records)
    said = [p.message for p in changed.problems if "Detachment Points" in p.message]
    assert said == ["the list's detachments cost 3 Detachment Points at the current points (Points v1.1), "
                    "not the 2 it says"]


def test_a_faction_known_only_by_its_points_is_not_another_faction(tmp_path):
    """A store with Munitorum Field Manual data knows a faction by its points alone; a list of a
    faction sharing words with it ("Chaos Space Marines", "Space Marines") is not read as it."""
    records = _records(_pts("Intercessor Squad", "1.1", [UnitCost("5", 80)]))
    records[-1] = Points(name="Intercessor Squad", source=Source(file="sm.yaml"), edition=11,
                         faction="Space Marines", version="1.1", costs=(UnitCost("5", 80),))
    text = LIST.format(total=160, boss=80, units=_unit(80))
    assert _check(tmp_path, text.replace("\nTesters\n", "\nSpace Marines\n"), records).factions == ["Space Marines"]
    chaos = _check(tmp_path, text.replace("\nTesters\n", "\nChaos Space Marines\n"), records)
    assert "Space Marines" not in chaos.factions
    assert any(p.kind == "unknown faction" and "Chaos Space Marines" in p.message for p in chaos.problems)
