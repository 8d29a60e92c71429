"""`ruleslawyer mcp` on the real pile (../shared/realdata ingested into a temporary store once):
every tool answers with citations, and `answer` finds the passage that answers the player
questions of tests/mcp_questions.json (written from those documents) in its first 3 results."""
from __future__ import annotations

import json

import pytest

from ruleslawyer.cli.context import library_error_line
from ruleslawyer.mcp.reference import Reference
from ruleslawyer.mcp.server import build_server
from ruleslawyer.names import fold

from .conftest import ROOT
from .mcp_helpers import TOOLS, calls, check_citation, citations, text_of

pytestmark = pytest.mark.realdata
QUESTIONS = json.loads((ROOT / "tests" / "mcp_questions.json").read_text(encoding="utf-8"))["questions"]


@pytest.fixture(scope="module")
def real_store(real_pile, tmp_path_factory):
    """A copy of the session's store of all of ../shared/realdata, with its search index."""
    import shutil

    from ruleslawyer.index.search import update_after_ingest

    db = tmp_path_factory.mktemp("mcpreal") / "store.sqlite"
    shutil.copyfile(real_pile, db)
    update_after_ingest(db)
    return db


@pytest.fixture(scope="module")
def reference(real_store):
    with Reference(real_store) as ref:
        ref.refresh()
        yield ref


def test_each_tool_answers_on_the_real_pile(reference, shared):
    army = (shared / "realdata" / "e11" / "lists" / "11e_app_official_1.txt").read_text(encoding="utf-8")
    requests = [("answer", {"question": "Can my unit shoot after it fell back?"}),
                ("search", {"query": "feel no pain", "edition": 11, "limit": 5}),
                ("show", {"name": "boyz", "kind": "datasheet", "faction": "orks"}),
                ("rule", {"number": "24.12"}),
                ("stratagems", {"faction": "necrons"}),
                ("points", {"unit": "doomsday ark", "faction": "necrons"}),
                ("errata", {"name": "canoptek court"}),
                ("conflicts", {"name": "warboss"}),
                ("check_list", {"text": army})]
    results = dict(zip([n for n, _ in requests], calls(build_server(reference, library_error_line), *requests)))
    assert set(results) == TOOLS
    for name, result in results.items():
        assert not result.is_error, (name, text_of(result))
        found = list(citations(result.structured_content))
        for c in found:
            check_citation(c)
        if name not in ("conflicts", "check_list"):
            assert found, name
            text = text_of(result).rstrip()
            assert any(text.endswith(c["words"]) for c in found), f"{name}: the text ends with a citation"
    shown = results["show"].structured_content
    assert shown["record"]["edition"] == max(reference.editions()), "the current edition first"
    assert shown["citation"]["printing"]["why"]
    assert results["rule"].structured_content["rules"][0]["citation"]["number"] == "24.12"
    points = results["points"].structured_content["points"]
    assert points and all(p["citation"]["version"] for p in points)
    assert results["conflicts"].structured_content["conflicts"], "the Warboss card and the CSV disagree"
    assert results["check_list"].structured_content["units"]


def answered(reference, question: dict) -> bool:
    from ruleslawyer.mcp.tools import answer_tool

    data, _ = answer_tool(reference, question["question"])
    return any(r["kind"] == question["kind"] and fold(r["name"]) == fold(question["name"])
               and ("edition" not in question or r.get("edition") == question["edition"])
               and question["phrase"].casefold() in r["passage"].casefold() for r in data["results"][:3])


def test_the_questions_name_records_of_the_pile(reference):
    """Each question's answer is in the store (else the question tests the parsers, not `answer`)."""
    from ruleslawyer.library.points import points_text
    from ruleslawyer.mcp.passages import passages
    from ruleslawyer.records import record_name

    assert len(QUESTIONS) == 40
    for q in QUESTIONS:
        records = [r for r in reference.records if r.kind == q["kind"] and fold(record_name(r)) == fold(q["name"])
                   and ("edition" not in q or r.edition == q["edition"])]
        texts = [points_text(r) if r.kind == "points" else " ".join(t for _, t in passages(r)) for r in records]
        assert any(q["phrase"].casefold() in t.casefold() for t in texts), q["question"]


def test_answer_finds_the_passage_for_36_of_40_questions(reference):
    missed = [q["question"] for q in QUESTIONS if not answered(reference, q)]
    assert len(QUESTIONS) - len(missed) >= 36, missed
