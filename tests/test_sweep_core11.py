"""Generalisation sweep (issues 16, 17): documents, or parts of them, that the real-document gold
does not cover, read through the real loaders.

Expected values are read off the PDFs by hand (rule numbers and headings, what a card prints),
never copied from the tool's output. Each test pins one structural failure that was fixed:
- a one-rule 11th edition chapter (one numbered heading) read from a path that names no edition;
- an annotated example datasheet inside a numbered rules chapter;
- keyword runs set smaller than the paragraph they wrap in (a leader box's unit list);
- bulleted points under a datasheet ability.
"""
from __future__ import annotations

import shutil
from functools import lru_cache
from pathlib import Path

import pytest

from ruleslawyer.ingest.formats import load_file

from .conftest import shared_file
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document

E11 = "realdata/e11/pdf"


@lru_cache(maxsize=None)
def _parse(path: Path):
    doc = load_file(path)
    ctx = ParseContext(doc=doc, edition=guess_edition(doc))
    return parse_document(doc, ctx), ctx


@pytest.fixture
def real(shared):
    return lambda relative: shared_file(shared, relative)


def test_one_rule_chapter_without_edition_in_path(real, tmp_path):
    # The Actions chapter prints one numbered heading ("PERFORMING ACTIONS 16.01"), a sidebar,
    # and an example action card whose STARTS/UNITS/USE LIMIT lines are no rules.
    copy = tmp_path / "actions.pdf"  # no "e11" or "11th" in the path: the content must say it
    shutil.copyfile(real(f"{E11}/core11_16_Actions.pdf"), copy)
    records, ctx = _parse(copy)
    assert ctx.edition == 11
    rules = [r for r in records if r.kind == "rule"]
    assert [(r.name, r.number, r.section) for r in rules] == [("Performing Actions", "16.01", ("Actions",))]
    text = rules[0].text
    # Its sub-headings and the example card stay inside it.
    for words in ("Starting an Action", "Completing an Action", "USE LIMIT: Once per turn."):
        assert words in text
    assert not [r for r in records if r.kind == "table"]


def test_example_datasheet_in_rules_chapter_is_no_unit(real):
    # The Datasheets chapter draws an Ork Boyz card with numbered call-outs: an illustration.
    records, ctx = _parse(real(f"{E11}/core11_02_Datasheets.pdf"))
    assert not [r for r in records if r.kind == "datasheet"]
    assert any("example" in w and "Boyz" in w for w in ctx.warnings)
    rules = {r.number: r for r in records if r.kind == "rule"}
    assert sorted(rules) == [f"02.0{n}" for n in range(1, 8)]
    # The card's boxes are no rule's text.
    for r in rules.values():
        assert "UNIT COMPOSITION" not in r.text and "Get da Good Bitz" not in r.text


def _cards(real):
    records, _ = _parse(real(f"{E11}/armageddon_Datasheets_-_Space_Marines.pdf"))
    return records


def test_leader_box_wrapping_a_keyword_line(real):
    # Page 2: the LEADER box's unit list wraps, and its second line holds only small-capital
    # keywords ("VETERAN SQUAD WITH JUMP PACKS"); it is no heading, and the card goes on.
    records = _cards(real)
    assert not [r for r in records if r.kind != "datasheet"]
    sheets = {r.name: r for r in records}
    chaplain = sheets["Chaplain with Jump Pack"]
    assert chaplain.leader.attaches_to == ("ASSAULT INTERCESSORS WITH JUMP PACKS",
                                           "VANGUARD VETERAN SQUAD WITH JUMP PACKS")
    assert {"Deep Strike", "Leader", "Oath of Moment", "Litany of Hate", "Exhortation of Rage"} \
        <= {a.name for a in chaplain.abilities}
    assert chaplain.faction_keywords == ("ADEPTUS ASTARTES",)
    assert chaplain.faction == "Space Marines"


def test_bulleted_points_stay_in_their_ability(real):
    # Page 1: Finest Hour lists "▪ +3 A" and "▪ [DEVASTATING WOUNDS]" as its effects.
    captain = {r.name: r for r in _cards(real)}["Captain with Relic Shield"]
    names = [a.name for a in captain.abilities]
    assert not [n for n in names if "[" in n or n[:1] in "▪■•"]
    finest = next(a for a in captain.abilities if a.name.startswith("Finest Hour"))
    assert finest.text.endswith("+3 A [DEVASTATING WOUNDS]")


def test_second_instruction_with_numeral_ordinal_is_its_own_erratum(real):
    # Index-card errata v1.2, page 3 (outside the gold's pages 1-2): one header, two
    # instructions, "Change 1st bullet to:" and "Add 6th bullet to read:".
    records, _ = _parse(real("realdata/Overcharged-Plasma__warhammer-pdfs/index_card_errata_v1.2_YRK9ZpspblzJHLb7.pdf"))
    entries = [r for r in records if r.kind == "errata" and r.target == "Primaris Sword Brethren, Wargear Options"]
    assert [(e.operation, e.location) for e in entries] == [("replace", "1st bullet"), ("add", None)]
    assert "6th bullet" not in entries[0].text and entries[1].text.lstrip("- ").startswith("For every 5 models")


def test_numeral_ordinal_instructions():
    from ruleslawyer.ingest.parse.errata_grammar import is_instruction

    assert is_instruction("Add 6th bullet to read:") and is_instruction("Insert 2nd paragraph:")
    assert not is_instruction("6th bullet to read:")


# A plain (no -layout) text dump of a core stratagems chapter, in the shape pdftotext gives it:
# an example card drawn on the intro page comes out in fragments, its titles broken inside a
# word ("COUNTEROFFENSI" / "VE 15.12", "HEROIC INTERVEN" / "TION"); the real cards follow.
PLAIN_DUMP = """STRATAGEMS

USING STRATAGEMS 15.01

During the battle, both players can use stratagems. Each
stratagem states how many CP it costs to use.

++ HATRED STEELS OUR RESOLVE ++

HEROIC INTERVEN
TION

CORE STRATAGEM

1CP

COUNTEROFFENSI
VE 15.12

WHEN: End of you
r opponent's Charg
e phase.

SNAP SHOOTING 15.09

ELIGIBLE IF: As stated in the rule allowing this
shooting type.

HEROIC INTERVENTION 15.11
CORE STRATAGEM

1CP

WHEN: End of your opponent's Charge phase.
TARGET: One friendly unengaged unit within 12" of one or more enemy units.
EFFECT: Resolve a charge with your unit.

COUNTEROFFENSIVE 15.12
CORE STRATAGEM

2CP

WHEN: Fight step of your opponent's Fight phase.
TARGET: One friendly unit that is eligible to fight.
EFFECT: Until the end of the phase, your unit has the Fights First ability.
"""


def _plain(path: Path):
    doc = load_file(path)
    ctx = ParseContext(doc=doc, edition=guess_edition(doc))
    return parse_document(doc, ctx), ctx


def test_plain_dump_titles_broken_inside_a_word(tmp_path):
    path = tmp_path / "stratagems.txt"
    path.write_text(PLAIN_DUMP, encoding="utf-8")
    records, ctx = _plain(path)
    names = sorted((r.kind, r.name) for r in records)
    assert names == [("rule", "Snap Shooting"), ("rule", "Using Stratagems"),
                     ("stratagem", "Counteroffensive"), ("stratagem", "Heroic Intervention")]
    heroic = next(r for r in records if r.name == "Heroic Intervention")
    assert heroic.cp == 1 and heroic.when.startswith("End of your opponent's Charge phase")
    assert any("15.12" in w for w in ctx.warnings)  # the example card is reported, not read


def test_real_plain_dump_has_no_broken_titles(real, tmp_path):
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    import subprocess

    dump = tmp_path / "15_Stratagems.txt"
    subprocess.run([pdftotext, str(real("realdata/GregSQT__40k/15_Stratagems.pdf")), str(dump)], check=True,
                   capture_output=True)
    records, _ = _plain(dump)
    names = [r.name for r in records]
    # Every record's name is a whole title of the chapter: none broken inside a word.
    assert not [n for n in names if n.endswith((" Ve", " Tion")) or n in ("Tion", "Ve")]
    numbers = [r.number for r in records if r.number]
    assert len(numbers) == len(set(numbers))  # one record per printed number
    assert "Counteroffensive" in names and "Heroic Intervention" in names


# A plain text dump of a one-rule 11th edition chapter: a title, a sidebar, one numbered rule
# whose sub-headings are unnumbered, a running footer set straight above a heading.
ONE_RULE_DUMP = """ACTIONS

Actions represent vital battlefield tasks your forces must carry out.

WHERE TO
FIND ACTIONS
The actions players
can use can be found
in mission packs.

PERFORMING ACTIONS 16.01
Some rules allow units to perform actions. Each action states:
▪ STARTS: When it is started.
▪ UNITS: Which friendly units can perform it.

STARTING AN ACTION
A unit is eligible to start an action unless it is not on the battlefield.

++ WE STAND READY ++

COMPLETING AN ACTION
If a unit performing an action makes a move, that unit does not complete that action.
"""


def test_plain_dump_of_a_one_rule_chapter(tmp_path):
    path = tmp_path / "actions.txt"
    path.write_text(ONE_RULE_DUMP, encoding="utf-8")
    records, ctx = _plain(path)
    assert ctx.edition == 11
    assert [(r.kind, r.name, r.number, r.section) for r in records] == [
        ("rule", "Performing Actions", "16.01", ("Actions",))]
    assert "Completing an Action" in records[0].text or "COMPLETING AN ACTION" in records[0].text
    assert "WE STAND READY" not in records[0].text


STEPS_DUMP = """MOVEMENT PHASE

The Movement phase is resolved by following these steps:

1.\t START OF MOVEMENT PHASE
2.\t MOVE UNITS
3.\t END OF MOVEMENT PHASE

1. START OF MOVEMENT PHASE 09.01
Rules that are triggered at the start of the Movement phase are resolved now.

++ FORWARD BROTHERS ++

REMAIN STATIONARY 09.02
MAXIMUM DISTANCE: none.
ELIGIBLE IF: Any unit.
"""


def test_plain_dump_numbered_steps_and_footer_above_heading(tmp_path):
    # The step list ("1.<tab>START OF MOVEMENT PHASE") is no table; the running footer printed
    # just above a heading is no part of the rule's name.
    path = tmp_path / "movement.txt"
    path.write_text(STEPS_DUMP, encoding="utf-8")
    records, _ = _plain(path)
    assert [(r.kind, r.name, r.number, r.section) for r in records] == [
        ("rule", "Start of Movement Phase", "09.01", ("Movement Phase",)),
        ("rule", "Remain Stationary", "09.02", ("Movement Phase",))]


# Index-card errata dumped as plain text: nothing is bold, so an entry header ("Unit – Section")
# is known by its place, directly above an instruction.
ERRATA_DUMP = """INDEX CARDS
VERSION 1.2

This document collects amendments to the Index Cards printed for
each Warhammer 40,000 faction. New and revised entries are marked in red.

ERRATA
ADEPTA SORORITAS

Mortifiers – Abilities, Anguish of the Unredeemed
Change to ‘Each time this unit makes a Charge move, until the end of
the turn, melee weapons equipped by models in this unit have the
[SUSTAINED HITS 1] ability.’

Dominion Squad – Ranged Weapons, boltgun
Add ‘[ASSAULT, RAPID FIRE 1].’

ADEPTUS CUSTODES

Anathema Psykana Rhino – Core Abilities
Add ‘Firing Deck 2’.
"""


def test_plain_dump_of_index_card_errata(tmp_path):
    path = tmp_path / "errata.txt"
    path.write_text(ERRATA_DUMP, encoding="utf-8")
    records, _ = _plain(path)
    assert [r.kind for r in records] == ["errata"] * 3
    assert [(r.target, r.operation) for r in records] == [
        ("Mortifiers, Abilities, Anguish of the Unredeemed", "replace"),
        ("Dominion Squad, Ranged Weapons, boltgun", "add"),
        ("Anathema Psykana Rhino, Core Abilities", "add")]
    assert records[0].text.endswith("[SUSTAINED HITS 1] ability.")


# A datasheet card dumped as plain text: every cell on a line of its own, the characteristic
# labels all before their values, the weapon grid cut into single cells between the fluff.
CARD_DUMP = """CAPTAIN WITH RELIC SHIELD
M

T

SV

W

LD

OC

6"

4

3+

6

6+

1

RANGED WEAPONS

Skilled warriors and strategists, Captains lead their battle-brothers.

RANGE

A

BS

18"

1

2+

ABILITIES

CORE: Leader

KEYWORDS: INFANTRY; CHARACTER; IMPERIUM; CAPTAIN WITH RELIC SHIELD

FACTION KEYWORDS:
ADEPTUS ASTARTES
"""


def test_plain_dump_of_a_card_is_warned_not_junk(tmp_path):
    from ruleslawyer.ingest.parse.datasheet_lines import document_lines, vertical_stats

    path = tmp_path / "cards.txt"
    path.write_text(CARD_DUMP, encoding="utf-8")
    doc = load_file(path)
    lines = document_lines(doc)
    # The labels-then-values grid is read as one profile.
    pairs, after = vertical_stats(lines, 1)
    assert pairs == [("M", '6"'), ("T", "4"), ("SV", "3+"), ("W", "6"), ("LD", "6+"), ("OC", "1")]
    assert lines[after].text == "RANGED WEAPONS"
    records, ctx = _plain(path)
    # Its boxes are no rules ("Leader", "Faction"); the card left out is reported.
    assert not [r for r in records if r.kind in ("rule", "table")]
    assert any("CAPTAIN WITH RELIC SHIELD" in w for w in ctx.warnings)


def test_large_intro_wrapping_is_no_heading(real):
    # 9th edition primer, pages outside the gold's 15-19: each phase opens with an intro set
    # large (11pt over 8pt text) whose second line starts mid-sentence in lower case
    # ("battlefield and vie for advantageous positions."); it is no heading, so no rule is
    # named after it, and "Heroic Interventions, Pile Ins, Consolidations and Aircraft" (p13)
    # keeps its whole name.
    doc = load_file(real("realdata/timburr1__timburr1.github.io/9th_ed_battle_primer.pdf"))
    assert not [b.text for b in doc.blocks if b.kind == "heading" and b.text.lstrip()[:1].islower()]
    records, _ = _parse(real("realdata/timburr1__timburr1.github.io/9th_ed_battle_primer.pdf"))
    names = [r.name for r in records if r.kind == "rule"]
    assert not [n for n in names if n.endswith(".")]
    assert "Heroic Interventions, Pile Ins, Consolidations and Aircraft" in names
