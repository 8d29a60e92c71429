"""Datasheets from layouts the parser was not tuned on (issues 16 and 17).

- 11th edition cards built here block by block, as the PDF loader gives them: the InSv box
  under the Sv value, a SUPPORT box, non-breaking hyphens (U+2011), a LEADER list that wraps.
- Hand-written semantic HTML (tests/fixtures/datasheets/semantic_*.html, made-up units):
  sections, definition lists of abilities and of characteristics, keywords in a <footer>,
  keywords scoped by model and with letters outside ASCII, characteristics that are not plain
  numbers, and page furniture (navigation, a sidebar with a table, the site footer) that must
  not become records.
"""
from __future__ import annotations

from pathlib import Path

from ruleslawyer.ingest.document import TABLE, Block, Document, DocumentOrigin, Span, heading, paragraph
from ruleslawyer.ingest.formats import load_file
from ruleslawyer.ingest.parse import datasheets
from ruleslawyer.ingest.parse.parsing import ParseContext, parse_document

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "datasheets"


def make_doc(*blocks: Block) -> Document:
    origin = DocumentOrigin(path="cards.pdf", name="cards.pdf", format="pdf", sha256="0" * 64)
    return Document(origin=origin, blocks=tuple(blocks))


def rows(*rows: tuple[str, ...]) -> Block:
    return Block(TABLE, rows=tuple(rows))


def bold(text: str) -> Block:
    return Block("paragraph", spans=(Span(text, bold=True),))


def card_11(name: str, box: str, invuln: str | None, units: list[str]) -> list[Block]:
    """An 11th edition card in the loader's shapes (stat table with an InSv row, weapon table,
    a LEADER or SUPPORT box whose unit list wraps onto a bold line, abilities, keywords)."""
    stats = [("M", "T", "SV", "W", "LD", "OC"), ('6"', "5", "4+", "4", "7+", "1")]
    if invuln:
        stats.append(("", "", invuln, "INSV", "", ""))
    half = len(units) // 2
    return [
        heading(name),
        rows(*stats),
        rows(("RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"),
             ("Kombi\u2011blasta [CLOSE\u2011QUARTERS]", '12"', "2", "5+", "4", "0", "1"),
             ("MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"),
             ("Two\u2011handed choppa", "Melee", "4", "3+", "6", "-1", "2")),
        heading(box, level=2),
        paragraph("This model can be attached to the following units: " + "; ".join(units[:half]) + ";"),
        bold("; ".join(units[half:])),
        paragraph("Before selecting targets for this weapon, select one of its profiles to make attacks with."),
        paragraph("KEYWORDS: INFANTRY; CHARACTER;"),
        bold(name.upper()),
        heading("ABILITIES", level=2),
        paragraph("CORE: " + box.title()),
        Block("paragraph", spans=(Span("Big Shout (Once per battle, per army, Psychic): ", bold=True),
                                  Span("In your Command phase, this unit gains 1CP."))),
        paragraph("FACTION KEYWORDS:"),
        heading("GROTS", level=3),
    ]


def test_eleventh_edition_card_support_box_invulnerable_save_and_hyphens():
    doc = make_doc(*card_11("SNAGBOSS", "SUPPORT", "5+", ["BOYZ", "BURNA BOYZ", "GRETCHIN", "LOOTAS"]))
    (ds,) = datasheets.parse(doc, ParseContext(doc=doc, edition=10))  # the document guessed 10th
    assert ds.edition == 11  # the card's own InSv and SUPPORT boxes say 11th
    assert ds.invulnerable_save == "5+"
    assert ds.profiles[0].stats == {"M": '6"', "T": "5", "Sv": "4+", "W": "4", "Ld": "7+", "OC": "1"}
    assert ds.leader is None
    assert ds.support is not None
    assert ds.support.attaches_to == ("BOYZ", "BURNA BOYZ", "GRETCHIN", "LOOTAS")
    assert "Before selecting" not in ds.support.text  # the weapon note printed after the box
    assert [(w.name, w.abilities) for w in ds.weapons] == [("Kombi-blasta", ("CLOSE-QUARTERS",)),
                                                          ("Two-handed choppa", ())]
    assert ds.keywords == ("INFANTRY", "CHARACTER", "SNAGBOSS")  # the list wrapped after ";"
    assert [a.name for a in ds.abilities] == ["Support", "Big Shout (Once per battle, per army, Psychic)"]


def test_leader_card_of_an_eleventh_edition_document():
    cards = card_11("SNAGBOSS", "SUPPORT", None, ["BOYZ", "LOOTAS"]) + card_11("BIGGEST BOSS", "LEADER", None,
                                                                                ["BOYZ", "NOBZ"])
    doc = make_doc(*cards)
    support, leader = datasheets.parse(doc, ParseContext(doc=doc, edition=None))
    assert (support.edition, leader.edition) == (11, 11)  # no InSv here: the SUPPORT box says so
    assert leader.leader.attaches_to == ("BOYZ", "NOBZ") and leader.support is None
    assert datasheets.datasheet_edition(doc) == 11


def test_tenth_edition_card_stays_tenth():
    blocks = card_11("SNAGBOSS", "LEADER", None, ["BOYZ", "LOOTAS"])
    doc = make_doc(*blocks)
    (ds,) = datasheets.parse(doc, ParseContext(doc=doc, edition=10))
    assert ds.edition == 10 and ds.leader.attaches_to == ("BOYZ", "LOOTAS")
    assert datasheets.datasheet_edition(doc) is None


def _records(name: str):
    return parse_document(load_file(FIXTURES / name))


def test_semantic_sections_odd_characteristics_scoped_and_non_ascii_keywords():
    records = _records("semantic_sections.html")
    assert [r.kind for r in records] == ["datasheet"]  # no rule or table from menus or sidebars
    (ds,) = records
    assert ds.name == "Skyrender Walker" and ds.faction == "Ember Covenant"
    assert ds.profiles[0].stats == {"M": '20+"', "T": "10", "Sv": "2+", "W": "*", "Ld": "N/A", "OC": "-"}
    assert ds.weapons[0].skill == "N/A" and ds.weapons[0].abilities == ("lance", "melta 2")
    assert [(a.name, a.text[:20]) for a in ds.abilities] == [("Cinder Stride", "Each time this model"),
                                                             ("Ashen Ward", "Models in this unit ")]
    assert ds.invulnerable_save == "4+"
    assert ds.keywords == ("VEHICLE", "WALKER", "SKYRENDER WALKER", "CHARACTER", "\u00c9LITE PILOT")
    assert ds.faction_keywords == ("EMBER COVENANT", "T\u2019AU \u00c6STHETES")


def test_semantic_definition_lists_and_footer_keywords():
    records = _records("semantic_dl_footer.html")
    assert [(r.kind, r.name) for r in records] == [("datasheet", "Ember Guard"),
                                                   ("datasheet", "Hearth-Mother Ysolde")]
    guard, mother = records
    assert guard.profiles[0].stats == {"M": '6"', "T": "4", "Sv": "3+", "W": "1", "Ld": "7+", "OC": "2"}
    assert [w.name for w in guard.weapons] == ["Cinder carbine", "Close-combat weapon"]
    assert guard.weapons[1].range == "Melee"
    assert [a.name for a in guard.abilities] == ["Kindled Oath", "Ash Veil"]
    assert guard.keywords == ("Infantry", "Battleline", "Ember Guard")
    assert guard.faction_keywords == ("Ember Covenant",)
    assert guard.composition[:2] == ("1 Ember Sergeant", "9 Ember Guards")
    assert mother.keywords == ("Infantry", "Character", "Epic Hero", "Hearth-Mother Ysolde")
    assert mother.abilities[0].text.startswith("While this model is leading a unit")


def test_dice_drawn_as_images_are_read_or_warned(tmp_path):
    page = tmp_path / "wound.html"
    page.write_text("<html><body><h2>Wound roll</h2><table><tr><th>Strength vs Toughness</th><th>Roll</th></tr>"
                    "<tr><td>Twice or more</td><td><img src='/img/dice/d6_2.png' alt=''>+</td></tr>"
                    "<tr><td>Greater</td><td><img src='x.png' alt='3'>+</td></tr>"
                    "<tr><td>Equal</td><td><b><div><img src='/img/d4.png'/><div>+</div></div></b></td></tr>"
                    "<tr><td>Lower</td><td><img src='/img/dice/blank.png'>+</td></tr>"
                    "</table></body></html>", encoding="utf-8")
    doc = load_file(page)
    (table,) = [b for b in doc.blocks if b.kind == TABLE]
    assert [r[1] for r in table.rows] == ["Roll", "2+", "3+", "4+", "+"]
    assert "blank.png" in doc.meta["warnings"]


def test_oddly_printed_characteristics_keep_the_card():
    blocks = card_11("SNAGBOSS", "LEADER", None, ["BOYZ", "LOOTAS"])
    blocks[1] = rows(("M", "T", "SV", "W", "LD", "OC"), ('8"', "5", "2+/4+", "6", "6+*", "-"))
    doc = make_doc(*blocks)
    (ds,) = datasheets.parse(doc, ParseContext(doc=doc, edition=10))
    assert ds.profiles[0].stats == {"M": '8"', "T": "5", "Sv": "2+/4+", "W": "6", "Ld": "6+*", "OC": "-"}
