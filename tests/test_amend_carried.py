"""Rules updates of a newer edition for faction records printed only in the edition before
(amend/carried.py), kind words in targets, stratagem sections and "Change 'X' to 'Y'"."""
from __future__ import annotations

from ruleslawyer.amend.apply import apply_errata
from ruleslawyer.records import Enhancement, Rule, Source
from tests.factories import erratum, stratagem

PACK = Source("pack_v1.1.pdf", page=7)
CSV = Source("Enhancements.csv")


def _enhancement(**kw):
    fields = dict(name="Gore Lord", source=CSV, edition=10, faction="Blood Host", points=15, group="Red Cult",
                  restriction="BLOOD HOST INFANTRY model only.", text="The bearer can be attached to a HOUNDS unit.")
    fields.update(kw)
    return Enhancement(**fields)


def _update(target, text, **kw):
    return erratum(target, text, document="Blood Host Faction Pack", version="1.1", page=None, edition=11, src=PACK,
                   **kw)


def test_a_newer_edition_update_makes_a_printing_in_its_edition_and_keeps_the_original():
    old = _enhancement()
    update = _update("Gore Lord Enhancement", "BLOOD HOST CHARACTER model only. The bearer has the Scouts ability.")
    result = apply_errata([old, update])
    printings = [r for r in result.records if r.kind == "enhancement"]
    assert old in printings and len(printings) == 2
    (new,) = [r for r in printings if r is not old]
    assert (new.edition, new.source, new.points) == (11, PACK, None)
    assert new.restriction == "BLOOD HOST CHARACTER model only." and new.text == "The bearer has the Scouts ability."
    assert new.changes and new.changes[0].version == "1.1" and not old.changes
    (outcome,) = result.outcomes
    assert outcome.applied and "edition 10" in outcome.detail


def test_no_new_printing_for_another_faction_a_core_rule_or_an_edition_two_back():
    other = _enhancement(faction="Iron Host")
    core = Rule(name="Gore Lord", source=CSV, edition=10, text="Old words.")
    ancient = _enhancement(edition=9)
    for record in (other, core, ancient):
        result = apply_errata([record, _update("Gore Lord Enhancement", "New words.")])
        assert result.records[:1] == [record] and len(result.records) == 2  # the record and the entry
        assert not result.outcomes[0].applied


def test_a_whole_stratagem_wording_fills_its_sections_and_a_section_location_names_a_field():
    old = stratagem("Red Harvest", faction="Blood Host", group="Red Cult", when="Your Command phase.",
                    target="One unit.", effect="It gains 1CP.", src=CSV)
    whole = _update("Red Harvest Stratagem", "WHEN: Any phase. TARGET: One BLOOD HOST unit. EFFECT: It heals 1 wound.")
    (new,) = [r for r in apply_errata([old, whole]).records if r.kind == "stratagem" and r.edition == 11]
    assert (new.when, new.target, new.effect) == ("Any phase.", "One BLOOD HOST unit.", "It heals 1 wound.")
    effect_only = _update("Red Harvest Stratagem", "EFFECT: It heals 2 wounds.", location="Effect section")
    (new,) = [r for r in apply_errata([old, effect_only]).records if r.kind == "stratagem" and r.edition == 11]
    assert (new.when, new.effect) == ("Your Command phase.", "It heals 2 wounds.")
    two = _update("Red Harvest Stratagem, Target and Effect Sections",
                  "TARGET: One BLOOD HOST unit.\nEFFECT: It heals 1 wound.")  # the sections it names are places
    (new,) = [r for r in apply_errata([old, two]).records if r.kind == "stratagem" and r.edition == 11]
    assert (new.when, new.target, new.effect) == ("Your Command phase.", "One BLOOD HOST unit.", "It heals 1 wound.")


def test_change_one_value_to_another_where_the_rule_prints_it():
    old = stratagem("Red Harvest", faction="Blood Host", group="Red Cult", effect='Move up to 3" and fight.', src=CSV)
    swap = _update("Red Harvest Stratagem", '6"', old_text='3"')
    (new,) = [r for r in apply_errata([old, swap]).records if r.kind == "stratagem" and r.edition == 11]
    assert new.effect == 'Move up to 6" and fight.'
    missing = _update("Red Harvest Stratagem", '8"', old_text='4"')
    result = apply_errata([old, missing])
    assert [r.edition for r in result.records if r.kind == "stratagem"] == [10]  # no printing made for nothing
    assert "does not print" in result.outcomes[0].reason


def test_an_undated_entry_names_a_dated_printing_only_exactly():
    dated = {"Enhancements.csv": "2025-11-14", "pack_v1.1.pdf": "2026-07-22"}
    old = _enhancement(edition=11)
    update = _update("Gore Lord Enhancement", "New words.")
    assert apply_errata([old, update], dated=lambda r: dated.get(r.source.file)).outcomes[0].applied
    assert not apply_errata([old, update], dated=lambda r: dated.get(r.source.file) if r is old else None
                            ).outcomes[0].applied


def test_a_newer_edition_profile_and_keywords_update_makes_a_printing_of_the_datasheet():
    """"Unit, Profile" (location: the characteristic) and "Unit, Keywords" entries of an 11th
    edition pack reach the faction's 10th edition datasheet as a new 11th edition printing; the
    10th printing and other factions' namesakes are kept as they were."""
    from ruleslawyer.records import Profile
    from tests.factories import sheet

    row = Profile("Hell Wyrm", {"M": '20+"', "T": "9", "OC": "0"})
    old = sheet("Hell Wyrm", faction="Blood Host", profiles=(row,), keywords=("AIRCRAFT", "FLY", "VEHICLE"),
                points=(), src=CSV)
    cousin = sheet("Hell Wyrm", faction="Iron Host", profiles=(row,), keywords=("AIRCRAFT", "FLY"), src=CSV)
    updates = [_update("Hell Wyrm, Profile", '12"', location="M"), _update("Hell Wyrm, Profile", "-", location="OC"),
               _update("Hell Wyrm, Keywords", "AIRCRAFT", operation="delete")]
    result = apply_errata([old, cousin, *updates])
    assert all(o.applied for o in result.outcomes), [o.reason for o in result.outcomes]
    assert "edition 10 datasheet" in result.outcomes[0].detail
    (new,) = [r for r in result.records if r.kind == "datasheet" and r.edition == 11]
    assert new.faction == old.faction and new.source == PACK and len(new.changes) == len(updates)
    assert (new.profiles[0].stats["M"], new.profiles[0].stats["OC"], new.profiles[0].stats["T"]) == ('12"', "-", "9")
    assert "AIRCRAFT" not in new.keywords and "FLY" in new.keywords
    assert old in result.records and cousin in result.records and not old.changes


def test_a_profile_update_that_fits_nothing_makes_no_printing():
    from ruleslawyer.records import Profile
    from tests.factories import sheet

    old = sheet("Hell Wyrm", faction="Blood Host", profiles=(Profile("Hell Wyrm", {"M": '20+"'}),), src=CSV)
    result = apply_errata([old, _update("Hell Wyrm, Profile", "3", location="Leadership characteristic")])
    assert not result.outcomes[0].applied and "Leadership" in result.outcomes[0].reason
    assert [r.edition for r in result.records if r.kind == "datasheet"] == [10]
    tenth = erratum("Hell Wyrm, Profile line", "14", location="Move characteristic", edition=10, src=PACK)
    (amended,) = [r for r in apply_errata([old, tenth]).records if r.kind == "datasheet"]
    assert amended.profiles[0].stats["M"] == '14"' and amended.edition == 10  # an own-edition entry applies


def test_a_newer_edition_ability_update_reaches_a_datasheet_of_the_edition_before():
    """"Unit, Ability Name Ability" of an 11th edition pack: the faction's 10th edition datasheet
    gets an 11th edition printing with the new wording; an ability the sheet lacks makes none."""
    from ruleslawyer.records import Ability
    from tests.factories import sheet

    old = sheet("Gore Wagon", faction="Blood Host", src=CSV,
                abilities=(Ability("Meet the Foe", 'Units within 9" can disembark.'),))
    update = _update("Gore Wagon, Meet the Foe Ability", 'Units within 8" can disembark.')
    result = apply_errata([old, update])
    assert result.outcomes[0].applied and "edition 10 datasheet" in result.outcomes[0].detail
    (new,) = [r for r in result.records if r.kind == "datasheet" and r.edition == 11]
    assert new.abilities[0].text == 'Units within 8" can disembark.' and new.source == PACK
    assert old in result.records and old.abilities[0].text == 'Units within 9" can disembark.'
    missing = apply_errata([old, _update("Gore Wagon, Blood Rage Ability", "New words.")])
    assert not missing.outcomes[0].applied
    assert [r.edition for r in missing.records if r.kind == "datasheet"] == [10]


def test_an_ability_named_without_its_leading_article_is_the_same_ability():
    from ruleslawyer.records import Ability
    from tests.factories import sheet

    old = sheet("Gore Wagon", faction="Blood Host", src=CSV,
                abilities=(Ability("The Scent of Blood", "Add 1 to Charge rolls."),))
    result = apply_errata([old, _update("Gore Wagon, Scent Of Blood Ability", "Add 2 to Charge rolls.")])
    assert result.outcomes[0].applied, result.outcomes[0].reason
    (new,) = [r for r in result.records if r.kind == "datasheet" and r.edition == 11]
    assert new.abilities[0].name == "The Scent of Blood" and new.abilities[0].text == "Add 2 to Charge rolls."


def test_an_ability_the_pack_respells_is_the_same_ability_under_the_packs_name():
    """The World Eaters pack prints "Blood Fury" for the 10th edition datasheets' "Bloody Fury"."""
    from ruleslawyer.records import Ability
    from tests.factories import sheet

    old = sheet("Gore Wagon", faction="Blood Host", src=CSV,
                abilities=(Ability("Bloody Fury", "Re-roll the Hit roll."), Ability("Deep Strike", "")))
    result = apply_errata([old, _update("Gore Wagon, Blood Fury Ability", "Re-roll hit rolls.")])
    assert result.outcomes[0].applied, result.outcomes[0].reason
    (new,) = [r for r in result.records if r.kind == "datasheet" and r.edition == 11]
    assert [(a.name, a.text) for a in new.abilities] == [("Blood Fury", "Re-roll hit rolls."), ("Deep Strike", "")]
    assert old.abilities[0].name == "Bloody Fury"  # the original is kept
    two = sheet("Gore Wagon", faction="Blood Host", src=CSV,
                abilities=(Ability("Bloody Fury", "a"), Ability("Bloodi Fury", "b")))  # which one?
    assert not apply_errata([two, _update("Gore Wagon, Blood Fury Ability", "c")]).outcomes[0].applied


def test_respelled_names():
    from ruleslawyer.names import respelled

    assert respelled("bloody fury", "blood fury")
    assert not respelled("feel no pain 5", "feel no pain 6")  # a value is never a spelling
    assert not respelled("blood rage", "blood fury") and not respelled("fury", "blood fury")
    assert not respelled("blood fury", "blood fury")  # the same name is no respelling


def test_one_keywords_update_naming_several_units_reaches_each():
    """"Hell Wyrm, Gore Wagon, Keywords Section" (add): each unit's datasheet of the edition
    before gets a printing of the entry's edition with the keyword; the outcome names both."""
    from tests.factories import sheet

    wyrm = sheet("Hell Wyrm", faction="Blood Host", keywords=("VEHICLE",), src=CSV)
    wagon = sheet("Gore Wagon", faction="Blood Host", keywords=("VEHICLE", "TRANSPORT"), src=CSV)
    update = _update("Hell Wyrm, Gore Wagon, Keywords Section", "FRAME", operation="add")
    result = apply_errata([wyrm, wagon, update])
    (outcome,) = result.outcomes
    assert outcome.applied and "Hell Wyrm" in outcome.target_name and "Gore Wagon" in outcome.target_name
    new = {r.name: r for r in result.records if r.kind == "datasheet" and r.edition == 11}
    assert set(new) == {"Hell Wyrm", "Gore Wagon"} and all("FRAME" in r.keywords for r in new.values())
    assert wyrm.keywords == ("VEHICLE",) and wyrm in result.records
