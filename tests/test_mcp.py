"""`ruleslawyer mcp` through the SDK's own client, on the shipped corpus: the tools and their
schemas, a call of each (answers checked against the library), citations, errors, the prompt,
the resources, the read-only store, and the server started as a subprocess over stdio."""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

import pytest

from ruleslawyer.cli.context import library_error_line
from ruleslawyer.library.corpus import load_corpus, open_store
from ruleslawyer.mcp.reference import Reference
from ruleslawyer.mcp.server import build_server

from .conftest import ROOT
from .mcp_helpers import TOOLS, calls, check_citation, citations, text_of, with_client


@pytest.fixture
def store(tmp_path, example_store) -> Path:
    path = tmp_path / "store.sqlite"
    shutil.copyfile(example_store, path)
    return path


@pytest.fixture
def server(store):
    with Reference(store) as reference:
        yield build_server(reference, library_error_line)


def corpus_of(store: Path):
    with open_store(store) as s:
        return load_corpus(s)


def test_every_tool_is_listed_with_a_schema_and_docstring(server):
    listed = with_client(server, lambda c: c.list_tools())
    assert {t.name for t in listed.tools} == TOOLS
    for tool in listed.tools:
        assert len(tool.description or "") > 60, tool.name
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["properties"], tool.name
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
        assert tool.annotations.read_only_hint and not tool.annotations.destructive_hint
    required = {t.name: set(t.input_schema.get("required", [])) for t in listed.tools}
    assert required == {"answer": {"question"}, "search": {"query"}, "show": {"name"}, "rule": {"number"},
                        "stratagems": set(), "points": {"unit"}, "errata": {"name"}, "conflicts": {"name"},
                        "check_list": {"text"}}
    limits = {n: p.get("maxLength") for t in listed.tools for n, p in t.input_schema["properties"].items()
              if n in ("query", "question", "name")}
    assert limits and all(limits.values()), "query lengths are bounded in the schema"


def test_each_tool_answers_with_citations(server, store):
    corpus = corpus_of(store)
    army = (ROOT / "docs" / "examples" / "army-list.txt").read_text(encoding="utf-8")
    names = ["answer", "search", "show", "rule", "stratagems", "points", "errata", "conflicts", "check_list"]
    requests = [("answer", {"question": "How far can a unit consolidate?"}),
                ("search", {"query": "look out sir", "limit": 3}),
                ("show", {"name": "look out sir"}),
                ("rule", {"number": "03.04"}),
                ("stratagems", {"faction": "necrons"}),
                ("points", {"unit": "doomsday ark"}),
                ("errata", {"name": "charges"}),
                ("conflicts", {"name": "deep strike"}),
                ("check_list", {"text": army})]
    results = dict(zip(names, calls(server, *requests)))
    for name, result in results.items():
        assert not result.is_error, (name, text_of(result))
        data = result.structured_content
        found = list(citations(data))
        if name not in ("conflicts", "check_list"):
            assert found, name
        for c in found:
            check_citation(c)
        if found:  # text results end with the citation in words
            assert text_of(result).rstrip().endswith(found[-1]["words"]), name

    # answer: the passage is a piece of the record's own (amended) text, with its citation
    first = results["answer"].structured_content["results"][0]
    rules = [r for r in corpus.records if r.kind == "rule" and r.name == first["name"]]
    assert rules and any(first["passage"].strip(". ") in r.text for r in rules)
    assert first["name"] == "Consolidate" and first["kind"] == "rule"
    # show: the errata the library applied, with their FAQ named
    shown = results["show"].structured_content
    look_out = next(r for r in corpus.records if r.kind == "rule" and r.name == "Look Out, Sir")
    assert [e["document"] for e in shown["citation"]["errata"]] == [c.document for c in look_out.changes]
    assert shown["record"]["text"] == look_out.text
    # rule: the record printed with that number
    numbered = [r for r in corpus.records if getattr(r, "number", None) == "03.04"]
    assert [r["name"] for r in results["rule"].structured_content["rules"]] == [r.name for r in numbered]
    # stratagems: what the library's filter gives
    from ruleslawyer.library.queries import filter_stratagems

    expected = filter_stratagems(corpus.records, faction="necrons")
    assert [s["name"] for s in results["stratagems"].structured_content["stratagems"]] == [s.name for s in expected]
    # points: the library's current points and their points list
    from ruleslawyer.library.points import find_points, points_text

    with open_store(store) as s:
        current = find_points(s, "doomsday ark")
    assert [p["text"] for p in results["points"].structured_content["points"]] == [points_text(p) for p in current]
    assert results["points"].structured_content["points"][0]["citation"]["version"] == current[0].version
    # errata: applied, as `ruleslawyer errata` says
    entries = results["errata"].structured_content["errata"]
    assert entries and all(e["applied"] for e in entries)
    # check_list: the same object as `list check --json`
    from ruleslawyer.library.armylist import check_list_file

    with open_store(store) as s:
        assert results["check_list"].structured_content == check_list_file(s, ROOT / "docs/examples/army-list.txt").to_json()


def test_conflicts_names_the_files_that_disagree(tmp_path):
    from ruleslawyer.ingest.pipeline import Dating, ingest_paths
    from ruleslawyer.store import Store

    db = tmp_path / "house.sqlite"
    with Store(db) as s:
        ingest_paths(s, [ROOT / "docs/examples/house-rules.md"], dating=Dating(date="2024-06-01"))
        ingest_paths(s, [ROOT / "docs/examples/house-rules-2025.md"], dating=Dating(date="2025-02-01"))
    with Reference(db) as reference:
        server = build_server(reference, library_error_line)
        conflict, shown = calls(server, ("conflicts", {"name": "overwatch"}), ("show", {"name": "overwatch"}))
    found = conflict.structured_content["conflicts"]
    assert [(c["chosen_file"], c["other_files"]) for c in found] == [("house-rules-2025.md", ["house-rules.md"])]
    printing = shown.structured_content["citation"]["printing"]
    assert printing["others"] == ["house-rules.md"] and "2025-02-01" in printing["why"]


@pytest.mark.parametrize("name,args,says", [
    ("show", {"name": "nosuchunit"}, "no record named 'nosuchunit'"),
    ("search", {"query": "x", "limit": 100}, "limit"),
    ("search", {"query": "word " * 150}, "at most"),
    ("search", {"query": '"unbalanced'}, "unbalanced quote"),
    ("stratagems", {"faction": "necronz"}, "necronz"),
    ("rule", {"number": "99.99"}, "no rule numbered"),
    ("check_list", {"text": "hello"}, "not an army list"),
    ("answer", {"question": "?"}, "names no rule"),
    ("show", {"name": "deep strike", "edition": 0}, "edition"),
    ("show", {"name": "phase"}, "different things"),
])
def test_a_tool_error_is_one_line(server, name, args, says):
    (result,) = calls(server, (name, args))
    assert result.is_error
    text = text_of(result)
    assert "\n" not in text and "Traceback" not in text and says in text, text


def test_prompt_and_resources(server):
    async def work(client):
        prompts = await client.list_prompts()
        prompt = await client.get_prompt("rules_question", {"question": "Can I shoot after falling back?"})
        templates = await client.list_resource_templates()
        read = await client.read_resource("ruleslawyer://rule/core/engagement?edition=11")
        missing = None
        try:
            await client.read_resource("ruleslawyer://datasheet/necrons/nobody")
        except Exception as exc:  # the SDK raises the server's error
            missing = str(exc)
        return prompts, prompt, templates, read, missing

    prompts, prompt, templates, read, missing = with_client(server, work)
    assert [p.name for p in prompts.prompts] == ["rules_question"]
    text = prompt.messages[0].content.text
    assert "Can I shoot after falling back?" in text and "cite" in text and "only" in text
    assert any("{kind}" in t.uri_template for t in templates.resource_templates)
    body = read.contents[0].text
    assert "Engagement" in body and "03.04" in body
    assert missing and "nobody" in missing and "\n" not in missing


def test_the_store_is_never_written(store):
    def digest():
        return hashlib.sha256(store.read_bytes()).hexdigest()

    with Reference(store) as reference:
        reference.search("warm the index")
        before = digest(), store.stat().st_mtime_ns
        server = build_server(reference, library_error_line)
        calls(server, ("answer", {"question": "deep strike"}), ("show", {"name": "royal warden"}),
              ("stratagems", {}), ("points", {"unit": "ark"}))
        assert (digest(), store.stat().st_mtime_ns) == before


def test_a_read_only_store_is_served(store):
    store.chmod(0o444)
    try:
        with Reference(store) as reference:
            assert reference.store.read_only or os.geteuid() == 0  # root may write any file
            (result,) = calls(build_server(reference), ("show", {"name": "deep strike"}))
        assert not result.is_error and "Deep Strike" in text_of(result)
    finally:
        store.chmod(0o644)


def test_a_missing_or_damaged_store_is_the_clis_error_line(tmp_path):
    from click.testing import CliRunner

    from ruleslawyer.cli.main import cli

    damaged = tmp_path / "damaged.sqlite"
    damaged.write_text("not a database")
    for db, says in ((tmp_path / "none.sqlite", "no store here"), (tmp_path / "no" / "x.sqlite", "no such folder"),
                     (damaged, "cannot open the store")):
        result = CliRunner().invoke(cli, ["--db", str(db), "mcp"])
        assert result.exit_code == 1 and says in result.output
        assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert not (tmp_path / "none.sqlite").exists(), "the server never makes a store"
    same = CliRunner().invoke(cli, ["--db", str(damaged), "search", "x"])
    assert same.output == result.output


@pytest.mark.slow
def test_the_command_serves_over_stdio(store):
    from mcp import StdioServerParameters

    command = Path(sys.executable).with_name("ruleslawyer")
    params = StdioServerParameters(command=str(command), args=["--db", str(store), "mcp"])

    async def work(client):
        return await client.list_tools(), await client.call_tool("answer", {"question": "What is engagement range?"})

    listed, answered = with_client(params, work)
    assert {t.name for t in listed.tools} == TOOLS
    assert not answered.is_error
    first = answered.structured_content["results"][0]
    assert first["name"] == "Engagement" and first["citation"]["number"] == "03.04"


def test_damage_met_during_a_call_is_one_line(store):
    import sqlite3

    with Reference(store) as reference:
        server = build_server(reference, library_error_line)
        reference.refresh()
        conn = sqlite3.connect(store)
        conn.execute("DROP TABLE meta")  # the generation a call reads first is gone
        conn.commit()
        conn.close()
        (result,) = calls(server, ("show", {"name": "deep strike"}))
    text = text_of(result)
    assert result.is_error and "the store is damaged" in text and "\n" not in text, text


def test_the_readme_exchange_is_what_the_tool_returns(server):
    """The README's example exchange: the arguments it shows, the text and citation it shows."""
    import json
    import re

    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## `ruleslawyer mcp`")[1].split("\n## ")[0]
    arguments = json.loads(re.search(r"called `answer` with\s*`(\{.*?\})`", section, re.S).group(1))
    shown_text = re.search(r"the tool returned this text:\n\n```text\n(.*?)```", section, re.S).group(1)
    shown_citation = json.loads(re.search(r"with this citation:\n\n```json\n(.*?)```", section, re.S).group(1))
    (result,) = calls(server, ("answer", arguments))
    assert text_of(result).strip() == shown_text.strip()
    assert result.structured_content["results"][0]["citation"] == shown_citation
