"""Rule records: outlines (summaries, reference sheets) and popups, on small documents and seeds."""
from __future__ import annotations

import json
from collections import Counter

from ruleslawyer.ingest.formats import load_bytes
from ruleslawyer.ingest.parse.parsing import parse_document
from ruleslawyer.records import Rule, Source
from ruleslawyer.termview import format_record
from tests.conftest import seed_path
from tests.gold import parsed


def _gold(shared, prefix: str) -> list[dict]:
    """The gold records of a seed, read at test time."""
    stem = seed_path(shared, prefix).stem
    return [json.loads(line) for line in (shared / "gold" / f"{stem}.jsonl").read_text().splitlines() if line]


def _rules(text: str) -> dict[str, Rule]:
    records = parse_document(load_bytes(text.encode(), "rules.txt"))
    return {r.name: r for r in records if r.kind == "rule"}


OUTLINE = """\
SETUP

Pick a mission and set up the battlefield before anything else.

MEASURING: Use the tape at any moment you like.

When two effects clash, the active player settles which goes first.

MOVEMENT PHASE

1. MOVE UNITS

Select a unit and move it.

NORMAL MOVE: Move up to M inches.

ADVANCE: Roll a D6 and add it to M.

An advancing unit cannot shoot this turn.

FALL BACK: Move away from the enemy.

2. REINFORCEMENTS

Set up reinforcements now.

SHOOTING PHASE

Pick a unit to shoot with.

ROLL TO SAVE: Roll a D6 for each wound, using the best save:

Armour Saves: Per the Sv characteristic.

Cover Saves: Per cover.

ATTACKING

1. HIT ROLL

Roll a D6 for each attack.

2. INFLICT DAMAGE

Apply the damage.

MORTAL WOUNDS: These ignore saves entirely.

COMMAND PHASE

Gain one command point at the start of your turn.

SETUP

Pick a mission.

MOVEMENT PHASE

1. MOVE UNITS

Move.

NORMAL MOVE: Move.

3. REDEPLOY

Move again.
"""


def test_outline_sections_steps_and_run_ins():
    rules = _rules(OUTLINE)
    assert rules["Setup"].section == ()
    # Text after the last run-in under a heading goes back to the heading.
    assert rules["Measuring"].text == "Use the tape at any moment you like."
    assert rules["Setup"].text.endswith("settles which goes first.")
    assert (rules["Move Units"].section, rules["Move Units"].step) == (("Movement Phase",), 1)
    assert rules["Normal Move"].section == ("Movement Phase", "Move Units")
    # The paragraph after a run-in that is followed by another run-in stays with it.
    assert "cannot shoot" in rules["Advance"].text
    assert rules["Reinforcements"].step == 2
    assert rules["Shooting Phase"].section == ()
    # Run-ins after the last step of a sequence belong to the sequence, not to that step.
    assert rules["Mortal Wounds"].section == ("Attacking",)
    assert rules["Hit Roll"].section == ("Attacking",)


def test_lead_in_colon_makes_items_not_rules():
    rules = _rules(OUTLINE)
    assert "Armour Saves" not in rules and "Cover Saves" not in rules
    assert "Armour Saves: Per the Sv characteristic." in rules["Roll to Save"].text


def test_a_repeated_outline_adds_nothing_and_keeps_the_fuller_text():
    records = parse_document(load_bytes(OUTLINE.encode(), "rules.txt"))
    keys = Counter((r.name, r.section) for r in records if r.kind == "rule")
    assert max(keys.values()) == 1
    rules = _rules(OUTLINE)
    assert rules["Move Units"].text == "Select a unit and move it."
    assert rules["Normal Move"].text == "Move up to M inches."
    assert rules["Setup"].text.startswith("Pick a mission and set up")
    assert "Redeploy" not in rules  # only in the copy: a copy brings no new rule


GLOSSARY = """\
TO HIT
\t1\t2\t3
To-Hit\t6\t5+\t4+

SPECIAL RULES

- Fearless: Never flees from a fight.
- Fleet*: May dash and charge in one turn.
- **Hit & Run*:** May break away from a melee when its turn ends, if
a Leadership check succeeds.
- *Lost by leaders who join squads lacking it.
"""


def test_glossary_entries_footnotes_and_broken_lines():
    rules = _rules(GLOSSARY)
    assert set(rules) == {"Fearless", "Fleet", "Hit & Run"}
    assert all(r.section == ("Special Rules",) for r in rules.values())
    assert rules["Hit & Run"].text == "May break away from a melee when its turn ends, if a Leadership check succeeds."
    assert rules["Fleet"].footnote == "Lost by leaders who join squads lacking it."
    assert rules["Fearless"].footnote is None


POPUPS = """\
Hazardous

Such guns bite the hand that fires them.

After a squad fires a gun like this, roll a die per gun. For every 1 rolled:
  • Pick one model carrying a Hazardous gun.
  • It takes 3 mortal wounds.
With no model picked, nothing else occurs.

  • One Hazardous roll per Hazardous gun fired.
Pick a profile for this gun before choosing targets.
Fall Back Moves
A squad that Falls Back moves each model up to its Move value.

Desperate Escape Tests
Falling Back across foes is allowed after a Desperate Escape test.
Feel No Pain
FEEL NO PAIN

Tough souls shrug off harm.

If harm comes its way, try a dice roll to ignore it.
"""


def test_popups_fluff_text_and_summary():
    rules = _rules(POPUPS)
    assert set(rules) == {"Hazardous", "Fall Back Moves", "Feel No Pain"}
    haz = rules["Hazardous"]
    assert haz.fluff == "Such guns bite the hand that fires them."
    assert "Pick one model carrying a Hazardous gun." in haz.text  # bullets announced by ":" are text
    assert haz.summary == ("One Hazardous roll per Hazardous gun fired.",)
    assert "profile" not in haz.text  # a stray tooltip line after the recap is not part of it
    assert rules["Fall Back Moves"].fluff is None
    assert "Desperate Escape Tests" in rules["Fall Back Moves"].text  # a sub-heading of one popup
    assert rules["Feel No Pain"].fluff == "Tough souls shrug off harm."


def test_seed_rules_keep_tables_as_gold_says(shared):
    """000 prints its Wound Roll table apart from the rule; 001's popup holds the table lines."""
    wound_000 = next(r for r in parsed(seed_path(shared, "000")) if r["kind"] == "rule" and r["name"] == "Wound Roll")
    assert "2+" not in wound_000["text"] and wound_000["section"] == ["Attacking"]
    wound_001 = next(r for r in parsed(seed_path(shared, "001")) if r["kind"] == "rule" and r["name"] == "Wound Roll")
    gold_001 = next(g for g in _gold(shared, "001") if g["kind"] == "rule" and g["name"] == "Wound Roll")
    row_labels = [line.split("\t")[0] for line in gold_001["text"].splitlines() if "\t" in line]
    assert len(row_labels) >= 5 and all(label in wound_001["text"] for label in row_labels)
    assert wound_001["summary"][0].startswith("Critical Wound")


def test_seed_000_play_reference_adds_no_duplicates(shared):
    rules = [r for r in parsed(seed_path(shared, "000")) if r["kind"] == "rule"]
    names = Counter(r["name"] for r in rules)
    assert max(names.values()) == 1
    assert "Inflect Damage" not in names  # a typo only the play reference copy prints
    rp = next(r for r in rules if r["name"] == "Reanimation Protocols")
    assert rp["section"] == [] and "reanimation protocol rolls" in rp["text"]


def test_seed_002_split_entries(shared):
    rules = {(r["name"], tuple(r["section"])): r for r in parsed(seed_path(shared, "002", ".pdf")) if r["kind"] == "rule"}
    gold = {(g["name"], tuple(g["section"])): g for g in _gold(shared, "002") if g["kind"] == "rule"}
    # An entry broken over two columns is joined; its neighbour keeps only its own line.
    for key in [("Rending Weapon", ("Close Assault Weapons",)), ("Power Weapon", ("Close Assault Weapons",))]:
        assert rules[key]["text"] == gold[key]["text"]
    steps = [r for (name, section), r in rules.items() if section == ("Shooting Phase", "Shooting Sequence")]
    assert sorted(r["step"] for r in steps) == list(range(1, 9))


def test_rule_terminal_view():
    rule = Rule("Leader", Source("x.txt"), edition=10, section=("Core Rules", "Units"), text="Some text.",
                fluff="Heroes lead.", summary=("First point.",))
    out = format_record(rule, 60)
    lines = out.splitlines()
    assert lines[:2] == ["Leader", "Core Rules > Units"]
    assert "Heroes lead." in out and "  • First point." in out
    assert lines[-1] == "Source: x.txt"


def test_title_case_for_record_names():
    from ruleslawyer.names import title_case

    assert title_case("VOICE OF THE DEEP VAULT") == "Voice of the Deep Vault"
    assert title_case("COUNTER-STRIKE IS READY") == "Counter-strike Is Ready"  # "is" kept in names
    assert title_case("fire and fade") == "Fire and Fade"
    assert title_case("Roll 2D6 for CP") == "Roll 2D6 for CP"  # mixed case keeps its capitals


def test_title_case_keeps_game_abbreviations_in_capitals():
    from ruleslawyer.names import title_case

    assert title_case("GAIN CORE CP") == "Gain Core CP"
    assert title_case("AP AND DAMAGE") == "AP and Damage"
    assert title_case("TAP THE WARP") == "Tap the Warp"  # only whole words
