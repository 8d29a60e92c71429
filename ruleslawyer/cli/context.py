"""What the command line needs that does not need click: the store a command works on, how a
library error reads as one line, and writing lines the way `click.echo` does.

Kept apart from `group.py` so that the plain `search` path (`fast.py`) starts without
importing click; both paths use these, so their output is the same.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from ..errors import AmbiguousNameError, NotFoundError, RuleslawyerError

# What click.echo strips from text sent to a stream that is not a terminal (click._compat).
_ANSI = re.compile(r"\033\[[0-?]*[ -/]*[@-~]")
# click.style's codes for the two styles the CLI uses.
_STYLES = {"bold": "\033[1m", "yellow": "\033[33m"}
_RESET = "\033[0m"


def echo(text: str, *, err: bool = False) -> None:
    """Write `text` and a newline to stdout (stderr with `err`) as `click.echo` does: escape
    sequences are dropped when the stream is not a terminal, and the stream is flushed. Control
    and format characters in the text (a right-to-left override in a record's name) are shown
    as escapes; the CLI's own style codes are kept."""
    from ..printable import terminal_safe

    stream = sys.stderr if err else sys.stdout
    text = terminal_safe(text)  # names from documents may hold bidi overrides or escape sequences
    if not _isatty(stream):
        text = _ANSI.sub("", text)
    stream.write(text + "\n")
    stream.flush()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except Exception:  # a closed or odd stream: treat it as not a terminal, as click does
        return False


def style(text: str, *, bold: bool = False, fg: str | None = None) -> str:
    """`text` with the escape codes `click.style(text, fg=fg, bold=bold)` gives."""
    codes = (_STYLES[fg] if fg else "") + (_STYLES["bold"] if bold else "")
    return f"{codes}{text}{_RESET}" if codes else text


def printable(text: str) -> str:
    """`text` safe for one terminal line: newlines, escape sequences and other control
    characters (from file names, say) shown as escapes, not obeyed."""
    from ..printable import printable as escape

    return escape(text)


def error_line(message: str, hint: str | None = None) -> str:
    """The one line (after "Error: ") that reports a user error, with its hint."""
    return printable(f"{message} (hint: {hint})" if hint else message)


def library_error_line(exc: RuleslawyerError) -> str:
    """The one line that reports a library error: suggestions, candidates and hint included."""
    message = str(exc)
    if isinstance(exc, NotFoundError) and exc.suggestions:
        message += "; did you mean: " + ", ".join(exc.suggestions)
    if isinstance(exc, AmbiguousNameError):
        from ..library.pick import show_command
        from ..records import record_name

        shown = exc.candidates[:12]
        listed = "; ".join(f"{record_name(r)} ({r.kind}{_where(r)}): {show_command(r, shown)}" for r in shown)
        message += f": {listed}"
    return error_line(message, exc.hint)


def database_error_line(where: str | None, exc: Exception) -> str:
    """The one line that reports SQLite trouble met while reading the store at `where`."""
    from ..storefile import REPAIR_HINT

    db = where or "the store"
    from ..storefile import disk_full_error, is_disk_full_error

    if is_disk_full_error(exc):  # the store is fine: the write had no room
        return library_error_line(disk_full_error(db))
    if "locked" in str(exc) or "busy" in str(exc):
        return error_line(f"{db}: the store is busy: {exc}",
                          "another ruleslawyer command is writing it; try again when it is done")
    return error_line(f"{db}: the store is damaged: {exc}", REPAIR_HINT)


def _where(record) -> str:
    parts = [p for p in (getattr(record, "group", None), getattr(record, "faction", None)) if p]
    if record.edition:
        parts.append(f"{record.edition}th ed.")
    return ", " + ", ".join(parts) if parts else ""


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
                echo(f"Your store was empty: added the example corpus ({report.read} files) so there is "
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
