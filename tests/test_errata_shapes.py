"""FAQ and rules-update documents of other shapes, written here from the structures they print:
errata addressed by rule number, titled headers with no page, a one-page update sheet, Q&A with
examples and labels out of place, a codex FAQ whose first heading is a banner."""
from __future__ import annotations

from ruleslawyer.ingest.document import DocumentOrigin
from ruleslawyer.ingest.load.text import load_text
from ruleslawyer.ingest.parse.errata_grammar import numbered_header, value_change
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document
from ruleslawyer.records_json import to_dict


def _parse(text: str, name: str = "mem.txt") -> list[dict]:
    data = text.encode()
    doc = load_text(data, DocumentOrigin(name, name, "markdown" if name.endswith(".md") else "text", "0" * 64,
                                         len(data)))
    return [to_dict(r) for r in parse_document(doc, ParseContext(doc=doc, edition=guess_edition(doc)))]


EVENT_FAQ = """WARHAMMER 40,000
GRAND TOURNAMENT EVENT FAQ
VERSION 1.2

This document collects rules updates and answers to questions that arise at events.

RULES UPDATES

18.01 Stratagems, 2nd paragraph
Change to:
'Each Stratagem can only be used once per phase, unless otherwise stated.'

Deep Strike 20.03
Change the first sentence to read:
'Units with this ability can be set up in Reserves.'

FAQS

Q: Can a unit that arrived from Reserves this turn make a Charge move?
A: Yes.
Example: A unit of Assault Intercessors arrives from Reserves. It can declare a charge as normal.

Q: Does a Battle-shocked unit control objectives?
A: No. Its OC characteristic is 0.
"""


def test_errata_addressed_by_rule_number():
    records = _parse(EVENT_FAQ)
    errata = {(r["page"], r["target"]): r for r in records if r["kind"] == "errata"}
    assert set(errata) == {("18.01", "Stratagems"), ("20.03", "Deep Strike")}
    assert errata["18.01", "Stratagems"]["location"] == "2nd paragraph"
    assert errata["20.03", "Deep Strike"]["text"] == "Units with this ability can be set up in Reserves."
    assert all(r["edition"] == 11 for r in records)  # rules addressed by number: 11th edition
    assert {r["document"] for r in records} == {"Grand Tournament Event"}
    assert not [r for r in records if r["kind"] == "rule"]


def test_an_example_stays_with_its_answer():
    faqs = [r for r in _parse(EVENT_FAQ) if r["kind"] == "faq"]
    assert len(faqs) == 2
    assert faqs[0]["answer"].startswith("Yes.") and "Example: A unit of Assault" in faqs[0]["answer"]
    assert faqs[1]["answer"] == "No. Its OC characteristic is 0."


def test_labels_in_a_column_of_their_own_and_an_answer_before_its_question():
    text = """FAQS

Q:
A:
Can a unit embarked in a TRANSPORT shoot?
Only with Firing Deck.

A: Yes.
Q: Can a CHARACTER lead a unit in Reserves?

Q: Does Lone Operative apply while the model is on an objective?
A: Yes.

Q: Can a unit make two surge moves in one phase?
A: No. Q: Can a TRANSPORT make a surge move?
A: Yes.
"""
    faqs = [(r["question"], r["answer"]) for r in _parse(text) if r["kind"] == "faq"]
    assert faqs == [("Can a unit embarked in a TRANSPORT shoot?", "Only with Firing Deck."),
                    ("Can a CHARACTER lead a unit in Reserves?", "Yes."),
                    ("Does Lone Operative apply while the model is on an objective?", "Yes."),
                    ("Can a unit make two surge moves in one phase?", "No."),
                    ("Can a TRANSPORT make a surge move?", "Yes.")]


UPDATE_SHEET = """WARHAMMER 40,000
RULES UPDATES

INTRODUCTION
These updates apply to all games from 14th August 2026.

HOVER
Some AIRCRAFT can hover. While hovering, its Move characteristic is 20".

TITANIC WALKERS
Models with this ability can move over other models as if they were not there.

20.03 DEEP STRIKE
Units with this ability can be set up in Reserves, and arrive more than 9" away from enemy units.

FIRE OVERWATCH
Change the Effect to read:
'Your unit can shoot that enemy unit as if it were your Shooting phase.'
"""


def test_titled_updates_that_bring_a_rule_are_additions():
    records = _parse(UPDATE_SHEET)
    assert [r["kind"] for r in records] == ["errata"] * 4
    hover, walkers, deep_strike, overwatch = records
    # a rule's number over its wording in full: that rule, replaced
    assert (deep_strike["operation"], deep_strike["page"], deep_strike["target"], deep_strike["title"]) == \
        ("replace", "20.03", "Deep Strike", None)
    assert (hover["operation"], hover["target"], hover["title"]) == ("add", "Hover", "Hover")
    assert hover["text"].startswith("Some AIRCRAFT can hover.")
    assert walkers["operation"] == "add" and walkers["title"] == "Titanic Walkers"
    assert (overwatch["operation"], overwatch["target"], overwatch["location"]) == ("replace", "Fire Overwatch", "Effect")
    assert {r["edition"] for r in records} == {11}  # dated after June 2026
    assert {r["document"] for r in records} == {"Rules Updates"}


CODEX_FAQ = """# WARHAMMER 40,000

# CODEX: SPACE MARINES VERSION 1.1

These documents collect amendments to the rules.

# UPDATES & ERRATA

|Page 79 – Gladius Task Force, Armour of Contempt Stratagem|Change the Target to read: 'One Adeptus Astartes unit.'|
|---|---|

# Page 88 – Captain, Keywords

Change to read: 'Infantry, Character, Captain'

# FAQS

- Q: Can a Captain use Rites of Battle twice in one phase?

A: No.

CODEX: SPACE MARINES 2
"""


def test_codex_faq_named_by_its_title_not_the_banner():
    records = _parse(CODEX_FAQ, "faq.md")
    assert {(r["document"], r["version"]) for r in records} == {("Codex: Space Marines", "1.1")}
    errata = {r["page"]: r for r in records if r["kind"] == "errata"}
    assert errata["79"]["target"] == "Gladius Task Force, Armour of Contempt Stratagem"
    assert (errata["79"]["location"], errata["79"]["text"]) == ("Target", "One Adeptus Astartes unit.")
    faq = [r for r in records if r["kind"] == "faq"]
    assert [(f["question"], f["answer"]) for f in faq] == [("Can a Captain use Rites of Battle twice in one phase?",
                                                            "No.")]


def test_unpaged_headers_of_an_update_page():
    text = """RULES UPDATES

ARMY RULES
Blessings of Khorne, Unbridled Bloodlust
Change to:
'This unit has +1 to charge rolls.'

Rapid Manifestation Stratagem
Change 3" to 6".

Berzerker's Wrath Stratagem, Effect Section
Change to:
'Your unit can make a surge move of up to 8".'

Chaos Land Raider, Chaos Predator
Destructor, Chaos Rhino – Keywords Section
Add 'FRAME'.
"""
    errata = [r for r in _parse(text) if r["kind"] == "errata"]
    assert [(r["target"], r["operation"], r["text"]) for r in errata] == [
        ("Blessings of Khorne, Unbridled Bloodlust", "replace", "This unit has +1 to charge rolls."),
        ("Rapid Manifestation Stratagem", "replace", '6"'),
        ("Berzerker's Wrath Stratagem, Effect Section", "replace", 'Your unit can make a surge move of up to 8".'),
        ("Chaos Land Raider, Chaos Predator Destructor, Chaos Rhino, Keywords Section", "add", "FRAME")]
    assert errata[1]["old_text"] == '3"'


def test_rule_number_header_grammar():
    header = numbered_header("02.02.04 Unit Coherency, 2nd paragraph")
    assert (header.page, header.target, header.location) == ("02.02.04", "Unit Coherency", "2nd paragraph")
    header = numbered_header("DEEP STRIKE 20.03")
    assert (header.page, header.target) == ("20.03", "DEEP STRIKE")
    assert numbered_header("Change the first sentence to read:") is None
    assert value_change('Change 3" to 6".') == (None, '6"', '3"')


def test_update_sheet_with_bold_titles_under_a_bannered_title():
    from ruleslawyer.ingest.document import HEADING, PARAGRAPH, Block, Document, Span

    def block(kind, text, bold=False):
        return Block(kind, spans=(Span(text, bold=bold),), page=1, level=1 if kind == HEADING else 0)

    blocks = (block(HEADING, "WARHAMMER 40,000 RULES UPDATE", bold=True),
              block(PARAGRAPH, "Published 3rd September 2026."),
              block(PARAGRAPH, "Overwatch Limits", bold=True),
              block(PARAGRAPH, "Each player can use the Fire Overwatch Stratagem once per turn."),
              block(PARAGRAPH, "Lone Operatives", bold=True),
              block(PARAGRAPH, "A Lone Operative unit cannot be targeted by ranged attacks more than 12\" away."))
    doc = Document(origin=DocumentOrigin("sheet.pdf", "sheet.pdf", "pdf", "0" * 64), blocks=blocks)
    records = [to_dict(r) for r in parse_document(doc, ParseContext(doc=doc, edition=guess_edition(doc)))]
    assert [(r["kind"], r["operation"], r["title"]) for r in records] == [
        ("errata", "add", "Overwatch Limits"), ("errata", "add", "Lone Operatives")]
    assert records[0]["text"] == "Each player can use the Fire Overwatch Stratagem once per turn."
    assert {r["edition"] for r in records} == {11}


def test_parts_of_a_unit_each_with_its_edit():
    text = """RULES UPDATES

DATASHEETS
Sky Reaver
 ■ Profile: Change M to 12" and OC to '-'.
 ■ Keywords: Remove 'AIRCRAFT'.
"""
    errata = [r for r in _parse(text) if r["kind"] == "errata"]
    assert [(r["target"], r["location"], r["operation"], r["text"]) for r in errata] == [
        ("Sky Reaver, Profile", "M", "replace", '12"'),
        ("Sky Reaver, Profile", "OC", "replace", "-"),
        ("Sky Reaver, Keywords", None, "delete", "AIRCRAFT")]
