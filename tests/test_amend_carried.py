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
