"""Errata on wargear options and unit composition (index-card entries), applied to small datasheets."""
from __future__ import annotations

from ruleslawyer.amend.apply import apply_errata
from ruleslawyer.records import Datasheet, Erratum, Source

from tests.factories import source

SRC = source("cards.txt")
WARGEAR = ("This model\u2019s glimmer lance can be replaced with one of the following:\n- 1 ember cannon\n- 1 star bolas",
           "This model can be equipped with 1 skiff beacon.")
COMPOSITION = ("1-2 Glimmer Skiffs", "Every model is equipped with: glimmer lance; hull blades.")


def sheet(**kw):
    return Datasheet(name="Glimmer Skiff", source=SRC, edition=10, wargear_options=WARGEAR,
                     composition=COMPOSITION, **kw)


def entry(target, text, operation="replace", location=None):
    return Erratum(document="Index Cards", version="1.2", page=None, target=target, source=SRC,
                   location=location, operation=operation, text=text, edition=10)


def amended(e):
    result = apply_errata([sheet(), e])
    (ds,) = [r for r in result.records if r.kind == "datasheet"]
    return ds, result.outcomes[0]


def test_nth_bullet_replaced_and_logged():
    ds, outcome = amended(entry("Glimmer Skiff, Wargear Options", "- This model can be equipped with 2 skiff beacons.",
                                location="2nd bullet"))
    assert ds.wargear_options == (WARGEAR[0], "This model can be equipped with 2 skiff beacons.")
    assert outcome.applied and outcome.target_name == "Glimmer Skiff: wargear options"
    (change,) = ds.changes
    assert (change.old_text, change.new_text) == (WARGEAR[1], "This model can be equipped with 2 skiff beacons.")


def test_sub_bullet_added_to_a_bullet_and_new_bullets_appended():
    ds, _ = amended(entry("Glimmer Skiff, Wargear Options", "- 1 void harpoon", operation="add", location="1st bullet"))
    assert ds.wargear_options[0].endswith("\n- 1 star bolas\n- 1 void harpoon")
    ds, _ = amended(entry("Glimmer Skiff, Wargear Options", "- One model can take 1 flare.", operation="append"))
    assert ds.wargear_options == WARGEAR + ("One model can take 1 flare.",)


def test_whole_list_keeps_sub_bullets_under_their_bullet():
    text = "- This model's glimmer lance can be replaced with one of the following:\n- 1 ember cannon\n" \
           "- 1 void harpoon\n- This model can be equipped with 1 skiff beacon."
    ds, _ = amended(entry("Glimmer Skiff, Wargear Options", text))
    assert ds.wargear_options == ("This model's glimmer lance can be replaced with one of the following:\n"
                                  "- 1 ember cannon\n- 1 void harpoon", "This model can be equipped with 1 skiff beacon.")


def test_composition_line_and_model_count():
    ds, _ = amended(entry("Glimmer Skiff, Unit Composition", "Every model is equipped with: glimmer lance.",
                          location="2nd line"))
    assert ds.composition == ("1-2 Glimmer Skiffs", "Every model is equipped with: glimmer lance.")
    ds, _ = amended(entry("Glimmer Skiff, Unit Composition", "1 Glimmer Skiff"))
    assert ds.composition == ("1 Glimmer Skiff", COMPOSITION[1])  # the line counting models


def test_words_swapped_and_already_printed():
    ds, _ = amended(entry("Glimmer Skiff, Wargear Options", "Change '1 star bolas' to '1 void harpoon'.",
                          operation="renumber"))
    assert "- 1 void harpoon" in ds.wargear_options[0] and "star bolas" not in ds.wargear_options[0]
    ds, outcome = amended(entry("Glimmer Skiff, Unit Composition", "1-2 Glimmer Skiffs"))
    assert ds.changes == () and outcome.detail == "the datasheet already reads so"


def test_refusals_name_the_reason():
    for e, reason in [
        (entry("Glimmer Skiff, Wargear Options, 1st bullet, 2nd sub-bullet", "1 void harpoon"),
         "changes a sub-bullet: reported, not applied"),
        (entry("Glimmer Skiff, Wargear Options", "x", location="5th bullet"),
         "there is no 5th bullet in the wargear options (it has 2)"),
        (entry("Glimmer Skiff, Unit Composition, wargear lists", "x"), "place not understood: 'wargear lists'"),
        (entry("Glimmer Skiff, Wargear Options", "Change '1 sky anchor' to '1 void harpoon'.", operation="renumber"),
         "'1 sky anchor' is not in the wargear options"),
    ]:
        ds, outcome = amended(e)
        assert ds.changes == () and not outcome.applied and outcome.reason == reason


def test_site_marks_the_new_bullet():
    from ruleslawyer.render.templating import make_env

    ds, _ = amended(entry("Glimmer Skiff, Wargear Options", "- This model can be equipped with 2 skiff beacons.",
                          location="2nd bullet"))
    page = make_env().from_string('{% from "partials/datasheet.html" import datasheet %}{{ datasheet(d, none, o) }}')
    html = page.render(d=ds, o=sheet())
    assert "<li><ins>This model can be equipped with 2 skiff beacons.</ins></li>" in html
    assert html.count("<ins>") == 1


def test_review_cases_from_the_index_cards():
    # "- 1 plasma pistol" is not printed just because "- 1 plasma pistol and 1 power fist" is.
    base = Datasheet(name="Glimmer Skiff", source=SRC, edition=10, composition=COMPOSITION,
                     wargear_options=("This model's pistol can be replaced with one of the following:\n"
                                      "- 1 plasma pistol and 1 power fist",))
    result = apply_errata([base, entry("Glimmer Skiff, Wargear Options", "- 1 plasma pistol", operation="add",
                                       location="1st bullet")])
    (ds,) = [r for r in result.records if r.kind == "datasheet"]
    assert ds.wargear_options[0].endswith("\n- 1 plasma pistol and 1 power fist\n- 1 plasma pistol")
    # The "2nd line" of a card may be the line counting models in our list: refused, not overwritten.
    ds, outcome = amended(entry("Glimmer Skiff, Unit Composition", "Every model is equipped with: glimmer lance.",
                                location="1st line"))
    assert ds.changes == () and "counts models" in outcome.reason
    # Apostrophes as printed (’) and as the FAQ gives them (') are the same wording.
    ds, outcome = amended(entry("Glimmer Skiff, Wargear Options", "- This model's glimmer lance can be replaced with "
                                "one of the following:\n- 1 ember cannon\n- 1 star bolas\n- This model can be "
                                "equipped with 1 skiff beacon."))
    assert outcome.detail == "the datasheet already reads so"
    # A second instruction run on into the wording is refused, not taken as bullets.
    ds, outcome = amended(entry("Glimmer Skiff, Wargear Options", "- One model can take 1 flare.\n"
                                "Add 3rd bullet to read:\n- Two models can take 1 flare."))
    assert ds.changes == () and outcome.reason == "the entry's wording runs into another instruction"
