"""The `ruleslawyer` command group.

Commands live one group to a module and are imported only when run (so `ruleslawyer search`
does not pay for pdfplumber). Library errors become one `Error:` line with a hint; tracebacks
are left for real bugs.
"""
from __future__ import annotations

import click

from .. import __version__, lazy
from ..errors import AmbiguousNameError, NotFoundError, RuleslawyerError

# command name -> "module:attribute"
COMMANDS = {
    "ingest": "ruleslawyer.cli.store_commands:ingest",
    "export": "ruleslawyer.cli.store_commands:export",
    "stats": "ruleslawyer.cli.store_commands:stats",
    "show": "ruleslawyer.cli.show:show",
    "stratagems": "ruleslawyer.cli.stratagems:stratagems",
    "errata": "ruleslawyer.cli.errata:errata",
    "table": "ruleslawyer.cli.errata:table",
    "wound": "ruleslawyer.cli.errata:wound",
    "search": "ruleslawyer.cli.search:search",
    "site": "ruleslawyer.cli.site:site",
    "cards": "ruleslawyer.cli.cards:cards",
    "points": "ruleslawyer.cli.points:points",
}


class UserError(click.ClickException):
    """A ClickException whose message is one line, with the hint after it."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(f"{message} (hint: {hint})" if hint else message)


def raise_user_error(exc: RuleslawyerError) -> None:
    """Turn a library error into a one-line click error (with a hint when the library has one)."""
    message = str(exc)
    if isinstance(exc, NotFoundError) and exc.suggestions:
        message += "; did you mean: " + ", ".join(exc.suggestions)
    if isinstance(exc, AmbiguousNameError):
        from ..records import record_name

        listed = "; ".join(f"{record_name(r)} ({r.kind}{_where(r)})" for r in exc.candidates[:12])
        message += f": {listed}"
    raise UserError(message, exc.hint) from None


def _where(record) -> str:
    parts = [p for p in (getattr(record, "group", None), getattr(record, "faction", None)) if p]
    if record.edition:
        parts.append(f"{record.edition}th ed.")
    return ", " + ", ".join(parts) if parts else ""


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        spec = COMMANDS.get(name)
        return lazy.load(spec) if spec else None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except RuleslawyerError as exc:
            raise_user_error(exc)


class AppContext:
    """What every command gets: where the store is."""

    def __init__(self, db: str | None):
        self.db = db

    def store(self, *, seed_corpus: bool = True):
        """Open the store; query commands seed an empty store with the shipped corpus."""
        from ..library.corpus import open_store

        return open_store(self.db, seed_corpus=seed_corpus)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", type=click.Path(dir_okay=False), envvar="RULESLAWYER_DB",
              help="The record store (SQLite file). Default: $RULESLAWYER_DB, else the per-user data folder.")
@click.version_option(__version__, prog_name="ruleslawyer")
@click.pass_context
def cli(ctx, db):
    """A rules reference for Warhammer 40,000 built from the documents you own.

    Ingest rules PDFs, datasheet web pages, FAQ/errata and reference sheets, then search them,
    show a datasheet or stratagem, look up a chart, list errata, build a static reference site
    or print unit cards. Query commands on an empty store use the shipped example corpus.
    """
    ctx.obj = AppContext(db)


pass_app = click.make_pass_decorator(AppContext)
