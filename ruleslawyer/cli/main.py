"""The `ruleslawyer` command group.

Commands live one group to a module and are imported only when run (so `ruleslawyer search`
does not pay for pdfplumber). Library errors become one `Error:` line with a hint; tracebacks
are left for real bugs.
"""
from __future__ import annotations

from pathlib import Path

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
    "files": "ruleslawyer.cli.files:files",
    "remove": "ruleslawyer.cli.files:remove",
    "conflicts": "ruleslawyer.cli.files:conflicts",
    "list": "ruleslawyer.cli.lists:list_group",
    "check": "ruleslawyer.cli.check:check",
    "points": "ruleslawyer.cli.points:points",
}


class UserError(click.ClickException):
    """A ClickException whose message is one line, with the hint after it."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(printable(f"{message} (hint: {hint})" if hint else message))


def printable(text: str) -> str:
    """`text` safe for one terminal line: newlines, escape sequences and other control
    characters (from file names, say) shown as escapes, not obeyed."""
    from ..printable import printable as escape

    return escape(text)


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
        import sqlite3

        from ..storefile import set_damage_reporter

        set_damage_reporter(lambda line: click.echo(printable(f"Warning: {line}"), err=True))
        try:
            return super().invoke(ctx)
        except RuleslawyerError as exc:
            raise_user_error(exc)
        except sqlite3.DatabaseError as exc:  # damage found while reading: one line, not a traceback
            from ..storefile import REPAIR_HINT

            db = getattr(ctx.obj, "where", None) or "the store"
            if "locked" in str(exc) or "busy" in str(exc):
                raise UserError(f"{db}: the store is busy: {exc}",
                                "another ruleslawyer command is writing it; try again when it is done") from None
            raise UserError(f"{db}: the store is damaged: {exc}", REPAIR_HINT) from None
        finally:
            set_damage_reporter(None)


class AppContext:
    """What every command gets: where the store is (checked when first asked for), and whether
    it was named with --db (a named store is never seeded with the example corpus)."""

    def __init__(self, db: str | None, create: bool = False, *, named: bool = False):
        self._db = db
        self.create = create
        self.where = db
        self.named = named

    @property
    def db(self) -> str | None:
        """The --db path; a path in a folder that does not exist is an error unless --create."""
        if self._db is not None:
            from ..storefile import check_location

            check_location(self._db, create=self.create)
        return self._db

    def store(self, *, seed_corpus: bool = True):
        """Open the store. Query commands seed a new default store (one with no files at all)
        with the shipped example corpus, and say so on stderr."""
        from ..library.corpus import open_store

        db = self.db
        store = open_store(db)
        self.where = str(store.path)
        if seed_corpus and not self.named and not _read_only(db):
            from ..ingest.pipeline import ensure_corpus

            report = ensure_corpus(store)
            if report is not None:
                click.echo(f"Your store was empty: added the example corpus ({report.read} files) so there is "
                           "something to answer. `ruleslawyer ingest` your own documents to replace it.", err=True)
        return store

    def ensure_seeded(self) -> None:
        """Seed a new default store before a command that reads the store by path (search)."""
        if self.named:
            return
        from ..paths import default_db_path

        path = default_db_path() if self.db is None else Path(self.db)
        if not path.exists() or path.stat().st_size == 0:
            self.store().close()


def _read_only(db: str | None) -> bool:
    """True when the store at `db` exists and cannot be written (it is then not seeded)."""
    from ..paths import default_db_path
    from ..storefile import cannot_write

    return cannot_write(Path(db) if db else default_db_path())


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
