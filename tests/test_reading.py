"""How a file was read: coverage, unread pages, what it was read as, inferences with reasons;
army lists and notes files are not rules documents."""
from __future__ import annotations

import pytest

from ruleslawyer.ingest.document import Document, DocumentOrigin, heading, paragraph
from ruleslawyer.ingest.formats import load_bytes
from ruleslawyer.ingest.parse.inference import infer_date, infer_edition, infer_faction
from ruleslawyer.ingest.pipeline import ingest_paths
from ruleslawyer.ingest.reading import coverage, read
from ruleslawyer.records import Rule, Source

WORDS = ("the unit can move again this phase if it did not shoot and no enemy model is within range of it "
         "at the start of that phase")


def doc_of(*blocks, name="x.pdf", meta=None):
    return Document(origin=DocumentOrigin(path=name, name=name, format="pdf", sha256="0"), blocks=tuple(blocks),
                    meta=meta or {})


def rule(text):
    return Rule(name="Moving", source=Source(file="x.pdf"), text=text)


def test_coverage_counts_words_placed_in_records_and_names_unread_pages():
    other = "roll a dice for each model that was destroyed and on a six it stands up again with one wound left " * 2
    doc = doc_of(paragraph(WORDS, page=1), paragraph(other, page=2))
    share, pages = coverage(doc, [rule(WORDS)])
    assert pages[1][0] == pages[1][1]  # page 1 fully placed
    assert pages[2][0] == 0
    assert 0.2 < share < 0.5
    reading = read(doc, [rule(WORDS)], {}, {})
    assert reading.unread_pages == [2]
    assert any("% of x.pdf was placed in records; 1 page unread: 2" in w for w in reading.warnings)


def test_fully_read_document_has_no_coverage_warning():
    doc = doc_of(heading("Moving", page=1), paragraph(WORDS, page=1))
    reading = read(doc, [rule(WORDS)], {}, {})
    assert reading.coverage == 1.0 and reading.unread_pages == [] and not reading.warnings
    assert reading.as_json()["read_as"] == "rules_chapter"


def test_faction_pack_title_date_and_edition_are_inferred_with_reasons():
    doc = doc_of(heading("WORLD EATERS"), paragraph("FACTION PACK: VERSION 1.1"),
                 paragraph("Legal for matched play from 22nd July 2026"), paragraph("OC Ld Sv"),
                 meta={"CreationDate": "D:20260629183213"})
    date = infer_date(doc)
    assert date.value == "2026-07-22" and "Legal for matched play" in date.reason
    edition = infer_edition(doc, date)
    assert edition.value == 11 and "2026-07-22" in edition.reason
    faction = infer_faction(doc)
    assert faction.value == "World Eaters" and "title" in faction.reason


def test_nothing_decides_the_edition_then_none_and_a_warning():
    doc = doc_of(paragraph("A plain note about painting."))
    assert infer_edition(doc, infer_date(doc)) is None
    from ruleslawyer.records import Stratagem
    reading = read(doc, [Stratagem(name="Plain", source=Source(file="x.pdf"), cp=1)], {}, {"edition": None})
    assert any("edition could not be told" in w for w in reading.warnings)


def test_faction_from_the_keyword_a_sheet_names():
    doc = doc_of(heading("VENGEFUL HOSTS"), paragraph("Select one ADEPTUS ASTARTES INFANTRY unit."),
                 paragraph("Each ADEPTUS ASTARTES model in it can move."))
    found = infer_faction(doc)
    assert found.value == "Space Marines" and "keyword" in found.reason


ARMY_LIST = """\
Wolves of the North (1000 points)

Space Wolves
Strike Force (2000 points)
Saga of the Hunter

CHARACTERS

Wolf Guard Battle Leader (90 points)
  • Warlord
  • 1x Bolt pistol
  • 1x Master-crafted power weapon

BATTLELINE

Grey Hunters (180 points)
  • 10x Grey Hunter
     • 10x Bolt pistol

Exported with App Version: v1.20.0 (58), Data Version: v566
"""


def test_army_list_in_a_folder_is_skipped_with_one_line(tmp_path, tmp_store):
    (tmp_path / "list.txt").write_text(ARMY_LIST, encoding="utf-8")
    (tmp_path / "README.md").write_text("# About\n\nThese are my files.\n", encoding="utf-8")
    (tmp_path / "rules.md").write_text("# Moving\n\n" + WORDS + "\n", encoding="utf-8")
    report = ingest_paths(tmp_store, [tmp_path])
    skipped = {r.path.rsplit("/", 1)[-1]: r for r in report.skipped}
    assert set(skipped) == {"list.txt", "README.md"}
    assert skipped["list.txt"].note == "is an army list: use `ruleslawyer list check`"
    assert not skipped["list.txt"].warnings  # skipping a list is right: `--strict` does not fail on it
    assert skipped["README.md"].note.startswith("a notes file")
    stored = {f.name for f in tmp_store.files()}
    assert stored == {"rules.md"}
    assert all(r.kind != "rule" or r.name == "Moving" for r in tmp_store.records())


def test_ingest_stores_the_reading(tmp_path, tmp_store):
    path = tmp_path / "rules.md"
    path.write_text("# MOVING 03.01\n\n" + WORDS + "\n\n# CHARGING 03.02\n\n" + WORDS + "\n\n# FIGHTING 03.03\n\n"
                    + WORDS + "\n", encoding="utf-8")
    ingest_paths(tmp_store, [path])
    (stored,) = tmp_store.files()
    assert stored.reading["read_as"] == "rules_chapter"
    assert stored.reading["inferred"]["edition"]["value"] == 11
    assert "numbered" in stored.reading["inferred"]["edition"]["reason"]
    assert stored.reading["coverage"] > 0.9


@pytest.mark.realdata
def test_faction_pack_records_carry_edition_and_faction(shared, tmp_store):
    from tests.conftest import shared_file

    pack = shared_file(shared, "realdata/nov26/fp11_world_eaters_v1.1_2026-07-22.pdf")
    report = ingest_paths(tmp_store, [pack])
    assert report.read == 1
    records = list(tmp_store.records())
    assert records and all(r.edition == 11 for r in records)
    assert all(r.faction == "World Eaters" for r in records if hasattr(r, "faction") and r.kind != "rule")
    (stored,) = tmp_store.files()
    assert stored.reading["read_as"] == "faction_pack" and stored.date == "2026-07-22"
    names = {r.name for r in records if r.kind == "enhancement"}
    assert "Talons of Butchery" in names and not any(n.upper().endswith("UPGRADE") for n in names)
    assert all(r.upgrade for r in records if r.kind == "enhancement" and r.name == "Talons of Butchery")


def test_structured_source_reading_is_its_records_kind():
    from ruleslawyer.ingest.reading import structured_reading
    from ruleslawyer.records import Points, UnitCost

    records = [Points(name=f"Unit {i}", source=Source(file="a.yaml"), costs=(UnitCost("1", 50),)) for i in range(3)]
    reading = structured_reading(records, "mfm-yaml")
    assert reading["read_as"] == "points_list" and "3 points" in reading["evidence"]


def test_a_faction_pack_whose_faction_nothing_tells_says_so():
    doc = doc_of(heading("SOMEWHERE"), paragraph("FACTION PACK: VERSION 1.0"), paragraph(WORDS))
    reading = read(doc, [rule(WORDS)], {}, {"faction": infer_faction(doc)})
    assert reading.read_as == "faction_pack"
    assert any("faction could not be told" in w for w in reading.warnings)


def test_a_notes_file_named_by_the_user_is_read(tmp_path, tmp_store):
    path = tmp_path / "README.md"
    path.write_text("# Moving\n\n" + WORDS + "\n", encoding="utf-8")
    report = ingest_paths(tmp_store, [path])
    assert report.read == 1 and not report.skipped
