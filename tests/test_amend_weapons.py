"""Errata on weapon profiles (index-card entries), applied to copies of small datasheets."""
from __future__ import annotations

import pytest

from ruleslawyer.amend.apply import apply_errata
from ruleslawyer.amend.weapons import WeaponEditError, edit_weapons, weapon_target
from ruleslawyer.records import Datasheet, Erratum, Source, Weapon

from tests.factories import source

SRC = source("cards.txt")
LANCE = Weapon("Glimmer lance", range='36"', A="1", skill="3+", S="12", AP="-3", D="D6", abilities=("twin-linked",))
CANNON_STANDARD = Weapon("Ember cannon - standard", range='24"', A="2", skill="3+", S="7", AP="-2", D="1",
                         abilities=("assault", "hazardous"))
CANNON_HOT = Weapon("Ember cannon - overcharge", range='24"', A="2", skill="3+", S="8", AP="-3", D="2",
                    abilities=("hazardous",))
CLAWS = Weapon("Close combat weapon", range="Melee", A="3", skill="3+", S="4", AP="0", D="1")


def sheet(name="Glimmer Skiff", weapons=(LANCE, CANNON_STANDARD, CANNON_HOT, CLAWS), edition=10, **kw):
    return Datasheet(name=name, source=SRC, edition=edition, weapons=weapons, **kw)


def entry(target, text, operation="renumber", location=None, edition=10):
    return Erratum(document="Index Cards", version="1.2", page=None, target=target, source=SRC,
                   location=location, operation=operation, text=text, edition=edition)


def amended(*records):
    result = apply_errata(list(records))
    (ds,) = [r for r in result.records if r.kind == "datasheet"]
    return ds, result.outcomes[0]


def by_name(ds, name):
    (w,) = [w for w in ds.weapons if w.name == name]
    return w


def test_characteristics_change_on_a_copy():
    e = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Change Attacks to '2', Strength to '14' and AP to '-4'.",
              location="Attacks")
    original = sheet()
    ds, outcome = amended(original, e)
    assert (by_name(ds, "Glimmer lance").A, by_name(ds, "Glimmer lance").S, by_name(ds, "Glimmer lance").AP) == \
        ("2", "14", "-4")
    assert original.weapons[0] == LANCE  # the original is kept as printed
    assert outcome.applied and outcome.target_name == "Glimmer Skiff: ranged weapons: glimmer lance"
    (change,) = ds.changes
    assert change.location == "ranged weapons: glimmer lance"
    assert change.old_text == 'Glimmer lance: Range 36", A 1, BS 3+, S 12, AP -3, D D6 [twin-linked]'
    assert change.new_text == 'Glimmer lance: Range 36", A 2, BS 3+, S 14, AP -4, D D6 [twin-linked]'


def test_keywords_added_in_the_sheets_case_and_removed():
    add = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "[ASSAULT, RAPID FIRE 1].", operation="append")
    ds, _ = amended(sheet(), add)
    assert by_name(ds, "Glimmer lance").abilities == ("twin-linked", "assault", "rapid fire 1")
    drop = entry("Glimmer Skiff, Ranged Weapons, ember cannon - standard", "Remove the [HAZARDOUS] ability.",
                 operation="delete", location="[HAZARDOUS] ability")
    ds, _ = amended(sheet(), drop)
    assert by_name(ds, "Ember cannon - standard").abilities == ("assault",)
    assert by_name(ds, "Ember cannon - overcharge").abilities == ("hazardous",)  # only the profile named


def test_a_weapon_name_without_its_profile_names_every_profile():
    e = entry("Glimmer Skiff, Ranged Weapons, ember cannon", "Change Range to '18\"'.", location="Range")
    ds, _ = amended(sheet(), e)
    assert {w.range for w in ds.weapons if w.name.startswith("Ember cannon")} == {'18"'}


def test_profiles_deleted_added_and_replaced():
    gone = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Delete this weapon profile.", operation="delete")
    ds, _ = amended(sheet(), gone)
    assert "Glimmer lance" not in {w.name for w in ds.weapons}
    by_location = entry("Glimmer Skiff, Ranged Weapons", "Delete the glimmer lance profile.", operation="delete",
                        location="glimmer lance profile")
    assert "Glimmer lance" not in {w.name for w in amended(sheet(), by_location)[0].weapons}
    added = entry("Glimmer Skiff, Melee Weapons", "\tRANGE\tA\tWS\tS\tAP\tD\nTwin hull blades [TWIN-LINKED]\tMelee\t4"
                  "\t3+\t6\t-1\t1", operation="add")
    ds, _ = amended(sheet(), added)
    assert by_name(ds, "Twin hull blades") == Weapon("Twin hull blades", range="Melee", A="4", skill="3+", S="6",
                                                     AP="-1", D="1", abilities=("twin-linked",))  # the sheet's case
    again = entry("Glimmer Skiff, Melee Weapons", "RANGE\tA\tWS\tS\tAP\tD\nClose combat weapon\tMelee\t4\t3+\t4\t0\t1",
                  operation="add")
    ds, _ = amended(sheet(), again)
    assert [w.A for w in ds.weapons if w.name == "Close combat weapon"] == ["4"]  # replaced, not doubled
    assert ds.weapons.index(by_name(ds, "Close combat weapon")) == 3  # where it stood
    same = entry("Glimmer Skiff, Melee Weapons", "RANGE\tA\tWS\tS\tAP\tD\nClose combat weapon\tMelee\t3\t3+\t4\t0\t1",
                 operation="add")
    assert amended(sheet(), same)[1].detail == "the datasheet already reads so"


def test_a_current_printing_already_reads_so():
    e = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Change Damage to 'D6'.", location="Damage")
    ds, outcome = amended(sheet(), e)
    assert ds.changes == () and outcome.applied and outcome.detail == "the datasheet already reads so"
    gone_already = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Remove the [BLAST] ability.",
                         operation="delete", location="[BLAST] ability")
    assert amended(sheet(), gone_already)[1].detail == "the datasheet already reads so"


def test_refusals_name_the_reason():
    missing = entry("Glimmer Skiff, Ranged Weapons, storm bolter", "Delete this weapon profile.", operation="delete")
    ds, outcome = amended(sheet(), missing)
    assert ds.changes == () and not outcome.applied and outcome.reason == "no weapon named 'storm bolter' on the datasheet"
    nameless = entry("Glimmer Skiff, Melee Weapons", "RANGE\tA\tWS\tS\tAP\tD\nMelee\t3\t3+\t4\t0\t1", operation="add")
    assert amended(sheet(), nameless)[1].reason == "the new profile is not a name and six characteristics"
    run_on = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Sky Barge – Ranged Weapons, glimmer lance")
    assert "not understood" in amended(sheet(), run_on)[1].reason


def test_the_sheets_it_fits_among_namesakes():
    # Two listings of one name and edition, only one with the weapon: that one changes.
    bare = sheet(weapons=(CLAWS,), faction="Drukhari")
    e = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Change Attacks to '2'.", location="Attacks")
    result = apply_errata([bare, sheet(faction="Aeldari"), e])
    without, with_lance = [r for r in result.records if r.kind == "datasheet"]
    assert without.changes == () and by_name(with_lance, "Glimmer lance").A == "2"
    assert result.outcomes[0].applied and result.outcomes[0].detail is None


def test_an_entry_of_no_known_edition_is_for_the_newest_datasheets():
    e = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Change Attacks to '2'.", location="Attacks",
              edition=None)
    result = apply_errata([sheet(edition=9), sheet(), e])
    nine, ten = [r for r in result.records if r.kind == "datasheet"]
    assert nine.changes == () and by_name(nine, "Glimmer lance").A == "1" and by_name(ten, "Glimmer lance").A == "2"


def test_weapon_target_and_direct_edit():
    assert weapon_target(entry("Glimmer Skiff, Melee Weapons", "x")).label == "melee weapons"
    assert weapon_target(entry("Glimmer Skiff, Keywords section", "x")) is None
    target = weapon_target(entry("Glimmer Skiff, Melee Weapons, glimmer lance", "x"))
    with pytest.raises(WeaponEditError, match="no weapon named"):  # a ranged weapon is not in the melee section
        edit_weapons(sheet().weapons, entry("Glimmer Skiff, Melee Weapons, glimmer lance", "Change Attacks to '2'."),
                     target)


def test_every_namesake_it_fits_is_amended():
    # One unit listed under two factions (a Wahapedia export does so): both listings change.
    e = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Change Attacks to '2'.", location="Attacks")
    result = apply_errata([sheet(faction="Aeldari"), sheet(faction="Drukhari"), e])
    assert [by_name(r, "Glimmer lance").A for r in result.records if r.kind == "datasheet"] == ["2", "2"]
    assert result.outcomes[0].detail == "2 datasheets of that name"


@pytest.fixture
def two_skiffs(runner, tmp_path):
    """A store holding the Glimmer Skiff under two factions and a weapon erratum."""
    import os

    from ruleslawyer.store import Store

    e = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Change Attacks to '2'.", location="Attacks")
    with Store(os.environ["RULESLAWYER_DB"]) as store:
        store.replace_file(path="cards.txt", name="cards.txt", sha256="0" * 64, format="text", size=1,
                           records=[sheet(faction="Aeldari"), sheet(faction="Drukhari"), e])
    return runner


def test_show_picks_a_faction_and_prints_the_change(two_skiffs):
    from ruleslawyer.cli.main import cli

    both = two_skiffs.invoke(cli, ["show", "glimmer skiff"])
    assert both.exit_code == 1 and "--faction" in both.output
    one = two_skiffs.invoke(cli, ["show", "glimmer skiff", "--faction", "drukh"])
    assert one.exit_code == 0, one.output
    assert "Drukhari" in one.output and "Errata applied:" in one.output
    assert 'was: Glimmer lance: Range 36", A 1,' in one.output and 'now: Glimmer lance: Range 36", A 2,' in one.output
    printed = two_skiffs.invoke(cli, ["show", "glimmer skiff", "--faction", "drukh", "--as-printed"])
    assert "Errata applied" not in printed.output


def test_site_marks_the_changed_weapon_value():
    from ruleslawyer.render.templating import make_env

    e = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Change Attacks to '2'.", location="Attacks")
    original = sheet()
    ds, _ = amended(original, e)
    page = make_env().from_string('{% from "partials/datasheet.html" import datasheet %}{{ datasheet(d, none, o) }}')
    html = page.render(d=ds, o=original)
    assert "<td><ins>2</ins> <del>1</del></td>" in html
    assert html.count("<ins>") == 1  # nothing else is marked
    assert "<ins>" not in page.render(d=ds, o=None)  # cards pass no original: nothing marked


def test_review_cases_from_the_index_cards():
    # "Change WS to '3+'." and an unquoted value.
    ds, _ = amended(sheet(), entry("Glimmer Skiff, Melee Weapons, close combat weapon", "Change WS to '2+'."))
    assert by_name(ds, "Close combat weapon").skill == "2+"
    ds, _ = amended(sheet(), entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Change Strength to 14."))
    assert by_name(ds, "Glimmer lance").S == "14"
    # "Change to:" with a profile replaces the profile.
    ds, _ = amended(sheet(), entry("Glimmer Skiff, Ranged Weapons, glimmer lance",
                                   "RANGE\tA\tBS\tS\tAP\tD\nGlimmer lance [TWIN-LINKED]\t36\"\t2\t3+\t12\t-3\tD6",
                                   operation="replace"))
    assert by_name(ds, "Glimmer lance").A == "2" and ds.weapons.index(by_name(ds, "Glimmer lance")) == 0
    # The same profile again, in the FAQ's capitals, is what the sheet already prints.
    same = entry("Glimmer Skiff, Ranged Weapons", "RANGE\tA\tBS\tS\tAP\tD\n"
                 "Glimmer lance [TWIN-LINKED]\t36\"\t1\t3+\t12\t-3\tD6", operation="add")
    assert amended(sheet(), same)[1].detail == "the datasheet already reads so"
    # A keyword named only in the wording still removes just the keyword.
    ds, _ = amended(sheet(), entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Remove the [TWIN-LINKED] ability.",
                                   operation="delete"))
    assert by_name(ds, "Glimmer lance").abilities == ()


def test_no_known_edition_means_the_corpus_newest_not_any_namesake():
    # Only a 9th edition Glimmer Skiff, but the corpus's datasheets go up to 10th: not applied to it.
    other = Datasheet(name="Sky Barge", source=SRC, edition=10)
    e = entry("Glimmer Skiff, Ranged Weapons, glimmer lance", "Change Attacks to '2'.", location="Attacks",
              edition=None)
    result = apply_errata([sheet(edition=9), other, e])
    assert all(r.changes == () for r in result.records if r.kind == "datasheet")
    assert result.outcomes[0].reason == "no edition 10 datasheet of that name"
