"""Index-card errata as the parser reads them (the whole heading as the target, the
instruction's place and quoted value apart) still apply: places printed in the heading, values
named by their column, swapped words kept in `old_text`, added profiles and card sections."""
from __future__ import annotations

from ruleslawyer.amend.apply import apply_errata
from ruleslawyer.amend.text import split_place
from ruleslawyer.records import Weapon

from tests.factories import erratum, rule, sheet

LANCE = Weapon("Glimmer lance", range='36"', A="1", skill="3+", S="12", AP="-3", D="D6",
               abilities=("twin-linked", "anti-infantry 4+"))


def card(target, text, operation="replace", location=None, **kw):
    """An unpaged index-card entry (no page, 10th edition)."""
    return erratum(target, text, operation, location, document="Index Cards", version="1.2", page=None,
                   edition=10, **kw)


def test_places_in_the_heading_join_the_instructions_place():
    assert split_place("Army Rule Card, Strands of Fate, 4th paragraph", "start of this paragraph") == \
        ("Army Rule Card, Strands of Fate", "start of the 4th paragraph")
    assert split_place("Obelisk, Abilities, Gravitic Pulse, 2nd sentence", None) == \
        ("Obelisk, Abilities, Gravitic Pulse", "2nd sentence")
    assert split_place("Fate, 2nd paragraph", "1st sentence") == ("Fate", "1st sentence of the 2nd paragraph")
    assert split_place("Rare Rules, Resurrected Models", "end of this Rare Rules entry") == \
        ("Rare Rules, Resurrected Models", "end of this Rare Rules entry")


def test_words_added_at_the_start_of_a_paragraph_named_by_the_heading():
    fate = rule("Strands of Fate", "One.\nTwo.\nThree.\nFour.", edition=10)
    result = apply_errata([fate, card("Army Rule Card, Strands of Fate, 4th paragraph", "Once per phase,",
                                      "append", "start of this paragraph")])
    (amended,) = [r for r in result.records if r.kind == "rule"]
    assert amended.text == "One.\nTwo.\nThree.\nOnce per phase, Four."
    assert result.outcomes[0].applied and amended.changes[0].location == "start of the 4th paragraph"


def test_a_sentence_named_by_the_heading_is_replaced():
    pulse = rule("Gravitic Pulse", "First bit. Second bit.", edition=10)
    result = apply_errata([pulse, card("Gravitic Pulse, 2nd sentence", "New second bit.")])
    (amended,) = [r for r in result.records if r.kind == "rule"]
    assert amended.text == "First bit. New second bit."


def _weapons(*errata):
    result = apply_errata([sheet(weapons=(LANCE,)), *errata])
    (ds,) = [r for r in result.records if r.kind == "datasheet"]
    return ds, result.outcomes


def test_a_value_named_by_its_column():
    ds, outcomes = _weapons(card("Glimmer Skiff, Ranged Weapons, glimmer lance", "-4", location="AP"),
                            card("Glimmer Skiff, Ranged Weapons, glimmer lance", "2",
                                 location="weapon's Damage characteristic"))
    assert all(o.applied for o in outcomes)
    assert (ds.weapons[0].AP, ds.weapons[0].D) == ("-4", "2")


def test_a_keyword_swapped_through_old_text():
    ds, (outcome,) = _weapons(card("Glimmer Skiff, Ranged Weapons, glimmer lance", "[ANTI-INFANTRY 3+]",
                                   old_text="[ANTI-INFANTRY 4+]"))
    assert outcome.applied and ds.weapons[0].abilities == ("twin-linked", "anti-infantry 3+")


def test_an_added_profile_without_a_name_column_takes_the_title():
    ds, (outcome,) = _weapons(card("Glimmer Skiff, Melee Weapons", "RANGE\tA\tWS\tS\tAP\tD\nMelee\t3\t3+\t4\t0\t1",
                                   "add", title="Close combat weapon"))
    assert outcome.applied
    assert [w.name for w in ds.weapons] == ["Glimmer lance", "Close combat weapon"]
    assert not [r for r in apply_errata([sheet(weapons=(LANCE,))]).records if r.kind == "rule"]


def test_titled_additions_to_cards_are_no_new_rules():
    profile = card("Armoury Card", "RANGE\tA\tBS\tS\tAP\tD\nFlamer\t12\"\tD6\tN/A\t4\t0\t1", "add", title="Flamer")
    section = card("Glimmer Skiff, reverse of card", "If a Character …", "add", title="Attached Unit")
    result = apply_errata([sheet(weapons=(LANCE,)), profile, section])
    assert not [r for r in result.records if r.kind == "rule"]
    assert [o.applied for o in result.outcomes] == [False, False]
    assert "Flamer profile" in result.outcomes[0].reason


def test_words_swapped_in_a_wargear_bullet_through_old_text():
    options = ("Any number of models can each have their chainsword replaced with 1 master-crafted power weapon.",)
    result = apply_errata([sheet(wargear_options=options),
                           card("Glimmer Skiff, Wargear Options, 1st bullet", "1 power weapon",
                                old_text="1 master-crafted power weapon")])
    (ds,) = [r for r in result.records if r.kind == "datasheet"]
    assert ds.wargear_options == ("Any number of models can each have their chainsword replaced with 1 power weapon.",)


def test_sub_bullets_named_by_the_instruction_under_a_bullet_heading_are_reported():
    options = ("This model can be equipped with one of the following:\n- 1 ember cannon",)
    result = apply_errata([sheet(wargear_options=options),
                           card("Glimmer Skiff, Wargear Options, 1st bullet", "- 1 void harpoon", location="sub-bullets")])
    assert result.outcomes[0].reason == "changes a sub-bullet: reported, not applied"
