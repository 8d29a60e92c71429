"""Army list parsers on the real exports (../shared/realdata/e11/lists) and on our own .ros/.rosz
fixtures. Parsers take text or bytes; only `load_list` opens a file."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleslawyer.errors import LoadError
from ruleslawyer.ingest.sources.armylists import load_list, parse_list

FIXTURES = Path(__file__).parent / "fixtures" / "armylists"


@pytest.fixture(scope="module")
def exports(shared):
    folder = shared / "realdata" / "e11" / "lists"
    files = sorted(folder.rglob("*.txt"))
    if not files:
        pytest.fail(f"no list exports in {folder}")
    return files


def _listed_total(text: str) -> int | None:
    """The total a list prints for itself, read independently of the parsers: the first
    "(N points)" line of an app export, "TOTAL ARMY POINTS" or the "++ Army Roster ++ [N pts]" heading."""
    m = re.search(r"TOTAL ARMY POINTS:\s*(\d+)", text) or re.search(r"Army Roster \+\+ \[(\d+) pts\]", text)
    if m:
        return int(m.group(1))
    first = text.strip().splitlines()[0]
    m = re.search(r"\(([\d,]+) points\)", first, re.IGNORECASE)
    if m and not first.lower().startswith(("strike force", "incursion", "onslaught", "combat patrol")):
        return int(m.group(1).replace(",", ""))
    return None


def test_every_real_export_reads_and_adds_up(exports):
    for path in exports:
        text = path.read_text(encoding="utf-8")
        army = parse_list(text, path.name)
        assert army.units, path.name
        total = _listed_total(text)
        if total is not None:
            assert army.points_listed == total, path.name
            assert sum(u.points or 0 for u in army.units) == total, path.name
        assert all(u.points is not None for u in army.units), path.name


def test_unit_count_matches_the_exports(exports):
    """Every unit heading of an export becomes a unit (counted with a plain pattern per format)."""
    for path in exports:
        text = path.read_text(encoding="utf-8")
        army = parse_list(text, path.name)
        app = re.findall(r"^\S[^\n•◦]*\((?:[\d,]+) points\)\s*\n\s*[•◦]", text, re.IGNORECASE | re.MULTILINE)
        nr = re.findall(r"^(?:Char\d+: )?[^\s•+#][^\n]*(?<! - )[\[(]\d+ ?pts[\])]", text, re.MULTILINE)
        expected = len(app) if "Exported with App" in text or re.search(r" points\)", text, re.I) else len(nr)
        assert len(army.units) == expected, path.name


def test_eleventh_edition_markers_and_detachments(exports):
    by_name = {p.name: p for p in exports}
    army = load_list(by_name["11e_app_official_2.txt"])
    assert army.edition == 11 and "Detachment Points" in army.edition_markers
    assert army.detachments == ["Champions of Fenris", "Legends of Saga and Song", "Veterans of the Fang"]
    assert army.detachment_points == 3 and army.force_disposition == "Disruption"
    assert army.factions == ["Space Marines", "Space Wolves"]
    leader = army.units[0]
    assert leader.attached_as == "Leader" and leader.attached_group == 1
    assert army.units[1].attached_as == "Bodyguard"
    captain = next(u for u in army.units if u.name == "Captain in Terminator Armour")
    assert captain.enhancement == "Thirst for Glory"
    assert army.warlord == "Logan Grimnar"
    old = load_list(by_name["10e_official_app_example1.txt"])
    assert old.edition == 10 and old.detachments == ["Stormlance Task Force"]
    wtc = load_list(by_name["11e_nr_wtc_0.txt"])
    assert wtc.edition == 11 and wtc.force_disposition == "Take and Hold"


def test_lost_indentation_is_reported_per_unit_and_still_read(exports):
    path = next(p for p in exports if p.name == "11e_app_official_9.txt")
    army = load_list(path)
    flagged = [n for n in army.notes if n.kind == "indentation lost"]
    # every unit with more than one item line shows the loss (a lone "• 1x The Wailing Doom" cannot)
    assert {n.line for n in flagged} == {u.line for u in army.units if len(u.wargear) + len(u.model_lines) > 1}
    assert all(n.line and f"line {n.line}" in n.message for n in flagged)
    avengers = next(u for u in army.units if u.name == "Dire Avengers")
    assert [m for m, _ in avengers.model_lines] == ["Dire Avenger Exarch", "Dire Avenger"]
    assert {w.name for w in avengers.wargear} == {"Avenger shuriken catapult", "Close combat weapon"}
    # the same list with its indentation intact reads the same models
    intact = load_list(next(p for p in exports if p.name == "11e_app_official_4.txt"))
    assert not [n for n in intact.notes if n.kind == "indentation lost"]


def test_new_recruit_formats_agree(exports):
    by_name = {p.name: p for p in exports}
    formats = [load_list(by_name[n]) for n in ("10e_nr_nr1.txt", "10e_nr_nr1_gw.txt", "10e_nr_nr1_wtc.txt",
                                               "10e_nr_nr1_short.txt")]
    names = [[u.name for u in a.units] for a in formats]
    assert names[0] == names[1] == names[2] == names[3]
    for army in formats[:3]:
        assert army.detachments == ["Experimental Prototype Cadre"]
        enhanced = {u.enhancement for u in army.units if u.enhancement}
        assert {"Fusion Blades", "Thermoneutronic Projector"} <= enhanced or army.format == "newrecruit-roster"
    wtc = formats[2]
    kroot = wtc.units[5]
    assert sum(w.count for w in kroot.wargear if w.name == "Kroot rifle") == 8


def test_roster_fixtures_ros_and_rosz_read_alike():
    ros = load_list(FIXTURES / "tau_patrol.ros")
    rosz = load_list(FIXTURES / "tau_patrol.rosz")
    assert ros.format == "battlescribe-ros" and rosz.format == "battlescribe-rosz"
    assert [u.name for u in ros.units] == [u.name for u in rosz.units]
    assert ros.detachments == ["Retaliation Cadre"] and ros.battle_size == "Incursion"
    assert ros.points_listed == 405 == sum(u.points for u in ros.units)
    commander = ros.units[0]
    assert commander.warlord and commander.enhancement == "Internal Grenade Racks"
    assert commander.points == 115  # its own cost plus the enhancement nested in it
    stealth = ros.units[1]
    assert stealth.models == 3 and stealth.points == 60
    assert {(w.name, w.count, w.model) for w in stealth.wargear} >= {("Fusion blaster", 2, "Stealth Shas'ui")}


def test_parsers_take_text_or_bytes_and_refuse_non_lists():
    text = (FIXTURES / "mixed_up.txt").read_text(encoding="utf-8")
    assert [u.name for u in parse_list(text).units] == [u.name for u in parse_list(text.encode()).units]
    with pytest.raises(LoadError):
        parse_list("just some words\nnothing like a list\n")
    with pytest.raises(LoadError):
        parse_list(b"PK\x03\x04 broken zip")
    with pytest.raises(LoadError):
        load_list(FIXTURES / "no_such_list.txt")


def test_battlescribe_text_export():
    army = load_list(FIXTURES / "battlescribe_text.txt")
    assert army.format == "newrecruit-roster"
    assert army.factions == ["Xenos - Necrons"] and army.detachments == ["Awakened Dynasty"]
    assert army.battle_size == "Strike Force" and army.points_listed == 295
    assert [u.section for u in army.units] == ["Epic Hero", "Battleline", "Character"]
    assert army.units[0].warlord and army.units[2].enhancement == "Enaegic Dermal Bond"
    warriors = army.units[1]
    assert warriors.models == 10 and {(w.name, w.count) for w in warriors.wargear} == {("Gauss flayer", 10),
                                                                                       ("Close combat weapon", 10)}
    assert not army.notes  # the configuration lines are all understood
