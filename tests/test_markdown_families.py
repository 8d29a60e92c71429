"""Markdown errata/FAQ documents of two families, written here from the structure they print (the
wording is made up): a balance dataslate (a dated title, parts by faction heading, rules reprinted
under their title with or without an instruction) and a tournament companion (a "<X>: FAQS"
section about another product, a card amendments section, designer's notes between answers)."""
from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.ingest.document import DocumentOrigin
from ruleslawyer.ingest.load.text import load_text
from ruleslawyer.ingest.parse.errata_sections import subject_heading
from ruleslawyer.ingest.parse.inference import infer_date, title_date
from ruleslawyer.ingest.parse.lines import Line
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document
from ruleslawyer.ingest.pipeline import ingest_paths
from ruleslawyer.library.corpus import load_corpus
from ruleslawyer.records import Erratum
from ruleslawyer.records_json import from_dict, to_dict
from ruleslawyer.store import Store


def _doc(text: str, name: str = "mem.md"):
    data = text.encode()
    return load_text(data, DocumentOrigin(name, name, "markdown", "0" * 64, len(data)))


def _parse(text: str) -> list[dict]:
    doc = _doc(text)
    return [to_dict(r) for r in parse_document(doc, ParseContext(doc=doc, edition=guess_edition(doc)))]


DATASLATE = """# WARHAMMER 40,000

# BALANCE DATASLATE MARCH 2027

These adjustments apply at every matched play event until the next iteration of this slate.

# CORE RULES

# Engagement Range

Change to: 'A model is within Engagement Range of another if it is within 2" horizontally.'

# FACTION RULES

# NECRONS

# GLITTERING TOMB DETACHMENT

# Silver Wake Detachment Rule

Change first paragraph to: 'Each time a Necrons unit from your army is set up, add 1 to its Move characteristic.'

# RUSTING HOST DETACHMENT

# Eternal Grip Detachment Rule

Change to: 'Each time a Necrons model from your army makes an attack, re-roll a Hit roll of 1.'

# ORKS

# LOUD MOB DETACHMENT

# Big Noise Stratagem

TARGET: One Orks Infantry unit from your army.

EFFECT: Until the end of the turn, add 1 to Charge rolls made for your unit.

# DATASHEETS

# Rokkit Buggy, Bumpy Ride Ability

Bumpy Ride: Each time this model makes a Normal move, it can move over terrain features as if they were not there.
"""


def test_a_dated_title_names_the_document_and_its_version():
    records = _parse(DATASLATE)
    assert records and {(r["document"], r["version"]) for r in records} == {("Balance Dataslate", "March 2027")}
    found = infer_date(_doc(DATASLATE))
    assert found is not None and found.value == "2027-03-01"


def test_a_date_on_its_own_line_under_the_title():
    split = DATASLATE.replace("# BALANCE DATASLATE MARCH 2027", "# BALANCE DATASLATE\n\n# MARCH 2027")
    records = _parse(split)
    assert {(r["document"], r["version"]) for r in records} == {("Balance Dataslate", "March 2027")}
    found = infer_date(_doc(split))
    assert found is not None and found.value == "2027-03-01"


def test_title_date_forms():
    assert title_date("Event Primer, 4 February 2028") is not None
    assert title_date("Event Primer, 4 February 2028").iso == "2028-02-04"
    assert title_date("Points Update 2028-02-04").name == "Points Update"
    assert title_date("WARHAMMER 40,000") is None
    assert title_date("May 2028") is None  # a date alone names no document


def test_errata_carry_the_faction_heading_they_sit_under():
    errata = {r["target"]: r for r in _parse(DATASLATE) if r["kind"] == "errata"}
    assert errata["Engagement Range"]["faction"] is None  # the core rules part: no faction
    assert errata["Silver Wake Detachment Rule"]["faction"] == "Necrons"
    assert errata["Silver Wake Detachment Rule"]["location"] == "first paragraph"
    assert errata["Eternal Grip Detachment Rule"]["faction"] == "Necrons"
    assert errata["Big Noise Stratagem"]["faction"] == "Orks"


def test_an_instruction_holding_its_wording_ends_at_the_next_heading():
    errata = {r["target"]: r for r in _parse(DATASLATE) if r["kind"] == "errata"}
    text = errata["Silver Wake Detachment Rule"]["text"]
    assert text.startswith("Each time a Necrons unit") and "RUSTING HOST" not in text.upper()
    assert "ORKS" not in errata["Eternal Grip Detachment Rule"]["text"]


def test_a_rule_reprinted_under_its_title_replaces_it():
    errata = {r["target"]: r for r in _parse(DATASLATE) if r["kind"] == "errata"}
    stratagem = errata["Big Noise Stratagem"]
    assert stratagem["operation"] == "replace" and stratagem["location"] is None
    assert stratagem["text"].splitlines() == ["TARGET: One Orks Infantry unit from your army.",
                                              "EFFECT: Until the end of the turn, add 1 to Charge rolls made for "
                                              "your unit."]
    ability = errata["Rokkit Buggy, Bumpy Ride Ability"]
    assert ability["operation"] == "replace" and ability["text"].startswith("Bumpy Ride: Each time")
    assert "Datasheets" not in errata  # a part heading names no rule


def test_a_bold_title_over_plain_wording_is_a_reprinted_rule_too():
    bold = DATASLATE.replace("# Big Noise Stratagem", "**Big Noise Stratagem**")
    errata = {r["target"]: r for r in _parse(bold) if r["kind"] == "errata"}
    assert errata["Big Noise Stratagem"]["operation"] == "replace"
    assert errata["Big Noise Stratagem"]["text"].startswith("TARGET: One Orks Infantry unit")


def test_one_faction_documents_reprint_nothing():
    # A faction pack's stratagem cards also end in "Stratagem": with one faction heading only,
    # a title over plain wording is no reprinted rule.
    pack = DATASLATE.split("# ORKS")[0].replace("# NECRONS\n", "") + "\n# Big Noise Stratagem\n\nThe mob roars.\n"
    assert not [r for r in _parse(pack) if r["kind"] == "errata" and r["target"] == "Big Noise Stratagem"]


def test_faction_survives_export_and_the_store(tmp_path: Path):
    erratum = next(r for r in _parse(DATASLATE) if r["kind"] == "errata" and r["faction"] == "Orks")
    rebuilt = from_dict(erratum)
    assert isinstance(rebuilt, Erratum) and rebuilt.faction == "Orks"
    doc = tmp_path / "dataslate.md"
    doc.write_text(DATASLATE, encoding="utf-8")
    with Store(tmp_path / "x.sqlite") as store:
        ingest_paths(store, [doc])
        stored = [r for r in load_corpus(store, amended=False).records if isinstance(r, Erratum)]
    assert {r.target: r.faction for r in stored}["Eternal Grip Detachment Rule"] == "Necrons"


COMPANION = """# Game Rules

## WARHAMMER 40,000

## LEAGUE EVENT COMPANION (VERSION 2.0)

## INTRODUCTION
This companion helps organisers run league events with the League Card Deck.

## CARD AMENDMENTS FOR EVENTS

PRIMARY MISSION
HOLD THE LINE

Stand fast where others fall.

END OF YOUR TURN            VICTORY POINTS

Each objective marker you control.

4VP

This Primary Mission cannot be used in the first round of a league event.

3

---

## LEAGUE CARD DECK: FAQS

Questions about the League Card Deck are answered below.

Q: Can a unit in Strategic Reserves score Hold the Line?
A: No.

Example: A unit of five models arrives in the third round; it scores from the end of that turn.

Q: Does a Battle-shocked unit count for Hold the Line?
A: Only if it has an Objective Control characteristic above 0.

Designer's Note: Organisers may wish to place objective markers away from tall terrain.

## LEAGUE MISSION POOL

Choose six rounds from the pool below and play them in any order.
"""


def test_a_subject_faq_section_names_what_its_questions_are_about():
    records = _parse(COMPANION)
    faqs = [r for r in records if r["kind"] == "faq"]
    assert len(faqs) == 2
    assert {(r["document"], r["version"]) for r in faqs} == {("League Card Deck", "2.0")}
    assert faqs[0]["answer"].splitlines() == ["No.", "Example: A unit of five models arrives in the third round; "
                                                     "it scores from the end of that turn."]
    assert "Designer" not in faqs[1]["answer"] and "Organisers" not in faqs[1]["answer"]


def test_an_amended_card_is_one_replace_erratum():
    errata = [r for r in _parse(COMPANION) if r["kind"] == "errata"]
    assert [(r["target"], r["operation"], r["page"]) for r in errata] == [("Hold the Line", "replace", None)]
    lines = errata[0]["text"].splitlines()
    assert lines[:3] == ["PRIMARY MISSION", "HOLD THE LINE", "Stand fast where others fall."]
    assert lines[-1] == "This Primary Mission cannot be used in the first round of a league event."
    # the cards of the one product the document's FAQ section is about
    assert errata[0]["document"] == "League Card Deck" and errata[0]["version"] == "2.0"


def test_the_subject_ends_at_the_next_section():
    records = _parse(COMPANION)
    assert not [r for r in records if r["kind"] in ("faq", "errata") and "six rounds" in str(r)]


def test_a_subject_errata_section_names_what_its_entries_amend():
    errata_part = """## LEAGUE CARD DECK ERRATA

# Hold the Line, When section

Change to: 'WHEN: End of your opponent's turn.'

"""
    records = _parse(COMPANION.replace("## LEAGUE CARD DECK: FAQS", errata_part + "## LEAGUE CARD DECK: FAQS"))
    erratum = next(r for r in records if r["kind"] == "errata" and r["target"] == "Hold the Line, When section")
    assert (erratum["document"], erratum["version"]) == ("League Card Deck", "2.0")
    assert erratum["text"] == "WHEN: End of your opponent's turn."


def test_cards_of_a_document_with_no_subject_keep_its_name():
    plain = COMPANION.replace("## LEAGUE CARD DECK: FAQS", "## FAQS")
    errata = [r for r in _parse(plain) if r["kind"] == "errata"]
    assert [r["document"] for r in errata] == ["League Event Companion"]


def test_a_heading_run_onto_the_wording_above_it_is_split_off():
    glued = DATASLATE.replace("re-roll a Hit roll of 1.'\n\n# ORKS", "re-roll a Hit roll of 1.'# ORKS")
    assert glued != DATASLATE
    errata = {r["target"]: r for r in _parse(glued) if r["kind"] == "errata"}
    assert errata["Eternal Grip Detachment Rule"]["text"].endswith("re-roll a Hit roll of 1.")
    assert errata["Big Noise Stratagem"]["faction"] == "Orks"


def test_subject_headings_name_a_product_not_the_document_parts():
    def subject(text: str):
        return subject_heading(Line(0, text, "heading"))

    assert subject("KILL ZONE TERRAIN: FAQS") == ("faq", "Kill Zone Terrain")
    assert subject("Kill Zone Terrain Errata & FAQ") == ("faq", "Kill Zone Terrain")
    assert subject("Kill Zone Terrain: Errata") == ("errata", "Kill Zone Terrain")
    for parts in ("FAQS", "Errata & FAQ", "Official FAQ", "The Designer's Commentary, Errata and FAQ",
                  "WARHAMMER 40,000 FAQ"):
        assert subject(parts) is None, parts
    assert subject_heading(Line(0, "Kill Zone Terrain: FAQS", "paragraph")) is None  # headings only


def test_amended_cards_that_print_their_name_first():
    cards = """## CARD AMENDMENTS

HOLD FAST
CORE - BATTLE TACTIC STRATAGEM

WHEN: Your Command phase.

TARGET: One unit from your army.

EFFECT: Until the start of your next turn, your unit has the Benefit of Cover.

RUN FOR IT
CORE - STRATEGIC PLOY STRATAGEM

WHEN: Your Movement phase.

EFFECT: Your unit can Advance and still declare a charge this turn.

"""
    records = _parse(COMPANION.replace("## CARD AMENDMENTS FOR EVENTS", cards + "## CARD AMENDMENTS FOR EVENTS"))
    errata = {r["target"]: r for r in records if r["kind"] == "errata"}
    assert set(errata) == {"Hold Fast", "Run for It", "Hold the Line"}
    assert errata["Hold Fast"]["text"].splitlines()[-1].startswith("EFFECT: Until the start of your next turn")
    assert errata["Run for It"]["text"].splitlines()[:2] == ["RUN FOR IT", "CORE - STRATEGIC PLOY STRATAGEM"]


# A two-column page read out of order: the Orks part's detachment is printed after the next
# faction's datasheets part (made-up wording).
OUT_OF_ORDER = """# WARHAMMER 40,000

# BALANCE DATASLATE MARCH 2027

These adjustments apply at every matched play event until the next iteration of this slate.

# FACTION RULES

# ORKS

# ARMY RULE

# Waaagh! Army Rule

Change to: 'Once per battle, in your Command phase, your army can call a Waaagh!.'

# NECRONS

# DATASHEETS

# Lychguard, Melee Weapons

Change to: 'Each time this unit makes a melee attack, add 1 to the Wound roll.'

# DREAD MOB DETACHMENT

# Grot Shields Stratagem, CP Cost

Change to '2CP'.

# TAU EMPIRE

# DATASHEETS

# Stealth Suits, Abilities

Change to: 'Each time a ranged attack targets this unit, subtract 1 from the Hit roll.'

# KAUYON DETACHMENT

# Patient Hunter Detachment Rule

Change to: 'Ranged attacks made in the third battle round or later have [SUSTAINED HITS 1].'
"""


def test_a_detachment_read_out_of_order_keeps_its_faction():
    """A detachment heading after a faction's datasheets part continues the faction part before it
    when that one has not reached its datasheets part; otherwise it stays where it is printed."""
    factions = {r["target"]: r["faction"] for r in _parse(OUT_OF_ORDER) if r["kind"] == "errata"}
    assert factions["Lychguard, Melee Weapons"] == "Necrons"
    assert factions["Grot Shields Stratagem, CP Cost"] == "Orks"
    # the Necrons part before it has reached its datasheets: the Kauyon detachment stays T'au
    assert factions["Patient Hunter Detachment Rule"] == factions["Stealth Suits, Abilities"] != "Necrons"


@pytest.mark.realdata
def test_real_dataslate_noble_lance_is_imperial_knights(shared):
    """The June 2024 dataslate prints the Imperial Knights' Noble Lance detachment after the Grey
    Knights' datasheets (a two-column page read out of order)."""
    path = shared / "realdata" / "nov26" / "dataslate10_balance_dataslate_2024-06.md"
    records = _parse(path.read_text(encoding="utf-8"))
    factions = {r["target"]: r["faction"] for r in records if r["kind"] == "errata"}
    assert factions["Trophy Claim Stratagem, CP Cost"] == "Imperial Knights"
    assert factions["Brotherhood Librarian, Vortex of Doom Ability"] == "Grey Knights"
