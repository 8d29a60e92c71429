"""`check`: verify the store (SQLite integrity, tables, every record) and repair it."""
from __future__ import annotations

import sys

import click

from .context import echo
from .main import pass_app, printable


@click.command()
@click.option("--repair", is_flag=True, help="Drop damaged records and re-read the files they came from.")
@pass_app
def check(app, repair):
    """Check the store: SQLite integrity, its tables, and that every record reads back.

    Prints one line per problem and exits 1 when there is any; with --repair, damaged records
    are dropped and their files read again (when still on disk). Example: ruleslawyer check
    """
    from ..library.check import check_store

    report = check_store(app.db, repair=repair)
    for line in report.problems:
        echo(printable(f"Problem: {line}"), err=True)
    for line in report.repaired:
        echo(printable(f"Repaired: {line}"))
    state = "ok" if report.ok else f"{len(report.problems)} problem(s)" + (", repaired" if repair else "")
    echo(printable(f"{report.path}: {report.files} files, {report.records} records: {state}"))
    if not report.ok and not repair:
        sys.exit(1)
