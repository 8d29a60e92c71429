"""`ruleslawyer search WORDS [--kind K] [--faction F] [--edition E] [--limit N] [--json]`
without click.

A search process is mostly start-up, and importing click is a third of it. This module reads
the plain form of the command from argv itself and runs the same code the click command runs
(`results.run_search`, with `context.py` for the store, messages and output), so the output
and exit status are the same. Anything it does not recognise -- help, group options, another
command, an unknown or repeated option, a value click would have to check or convert --
returns None, and the caller hands argv to click, which then gives its own answer or error.
"""
from __future__ import annotations

import os
import sys

# option -> (parameter name, takes a value)
OPTIONS = {"--kind": ("kind", True), "--faction": ("faction", True), "--edition": ("edition", True),
           "--limit": ("limit", True), "--json": ("as_json", False)}
LIMIT_RANGE = (1, 500)  # search.py's click.IntRange


def parse(argv: list[str]) -> dict | None:
    """The search parameters of a plain `search` argv, or None for anything else."""
    if not argv or argv[0] != "search":
        return None
    words: list[str] = []
    found: dict = {}
    rest = iter(argv[1:])
    for token in rest:
        if not token.startswith("-") or token == "-":
            if token == "-":
                return None
            words.append(token)
            continue
        option, eq, value = token.partition("=")
        if option not in OPTIONS:
            return None
        name, takes_value = OPTIONS[option]
        if name in found:
            return None  # a repeated option: click's rules decide
        if not takes_value:
            if eq:
                return None
            found[name] = True
            continue
        if not eq:
            value = next(rest, None)
            if value is None:
                return None
        if not value or value.startswith("-"):
            return None
        found[name] = value
    if not words:
        return None
    limit = found.get("limit", "10")
    if not (limit.isascii() and limit.isdigit()) or not LIMIT_RANGE[0] <= int(limit) <= LIMIT_RANGE[1]:
        return None
    return {"query": tuple(words), "kind": found.get("kind"), "faction": found.get("faction"),
            "edition": found.get("edition"), "limit": int(limit), "as_json": found.get("as_json", False)}


def run(argv: list[str]) -> int | None:
    """Run a plain search from `argv` (without the program name) and return its exit status,
    or None when click should handle this argv."""
    options = parse(argv)
    if options is None:
        return None
    db = os.environ.get("RULESLAWYER_DB") or None  # --db's envvar, as click reads it
    if db is not None and os.path.isdir(db):
        return None  # click.Path(dir_okay=False) reports this
    try:
        return _run(db, options)
    except (EOFError, KeyboardInterrupt):  # what click's main does with these
        _say("", err=True)
        _say("Aborted!", err=True)
        return 1
    except BrokenPipeError:  # output piped into `head`: quiet, like click
        _quiet_pipes()
        return 1


def _run(db: str | None, options: dict) -> int:
    import sqlite3

    from ..errors import RuleslawyerError
    from ..storefile import set_damage_reporter
    from .context import AppContext, database_error_line, library_error_line, printable
    from .results import run_search

    app = AppContext(db, named=False)
    set_damage_reporter(lambda line: _say(printable(f"Warning: {line}"), err=True))
    try:
        return run_search(app, **options)
    except RuleslawyerError as exc:
        _say(f"Error: {library_error_line(exc)}", err=True)
    except sqlite3.DatabaseError as exc:
        _say(f"Error: {database_error_line(app.where, exc)}", err=True)
    finally:
        set_damage_reporter(None)
    return 1


def _say(text: str, *, err: bool = False) -> None:
    from .context import echo

    echo(text, err=err)


def _quiet_pipes() -> None:
    """Send further output to /dev/null, so the interpreter's final flush does not complain."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError):
            pass
