"""The `ruleslawyer` command group (click); `main.py` is the entry point that imports it.

Commands live one group to a module and are imported only when run (so `ruleslawyer search`
does not pay for pdfplumber). Library errors become one `Error:` line with a hint; tracebacks
are left for real bugs.
"""
from __future__ import annotations

import click

from .. import __version__, registry
from ..errors import RuleslawyerError
from .context import AppContext, database_error_line, echo, error_line, library_error_line, printable



class UserError(click.ClickException):
    """A ClickException whose message is one line, with the hint after it."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(error_line(message, hint))


def raise_user_error(exc: RuleslawyerError) -> None:
    """Turn a library error into a one-line click error (with a hint when the library has one)."""
    raise click.ClickException(library_error_line(exc)) from None


def report_damage(line: str) -> None:
    """Print one damaged row a store met while reading (the store's damage reporter)."""
    echo(printable(f"Warning: {line}"), err=True)


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return sorted(registry.names(registry.COMMANDS))

    def get_command(self, ctx, name):
        return registry.load_named(registry.COMMANDS, name)

    def invoke(self, ctx):
        import sqlite3

        from ..storefile import set_damage_reporter

        set_damage_reporter(report_damage)
        try:
            return super().invoke(ctx)
        except RuleslawyerError as exc:
            raise_user_error(exc)
        except sqlite3.DatabaseError as exc:  # damage found while reading: one line, not a traceback
            raise click.ClickException(database_error_line(getattr(ctx.obj, "where", None), exc)) from None
        finally:
            set_damage_reporter(None)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", type=click.Path(dir_okay=False), envvar="RULESLAWYER_DB",
              help="The record store (SQLite file). Default: $RULESLAWYER_DB, else the per-user data folder.")
@click.option("--create", is_flag=True, help="Make the folder of --db when it does not exist.")
@click.version_option(__version__, prog_name="ruleslawyer")
@click.pass_context
def cli(ctx, db, create):
    """A rules reference for Warhammer 40,000 built from the documents you own.

    Ingest rules PDFs, datasheet web pages, FAQ/errata and reference sheets, then search them,
    show a datasheet or stratagem, look up a chart, list errata, build a static reference site
    or print unit cards. Query commands on an empty store use the shipped example corpus.
    """
    source = ctx.get_parameter_source("db")
    ctx.obj = AppContext(db, create, named=source == click.core.ParameterSource.COMMANDLINE)


pass_app = click.make_pass_decorator(AppContext)
