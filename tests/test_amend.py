"""Applying errata: unit tests on small records, and seeds 000 + 003 together."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from ruleslawyer.amend.apply import apply_errata, version_key
from ruleslawyer.names import name_key
from ruleslawyer.amend.report import select_outcomes
from ruleslawyer.amend.text import Place, parse_location, split_sentences
from ruleslawyer.errors import NotFoundError
from ruleslawyer.ingest.formats import load_file
from ruleslawyer.ingest.parse.parsing import parse_document
from ruleslawyer.records import Ability, Datasheet, Erratum, Rule, Source
from tests.conftest import seed_path

from tests.factories import SRC, erratum, rule


TWO_PARAS = "First one. Second one. Third one.\nAnother start. Another middle, e.g. this. Another end."


def only(result, name):
    found = [r for r in result.records if getattr(r, "name", None) == name]
    assert len(found) == 1, [getattr(r, "name", None) for r in result.records]
    return found[0]


def test_whole_rule_replaced_with_tolerant_name_and_original_kept():
    original = rule("LOOK OUT, SIR", "Old wording.")
    result = apply_errata([original, erratum("Look Out, Sir", "New wording.", bullets=("Recap.",))])
    amended = only(result, "LOOK OUT, SIR")
    assert amended.text == "New wording." and amended.summary == ("Recap.",)
    assert original.text == "Old wording." and original.changes == ()
    (change,) = amended.changes
    assert (change.document, change.version, change.page, change.operation) == ("Core Book", "1.0", "12", "replace")
    assert (change.old_text, change.new_text) == ("Old wording.", "New wording.")
    assert [o.applied for o in result.outcomes] == [True]


def test_plural_and_punctuation_tolerance():
    assert name_key("Fortification") == name_key("Fortifications")
    assert name_key("8. Place Objective Markers") == name_key("place objective marker")
    assert name_key("Look Out, Sir") == name_key("LOOK OUT SIR")


def test_sentence_of_paragraph_replaced():
    result = apply_errata([rule("Thing", TWO_PARAS),
                           erratum("Thing", "Replaced.", location="third sentence of the second paragraph")])
    assert only(result, "Thing").text.split("\n")[1] == "Another start. Another middle, e.g. this. Replaced."


def test_header_style_location_and_end_of_paragraph_append():
    result = apply_errata([
        rule("Thing", TWO_PARAS),
        erratum("Thing", "Replaced.", location="first paragraph, second sentence"),
        erratum("Thing", "Added.", operation="append", location="end of the first paragraph"),
    ])
    amended = only(result, "Thing")
    assert amended.text.split("\n")[0] == "First one. Replaced. Third one. Added."
    assert len(amended.changes) == 2


def test_missing_location_is_reported():
    result = apply_errata([rule("Thing", TWO_PARAS),
                           erratum("Thing", "X.", location="second sentence of the fifth paragraph")])
    (outcome,) = result.outcomes
    assert not outcome.applied and outcome.reason.startswith("location not found")
    assert only(result, "Thing").text == TWO_PARAS


def test_target_not_in_corpus_and_other_edition():
    result = apply_errata([rule("Thing", "Text.", edition=10), erratum("Thing", "New.", edition=9)])
    (outcome,) = result.outcomes
    assert not outcome.applied and outcome.reason == "target not in the corpus"


def test_added_sub_rule_becomes_new_rule():
    e = erratum("Rare Rules", "Body text.", operation="add", title="Charging Aircraft", bullets=("Recap.",))
    result = apply_errata([rule("Other", "x"), e])
    new = only(result, "Charging Aircraft")
    assert (new.section, new.text, new.summary, new.edition) == (("Rare Rules",), "Body text.", ("Recap.",), 9)
    assert new.changes[0].operation == "add" and new.changes[0].old_text == ""


def test_datasheet_ability_amended():
    sheet = Datasheet(name="Sporocyst", source=SRC, edition=9,
                      abilities=(Ability("Spawn Spore Mines", "Old one. Old two."),))
    e = erratum("Sporocyst, Abilities, Spawn Spore Mines", "New two.", location="second sentence")
    result = apply_errata([sheet, e])
    amended = only(result, "Sporocyst")
    assert amended.abilities[0].text == "Old one. New two."
    assert result.outcomes[0].target_name == "Sporocyst: Spawn Spore Mines"


def test_newer_version_wins_in_any_order():
    old = erratum("Thing", "Version one wording.", version="1.2")
    new = erratum("Thing", "Version two wording.", version="1.10")
    for order in ([old, new], [new, old]):
        result = apply_errata([rule("Thing", "Printed.")] + order)
        amended = only(result, "Thing")
        assert amended.text == "Version two wording." and len(amended.changes) == 1
        superseded = [o for o in result.outcomes if not o.applied]
        assert len(superseded) == 1 and "superseded by version 1.10" in superseded[0].reason
    assert version_key("1.10") > version_key("1.9") > version_key("1.1a") > version_key("1.1")


def test_versions_with_letters_and_extra_numbers_compare():
    """Regression: "1.7a" against "1.7.1" once compared "a" with 1 and crashed every command."""
    assert sorted(["1.7.1", "1.7a", "1.7", "1.10", None], key=version_key) == [None, "1.7", "1.7a", "1.7.1", "1.10"]
    old = erratum("Thing", "Lettered wording.", version="1.7a")
    new = erratum("Thing", "Dotted wording.", version="1.7.1")
    for order in ([old, new], [new, old]):
        result = apply_errata([rule("Thing", "Printed.")] + order)
        assert only(result, "Thing").text == "Dotted wording."
        (superseded,) = result.unapplied
        assert superseded.erratum.version == "1.7a" and "superseded by version 1.7.1" in superseded.reason


def test_same_entry_twice_applies_once_and_reapplying_is_idempotent():
    e = erratum("Thing", "New.")
    result = apply_errata([rule("Thing", "Old."), e, dataclasses.replace(e)])
    assert len(only(result, "Thing").changes) == 1
    again = apply_errata(result.records)
    assert len(only(again, "Thing").changes) == 1 and only(again, "Thing").text == "New."


def test_select_outcomes():
    result = apply_errata([rule("Thing", "Old."), erratum("Thing", "New."), erratum("Nothing", "New.")])
    assert len(select_outcomes(result.outcomes, "core")) == 2
    assert [o.erratum.target for o in select_outcomes(result.outcomes, unapplied=True)] == ["Nothing"]
    with pytest.raises(NotFoundError):
        select_outcomes(result.outcomes, "codex")


def test_locations_parse():
    assert parse_location("third sentence of the first paragraph") == Place(paragraph=1, sentence=3)
    assert parse_location("third paragraph, second sentence") == Place(paragraph=3, sentence=2)
    assert parse_location("end of the second paragraph") == Place(paragraph=2, at_end=True)
    assert parse_location("last paragraph") == Place(paragraph=-1)
    assert parse_location("end of this Crusade rules entry") == Place(at_end=True)
    assert parse_location(None) == Place()
    assert parse_location("two 6\" vertical distances on this battlefield's map") is None
    assert split_sentences("Roll (e.g. a D6). Then stop. 'Quoted.' Done") == \
        ["Roll (e.g. a D6).", "Then stop.", "'Quoted.'", "Done"]


# ---------------------------------------------------------------- seeds 000 + 003
@pytest.fixture(scope="module")
def seeds(shared):
    rules = parse_document(load_file(seed_path(shared, "000", ".txt")))
    faq = parse_document(load_file(seed_path(shared, "003", ".txt")))
    return rules, faq


def test_seed_errata_applied_or_reported(seeds):
    rules, faq = seeds
    entries = [r for r in faq if r.kind == "errata"]
    result = apply_errata(rules + faq)
    applied = [o for o in result.outcomes if o.applied]
    reported = [o for o in result.outcomes if not o.applied and o.reason]
    assert len(applied) + len(reported) == len(entries) == len(result.outcomes)
    assert applied and reported


def gold_erratum(shared, page):
    """The gold errata record of seed 003 for FAQ page `page` (expected wording, read at test time)."""
    gold = shared / "gold" / (seed_path(shared, "003", ".txt").stem + ".jsonl")
    rows = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines() if line.strip()]
    (row,) = [r for r in rows if r["kind"] == "errata" and r["page"] == page]
    return row


def test_seed_look_out_sir_replaced(seeds, shared):
    rules, faq = seeds
    result = apply_errata(rules + faq)
    amended = [r for r in result.records if r.kind == "rule" and r.name == "Look Out, Sir"]
    assert len(amended) == 1
    expected = gold_erratum(shared, "219")
    assert expected["target"] == "Look Out, Sir" and expected["operation"] == "replace"
    assert amended[0].text == expected["text"]
    (change,) = amended[0].changes
    assert (change.document, change.version, change.page) == ("Core Book", "1.7", "219")
    printed = next(r for r in rules if r.kind == "rule" and r.name == "Look Out, Sir")
    assert change.old_text == printed.text


def test_seed_embark_change_lands_in_transports(seeds, shared):
    """Seed 000 has no "Embark" rule, but its Transports rule prints the sentence the p210 entry
    replaces (in its third paragraph), so the entry lands there by wording."""
    rules, faq = seeds
    result = apply_errata(rules + faq)
    outcome = next(o for o in result.outcomes if o.erratum.page == "210")
    assert outcome.applied and outcome.target_name == "Transports" and outcome.target_kind == "rule"
    printed = next(r for r in rules if r.kind == "rule" and r.name == "Transports")
    amended = next(r for r in result.records if r.kind == "rule" and r.name == "Transports")
    new_sentence = gold_erratum(shared, "210")["text"]
    assert new_sentence not in printed.text and new_sentence in amended.text
    (change,) = amended.changes
    assert change.page == "210" and change.location == "second sentence of the third paragraph"
    # The replaced sentence was printed in the original (third paragraph) and is gone now.
    old_third = printed.text.splitlines()[2]
    assert change.old_text in old_third and change.old_text not in amended.text
    assert "embarked" in change.old_text  # the same subject, not some other sentence


def test_seed_charging_aircraft_is_a_new_rule(seeds):
    rules, faq = seeds
    result = apply_errata(rules + faq)
    assert not [r for r in rules if getattr(r, "name", "") == "Charging Aircraft"]
    new = [r for r in result.records if r.kind == "rule" and r.name == "Charging Aircraft"]
    assert len(new) == 1 and new[0].edition == 9 and new[0].changes[0].page == "363"


def _faq_version(shared, tmp_path: Path, version: str) -> Path:
    text = seed_path(shared, "003", ".txt").read_text(encoding="utf-8")
    assert "Indomitus Version 1.7" in text
    out = tmp_path / f"faq_{version}.txt"
    out.write_text(text.replace("Indomitus Version 1.7", f"Indomitus Version {version}"), encoding="utf-8")
    return out


def test_store_twice_and_second_version_leave_one_amendment(shared, tmp_store, tmp_path):
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.library.corpus import load_corpus

    copy = tmp_path / "copy_of_faq.txt"
    copy.write_text(seed_path(shared, "003", ".txt").read_text(encoding="utf-8"), encoding="utf-8")
    ingest_paths(tmp_store, [seed_path(shared, "000", ".txt"), seed_path(shared, "003", ".txt"), copy])
    ingest_paths(tmp_store, [seed_path(shared, "003", ".txt")])
    corpus = load_corpus(tmp_store)
    look = [r for r in corpus.records if r.kind == "rule" and r.name == "Look Out, Sir"]
    assert len(look) == 1 and len(look[0].changes) == 1
    assert len([r for r in corpus.records if getattr(r, "name", "") == "Charging Aircraft"]) == 1

    ingest_paths(tmp_store, [_faq_version(shared, tmp_path, "1.8")])
    corpus = load_corpus(tmp_store)
    look = [r for r in corpus.records if r.kind == "rule" and r.name == "Look Out, Sir"]
    assert len(look) == 1 and [c.version for c in look[0].changes] == ["1.8"]
    assert len([r for r in corpus.records if getattr(r, "name", "") == "Charging Aircraft"]) == 1
    superseded = [o for o in corpus.outcomes if o.reason and "superseded by version 1.8" in o.reason]
    older = [r for r in corpus.originals if r.kind == "errata" and r.version == "1.7"]
    assert older and len(superseded) == len(older)


def test_stratagem_effect_and_generic_target_parts():
    from ruleslawyer.records import Stratagem

    strat = Stratagem(name="Pathogenic Slime", source=SRC, edition=9, effect="Use it early. Add 1 to damage.")
    e = erratum("Stratagems, Pathogenic Slime, rules text", "Use it once per battle round.",
                location="first sentence")
    result = apply_errata([strat, e])
    amended = only(result, "Pathogenic Slime")
    assert amended.effect == "Use it once per battle round. Add 1 to damage."
    assert result.outcomes[0].applied and result.outcomes[0].target_kind == "stratagem"


def test_two_documents_amend_one_rule_in_the_same_order_whatever_the_input_order():
    a = erratum("Thing", "From the codex.", operation="append", document="Codex: Examples")
    b = dataclasses.replace(erratum("Thing", "From the core book.", operation="append"),
                            source=Source("core.pdf"))
    texts = {only(apply_errata([rule("Thing", "Printed.")] + order), "Thing").text for order in ([a, b], [b, a])}
    assert len(texts) == 1


def test_words_added_to_the_start_of_a_paragraph():
    assert parse_location("start of the 2nd paragraph") == Place(paragraph=2, at_start=True)
    result = apply_errata([rule("Strands of Fate", "One.\nTwo.\nThree."),
                           erratum("Strands of Fate", "Once per phase,", operation="append",
                                   location="start of the 2nd paragraph")])
    assert only(result, "Strands of Fate").text == "One.\nOnce per phase, Two.\nThree."


def test_load_corpus_with_lettered_and_dotted_faq_versions(shared, tmp_store, tmp_path):
    """Regression: FAQ versions "1.7a" and "1.7.1" in one store crashed load_corpus."""
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.library.corpus import load_corpus

    ingest_paths(tmp_store, [_faq_version(shared, tmp_path, "1.7a"), _faq_version(shared, tmp_path, "1.7.1")])
    corpus = load_corpus(tmp_store)
    versions = {r.version for r in corpus.originals if r.kind == "errata"}
    assert versions == {"1.7a", "1.7.1"}
    superseded = [o for o in corpus.outcomes if o.reason and "superseded by version 1.7.1" in o.reason]
    assert superseded and all(o.erratum.version == "1.7a" for o in superseded)


def test_a_note_carried_by_two_copies_of_a_faq_is_kept_once():
    from ruleslawyer.amend.apply import apply_errata
    from ruleslawyer.records import Faq, Note, Source

    notes = [Note(name="Invented Note", source=Source(f), document="Example FAQ", version="1.0", text="Same words.")
             for f in ("faq.pdf", "faq.txt")]
    answers = [Faq(question="Q?", answer="A.", source=Source(f), document="Example FAQ", version="1.0")
               for f in ("faq.pdf", "faq.txt")]
    other = Note(name="Invented Note", source=Source("v2.pdf"), document="Other FAQ", version="1.0", text="New.")
    result = apply_errata(notes + answers + [other])
    kept = [(r.kind, r.source.file) for r in result.records]
    assert kept == [("note", "faq.pdf"), ("faq", "faq.pdf"), ("note", "v2.pdf")]


def test_a_newer_version_of_a_faq_withdraws_what_it_no_longer_prints():
    from ruleslawyer.amend.apply import apply_errata
    from ruleslawyer.records import Faq, Source

    def answer(question, version, file):
        return Faq(question=question, answer="No.", source=Source(file), document="Example Pack", version=version,
                   edition=11)

    old = [answer("Can I charge twice?", "1.0", "v1.pdf"), answer("Can I shoot twice?", "1.0", "v1.pdf"),
           erratum("Kept Rule", "Roll a D6.", document="Example Pack", version="1.0", edition=11,
                   src=Source("v1.pdf"))]
    new = [answer("Can I shoot twice?", "1.1", "v2.pdf"),
           erratum("Kept Rule", "Roll a D6.", document="Example Pack", version="1.1", edition=11,
                   src=Source("v2.pdf"))]
    result = apply_errata(old + new)
    current = {(r.kind, r.source.file) for r in result.records}
    assert current == {("faq", "v2.pdf"), ("errata", "v2.pdf")}
    assert all(r.version == "1.0" for r in old) and len(old) == 3  # the originals are kept as they were


# ---------------------------------------------------------------- datasheet parts
def _squad(**kw):
    return Datasheet(name="Gloom Wardens", source=SRC, edition=10, keywords=("INFANTRY", "RETINUE", "GLOOM WARDENS"),
                     **kw)


def test_keywords_section_append_delete_and_replace():
    add = erratum("Gloom Wardens, Keywords section", "Regiment", operation="append", edition=10)
    result = apply_errata([_squad(), add])
    sheet = only(result, "Gloom Wardens")
    assert sheet.keywords == ("INFANTRY", "RETINUE", "GLOOM WARDENS", "REGIMENT")
    assert (sheet.changes[0].old_text, sheet.changes[0].location) == ("INFANTRY, RETINUE, GLOOM WARDENS", "keywords")
    assert result.outcomes[0].applied and result.outcomes[0].target_name == "Gloom Wardens: keywords"

    drop = erratum("Gloom Wardens, Keywords section", "Delete this keyword.", operation="delete",
                   location="'Retinue'", edition=10)
    assert only(apply_errata([_squad(), drop]), "Gloom Wardens").keywords == ("INFANTRY", "GLOOM WARDENS")

    new = erratum("Gloom Wardens, Keywords", "Infantry, Grenades, Gloom Wardens", edition=10)
    assert only(apply_errata([_squad(), new]), "Gloom Wardens").keywords == ("INFANTRY", "GRENADES", "GLOOM WARDENS")


def test_keywords_entry_already_printed_or_unreadable_changes_nothing():
    again = erratum("Gloom Wardens, Keywords section", "Infantry", operation="append", edition=10)
    result = apply_errata([_squad(), again])
    assert only(result, "Gloom Wardens").changes == () and result.outcomes[0].applied
    assert result.outcomes[0].detail == "the datasheet already reads so"
    run_on = erratum("Gloom Wardens, Keywords section", "Regiment\nSPACE MARINES\nFlamer [IGNORES COVER]\t12\"\tD6",
                     operation="append", edition=10)
    result = apply_errata([_squad(), run_on])
    assert only(result, "Gloom Wardens").changes == () and not result.outcomes[0].applied
    assert "not a list of keywords" in result.outcomes[0].reason
    missing = erratum("Gloom Wardens, Keywords section", "x", operation="delete", location="'Psyker'", edition=10)
    assert "PSYKER" in apply_errata([_squad(), missing]).outcomes[0].reason


def test_other_datasheet_parts_never_land_on_a_rule_of_that_name():
    """'Unit, Invulnerable Save' once replaced the core rule 'Invulnerable Saves' with '4+'."""
    core = rule("Invulnerable Saves", "Some models have an invulnerable save.", edition=10)
    entry = erratum("Gloom Wardens, Invulnerable Save", "4+", edition=10)
    result = apply_errata([core, entry])
    assert only(result, "Invulnerable Saves").text == core.text
    assert result.outcomes[0].reason == "target not in the corpus"
    result = apply_errata([core, _squad(), entry])
    assert only(result, "Invulnerable Saves").text == core.text
    assert not result.outcomes[0].applied and "invulnerable save" in result.outcomes[0].reason
