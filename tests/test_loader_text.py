"""The text/Markdown loader: headings, styled spans, bullets, tables, bad input."""
from __future__ import annotations

import pytest

from ruleslawyer.errors import LoadError
from ruleslawyer.ingest.formats import load_bytes, sniff_format
from ruleslawyer.ingest.load.text import parse_spans

from .conftest import seed_path


def load(text: str, name: str = "doc.md"):
    return load_bytes(text.encode("utf-8"), name)


def test_headings_spans_bullets_tables():
    doc = load("# Title\n\nSHOOTING PHASE\n\nSome **bold** and *italic* text.\n\n- first\n- second\n\n"
               "No.\tNAME\tM\n1\tWarrior\t5\"\n")
    kinds = [b.kind for b in doc.blocks]
    assert kinds == ["heading", "heading", "paragraph", "list_item", "list_item", "table"]
    assert doc.blocks[0].level == 1 and doc.blocks[1].text == "SHOOTING PHASE"
    para = doc.blocks[2]
    assert [(s.text, s.bold, s.italic) for s in para.spans] == [
        ("Some ", False, False), ("bold", True, False), (" and ", False, False), ("italic", False, True),
        (" text.", False, False)]
    assert doc.blocks[5].rows == (("No.", "NAME", "M"), ("1", "Warrior", '5"'))


def test_labelled_caps_line_is_not_a_heading():
    doc = load("KEYWORDS: INFANTRY, CHARACTER\n")
    assert doc.blocks[0].kind == "paragraph"


def test_unbalanced_marker_is_literal():
    assert "".join(s.text for s in parse_spans("5 * 3 = **15")) == "5 * 3 = **15"


def test_pipe_table():
    doc = load("| S | T |\n|---|---|\n| 4 | 5+ |\n")
    assert doc.blocks[0].rows == (("S", "T"), ("4", "5+"))


@pytest.mark.parametrize("data,reason", [
    (b"", "empty"),
    (b"   \n\n", "empty"),
    (b"\x00\x01\x02garbage" * 50, "binary"),
    (b"PK\x03\x04zipdata", "ZIP"),
])
def test_bad_input_names_the_file(data, reason):
    with pytest.raises(LoadError) as err:
        load_bytes(data, "broken.txt")
    assert "broken.txt" in str(err.value) and reason in str(err.value)


def test_format_is_sniffed_from_content():
    assert sniff_format(b"%PDF-1.4 ...", "notes.txt") == "pdf"
    assert sniff_format(b"<!DOCTYPE html><html><body>x</body></html>", "page.txt") == "html"
    assert sniff_format(b"Plain words", "page.html") == "text"
    with pytest.raises(LoadError, match="not a PDF"):
        sniff_format(b"Plain words", "rules.pdf")


def test_seed_last_line_without_newline_is_kept(shared):
    path = seed_path(shared, "003")
    raw = path.read_text(encoding="utf-8")
    last = raw.rstrip("\n").split("\n")[-1].strip()
    doc = load_bytes(path.read_bytes(), path)
    assert doc.blocks[-1].text.strip() == last.replace("**", "").replace("*", "") or last in doc.text


def test_seed_000_tables_and_bold(shared):
    doc = load_bytes(seed_path(shared, "000").read_bytes(), "000.txt")
    tables = [b for b in doc.blocks if b.kind == "table"]
    stat_headers = [t for t in tables if t.rows[0][:3] == ("No.", "NAME", "M")]
    assert len(stat_headers) == 18  # one profile table per unit card
    assert all(len(t.rows[0]) == 11 for t in stat_headers)
    assert any(s.bold and s.text == "mission" for b in doc.blocks for s in b.spans)


def test_utf16_text_with_bom_loads():
    doc = load_bytes("\ufeffSHOOTING PHASE\nPick a unit.\n".encode("utf-16-le"), "notes.txt")
    assert [b.text for b in doc.blocks] == ["SHOOTING PHASE", "Pick a unit."]


@pytest.mark.parametrize("text, title", [
    ("Reference Sheet\n\nVersion 1.2\n\nMOVING PHASE\n\nUnits move 6\".\n", "Reference Sheet"),
    ("# Core Rules\n\nSome text.\n", "Core Rules"),
    ("A long opening sentence that says what this sheet is about, and goes on for a while.\n\n"
     "MOVEMENT\n\nText.\n", "MOVEMENT"),
    ("Units move 6 inches.\n\nSHOOTING\n\nText.\n", "SHOOTING"),
    ("- a bullet first\n\nText.\n", None),
])
def test_document_title_is_a_short_first_line_else_the_first_heading(text, title):
    assert load_bytes(text.encode(), "sheet.txt").title == title
