"""Helpers for the MCP tests: talk to a ruleslawyer MCP server through the SDK's own client."""
from __future__ import annotations

import asyncio

CITATION_KEYS = {"document", "file", "page", "edition", "number", "date", "version", "printing", "errata", "words"}
TOOLS = {"answer", "search", "show", "rule", "stratagems", "points", "errata", "conflicts", "check_list"}


def with_client(server, work):
    """Run `await work(client)` with an SDK Client connected to `server` (in memory, or a
    StdioServerParameters to start it as a subprocess) and return what it returns."""
    from mcp import Client

    async def main():
        async with Client(server) as client:
            return await work(client)

    return asyncio.run(main())


def calls(server, *requests):
    """The CallToolResults of (tool name, arguments) requests, made in one session."""
    async def work(client):
        return [await client.call_tool(name, args) for name, args in requests]

    return with_client(server, work)


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


def citations(data):
    """Every `citation` object anywhere in a structured result."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "citation":
                yield value
            else:
                yield from citations(value)
    elif isinstance(data, list):
        for item in data:
            yield from citations(item)


def check_citation(c: dict) -> None:
    """A citation has every field, names a file, and its words name the document."""
    assert CITATION_KEYS <= set(c), set(c) ^ CITATION_KEYS
    assert c["file"] and c["document"] and c["words"].startswith(c["document"])
    assert c["printing"]["chosen"] == c["file"] and c["printing"]["why"]
    if c["page"]:
        assert f"p. {c['page']}" in c["words"]
    for e in c["errata"]:
        assert e["document"] and (e["document"] in c["words"])
