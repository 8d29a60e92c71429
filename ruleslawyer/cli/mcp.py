"""`mcp`: serve the reference to AI assistants over the Model Context Protocol (stdio)."""
from __future__ import annotations

import click

from .main import pass_app


@click.command()
@pass_app
def mcp(app):
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

    with Reference(app.db) as reference:
        reference.refresh()  # a damaged store is an error now, not at the first question
        serve(reference, library_error_line)
