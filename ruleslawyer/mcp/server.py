"""The MCP server: the official SDK's `MCPServer` with ruleslawyer's tools, prompt and resources.

Every tool is read-only and returns text that ends with its citation in words, plus the same
result as structured content in which every record carries a `citation`. A library error (a
name not found, a malformed query) is a tool error with one line, never a traceback.

The tools run on the event loop's thread, one at a time: the store's SQLite connection belongs
to the thread that opened it, and a stdio client sends one request at a time anyway.
"""
from __future__ import annotations

import re
import sqlite3
from typing import Annotated, Any, Callable

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from .. import __version__
from ..errors import RuleslawyerError, StoreError
from ..storefile import REPAIR_HINT
from . import tools as t
from .reference import Reference

INSTRUCTIONS = (
    "ruleslawyer answers Warhammer 40,000 rules questions from the documents the player ingested "
    "(core rules, datasheets, FAQs and errata, points), with errata applied and the current edition "
    "first. Call `answer` first with the player's question; then `show`, `rule`, `stratagems` or "
    "`points` for details. Answer only from what the tools return and cite each result's `citation` "
    "(its `words`, e.g. \"Core Rules 11th ed., 24.12, p. 81\")."
)
RULES_QUESTION = """Answer this Warhammer 40,000 rules question: {question}

Use only the ruleslawyer tools' results, never your memory of the rules: call `answer` with the
question first, then `show`, `rule`, `stratagems`, `points`, `errata` or `conflicts` when you need
more. Quote the passage that decides it and cite every rule you use with its citation's words
(document, edition, rule number, page); mention any FAQ entry or erratum the tools returned
with it. If the tools return nothing that answers the question, say that the player's documents
do not cover it instead of guessing."""

Kind = Annotated[str | None, Field(description="Only records of this kind: datasheet, stratagem, enhancement, "
                                               "detachment_rule, rule, errata, note, faq, table or points.")]
Faction = Annotated[str | None, Field(description="Only records of this faction (or the start of its name), "
                                                  "e.g. 'necrons'.")]
Edition = Annotated[int | None, Field(description="Only this edition (5, 9, 10 or 11); default: the newest.",
                                      ge=1, le=99)]
Name = Annotated[str, Field(description="The record's name; case, punctuation and small typos do not matter.",
                            max_length=t.MAX_QUERY_CHARS)]
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def one_line(text: str) -> str:
    """An error text on one line (the SDK's argument-validation errors span several)."""
    lines = [line.strip() for line in text.splitlines()]
    return " ".join(line for line in lines if line and not line.startswith("For further information"))


class OneLineErrors:
    """Server middleware: a failed tool call's message on one line, whatever raised it."""

    async def __call__(self, ctx, call_next):
        result = await call_next(ctx)
        # The chain hands back the result as it goes on the wire (a dict).
        if ctx.method == "tools/call" and isinstance(result, dict) and result.get("isError"):
            content = [{**c, "text": one_line(c["text"])} if c.get("type") == "text" else c
                       for c in result.get("content", [])]
            return {**result, "content": content}
        return result


def build_server(reference: Reference, describe_error: Callable[[RuleslawyerError], str] = str) -> MCPServer:
    """An MCPServer serving `reference` (kept open for the server's life).

    `describe_error` turns a library error into the one line a tool error shows (the CLI
    passes its own, so both say the same).
    """
    server = MCPServer("ruleslawyer", version=__version__, instructions=INSTRUCTIONS, middleware=[OneLineErrors()])

    def run(fn, *args, **kwargs) -> CallToolResult:
        try:
            reference.refresh()  # once a call: the store may have been ingested into since
            data, text = fn(reference, *args, **kwargs)
        except RuleslawyerError as exc:
            # The library's hints name command-line options; here they are the tool's arguments.
            raise ToolError(re.sub(r"--(kind|edition|faction)\b", r"\1", " ".join(describe_error(exc).split()))) from None
        except sqlite3.DatabaseError as exc:  # damage met while reading: the CLI's line, not a crash
            damaged = StoreError(f"{reference.path}: the store is damaged: {exc}", hint=REPAIR_HINT)
            raise ToolError(" ".join(describe_error(damaged).split())) from None
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)

    def tool(fn):
        server.add_tool(fn, annotations=READ_ONLY, structured_output=False)
        return fn

    @tool
    async def answer(question: Annotated[str, Field(description="The player's question in their own words, e.g. "
                                                                "'Can I shoot after falling back?'",
                                                    max_length=t.MAX_QUERY_CHARS)],
                     limit: Annotated[int | None, Field(description="How many passages (1-5, default 3).",
                                                        ge=1, le=5)] = None) -> CallToolResult:
        """Answer a rules question: the passages of the few records that best answer it (not whole
        records), each with the FAQ entries and errata that touch it and its citation. Call this
        first for any rules question; quote the passage and cite `citation.words`."""
        return run(t.answer_tool, question, limit)

    @tool
    async def search(query: Annotated[str, Field(description="Words, \"quoted phrases\", AND/OR/NOT, and filters "
                                                             "such as kind:stratagem phase:shooting keyword:fly "
                                                             "number:24.12.", max_length=t.MAX_QUERY_CHARS)],
                     kind: Kind = None, faction: Faction = None, edition: Edition = None,
                     limit: Annotated[int | None, Field(description="Hits to return (1-25, default 10).",
                                                        ge=1, le=t.MAX_LIMIT)] = None) -> CallToolResult:
        """Full-text search over every record (errata applied): ranked hits with a snippet and a
        citation each. Use it to find a record's exact name, then `show` it."""
        return run(t.search_tool, query, kind, faction, edition, limit)

    @tool
    async def show(name: Name, kind: Kind = None, faction: Faction = None, edition: Edition = None) -> CallToolResult:
        """One record in full (datasheet, stratagem, rule, enhancement, FAQ, table...) with errata
        applied, its current points, the other files that print it and its other editions. The
        newest edition is shown unless `edition` is given."""
        return run(t.show_tool, name, kind, faction, edition)

    @tool
    async def rule(number: Annotated[str, Field(description="A printed rule number, e.g. '24.12' (11th edition).",
                                                max_length=20)]) -> CallToolResult:
        """The core rule (or core stratagem) printed with this number, e.g. "24.12"."""
        return run(t.rule_tool, number)

    @tool
    async def stratagems(faction: Annotated[str | None, Field(description="Faction, e.g. 'necrons'; 'none' for the "
                                                                          "core stratagems.")] = None,
                         detachment: Annotated[str | None, Field(description="Part of the detachment's name.")] = None,
                         phase: Annotated[str | None, Field(description="A word of WHEN, e.g. 'shooting', 'fight'.")]
                         = None, edition: Edition = None) -> CallToolResult:
        """Stratagems matching all given filters, with WHEN/TARGET/EFFECT and CP (at most 25: narrow
        with detachment or phase; `count` says how many match)."""
        return run(t.stratagems_tool, faction, detachment, phase, edition)

    @tool
    async def points(unit: Annotated[str, Field(description="The unit (or detachment), or part of its name.",
                                                max_length=t.MAX_QUERY_CHARS)],
                     faction: Faction = None) -> CallToolResult:
        """The current points of a unit or detachment from the newest Munitorum Field Manual in the
        store (by unit size and tier, wargear, Detachment Points), and which version says so."""
        return run(t.points_tool, unit, faction)

    @tool
    async def errata(name: Name) -> CallToolResult:
        """The FAQ/errata entries about a record (by its name) and whether each was applied."""
        return run(t.errata_tool, name)

    @tool
    async def conflicts(name: Name) -> CallToolResult:
        """Where the files that print a record disagree (characteristics, keywords, wording)."""
        return run(t.conflicts_tool, name)

    @tool
    async def check_list(text: Annotated[str, Field(description="The army list as exported by the official app, "
                                                                "New Recruit or BattleScribe (text).",
                                                    max_length=t.MAX_LIST_TEXT)]) -> CallToolResult:
        """Check an army list pasted as text: each unit resolved to its datasheet, wargear,
        enhancements, detachments, points added up and repriced at the current points, and the
        problems found (the same result as `ruleslawyer list check --json`)."""
        return run(t.check_list_tool, text)

    @server.prompt(name="rules_question", description="Answer a rules question from the player's documents only, "
                                                      "citing them.")
    def rules_question(question: str) -> str:
        return RULES_QUESTION.format(question=question)

    @server.resource("ruleslawyer://{kind}/{faction}/{name}{?edition}", name="record", mime_type="text/plain",
                     description="One record with errata applied, e.g. ruleslawyer://datasheet/orks/boyz?edition=11 "
                                 "(faction 'core' for records of no faction).")
    async def record(kind: str, faction: str, name: str, edition: str = "") -> str:
        wanted = None if faction.casefold() in ("core", "none", "any", "-") else faction
        try:
            edition_number = int(edition) if edition else None
            _, text = t.show_tool(reference, name.replace("-", " ").replace("_", " "), kind, wanted, edition_number)
        except ValueError:
            raise ResourceError(f"edition must be a number (got {edition!r})") from None
        except RuleslawyerError as exc:
            raise ResourceError(" ".join(describe_error(exc).split())) from None
        return text

    return server


def serve(reference: Reference, describe_error: Callable[[RuleslawyerError], Any] = str) -> None:
    """Run the server over stdio until the client closes it."""
    build_server(reference, describe_error).run("stdio")
