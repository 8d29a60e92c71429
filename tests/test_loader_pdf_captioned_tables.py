"""A table printed inside a two-column rules chapter: a caption on a dark tab, column heads, rows
ruled per column (each rule broken where a column ends) and a footnote printed across the table
under its last row. Built here as a small PDF; the real chapter is checked when ../shared is there."""
from __future__ import annotations

import pytest

from ruleslawyer.ingest.document import PARAGRAPH, TABLE
from ruleslawyer.ingest.formats import load_bytes, load_file
from ruleslawyer.ingest.parse.parsing import parse_document
from tests.pdf_helpers import pages_pdf

BORDER = 100  # the column border of the table
ROWS = [("Leader unit", "The last model of that unit is destroyed.*"),
        ("Bodyguard unit", "The last model of the bodyguard is destroyed."),
        ("A specific model", "That model is destroyed.")]
FOOTNOTE = ["* Characteristically, leadership abilities persist after their", "bodyguard unit is destroyed."]


def _text(x: float, y: float, text: str, font: str = "F1", size: float = 7) -> bytes:
    return b"BT /%s %.1f Tf %.2f %.2f Td (%s) Tj ET\n" % (font.encode(), size, x, y, text.encode("latin-1"))


def _rule(y: float, broken: bool = True) -> bytes:
    """A rule under a row: one segment per column, with a small break at the border."""
    gap = 1.0 if broken else 0.0
    return b"%.1f %.1f m %.1f %.1f l S %.1f %.1f m %.1f %.1f l S\n" % (
        20, y, BORDER - gap, y, BORDER + gap, y, 280, y)


def _page(ruled: bool = True) -> bytes:
    body = [_text(20, 280 - 9 * k, line) for k, line in enumerate(
        ["Abilities that affect a unit apply to every model in it until the",
         "source of that ability is destroyed, as the table below shows for",
         "each kind of source that a player can meet in a battle."])]
    # The caption: white bold capitals on a dark tab sitting on the table's top rule.
    caption = b"0.15 g 20 212.4 110 12 re f\n1 g\n" + _text(23, 215, "ABILITIES IN UNITS", "F3", 9) + b"0 g\n"
    rules = b"0.5 w\n" + _rule(212, broken=False) + b"".join(_rule(y) for y in (198, 182, 166, 150)) + _rule(124)
    if not ruled:  # the same table printed without a tab or rules: its rows align all the same
        caption, rules = _text(20, 215, "ABILITIES IN UNITS", "F3", 9), b""
    heads = _text(23, 202, "SOURCE OF ABILITY", "F3", 7) + _text(BORDER + 3, 202, "APPLIES UNTIL", "F3", 7)
    cells = b"".join(_text(23, 187 - 16 * k, label) + _text(BORDER + 3, 187 - 16 * k, value)
                     for k, (label, value) in enumerate(ROWS))
    note = b"".join(_text(23, 140 - 8 * k, line) for k, line in enumerate(FOOTNOTE))
    after = _text(20, 110, "In all of the above cases the ability lasts until the attack ends.")
    return b"".join(body) + caption + rules + heads + cells + note + after


def _doc(ruled: bool = True):
    page = _page(ruled)
    return load_bytes(pages_pdf([page], size=(300, 300)), "chapter.pdf")


def test_a_captioned_table_ruled_per_column_keeps_its_head_row_and_gives_back_its_footnote():
    doc = _doc()
    tables = [b for b in doc.blocks if b.kind == TABLE]
    assert len(tables) == 1
    rows = [tuple(r) for r in tables[0].rows]
    # The caption tab's box does not hide the rule over the column heads.
    assert rows[0] == ("SOURCE OF ABILITY", "APPLIES UNTIL")
    assert rows[1:] == ROWS
    # The footnote runs across the border: it is read whole, as text under the table.
    after = [b.text for b in doc.blocks[doc.blocks.index(tables[0]) + 1:] if b.kind == PARAGRAPH]
    assert " ".join(after).startswith(" ".join(FOOTNOTE))
    assert not any("Characteristically" in c for r in rows for c in r)


@pytest.mark.parametrize("ruled", [True, False], ids=["ruled", "unruled"])
def test_the_captioned_table_becomes_a_table_record_named_by_its_caption(ruled):
    records = parse_document(_doc(ruled))
    tables = [r for r in records if r.kind == "table"]
    assert [t.name for t in tables] == ["Abilities in Units"]
    table = tables[0]
    assert table.row_header == "SOURCE OF ABILITY" and table.columns == ("APPLIES UNTIL",)
    assert [(r.label, r.cells[0]) for r in table.rows] == ROWS


@pytest.mark.realdata
def test_real_attached_units_chapter_table_and_bar_rule(shared):
    """11th edition core rules, chapter 19: the table under 19.04 is a table record whose cells
    are not repeated in the rule's text; the footnote is read whole; the LEADER / SUPPORT bar
    heads a rule of its own without the numbers it cites."""
    path = shared / "realdata" / "e11" / "pdf" / "core11_19_Attached_units.pdf"
    if not path.exists():
        pytest.skip(f"{path} not present")
    records = parse_document(load_file(path))
    tables = [r for r in records if r.kind == "table"]
    rules = {r.name: r for r in records if r.kind == "rule"}
    assert len(tables) == 1 and len(tables[0].rows) == 3
    assert all(r.label and r.cells[0] for r in tables[0].rows)
    text = rules["Abilities in Attached Units"].text
    assert not any(r.cells[0] in text for r in tables[0].rows)
    assert "units continue to benefit from their own" in text  # the footnote, not interleaved
    bar = rules["Leader / Support"]
    assert bar.number is None and bar.fluff and bar.fluff not in bar.text
    assert "24.22" not in rules["Forming Attached Units"].text


WRAPPED = [(["Leader unit"], ["The last model in that", "unit is destroyed.*"]),
           (["Bodyguard unit", "(e.g. from an ability)"], ["The last model in that", "bodyguard is destroyed."]),
           (["A specific model", "(e.g. the bearer of", "an enhancement)"], ["That model is destroyed."])]


def _wrapped_page() -> bytes:
    """The table without rules, its cells wrapped over several lines and centred on their row
    (a label with a note in brackets under it beside a value of one line)."""
    def text(x, y, s, font="F1", size=7):
        return _text(x, y, s.replace("(", "\\(").replace(")", "\\)"), font, size)

    out = text(20, 270, "Abilities that affect a unit apply to every model in it until the source")
    out += text(20, 240, "ABILITIES IN UNITS", "F3", 9)
    out += text(23, 226, "SOURCE", "F3", 7) + text(BORDER + 3, 226, "APPLIES UNTIL", "F3", 7)
    y = 212
    for left, right in WRAPPED:
        n = max(len(left), len(right))
        for cell, x in ((left, 23), (right, BORDER + 3)):
            out += b"".join(text(x, y - (n - len(cell)) * 4 - 8 * k, line) for k, line in enumerate(cell))
        y -= 8 * n + 10
    out += text(23, y, FOOTNOTE[0]) + text(26, y - 8, FOOTNOTE[1])
    return out + text(20, y - 30, "In all of the above cases the ability lasts until the attack ends.")


def test_an_unruled_table_of_wrapped_cells_is_rebuilt_row_by_row():
    doc = load_bytes(pages_pdf([_wrapped_page()], size=(300, 300)), "chapter.pdf")
    tables = [r for r in parse_document(doc) if r.kind == "table"]
    assert [t.name for t in tables] == ["Abilities in Units"]
    # Each cell's lines joined, whatever the other cell of its row is level with.
    assert [(r.label, r.cells) for r in tables[0].rows] == [(" ".join(left), (" ".join(right),))
                                                            for left, right in WRAPPED]
    # The footnote under the table, which runs across both columns, stays text.
    assert any(b.kind == PARAGRAPH and b.text.startswith("* Characteristically") for b in doc.blocks)
