"""The FAQ/errata parser: gold scores on seed 003 (text and PDF) and the entry grammar."""
from __future__ import annotations

import json

import pytest

from ruleslawyer.ingest.document import DocumentOrigin
from ruleslawyer.ingest.parse.errata_entries import parse_entries, parse_header, read_instruction
from ruleslawyer.ingest.parse.errata_text import drop_stray_endings
from ruleslawyer.ingest.parse.lines import Line
from ruleslawyer.ingest.parse.parsing import parse_document
from ruleslawyer.ingest.load.text import load_text
from tests.conftest import seed_path
from tests.gold import format_report, parsed, score_input


def _check(report: dict, kind: str, recall: float, fields: float) -> None:
    r = report[kind]
    assert r["recall"] >= recall and r["field_accuracy"] >= fields, format_report(report)


@pytest.mark.parametrize("suffix", [".txt", ".pdf"])
def test_seed_003_errata_and_notes_score(shared, suffix):
    report = score_input(shared, seed_path(shared, "003", suffix), {"errata", "note"})
    _check(report, "errata", 0.97, 0.95)
    _check(report, "note", 0.97, 0.95)


def _records(shared, suffix=".txt"):
    return [r for r in parsed(seed_path(shared, "003", suffix))]


def _erratum(records, page, target=None, title=None):
    found = [r for r in records if r["kind"] == "errata" and r["page"] == page
             and (target is None or r["target"] == target) and (title is None or r["title"] == title)]
    assert len(found) == 1, [(r["page"], r["target"], r["title"]) for r in records if r["kind"] == "errata"]
    return found[0]


def test_faq_document_is_only_errata_and_notes(shared):
    """Every block of the FAQ is claimed: its headings do not come back as rules."""
    kinds = {r["kind"] for r in _records(shared)}
    assert kinds == {"errata", "note"}


def _gold(shared, page, target=None, title=None):
    """The gold errata record of seed 003 for `page` (expected wording, read at test time)."""
    gold = shared / "gold" / (seed_path(shared, "003", ".txt").stem + ".jsonl")
    rows = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines() if line.strip()]
    return _erratum(rows, page, target, title)


def test_look_out_sir_entry(shared):
    e = _erratum(_records(shared), "219", "Look Out, Sir")
    assert (e["document"], e["version"], e["operation"], e["location"], e["edition"]) == \
        ("Core Book", "1.7", "replace", None, 9)
    gold = _gold(shared, "219", "Look Out, Sir")
    # The quoted wording with its three bullet lines, without the closing quote; the summary
    # bullet printed after the quote is kept apart.
    assert e["text"] == gold["text"] and not e["text"].endswith("'")
    assert sum(line.startswith("- ") for line in e["text"].splitlines()) == 3
    assert e["bullets"] == gold["bullets"] and len(e["bullets"]) == 1


def test_locations_from_header_and_instruction(shared):
    records = _records(shared)
    assert _erratum(records, "210")["location"] == _gold(shared, "210")["location"]
    assert _gold(shared, "210")["location"].startswith("second sentence")
    assert _erratum(records, "215")["location"] == "first paragraph"
    assert _erratum(records, "215")["operation"] == "append"
    assert _erratum(records, "256")["location"] == "third paragraph, second sentence"
    assert _erratum(records, "256")["target"] == "Setting Up Strategic Reserve Units"
    crossfire = _erratum(records, "290")
    assert crossfire["operation"] == "renumber"
    assert crossfire["designers_note"] == _gold(shared, "290")["designers_note"]
    assert _erratum(records, "333-335")["operation"] == "renumber"


def test_added_rules_titles_and_last_entry(shared):
    records = _records(shared)
    assert _erratum(records, "247")["title"] == "Fortifications"
    assert _erratum(records, "247")["target"] is None
    hits = _erratum(records, "363", "Rare Rules", "Scoring Additional Hits")
    assert hits["operation"] == "add"
    # The file's last line has no newline; its entry is parsed like the others.
    last = _erratum(records, "365", "Rules Term Glossary")
    assert last["title"] == _gold(shared, "365", "Rules Term Glossary")["title"]
    assert last["text"] == _gold(shared, "365", "Rules Term Glossary")["text"]


def test_pdf_colour_flags(shared):
    """Magenta entries are "new", blue ones "revised" (the README says six magenta, one blue)."""
    records = _records(shared, ".pdf")
    flags = [r["highlight"] for r in records if r["kind"] in ("errata", "note") and r["highlight"]]
    assert flags.count("new") == 6 and flags.count("revised") == 1
    scoring = [r for r in records if r["kind"] == "errata" and r["title"] == "Scoring Additional Hits"]
    assert scoring and scoring[0]["highlight"] == "new"


@pytest.mark.parametrize("line, page, target, location", [
    ("Page 219 – Look Out, Sir", "219", "Look Out, Sir", None),
    ("Page 363, Rare Rules", "363", "Rare Rules", None),
    ("*Pages 41-43 - Crusade Rules, Battle Sequence", "41-43", "Crusade Rules, Battle Sequence", None),
    ("Page 58 – Psychic Phase, first paragraph", "58", "Psychic Phase", "first paragraph"),
    ("Page 247", "247", None, None),
])
def test_headers(line, page, target, location):
    h = parse_header(line)
    assert (h.page, h.target, h.location) == (page, target, location)


def test_not_a_header():
    assert parse_header("Pages of rules follow") is None
    assert parse_header("Page 12: Change the third sentence to read:") is None


@pytest.mark.parametrize("instruction, operation, location", [
    ("Change this rule to read:", "replace", None),
    ("Change to read:", "replace", None),
    ("Change second sentence to read:", "replace", "second sentence"),
    ("Add the following at the end of the third paragraph:", "append", "end of the third paragraph"),
    ("Add the following sub-section:", "add", None),
    ("Add the following to this sidebar:", "append", None),
    ("Delete this ability.", "delete", None),
])
def test_instructions(instruction, operation, location):
    header = parse_header("Page 1 – Something")
    got = read_instruction(instruction, header)
    assert (got.operation, got.location) == (operation, location)


def _doc(text: str):
    data = text.encode()
    return load_text(data, DocumentOrigin("mem.txt", "mem.txt", "text", "0" * 64, len(data)))


def test_question_answer_pairs_and_curly_quotes():
    doc = _doc("CODEX: EXAMPLES\n\nVersion 1.2\n\nUPDATES & ERRATA\n\n"
               "Page 10 – Big Gun\n\nChange the first sentence to read:\n\n\u2018Roll two dice.\u2019\n\n"
               "Page 11 – Small Gun\n\nDelete this ability.\n\nFAQS\n\n"
               "Q: Can a unit shoot twice?\nA: No.\n\nQ: Does the Big Gun count as Heavy? A: Yes.")
    records = parse_document(doc)
    errata = [r for r in records if r.kind == "errata"]
    faqs = [r for r in records if r.kind == "faq"]
    assert [(e.page, e.target, e.operation, e.text) for e in errata] == [
        ("10", "Big Gun", "replace", "Roll two dice."),
        ("11", "Small Gun", "delete", "Delete this ability."),
    ]
    assert errata[0].document == "Codex: Examples" and errata[0].version == "1.2"
    assert [(f.question, f.answer) for f in faqs] == [
        ("Can a unit shoot twice?", "No."), ("Does the Big Gun count as Heavy?", "Yes.")]
    assert not [r for r in records if r.kind == "rule"]


def test_index_card_headers_without_a_dash_end_the_entry_above():
    # Index-card errata v1.2: a one-line "Delete 'Retinue'." entry, then a faction heading and
    # bold headers without a dash ("Aegis Defence Line") used to be read as its wording; a header
    # wrapped onto a second bold line, and a page footer among the entries, are read too.
    doc = _doc("INDEX CARDS\n\nVersion 1.2\n\n"
               "**Mortifiers – Abilities, Anguish**\n\nChange to:\n\n'Each time this unit ends a Charge move.'\n\n"
               "**Vypers – Unit Composition**\n\nChange to '1 Vyper'.\n\n"
               "**Rogue Trader Entourage – Keywords section**\n\nDelete 'Retinue'.\n\n"
               "# ASTRA MILITARUM\n\n"
               "**Aegis Defence Line**\n\nAdd Deployment section, to read:\n\n'Set up 1 platform section.'\n\n"
               "**Astra Militarum Infantry Armoury Card, asterisk note**\n\nChange to:\n\n'* Ballistic Skill 3+.'\n\n"
               "**Wurrboy – Keywords section**\n\nAdd 'Beast Snagga'.\n\nPage 3\n\n"
               "**Razorshark Strike Fighter – Ranged Weapons,**\n\n**accelerator burst cannon**\n\n"
               "Change AP to '-1'.\n\n"
               "# SPACE MARINES\n\n"
               "**Adeptus Astartes Armoury Card**\n\nAdd flamer profile:\n\n'Flamer 12\" D6'")
    errata = [r for r in parse_document(doc) if r.kind == "errata"]
    # Quoted words are the wording: "Delete 'Retinue'." deletes "Retinue", "Add 'Beast Snagga'."
    # adds a keyword (an entry, not words at the end of a text), "Change AP to '-1'." sets AP.
    assert [(e.target, e.operation, e.location, e.text) for e in errata] == [
        ("Mortifiers, Abilities, Anguish", "replace", None, "Each time this unit ends a Charge move."),
        ("Vypers, Unit Composition", "replace", None, "1 Vyper"),
        ("Rogue Trader Entourage, Keywords section", "delete", None, "Retinue"),
        ("Aegis Defence Line", "add", None, "Set up 1 platform section."),
        ("Astra Militarum Infantry Armoury Card, asterisk note", "replace", None, "* Ballistic Skill 3+."),
        ("Wurrboy, Keywords section", "add", None, "Beast Snagga"),
        ("Razorshark Strike Fighter, Ranged Weapons, accelerator burst cannon", "replace", "AP", "-1"),
        ("Adeptus Astartes Armoury Card", "add", None, 'Flamer 12" D6'),
    ]
    # Sections and profiles added by name carry it as their title; the faction heading is kept.
    assert [e.title for e in errata if e.operation == "add" and e.title] == ["Deployment", "Flamer"]
    assert [e.faction_heading for e in errata] == [None] * 3 + ["Astra Militarum"] * 4 + ["Space Marines"]


def test_a_bold_line_without_a_dash_is_no_header_in_paged_errata():
    # Only unpaged (index-card) errata take a dashless bold line as a header: in a paged FAQ it
    # is part of the entry above.
    doc = _doc("CODEX: EXAMPLES\n\nVersion 1.0\n\nPage 10 – Big Gun\n\nAdd the following ability:\n\n"
               "**Bigger Gun**\n\nDelete the second sentence of Big Gun.\n\n"
               "Page 11 – Small Gun\n\nDelete this ability.")
    errata = [r for r in parse_document(doc) if r.kind == "errata"]
    # The bold line is the added ability; the two instructions under "Big Gun" are two entries.
    assert [(e.target, e.operation) for e in errata] == [("Big Gun", "add"), ("Big Gun", "delete"),
                                                         ("Small Gun", "delete")]
    assert errata[0].text == "Bigger Gun"


def test_ordinary_rules_text_is_not_an_faq(shared):
    records = parsed(seed_path(shared, "000", ".txt"))
    assert not [r for r in records if r["kind"] in ("errata", "note", "faq")]


def test_stray_bullet_tail_repeated_from_another_bullet_is_dropped():
    # Core Book FAQ 1.7, page 363: a wrapped line of one bullet was printed again after another.
    bullets = ["The limit does not apply to CPs gained during a phase. Breakout Stratagem.",
               "Rules that prevent Falling Back take precedence over the Desperate Breakout Stratagem.",
               "Roll again. See page 12.", "Roll once more. See page 12."]
    assert drop_stray_endings(bullets) == [
        "The limit does not apply to CPs gained during a phase.", bullets[1], bullets[2], bullets[3]]


def test_stray_tails_are_looked_for_on_one_page_only():
    from ruleslawyer.ingest.parse.errata import _without_stray_endings
    from ruleslawyer.records import Erratum, Source

    def entry(page, bullet):
        return Erratum(document="Core Book", version="1.0", page=page, target="Rare Rules", source=Source("f"),
                       location=None, operation="add", text="t", bullets=(bullet,))

    one_page = [entry("363", "Roll a dice. Breakout Stratagem."), entry("363", "Use the Desperate Breakout Stratagem.")]
    assert _without_stray_endings(one_page)[0].bullets == ("Roll a dice.",)
    two_pages = [entry("12", "Roll a dice. Breakout Stratagem."), entry("363", "Use the Desperate Breakout Stratagem.")]
    assert _without_stray_endings(two_pages)[0].bullets == ("Roll a dice. Breakout Stratagem.",)


def test_values_quoted_words_and_several_instructions_under_one_header():
    # Codex FAQs (9th edition): a quoted value replaces the thing named before "to"; "Add the
    # following:" with untitled wording extends the rule; a second instruction is its own entry;
    # a header run onto the end of the wording above it starts an entry of its own.
    doc = _doc("CODEX: EXAMPLES\n\nVersion 1.0\n\nUPDATES & ERRATA\n\n"
               "Page 102 – Ranged Weapons list, mining laser\n\nChange the weapon\u2019s Damage characteristic to \u2018D6\u2019.\n\n"
               "Page 100 – Cult Chimera, Transport\n\nAdd the following:\n\n\u2018Each Ogryn takes the space of three.\u2019\n\n"
               "Page 108 – Brood Brothers\n\nChange the penultimate sentence to read:\n\n\u2018No Command Benefits.\u2019\n\n"
               "Add the following paragraphs at the end of the Brood Brothers rules:\n\n\u2018Orders\n\nThey cannot issue orders.\u2019"
               " *Page 91 – Sanctus, Abilities, Camo Cloak\n\nChange the first sentence to read:\n\n\u2018Add 1 to saves.\u2019\n\n"
               "Page 116, The Shadow in the Warp\n\nAdd the following section before \u2018Abilities\u2019:\n\n"
               "\u2018Tyranids Units\n\nIn this section we refer to Tyranids units.\u2019")
    errata = [r for r in parse_document(doc) if r.kind == "errata"]
    assert [(e.page, e.target, e.operation, e.location, e.title, e.text) for e in errata] == [
        ("102", "Ranged Weapons list, mining laser", "replace", "weapon's Damage characteristic", None, "D6"),
        ("100", "Cult Chimera, Transport", "append", None, None, "Each Ogryn takes the space of three."),
        ("108", "Brood Brothers", "replace", "penultimate sentence", None, "No Command Benefits."),
        ("108", "Brood Brothers", "append", "end of the Brood Brothers rules", None,
         "Orders\nThey cannot issue orders."),
        ("91", "Sanctus, Abilities, Camo Cloak", "replace", "first sentence", None, "Add 1 to saves."),
        ("116", "The Shadow in the Warp", "add", "before 'Abilities'", "Tyranids Units",
         "In this section we refer to Tyranids units."),
    ]


def test_index_card_instructions():
    header = parse_header("Page 0 - X")
    for line, expected in [
        ("Add 'Psyker' and 'Fly'.", ("add", None, "Psyker, Fly", None)),
        ("Change '1 master-crafted power weapon' to '1 power weapon'.", ("replace", None, "1 power weapon",
                                                                          "1 master-crafted power weapon")),
        ("Change Range to '12\"'.", ("replace", "Range", '12"', None)),
        ("Delete the heavy phosphor blaster profile.", ("delete", "heavy phosphor blaster profile",
                                                        "Delete the heavy phosphor blaster profile.", None)),
    ]:
        (got,) = parse_entries(header, [Line(0, line, "paragraph")])
        assert (got.operation, got.location, got.text, got.old_text) == expected, line
    # An instruction wrapped onto a second line is read whole.
    (got,) = parse_entries(header, [Line(0, "Add 'and 1 close combat weapon' to the end of each of", "paragraph"),
                                    Line(1, "these sub-bullets.", "paragraph")])
    assert (got.operation, got.location, got.text) == ("append", "end of each of these sub-bullets",
                                                       "and 1 close combat weapon")


@pytest.mark.parametrize("name, text, document, version", [
    ("necrons_faq.md", "# Codex: Necrons – Official FAQ\n\n## Questions and answers\n\n"
     "**Q:** Can a unit use Reanimation Protocols while embarked?\n\n**A:** No.\n\n"
     "**Q:** Does the Orb work on Lychguard?\n\n**A:** Yes.\n", "Codex: Necrons", None),
    ("notes.txt", "ORKS FAQ\n\nQ: Can a Warboss lead Beast Snagga Boyz?\nA: Yes.\n\n"
     "Q: Does Waaagh! last until the end of the battle round?\nA: Yes.\n", "Orks", None),
    ("Tyranids_FAQ_v1.2.txt", "Q: Can a Hive Tyrant use Shadow in the Warp twice?\nA: No.\n\n"
     "Q: Do Termagants count as Endless Multitude units?\nA: Yes.\n", "Tyranids", "1.2"),
])
def test_faq_document_name_from_its_heading_or_file_name(name, text, document, version):
    data = text.encode()
    doc = load_text(data, DocumentOrigin(name, name, "markdown" if name.endswith(".md") else "text", "0" * 64, len(data)))
    faqs = [r for r in parse_document(doc) if r.kind == "faq"]
    assert len(faqs) == 2 and {(f.document, f.version) for f in faqs} == {(document, version)}
