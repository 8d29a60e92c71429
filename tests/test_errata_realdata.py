"""Real FAQ/errata PDFs: facts read off the pages by hand, checked against the parser's output."""
from __future__ import annotations

import pytest

from tests.conftest import shared_file
from tests.gold import parsed

TYRANIDS = "timburr1__timburr1.github.io/warhammer_40000_tyranids_en.pdf"
CULTS = "timburr1__timburr1.github.io/gs_cults_errata.pdf"
INDEX_CARDS = "Overcharged-Plasma__warhammer-pdfs/index_card_errata_v1.2_YRK9ZpspblzJHLb7.pdf"


def records(shared, name):
    path = shared / "realdata" / name
    if not path.exists():
        pytest.skip(f"{path} is not there")
    return parsed(path)


def erratum(recs, target, page=None):
    found = [r for r in recs if r["kind"] == "errata" and r["target"] == target
             and (page is None or r["page"] == page)]
    assert len(found) == 1, sorted({r["target"] or "" for r in recs if r["kind"] == "errata"})
    return found[0]


def faq(recs, start):
    found = [r for r in recs if r["kind"] == "faq" and r["question"].startswith(start)]
    assert len(found) == 1, [r["question"][:50] for r in recs if r["kind"] == "faq"]
    return found[0]


def test_tyranids_title_block_and_entries(shared):
    recs = records(shared, TYRANIDS)
    first = next(r for r in recs if r["kind"] == "errata")
    assert (first["document"], first["version"], first["edition"]) == ("Codex: Tyranids", "1.0", 9)
    bio = erratum(recs, "Sporocyst, Abilities, Bio-fortress", "110")
    assert bio["operation"] == "delete"
    eye = erratum(recs, "Old One Eye, Alpha Leader", "88")
    assert (eye["operation"], eye["location"]) == ("append", "end of this ability")
    assert eye["text"].startswith("In addition, while any other friendly <Hive Fleet> Carnifex")
    spawn = erratum(recs, "Sporocyst, Abilities, Spawn Spore Mines", "110")
    assert (spawn["operation"], spawn["location"]) == ("replace", "second sentence")
    assert spawn["text"].startswith("If it does so, add a new unit of 3 <Hive Fleet> Spore Mines")


def test_tyranids_header_joined_to_its_instruction(shared):
    """The PDF prints "Page 93 – Deathleaper, … Skin" and "Change the second sentence to read:"
    so close together that they load as one block."""
    skin = erratum(records(shared, TYRANIDS), "Deathleaper, Abilities, Superior Chameleonic Skin", "93")
    assert (skin["operation"], skin["location"]) == ("replace", "second sentence")


def test_tyranids_questions_across_columns(shared):
    recs = records(shared, TYRANIDS)
    q = faq(recs, "If you use a Maleceptor")
    assert q["question"].endswith("Psychic phase?") and q["answer"] == "No."
    q = faq(recs, "Do you pay reinforcement points in matched play for units brought back")
    assert q["answer"] == "Yes."
    q = faq(recs, "Deathleaper")
    assert "For example, an enemy Red Terror model makes a melee attack" in q["answer"]


def test_cults_entries(shared):
    recs = records(shared, CULTS)
    jackals = erratum(recs, "Atalan Jackals, unit description", "95")
    assert (jackals["operation"], jackals["location"]) == ("replace", "second sentence")
    assert jackals["text"].startswith("It can include up to 4 additional Atalan Jackals")
    ambush = erratum(recs, "Abilities, Cult Ambush", "78")
    assert ambush["text"].startswith("Matched Play: In matched play")
    kel = erratum(recs, "Kelermorph, Abilities, Heroic Deeds, Heroic Inspiration", "92")  # header over two lines
    assert kel["operation"] == "replace"


def test_index_card_errata(shared):
    recs = records(shared, INDEX_CARDS)
    # Every block is claimed, so no rules come from the errata's headings.
    assert not [r for r in recs if r["kind"] in ("rule", "stratagem", "table")]
    mort = erratum(recs, "Mortifiers, Abilities, Anguish of the Unredeemed")
    assert mort["page"] is None and mort["operation"] == "replace"
    assert mort["text"].startswith("Each time") and "Charge move" in mort["text"]
    assert mort["highlight"] == "new"  # its header is printed in red
    boltgun = erratum(recs, "Dominion Squad, Ranged Weapons, boltgun")
    assert (boltgun["operation"], boltgun["text"]) == ("add", "[ASSAULT, RAPID FIRE 1].")
    onager = erratum(recs, "Onager Dunecrawler, Ranged Weapons")
    assert onager["operation"] == "delete" and "ADEPT" not in onager["text"] and "AELDARI" not in onager["text"]
    # An unpaged heading is the target whole; only the instruction's own words make a location.
    transvector = erratum(recs, "Archaeopter Transvector, Transport section, 2nd sentence")
    assert (transvector["location"], transvector["text"]) == (None, "It cannot transport Jump Pack or Kataphron models.")
    strands = erratum(recs, "Army Rule Card, Strands of Fate, 4th paragraph")
    assert (strands["operation"], strands["location"], strands["text"]) == \
        ("append", "start of this paragraph", "Once per phase,")
    assert strands["faction_heading"] == "Aeldari"
    serpent = erratum(recs, "Wave Serpent, Ranged Weapons, twin starcannon")
    assert (serpent["operation"], serpent["location"], serpent["text"]) == ("replace", "Attacks", "2")
    centura = erratum(recs, "Knight-Centura, Melee Weapons")
    assert (centura["operation"], centura["title"]) == ("add", "Close combat weapon")
    # Two instructions under one heading are two entries.
    krieg = [r for r in recs if r["kind"] == "errata" and r["target"] == "Death Korps of Krieg, Wargear Options"]
    assert [(r["operation"], r["location"]) for r in krieg] == [("replace", "2nd bullet"), ("add", None)]
    assert krieg[1]["text"].startswith("- 1 Death Korps Trooper equipped with a lasgun")
    assert "Infantry Squad" not in krieg[1]["text"]  # the next page's header, run onto the wording
    # A faction heading, then headers without a dash: they start entries of their own.
    assert erratum(recs, "Rogue Trader Entourage, Keywords section")["text"] == "Retinue"
    aegis = erratum(recs, "Aegis Defence Line")
    assert aegis["operation"] == "add" and aegis["text"].startswith("When this model is set up")
    assert erratum(recs, "Astra Militarum Infantry Armoury Card, asterisk note")["operation"] == "replace"
    assert erratum(recs, "Wurrboy, Keywords section")["text"] == "Beast Snagga"
    armoury = [r for r in recs if r["kind"] == "errata" and r["target"] == "Adeptus Astartes Armoury Card"]
    assert [r["title"] for r in armoury] == ["Flamer", "Grav-gun", "Meltagun", "Plasma gun"]  # one per "Add … profile:"
    assert "Flamer [IGNORES COVER, TORRENT]" in armoury[0]["text"]


def test_faq_section_inside_a_faction_page(shared):
    """A Wahapedia faction page ends with Q/A tables: they become faq records and the rest of
    the page still gives its stratagems and rules (only the Q/A blocks are claimed)."""
    recs = records(shared, "AndrewDeWitt__GrimLog/necrons_faction_page.html")
    orb = faq(recs, "Can a unit be affected by a Resurrection Orb")
    assert orb["question"].endswith("more than once per turn?") and orb["answer"] == "No."
    kinds = {r["kind"] for r in recs}
    assert {"stratagem", "rule", "faq"} <= kinds
    assert not any(r["kind"] == "errata" for r in recs)


def test_index_card_errata_with_a_wahapedia_datasheet(shared, tmp_path):
    """The index-card errata and the Kasrkin page ingested together: the keywords entry finds
    the datasheet (the page already prints REGIMENT), and the Chaos Terminator Squad's
    invulnerable save entry leaves the core rule 'Invulnerable Saves' on that page alone."""
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.store import Store

    cards = shared_file(shared, f"realdata/{INDEX_CARDS}")
    page = shared_file(shared, "realdata/AndrewDeWitt__GrimLog/astra-militarum_Kasrkin.html")
    with Store(tmp_path / "s.sqlite") as store:
        ingest_paths(store, [cards, page])
        corpus = load_corpus(store)
    by_target = {o.erratum.target: o for o in corpus.outcomes}
    kasrkin = by_target["Kasrkin, Keywords section"]
    assert kasrkin.applied and kasrkin.target_name == "Kasrkin: keywords"
    (sheet,) = [r for r in corpus.records if r.kind == "datasheet" and r.name == "Kasrkin"]
    assert "REGIMENT" in sheet.keywords
    terminators = by_target["Chaos Terminator Squad, Invulnerable Save"]
    assert not terminators.applied
    (saves,) = [r for r in corpus.records if r.kind == "rule" and r.name == "Invulnerable Saves"]
    assert not saves.changes and "4+" != saves.text


def test_index_card_weapon_errata_on_the_wahapedia_export(shared):
    """The index-card errata v1.2 with the 10th-edition Wahapedia export: weapon entries edit the
    datasheets (or find them already reading so), facts read off the card and the export."""
    from ruleslawyer.amend.apply import apply_errata
    from ruleslawyer.records_json import from_dict
    from ruleslawyer.ingest.sources.wahapedia import detect

    def records_of(folder):
        return tuple(detect(folder).records())

    export = shared / "realdata" / "wahadumper__wahadumper"
    if not export.is_dir():
        pytest.skip(f"{export} is not there")
    errata = [from_dict(r) for r in records(shared, INDEX_CARDS) if r["kind"] == "errata"]
    sheets = [r for r in records_of(export) if r.kind == "datasheet"]
    result = apply_errata(sheets + errata)
    outcome = {o.erratum.target: o for o in result.outcomes}
    fusion = outcome["Corsair Voidscarred, Ranged Weapons, fusion pistol"]
    assert fusion.applied and fusion.detail in (None, "2 datasheets of that name")
    (voidscarred,) = [r for r in result.records if r.kind == "datasheet" and r.name == "Corsair Voidscarred"
                      and r.faction == "Aeldari"]
    (pistol,) = [w for w in voidscarred.weapons if w.name == "Fusion pistol"]
    assert pistol.D == "D3" and voidscarred.changes[0].location == "ranged weapons: fusion pistol"
    serpent = outcome["Wave Serpent, Ranged Weapons, twin starcannon"]
    assert serpent.applied and serpent.detail == "the datasheet already reads so"  # the export prints A 2
    shoota = outcome["Stompa, Ranged Weapons, twin big shoota"]  # 'Change Range to '36"'': the inch mark kept
    assert shoota.applied and shoota.detail == "the datasheet already reads so"
