"""Reference tables: gold scores on seeds 000, 001 and 002 (text and rendered inputs), and shapes."""
from __future__ import annotations

import pytest

from ruleslawyer.ingest.document import DocumentOrigin
from ruleslawyer.ingest.parse.parsing import parse_document
from ruleslawyer.ingest.parse.tables_glued import split_glued_header
from ruleslawyer.ingest.load.text import load_text
from ruleslawyer.library.lookup import _condition_key
from tests.conftest import seed_path
from tests.gold import format_report, parsed, score_input


@pytest.mark.parametrize("prefix, suffix", [("002", ".txt"), ("002", ".pdf"), ("000", ".txt"), ("000", ".pdf"),
                                            ("001", ".txt"), ("001", ".html")])
def test_tables_score(shared, prefix, suffix):
    report = score_input(shared, seed_path(shared, prefix, suffix), {"table"})
    r = report["table"]
    # The seed gold was written from the text version, where the Wound Roll's dice are lost ("+");
    # the HTML draws them as images (d6_2.png ... d6_6.png), which the loader reads as "2+" ... "6+".
    # Those five cells are the only disagreement (see the next test), so the HTML's floor is lower.
    floor = 0.95 if suffix == ".html" else 0.98
    assert r["recall"] == 1.0 and r["field_accuracy"] >= floor, format_report(report)


def test_dice_drawn_as_images_are_read_from_the_image(shared):
    wound = _table(shared, "001", "Wound Roll", ".html")
    assert [row["cells"] for row in wound["rows"]] == [["2+"], ["3+"], ["4+"], ["5+"], ["6+"]]


def _table(shared, prefix, name, suffix=".txt"):
    found = [r for r in parsed(seed_path(shared, prefix, suffix)) if r["kind"] == "table" and r["name"] == name]
    assert len(found) == 1, [r["name"] for r in parsed(seed_path(shared, prefix, suffix)) if r["kind"] == "table"]
    return found[0]


@pytest.mark.parametrize("suffix", [".txt", ".pdf"])
def test_to_wound_chart_headers_not_data(shared, suffix):
    """The letters spelling STRENGTH down the side are the row header, not a column of data."""
    t = _table(shared, "002", "To Wound", suffix)
    assert (t["row_header"], t["column_header"]) == ("Strength", "Toughness")
    assert t["columns"] == [str(n) for n in range(1, 11)]
    assert [r["label"] for r in t["rows"]] == [str(n) for n in range(1, 11)]
    assert t["rows"][3]["cells"][4] == "5+"  # S4 vs T5
    assert all(len(r["cells"]) == 10 for r in t["rows"])


def test_assault_to_hit_headers(shared):
    t = _table(shared, "002", "Assault to Hit")
    assert (t["row_header"], t["column_header"]) == ("Attacker WS", "Defender WS")
    assert t["rows"][4]["cells"][3] == "4+"  # printed so, though the rule gives 3+


def test_cover_saves_list_table(shared):
    t = _table(shared, "002", "Cover Saves")
    assert t["columns"] == [] and t["row_header"] is None
    assert [r["label"] for r in t["rows"]] == ["6+ Minor Cover", "5+ Soft Cover", "4+ Hard Cover",
                                               "3+ Fortified Cover"]
    assert t["rows"][3]["cells"] == ["Fortifications"]


def test_chart_rows_are_not_rules(shared):
    """The chart blocks are claimed: no rule named after a chart caption or holding its rows."""
    records = parsed(seed_path(shared, "002", ".txt"))
    rule_names = {r["name"].casefold() for r in records if r["kind"] == "rule"}
    assert not rule_names & {"toughness", "defender", "shooting to hit", "cover saves", "to wound"}
    assert not any("4+\t5+" in r["text"] for r in records if r["kind"] == "rule")


def test_play_reference_copy_gives_one_wound_roll(shared):
    tables = [r for r in parsed(seed_path(shared, "000", ".txt")) if r["kind"] == "table"]
    assert sorted(t["name"] for t in tables) == ["Close combat weapon", "Wound Roll"]
    wound = next(t for t in tables if t["name"] == "Wound Roll")
    assert wound["row_header"] == "STRENGTH VS TOUGHNESS" and wound["columns"] == ["D6 RESULT REQUIRED"]
    assert [r["cells"] for r in wound["rows"]] == [["2+"], ["3+"], ["4+"], ["5+"], ["6+"]]


def test_glued_header_split_by_document_words():
    words = {"battle": 3, "size": 2, "number": 4, "of": 9, "units": 5, "sizenumber": 1}
    from collections import Counter

    assert split_glued_header("BATTLE SIZENUMBER OF UNITS", Counter(words)) == ["BATTLE SIZE", "NUMBER OF UNITS"]
    assert split_glued_header("BATTLE SIZE", Counter(words)) is None


def test_pipe_table_in_markdown():
    text = ("# Charts\n\n## Battle Sizes\n\n| Size | Points |\n|---|---|\n| Incursion | 1000 |\n"
            "| Strike Force | 2000 |\n")
    data = text.encode()
    doc = load_text(data, DocumentOrigin("m.md", "m.md", "text", "0" * 64, len(data)))
    tables = [r for r in parse_document(doc) if r.kind == "table"]
    assert len(tables) == 1
    t = tables[0]
    assert (t.name, t.row_header, t.columns) == ("Battle Sizes", "Size", ("Points",))
    assert [(r.label, r.cells) for r in t.rows] == [("Incursion", ("1000",)), ("Strike Force", ("2000",))]


def test_corner_names_the_rows_under_a_column_caption():
    # "TOUGHNESS" printed over the numbered columns, "STRENGTH" in the corner cell.
    grid = "\n".join(["STRENGTH\t1\t2\t3", "1\t4+\t5+\t6+", "2\t3+\t4+\t5+", "3\t2+\t3+\t4+"])
    data = f"# TO WOUND\n\nTOUGHNESS\n\n{grid}\n".encode()
    doc = load_text(data, DocumentOrigin("c.md", "c.md", "text", "0" * 64, len(data)))
    (t,) = [r for r in parse_document(doc) if r.kind == "table"]
    assert (t.name, t.row_header, t.column_header, t.columns) == ("To Wound", "Strength", "Toughness", ("1", "2", "3"))
    assert [r.label for r in t.rows] == ["1", "2", "3"]


def _blocks_doc(*blocks):
    from ruleslawyer.ingest.document import Document

    return Document(DocumentOrigin("b.pdf", "b.pdf", "pdf", "0" * 64, 0), tuple(blocks))


def test_caption_row_over_two_columns_and_non_tables():
    from ruleslawyer.ingest.document import TABLE, Block, heading, paragraph

    chart = Block(TABLE, rows=(("WOUND ROLL",), ("S VS T", "D6 RESULT"), ("S GREATER than T", "3+"),
                               ("S EQUAL to T", "4+")))
    prose = Block(TABLE, rows=(("the unit that was chosen to move first", "and then all the other units move"),
                               ("in the order that their owner likes best", "until every unit has been moved")))
    profile = Block(TABLE, rows=(("M", "T", "SV", "W", "LD", "OC"), ('6"', "5", "4+", "2", "7+", "1")))
    doc = _blocks_doc(heading("Wound Roll"), paragraph("Roll a D6."), chart, heading("Moving"), prose,
                      heading("Boyz"), profile)
    tables = [r for r in parse_document(doc) if r.kind == "table"]
    assert [(t.name, t.row_header, t.column_header, t.columns) for t in tables] == [
        ("Wound Roll", "S VS T", None, ("D6 RESULT",))]


def test_real_page_wound_roll_table(shared):
    path = shared / "realdata" / "AndrewDeWitt__GrimLog" / "tyranids_Hive_Tyrant.html"
    if not path.exists():
        pytest.skip(f"{path} is not there")
    (wound,) = [r for r in parsed(path) if r["kind"] == "table" and r["name"] == "Wound Roll"]
    assert "STRENGTH VS" in wound["row_header"] and wound["row_header"].endswith("TOUGHNESS")
    assert wound["columns"] == ["D6 RESULT REQUIRED"] and len(wound["rows"]) == 5
    # The rows state the five S-vs-T cases, most favourable first.
    assert [_condition_key(r["label"]) for r in wound["rows"]] == ["twice", "greater", "equal", "lower", "half"]


def test_prose_columns_and_picture_labels_are_not_tables():
    """Shapes from the 9th edition primer PDF (wording made up): two columns of running text
    cut into a one-row grid; labels scattered over a picture under a mostly blank header;
    text layers printed over each other ("Melee Melee"). A real chart beside them stays."""
    from ruleslawyer.ingest.document import TABLE, Block, heading

    prose = Block(TABLE, rows=(("Pick a power.", "Each power can be picked only once per"),
                               ("turn as you like\ufffd", "You may not pick the same power more than")))
    picture = Block(TABLE, rows=(("No. Name", "", "", "", "", "3", "5 power"),
                                 ("Unit", "M", "WS", "BS", "S", "T", "W")))
    layered = Block(TABLE, rows=(("Weapon", "Range", "Type"), ("Chainsword", "Melee Melee", "Melee"),
                                 ("Pistol", '12"', "Pistol 1")))
    chart = Block(TABLE, rows=(("Size", "Points", "Duration"), ("Patrol", "500", "Up to 1 hour"),
                               ("Strike Force", "2000", "Up to 3 hours")))
    doc = _blocks_doc(heading("Powers"), prose, heading("Datasheet"), picture, heading("Weapons"), layered,
                      heading("Battle Sizes"), chart)
    tables = [r for r in parse_document(doc) if r.kind == "table"]
    assert [t.name for t in tables] == ["Battle Sizes"]


def test_decision_list_stays_text_and_the_chart_inside_it_is_a_table():
    """A first-match decision list (a condition, then its verdict in capitals) printed as a ruled
    box, with a chart inside it under its own header row (the 11th edition wound roll box)."""
    from ruleslawyer.ingest.document import TABLE, Block, heading, paragraph
    from ruleslawyer.ingest.parse.tables import decision_span

    box = (("\ufffd Unmodified", "FAILS"), ("\ufffd Unmodified", "CRITICAL WOUND"),
           ("Equal to or greater than the result below:", "WOUND"),
           ("ATTACK'S STRENGTH VS TARGET'S TOUGHNESS", "REQUIRED RESULT"),
           ("Strength is GREATER than the Toughness", "3+"), ("Strength is EQUAL to the Toughness", "4+"),
           ("Strength is LESS than the Toughness", "5+"), ("\ufffd Any other result", "FAILS"))
    assert decision_span(box) == (3, 7)
    plain = (("\ufffd Unmodified", "FAILS"), ("\ufffd Unmodified", "CRITICAL HIT"),
             ("Equal to or greater than the attack's BS", "HIT"))
    assert decision_span(plain) == (0, 0)
    assert decision_span((("S VS T", "D6 RESULT"), ("S GREATER than T", "3+"), ("S EQUAL to T", "4+"))) is None
    doc = _blocks_doc(heading("2. WOUND ROLLS 05.02"), paragraph("Match the first condition that applies:"),
                      Block(TABLE, rows=box, attrs={"ruled": "yes"}), heading("1. HIT ROLLS 05.01"),
                      Block(TABLE, rows=plain, attrs={"ruled": "yes"}))
    tables = [r for r in parse_document(doc) if r.kind == "table"]
    assert [(t.name, t.columns, len(t.rows)) for t in tables] == [("Wound Rolls", ("REQUIRED RESULT",), 3)]


def test_ruled_chart_of_sentences_with_short_heads_is_a_table():
    """A drawn grid whose row labels and column heads are short and whose cells are sentences
    (a definition per row and column) is a chart; the same cells unruled are prose columns."""
    from ruleslawyer.ingest.document import TABLE, Block, heading

    rows = (("", "ONE MODEL", "SEVERAL MODELS"),
            ("BELOW FULL", "Its remaining wounds are less than its W characteristic.",
             "The number of models left in the unit is less than it began with."),
            ("AT HALF", "Its remaining wounds are half of its W characteristic.",
             "The number of models left in the unit is half of what it began with."))
    ruled = _blocks_doc(heading("Unit Strength"), Block(TABLE, rows=rows, attrs={"ruled": "yes"}))
    (t,) = [r for r in parse_document(ruled) if r.kind == "table"]
    assert t.columns == ("ONE MODEL", "SEVERAL MODELS") and [r.label for r in t.rows] == ["BELOW FULL", "AT HALF"]
    unruled = _blocks_doc(heading("Unit Strength"), Block(TABLE, rows=rows, attrs={"ruled": "no"}))
    assert not [r for r in parse_document(unruled) if r.kind == "table"]


def test_diagram_distances_and_side_by_side_captions_are_not_tables():
    """Distances marked on a diagram (1", 1 1/2", 9"), and two diagram captions side by side
    cut into an unruled grid of sentence pieces, are no tables; a real chart beside them stays."""
    from ruleslawyer.ingest.document import TABLE, Block, heading

    distances = Block(TABLE, rows=(('1 1\u20442"', '1"', '9"'), ('1 1\u20442"', '1\u20442"', '1"')))
    captions = Block(TABLE, rows=(("This model can", "This VEHICLE model cannot"),
                                  ("can move vertically", "move through this dense"),
                                  ("and end its move on", "terrain feature, but it can"),
                                  ("the top surface of this", "move vertically to ascend"),
                                  ("terrain feature, as it", "and descend sections that")), attrs={"ruled": "no"})
    chart = Block(TABLE, rows=(("Size", "Points"), ("Patrol", "500"), ("Strike Force", "2000")))
    doc = _blocks_doc(heading("Moving"), distances, heading("Dense Terrain"), captions, heading("Battle Sizes"), chart)
    assert [t.name for t in parse_document(doc) if t.kind == "table"] == ["Battle Sizes"]


def _list_doc(items: list[str]):
    from ruleslawyer.ingest.document import LIST_ITEM, Block, Document, Span

    blocks = tuple(Block(LIST_ITEM, spans=(Span(t),)) for t in items)
    return Document(origin=DocumentOrigin(path="list.md", name="list.md", format="md", sha256="x"), blocks=blocks)


def test_a_long_list_is_read_once_not_once_per_item(monkeypatch):
    """Each list item is tested for "label: value" a bounded number of times, however long the
    list (every item used to start a scan to the end of the list: quadratic)."""
    from ruleslawyer.ingest.parse import tables_lists

    calls = []
    real = tables_lists.label_value
    monkeypatch.setattr(tables_lists, "label_value", lambda text: calls.append(text) or real(text))
    items = [f"Unit {n}: {n * 5} points" for n in range(3000)]
    records = [r for r in parse_document(_list_doc(items)) if r.kind == "table"]
    assert records == []  # no dice in it: a list, not a table
    assert len(calls) <= 2 * len(items)


def test_a_dice_list_from_its_second_item_is_still_found():
    """The first item breaks the dice pattern; the rest ("Light cover: 5+") make a table from there on."""
    items = ["Note: read the table below", "Light cover: 5+", "Heavy cover: 4+", "Fortified: 3+"]
    tables = [r for r in parse_document(_list_doc(items)) if r.kind == "table"]
    assert len(tables) == 1
    assert [(row.label, row.cells) for row in tables[0].rows] == [
        ("Light cover", ("5+",)), ("Heavy cover", ("4+",)), ("Fortified", ("3+",))]
