"""Terminal views of errata, notes, Q&A, outcomes and tables."""
from __future__ import annotations

from ruleslawyer.amend.apply import Outcome
from ruleslawyer.records import Erratum, Faq, Note, RefTable, Source, TableRow
from ruleslawyer.termview import format_record
from ruleslawyer.termview.errata import format_outcome

from tests.factories import source

SRC = source("faq.pdf", page=3)


def _erratum(**kw):
    base = dict(document="Core Book", version="1.7", page="219", target="Look Out, Sir", source=SRC,
                operation="replace", text="New wording.", edition=9, bullets=("Recap line.",), highlight="new")
    base.update(kw)
    return Erratum(**base)


def test_erratum_view():
    out = format_record(_erratum(), 80)
    lines = out.splitlines()
    assert lines[0] == "Page 219 - Look Out, Sir  [errata: replace]"
    assert lines[1] == "Core Book (version 1.7), new in this version"
    assert "New wording." in lines and "- Recap line." in lines
    assert lines[-1] == "Source: faq.pdf, page 3"


def test_note_and_faq_views():
    note = format_record(Note(name="Psychic Actions", source=SRC, document="Core Book", version="1.7",
                              text="First.\nSecond."), 80)
    assert note.splitlines()[0] == "Psychic Actions  [designer's note, Core Book (version 1.7)]"
    assert "First." in note and "Second." in note
    faq = format_record(Faq(question="Can it?", answer="No.", source=SRC, document="Codex: Tyranids",
                            version="1.0"), 80)
    assert "Q: Can it?" in faq and "A: No." in faq and "Codex: Tyranids (version 1.0)" in faq


def test_outcome_lines():
    e = _erratum()
    assert format_outcome(Outcome(e, True, "Look Out, Sir", None, "rule")) == \
        "p219 Look Out, Sir [replace] -> applied to Look Out, Sir"
    assert format_outcome(Outcome(_erratum(target="Embark"), False, "Embark", "target not in the corpus")) == \
        "p219 Embark [replace] -> NOT applied: target not in the corpus"
    added = _erratum(operation="add", target="Rare Rules", title="Charging Aircraft")
    assert format_outcome(Outcome(added, True, "Charging Aircraft", None, "rule", "new rule")) == \
        "p219 Rare Rules: Charging Aircraft [add] -> applied to Charging Aircraft (new rule)"


def test_table_view_wraps_long_cells_within_width():
    table = RefTable(name="Cover Saves", source=SRC, edition=5, rows=(
        TableRow("4+ Hard Cover", ("Walls, Ditches, Craters, Rubble, Hedges, Fences, Boulders, Ruins, "
                                   "Wreckage, Pillars, Containers, Drums, Statues",)),
        TableRow("3+ Fortified Cover", ("Fortifications",))))
    out = format_record(table, 60)
    body = out.splitlines()[2:-1]
    assert all(len(line) <= 60 for line in body)
    assert body[0].startswith("4+ Hard Cover ")
    assert any(line.startswith("3+ Fortified Cover  Fortifications") for line in body)
