"""The PDF loader on the rendered inputs (checked against their seed texts), on real-world PDFs,
and on broken files made here."""
from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

import pytest

from ruleslawyer.ingest.document import HEADING, LIST_ITEM, PARAGRAPH, TABLE
from ruleslawyer.ingest.formats import load_file
from tests.conftest import seed_path


@lru_cache(maxsize=None)
def _load(path: str):
    return load_file(path)


def pdf_doc(shared: Path, prefix: str):
    return _load(str(seed_path(shared, prefix, ".pdf")))


def seed_doc(shared: Path, prefix: str):
    return _load(str(seed_path(shared, prefix, ".txt")))


def real_doc(shared: Path, relative: str):
    path = shared / "realdata" / relative
    if not path.exists():
        pytest.skip(f"{path} not present")
    return _load(str(path))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\\$", "$")).strip()


def _assert_in_order(expected: list[str], blocks, what: str) -> None:
    """Each expected text is the whole text of a block, in the same order as given."""
    texts = [_norm(b.text) for b in blocks if b.kind != TABLE]
    pos = 0
    for text in expected:
        try:
            pos = texts.index(_norm(text), pos) + 1
        except ValueError:
            near = [t for t in texts if _norm(text)[:30] in t]
            pytest.fail(f"{what}: not found whole and in order: {text[:90]!r}; blocks starting alike: {near[:2]}")


def _first_summary(seed) -> list:
    """The seed's first rules summary: from SETUP to the first heading that repeats (the play reference)."""
    blocks = list(seed.blocks)
    start = next(i for i, b in enumerate(blocks) if b.kind == HEADING and b.text.strip() == "SETUP")
    seen = set()
    for i in range(start, len(blocks)):
        if blocks[i].kind == HEADING:
            if blocks[i].text in seen:
                return blocks[start:i]
            seen.add(blocks[i].text)
    return blocks[start:]


def _card_section(doc) -> list:
    """Unit cards: from the name heading before the first "POWER n" to the end."""
    blocks = list(doc.blocks)
    first = next(i for i, b in enumerate(blocks) if re.search(r"\bPOWER \d+$", b.text.strip()))
    return blocks[first - 1:] if blocks[first].text.strip().startswith("POWER") else blocks[first:]


# --- 000: landscape, three columns, unit cards -------------------------------------------------


def test_000_rules_paragraphs_whole_and_in_order(shared):
    seed, doc = seed_doc(shared, "000"), pdf_doc(shared, "000")
    expected = [b.text for b in _first_summary(seed) if b.kind in (PARAGRAPH, LIST_ITEM) and "\t" not in b.text]
    assert len(expected) > 60
    _assert_in_order(expected, doc.blocks, "000 rules summary")


def test_000_headings_have_levels_by_size(shared):
    doc = pdf_doc(shared, "000")
    by_text = {b.text: b for b in doc.blocks if b.kind == HEADING}
    assert {"SETUP", "MOVEMENT PHASE", "1. MOVE UNITS", "ABILITIES"} <= set(by_text)
    # Phase headings are set larger than numbered steps, so they rank higher (smaller level).
    assert by_text["MOVEMENT PHASE"].level < by_text["1. MOVE UNITS"].level


def test_000_unit_card_texts_whole_and_in_order(shared):
    seed, doc = seed_doc(shared, "000"), pdf_doc(shared, "000")
    expected = [b.text for b in _card_section(seed) if b.kind == PARAGRAPH]
    assert len(expected) > 100
    _assert_in_order(expected, _card_section(doc), "000 unit cards")


def test_000_each_card_starts_a_column_with_name_then_power(shared):
    doc = pdf_doc(shared, "000")
    blocks = list(doc.blocks)
    powers = [i for i, b in enumerate(blocks) if b.kind == HEADING and re.fullmatch(r"POWER \d+", b.text)]
    assert len(powers) == 18
    for i in powers:
        name = blocks[i - 1]
        assert name.kind == HEADING and name.text.isupper(), name.text
        assert (name.page, name.column) == (blocks[i].page, blocks[i].column)


def _split_tables(rows_list) -> list[list[tuple[str, ...]]]:
    """Split tables at their header rows ("No." stat lines, "WEAPON" lines); drop empty cells."""
    out: list[list[tuple[str, ...]]] = []
    for rows in rows_list:
        for row in rows:
            cells = tuple(c for c in row if c)
            if not out or cells[0] in ("No.", "WEAPON"):
                out.append([])
            out[-1].append(cells)
    return out


def test_000_drawn_stat_and_weapon_tables_match_the_seed(shared):
    seed, doc = seed_doc(shared, "000"), pdf_doc(shared, "000")
    seed_tables = _split_tables([b.rows for b in _card_section(seed) if b.kind == TABLE])
    pdf_tables = [b for b in _card_section(doc) if b.kind == TABLE]
    assert all(b.attrs.get("ruled") == "yes" for b in pdf_tables)
    stat = [b for b in pdf_tables if b.rows[0][0] == "No."]
    weapons = [b for b in pdf_tables if b.rows[0][0] == "WEAPON"]
    assert len(stat) == 18 and len(weapons) == 18
    assert all(len(row) == 11 for b in stat for row in b.rows)
    assert all(len(row) == 7 for b in weapons for row in b.rows)
    assert _split_tables([b.rows for b in pdf_tables]) == seed_tables


def test_000_wound_roll_table_is_a_table(shared):
    doc = pdf_doc(shared, "000")
    tables = [b for b in doc.blocks if b.kind == TABLE and b.rows[0][0] == "STRENGTH VS TOUGHNESS"]
    assert tables, "the unruled S-vs-T table of the first summary"
    rows = tables[0].rows
    assert rows[0] == ("STRENGTH VS TOUGHNESS", "D6 RESULT REQUIRED")
    assert [r[1] for r in rows[1:]] == ["2+", "3+", "4+", "5+", "6+"]


def test_000_bold_run_in_labels_and_italic_timings(shared):
    doc = pdf_doc(shared, "000")
    prefixes = {b.bold_prefix() for b in doc.blocks if b.kind == PARAGRAPH}
    assert {"NORMAL MOVE:", "LOOK OUT, SIR:", "FACTION KEYWORDS:"} <= prefixes
    timing = [b for b in doc.blocks if b.text == "Beginning of your turn:"]
    assert timing and all(b.is_italic for b in timing)
    # Mixed styles inside one paragraph: "battle rounds" is bold inside plain text.
    para = next(b for b in doc.blocks if b.text.startswith("A game is a series of battle rounds"))
    assert any(s.bold and s.text.strip() == "rounds" for s in para.spans)
    assert not para.is_bold


def test_000_blocks_know_page_and_column(shared):
    doc = pdf_doc(shared, "000")
    assert all(b.page and b.column for b in doc.blocks)
    assert max(b.column for b in doc.blocks) == 3
    setup = next(b for b in doc.blocks if b.text == "SETUP")
    assert (setup.page, setup.column) == (2, 1)


# --- 003: FAQ with a running footer and coloured entries --------------------------------------


def test_003_every_seed_block_whole_and_in_order(shared):
    seed, doc = seed_doc(shared, "003"), pdf_doc(shared, "003")
    expected = [b.text for b in seed.blocks if b.kind != TABLE]
    _assert_in_order(expected, doc.blocks, "003")


def test_003_running_footer_and_page_numbers_are_gone(shared):
    doc = pdf_doc(shared, "003")
    assert [b.page for b in doc.blocks if "CORE BOOK" in b.text] == [1]  # the title only
    assert not [b.text for b in doc.blocks if re.fullmatch(r"\d+", b.text.strip())]


def test_003_magenta_and_blue_entries_carry_their_colour(shared):
    doc = pdf_doc(shared, "003")
    colour = {b.text: b.color for b in doc.blocks}
    assert colour["SETTING UP UNITS DISEMBARKING FROM A DESTROYED TRANSPORT"] == "#c0008f"
    assert colour["SCORING ADDITIONAL HITS"] == "#c0008f"
    assert colour["Page 365 – Rules Term Glossary"] == "#0072bc"
    assert colour["DESIGNER'S NOTES"] is None
    magenta_titles = [b for b in doc.blocks if b.color == "#c0008f" and (b.kind == HEADING or b.text.startswith("Page "))]
    assert len(magenta_titles) >= 6


def test_003_list_items_and_italic_notes(shared):
    doc = pdf_doc(shared, "003")
    items = [b for b in doc.blocks if b.kind == LIST_ITEM]
    assert any(b.text.startswith("At the Start of Deployment:") for b in items)
    assert not any(b.text.startswith(("•", "- ")) for b in items)
    assert any(b.is_italic and b.text.startswith("Occasionally a Reinforcement unit") for b in doc.blocks)


# --- 002: portrait reference sheet with grid tables --------------------------------------------


def _table_after(doc, heading: str):
    blocks = list(doc.blocks)
    i = next(i for i, b in enumerate(blocks) if b.kind == HEADING and b.text == heading)
    return next(b for b in blocks[i + 1:] if b.kind == TABLE)


def test_002_title_spans_then_two_columns(shared):
    doc = pdf_doc(shared, "002")
    assert doc.blocks[0].text == "Reference Sheet" and doc.blocks[0].kind == HEADING
    assert {b.column for b in doc.blocks} == {1, 2}


@pytest.mark.parametrize("heading, shape", [("SHOOTING TO HIT", (2, 12)), ("ASSAULT TO HIT", (12, 12)),
                                            ("TO WOUND", (12, 12))])
def test_002_grid_tables_have_their_shape(shared, heading, shape):
    doc, seed = pdf_doc(shared, "002"), seed_doc(shared, "002")
    table = _table_after(doc, heading)
    assert table.attrs["ruled"] == "yes"
    assert (len(table.rows), max(len(r) for r in table.rows)) == shape
    seed_table = _table_after(seed, heading)
    # The seed loses the spanned caption row (one tab); the body rows agree cell for cell.
    assert [tuple(r) for r in table.rows[-len(seed_table.rows):]] == list(seed_table.rows)


def test_002_paragraphs_whole(shared):
    seed, doc = seed_doc(shared, "002"), pdf_doc(shared, "002")
    texts = {_norm(b.text) for b in doc.blocks}
    paragraphs = [b.text for b in seed.blocks if b.kind in (PARAGRAPH, LIST_ITEM)]
    found = sum(1 for t in paragraphs if _norm(t) in texts)
    assert found >= 0.95 * len(paragraphs)


# --- real-world PDFs --------------------------------------------------------------------------


REAL = [
    "timburr1__timburr1.github.io/warhammer_40000_tyranids_en.pdf",
    "timburr1__timburr1.github.io/gs_cults_errata.pdf",
    "Overcharged-Plasma__warhammer-pdfs/index_card_errata_v1.0_8NI7qfP9dx5tLCkQ.pdf",
    "Overcharged-Plasma__warhammer-pdfs/imperial_armour_necrons_Mcu6QBdzRs8yWqCW.pdf",
    "GregSQT__40k/Armageddon_Datasheets_Orks.pdf",
    "GregSQT__40k/15_Stratagems.pdf",
]


@pytest.mark.parametrize("relative", REAL)
def test_real_pdfs_load(shared, relative):
    doc = real_doc(shared, relative)
    assert len(doc.blocks) > 20
    assert all(b.page for b in doc.blocks)
    assert "\u2011" not in doc.text  # non-breaking hyphens are plain hyphens


def test_real_tracked_titles_keep_their_words(shared):
    # Bare pdfplumber reads the tracked-out title as "CODEX: T YRANIDS".
    tyranids = real_doc(shared, "timburr1__timburr1.github.io/warhammer_40000_tyranids_en.pdf")
    assert tyranids.blocks[0].text == "CODEX: TYRANIDS"
    cults = real_doc(shared, "timburr1__timburr1.github.io/gs_cults_errata.pdf")
    assert cults.blocks[0].text == "CODEX: GENESTEALER CULTS"
    assert "UPDATES & ERRATA" in [b.text for b in cults.blocks if b.kind == HEADING]


def test_real_faq_columns_do_not_interleave(shared):
    doc = real_doc(shared, "timburr1__timburr1.github.io/warhammer_40000_tyranids_en.pdf")
    texts = [b.text for b in doc.blocks]
    # One errata entry, read whole although the right-hand column runs beside it.
    i = texts.index("*Page 88 – Old One Eye, Alpha Leader")
    assert texts[i + 1] == "Add the following to the end of this ability:"
    assert texts[i + 2].startswith("‘In addition, while any other friendly <Hive Fleet> Carnifex units")
    assert texts[i + 2].endswith("enemy models cannot target this model with ranged attacks.’")


def test_real_side_by_side_stratagem_cards_stay_whole(shared):
    doc = real_doc(shared, "GregSQT__40k/15_Stratagems.pdf")
    blocks = [b for b in doc.blocks if b.page in (3, 4)]
    starts = [i for i, b in enumerate(blocks) if b.kind == HEADING and re.search(r"\d\d\.\d\d$", b.text)]
    assert len(starts) >= 8
    cards = [blocks[a:b] for a, b in zip(starts, starts[1:] + [len(blocks)])]
    cards = [card for card in cards if any(blk.text == "CORE STRATAGEM" for blk in card)]
    assert len(cards) >= 8
    for card in cards:
        labels = [blk.text.split(":")[0] for blk in card if re.match(r"(WHEN|TARGET|EFFECT):", blk.text)]
        # Each card has its own WHEN, TARGET, EFFECT, once each and in that order.
        assert labels == ["WHEN", "TARGET", "EFFECT"], (card[0].text, labels)


def test_real_explosives_card_reads_in_order(shared):
    doc = real_doc(shared, "GregSQT__40k/15_Stratagems.pdf")
    texts = [b.text for b in doc.blocks]
    i = texts.index("EXPLOSIVES 15.05")
    assert texts[i + 5] == "TARGET: One friendly unengaged EXPLOSIVES/GRENADES unit that is eligible to shoot and did not make an advance move this turn."


def test_real_chapter_two_columns_past_footer_motto_and_outdented_callout(shared):
    """A sidebar column beside the rules, a footer motto that differs on each page, an intro set
    across both columns, and a callout box set a little into the gutter: the pages still read
    as two columns, and no rule heading ("1. HIT ROLLS 05.01") ends up in a table cell."""
    doc = real_doc(shared, "e11/pdf/core11_05_Attack_sequence.pdf")
    assert doc.meta["columns"].split(",")[:2] == ["2", "2"]
    numbered = re.compile(r"^\d\.\s.*\d\d\.\d\d$")
    heads = [b.text for b in doc.blocks if b.kind == HEADING and numbered.match(b.text)]
    assert len(heads) == 4
    for b in doc.blocks:
        if b.kind == TABLE:
            assert not any(numbered.match(c.strip()) for row in b.rows for c in row), b.rows
    # The "Example:" callout beside the save box is running text, not a column of that box.
    assert any(b.kind != TABLE and b.text.startswith("Example: An AP characteristic") for b in doc.blocks)


def test_real_table_ruled_by_horizontal_rules_only(shared):
    """A chart drawn with horizontal rules only, each broken where a column ends: one table of
    a header row and three rows of three cells, its cells' wrapped lines joined."""
    doc = real_doc(shared, "e11/pdf/core11_25_Rules_appendix.pdf")
    (table,) = [b for b in doc.blocks if b.kind == TABLE and b.page == 1]
    assert [len(r) for r in table.rows] == [3, 3, 3, 3]
    assert table.rows[0][0] == "" and all(table.rows[0][1:])
    assert all(r[0] and r[1].endswith(".") and r[2].endswith(".") for r in table.rows[1:])


def test_real_rule_headings_keep_their_size_and_stop_at_the_gutter(shared):
    """A heading whose rule number is set small ("DICE 01.05": more digits than letters) is
    sized by its words; a sidebar title level with a heading across the gutter is not glued
    onto it; a sidebar column in small print beside the rules is a column of its own."""
    concepts = real_doc(shared, "e11/pdf/core11_01_Core_concepts.pdf")
    numbered = re.compile(r"^[A-Z][A-Z .-]+ \d\d\.\d\d$")
    heads = [b for b in concepts.blocks if numbered.match(b.text)]
    assert heads and all(b.kind == HEADING for b in heads)
    attached = real_doc(shared, "e11/pdf/core11_19_Attached_units.pdf")
    assert sum(1 for b in attached.blocks if b.kind == HEADING and numbered.match(b.text)) == 4
    command = real_doc(shared, "e11/pdf/core11_08_Command_phase.pdf")
    assert command.meta["columns"].split(",")[0] == "2"
    assert not [b for b in command.blocks if b.kind == TABLE]


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.skipif(not (os.environ.get("RULESLAWYER_SLOW") or os.environ.get("CI") == "true"),
                    reason="26-page primer; set RULESLAWYER_SLOW=1 (CI runs it)")
def test_real_battle_primer_loads(shared):
    doc = real_doc(shared, "timburr1__timburr1.github.io/9th_ed_battle_primer.pdf")
    assert max(b.page for b in doc.blocks) == 26


def test_real_weapon_profile_under_a_ruled_header_is_one_table(shared):
    doc = real_doc(shared, "Overcharged-Plasma__warhammer-pdfs/index_card_errata_v1.2_YRK9ZpspblzJHLb7.pdf")
    blocks = list(doc.blocks)
    i = next(i for i, b in enumerate(blocks) if b.text == "Knight-Centura – Melee Weapons")
    table = next(b for b in blocks[i:i + 4] if b.kind == TABLE)
    assert table.rows[0][1:] == ("RANGE", "A", "WS", "S", "AP", "D")
    assert table.rows[1][0] == "Close combat weapon" and table.rows[1][1] == "Melee"
    assert len(table.rows[1]) == 7
    # New entries are told apart only by their colour.
    assert blocks[i].color is not None and blocks[i + 1].color is None


def test_real_datasheet_keywords_box_is_not_a_footer(shared):
    doc = real_doc(shared, "Overcharged-Plasma__warhammer-pdfs/imperial_armour_necrons_Mcu6QBdzRs8yWqCW.pdf")
    pages = {b.page for b in doc.blocks if b.text.startswith("FACTION KEYWORDS")}
    assert len(pages) >= 5
