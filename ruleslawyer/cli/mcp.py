"""`mcp`: serve the reference to AI assistants over the Model Context Protocol (stdio)."""
from __future__ import annotations

import click

from .main import pass_app


@click.command()
@click.option("--as-of", metavar="YYYY-MM-DD",
              help="Answer with the rules as published on or before this date (an event's freeze).")
@pass_app
def mcp(app, as_of):
    """Run an MCP server on stdin/stdout for AI assistants (read-only, every answer cited).

    Serves the same store as the other commands (--db, $RULESLAWYER_DB, the default store)
    without ever writing it: tools answer, search, show, rule, stratagems, points, errata,
    conflicts and check_list, the prompt rules_question, and records as resources
    (ruleslawyer://datasheet/orks/boyz?edition=11). A desktop assistant starts it with
    command "ruleslawyer" and args ["--db", "/path/to/store.sqlite", "mcp"].
    """
    from ..mcp.reference import Reference
    from ..mcp.server import serve
    from .context import library_error_line

    with Reference(app.db, as_of=as_of) as reference:
        reference.refresh()  # a damaged store is an error now, not at the first question
        serve(reference, library_error_line)

