"""The list sheet's reminders: by phase, then by step (start, each time a unit is selected, each
attack, end); one line saying what to do, with the unit; weapon abilities with their operative
text in the phase their weapon attacks in; "Any phase" only for what applies in every phase."""
from __future__ import annotations

from ruleslawyer.ingest.sources.armylists import load_list
from ruleslawyer.library.armylist import check_list
from ruleslawyer.library.armylist_sheet import build_sheet
from ruleslawyer.library.operative import action_line, operative_sentences, operative_text
from ruleslawyer.records import Ability, Datasheet, Profile, Rule, Source, Weapon

SRC = Source(file="test.json")
SUSTAINED = ("This ability always takes the form [SUSTAINED HITS X]. Each time an attack made with a "
             "[SUSTAINED HITS] weapon results in a critical hit, that attack results in X additional hits.\n"
             "*Example: An attack made with a [SUSTAINED HITS 2] weapon results in a critical hit.")
LETHAL = ("Each time an attack made with a [LETHAL HITS] weapon results in a critical hit, you can choose "
          "for that attack to automatically wound the target.\nDesigner's Note: no wound roll is made.")


def records():
    boss = Datasheet(
        "Test Boss", SRC, 11, "Testers", profiles=(Profile("Test Boss", {"M": '6"', "T": "5", "W": "6"}),),
        weapons=(Weapon("Kustom gun", range='18"', A="3", skill="5+", S="5", AP="-1", D="1",
                        abilities=("sustained hits 1", "lethal hits: non-monster/vehicle")),
                 Weapon("Big axe", range="Melee", A="4", skill="2+", S="8", AP="-2", D="2",
                        abilities=("sustained hits 1",))),
        abilities=(
            Ability("Scavengers", "At the end of your Movement phase, if this unit is controlling an objective, "
                    "that objective is secured."),
            Ability("Ammo Runt (Once per battle)", "In your Shooting phase, when this unit is selected to shoot, "
                    "you can use this ability. If you do, this unit's ranged attacks have +1 to hit rolls."),
            Ability("War Cry", "At the start of your Command phase, you can use this ability. If you do, this "
                    "unit is riled up until the end of the turn."),
            Ability("Rugged", "Each time an attack is allocated to this model, worsen the Armour Penetration "
                    "characteristic of that attack by 1."),
            Ability("Busy", "Being engaged does not prevent this unit from being eligible to start an action."),
            Ability("Big", "Add 2 to this model's Toughness characteristic."),
        ))
    return [boss, Rule("Sustained Hits", SRC, 11, text=SUSTAINED), Rule("Lethal Hits", SRC, 11, text=LETHAL)]


LIST = """Test list (100 Points)

Testers
Incursion (1,000 Points)

CHARACTERS

Test Boss (100 Points)
  • 1x Kustom gun
  • 1x Big axe

Exported with App Version: v2.6.0 (1), Data Version: v950
"""


def sheet(tmp_path):
    path = tmp_path / "army.txt"
    path.write_text(LIST, encoding="utf-8")
    recs = records()
    return build_sheet(check_list(load_list(path), recs), recs)


def rows(s, phase):
    return {r.name: r for r in s.reminders.get(phase, [])}


def test_reminders_by_phase_and_step_say_what_to_do(tmp_path):
    s = sheet(tmp_path)
    end = rows(s, "movement")["Scavengers"]
    assert end.step == "end" and end.who == "Test Boss"
    assert end.summary == "If this unit is controlling an objective, that objective is secured."
    ammo = rows(s, "shooting")["Ammo Runt (Once per battle)"]
    assert ammo.step == "selected" and ammo.summary == "This unit's ranged attacks have +1 to hit rolls."
    cry = rows(s, "command")["War Cry"]
    assert cry.step == "start" and cry.summary.startswith("This unit is riled up")
    assert [k for k, _ in s.steps("shooting")] == ["selected", "attacks"]


def test_weapon_abilities_carry_their_operative_text_in_their_weapons_phase(tmp_path):
    s = sheet(tmp_path)
    shooting, fight = rows(s, "shooting"), rows(s, "fight")
    sustained = [r for r in (*shooting.values(), *fight.values()) if "Sustained" in r.name]
    assert {r.phase for r in sustained} == {"shooting", "fight"}
    for r in sustained:
        assert r.step == "attacks" and r.summary.startswith("Each time an attack made with a [SUSTAINED HITS]")
        assert "always takes the form" not in r.summary
    lethal = next(r for r in shooting.values() if r.name.startswith("Lethal Hits"))
    assert "automatically wound" in lethal.summary and "Designer" not in lethal.summary
    assert not [r for r in s.rules if not r.found]  # "Lethal Hits: Non-Monster/Vehicle" is Lethal Hits


def test_any_phase_only_for_what_applies_in_every_phase(tmp_path):
    s = sheet(tmp_path)
    assert set(rows(s, "any")) == {"Busy"}
    assert "Rugged" in rows(s, "attacked")
    everything = [r.name for rs in s.reminders.values() for r in rs]
    assert "Big" not in everything  # a characteristic change is on the datasheet, not a reminder
    assert not s.reminders.get("once per battle")


def test_operative_text_leaves_out_form_examples_and_notes():
    assert operative_sentences(SUSTAINED) == [
        "Each time an attack made with a [SUSTAINED HITS] weapon results in a critical hit, that attack "
        "results in X additional hits."]
    assert "Designer" not in operative_text(LETHAL) and "automatically wound" in operative_text(LETHAL)
    text = "If this unit made a charge move this turn, its melee attacks have:\n- +3 A.\n- +2 S."
    assert action_line(text) == "If this unit made a charge move this turn, its melee attacks have: +3 A; +2 S"
