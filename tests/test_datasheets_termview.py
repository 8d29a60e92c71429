"""The terminal card of a datasheet (termview/datasheet.py) on records built here."""
from __future__ import annotations

import dataclasses

from ruleslawyer.records import Ability, Datasheet, Leader, Profile, Source, UnitCost, Weapon
from ruleslawyer.termview import format_record
from ruleslawyer.termview.datasheet import format_datasheet

SOURCE = Source(file="cards.txt", page=3)


def ninth() -> Datasheet:
    return Datasheet(
        name="Gloom Wardens", source=SOURCE, edition=9, faction="Space Marines", power=5,
        faction_keywords=("IMPERIUM", "<CHAPTER>"), keywords=("INFANTRY", "GLOOM WARDENS"),
        profiles=(Profile("Gloom Warden", {"M": '6"', "WS": "3+", "BS": "3+", "S": "4", "T": "4", "W": "2",
                                           "A": "2", "Ld": "7", "Sv": "3+"}, models="4-9"),
                  Profile("Gloom Sergeant", {"M": '6"', "WS": "3+", "BS": "-", "S": "4", "T": "4", "W": "2",
                                             "A": "3", "Ld": "8", "Sv": "3+"}, models="0-1")),
        weapons=(Weapon("Ember pistol - High", range='12"', type="Pistol 1", S="8", AP="-3", D="2",
                        abilities=("On an unmodified hit roll of 1, the bearer is slain after shooting.",)),
                 Weapon("Gloom blade", range="Melee", type="Melee", S="User", AP="-1", D="1")),
        abilities=(Ability("Shadow Pact", ""),
                   Ability("Gloom Shroud", "In your command phase, pick 1 friendly unit within 6\" of this unit; "
                                           "until your next command phase it cannot be targeted from more than 12\".")),
        wargear_options=("The Gloom Sergeant can be equipped with 1 ember pistol instead of 1 gloom blade.",),
    )


def test_ninth_edition_card_layout():
    out = format_datasheet(ninth(), 80)
    lines = out.splitlines()
    assert lines[0].startswith("GLOOM WARDENS") and lines[0].endswith("Space Marines · 9th edition · Power 5")
    assert len(lines[0]) == 80 and lines[1] == "─" * 80
    assert lines[2].split() == ["No.", "Model", "M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv"]
    assert lines[3].split() == ["4-9", "Gloom", "Warden", '6"', "3+", "3+", "4", "4", "2", "2", "7", "3+"]
    assert lines[4].split()[0:4] == ["0-1", "Gloom", "Sergeant", '6"'] and lines[4].split()[5] == "-"
    # Columns line up: every characteristic starts where its header does.
    assert lines[3].index('6"') == lines[2].index("M ") == lines[4].index('6"')
    assert "• Shadow Pact" in lines
    assert all(len(line) <= 80 for line in lines)
    assert lines[-3:] == ["Keywords: INFANTRY, GLOOM WARDENS", "Faction keywords: IMPERIUM, <CHAPTER>",
                          "Source: cards.txt, page 3"]
    assert "WARGEAR OPTIONS" in lines


def test_weapon_abilities_wrap_beside_the_row_or_below_it():
    wide = format_datasheet(ninth(), 100).splitlines()
    row = next(i for i, line in enumerate(wide) if line.startswith("Ember pistol - High"))
    assert "On an unmodified hit roll" in wide[row]
    narrow = format_datasheet(ninth(), 50).splitlines()
    row = next(i for i, line in enumerate(narrow) if line.startswith("Ember pistol - High"))
    assert narrow[row + 1].startswith("    On an unmodified hit roll")
    assert all(len(line) <= 50 for line in narrow)


def test_tenth_edition_card_points_leader_and_dispatch():
    sheet = Datasheet(
        name="Shade Lord", source=Source(file="page.html"), edition=10, faction="Necrons",
        points=(UnitCost("1", 80),), base="40mm", invulnerable_save="4+",
        profiles=(Profile("Shade Lord", {"M": '5"', "T": "4", "Sv": "3+", "W": "5", "Ld": "6+", "OC": "1"}),),
        weapons=(Weapon("Shade staff", range='18"', A="D6", skill="3+", S="5", AP="-1", D="1", abilities=("blast",)),),
        abilities=(Ability("Leader", "", "core"),),
        leader=Leader("This model can be attached to the following unit:", ("Shade Warriors",)),
    )
    out = format_record(sheet, 72)
    lines = out.splitlines()
    assert lines[0].endswith("Necrons · 10th edition · 1 model: 80 pts · base 40mm")
    hull = dataclasses.replace(sheet, base="Use model")  # the export's entry for a model with no base
    assert format_record(hull, 72).splitlines()[0].endswith("· base: Use model")
    assert "Invulnerable save: 4+" in lines
    assert lines[lines.index("Invulnerable save: 4+") + 2].split() == ["Weapon", "Range", "A", "BS/WS", "S", "AP",
                                                                       "D", "Abilities"]
    assert "• Leader [core]" in lines
    assert "  Attaches to: Shade Warriors" in lines
    assert lines[-1] == "Source: page.html"
