"""`files`, `remove` and `conflicts`: which documents the store holds, and where they disagree."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..names import version_label
from ..printable import printable
from .context import echo
from .main import pass_app


@click.command()
@click.option("--warnings", "show_warnings", is_flag=True, help="List each file's warnings too.")
@click.option("--json", "as_json", is_flag=True, help="Print the files as JSON.")
@pass_app
def files(app, show_warnings, as_json):
    """List the stored files: date, version, precedence, record counts and warnings.

    The date is the document's own (PDF metadata, an export's update stamp, `ingest --dated`),
    else the day it was ingested (marked "ingested"). Newer printings of a record win;
    `ingest --prefer` and ruleslawyer.toml rank files above that.

    Example: ruleslawyer files --warnings
    """
    from ..library.files import describe_files

    with app.store(seed_corpus=False) as store:
        rows = describe_files(store)
    if as_json:
        echo(json.dumps([r.to_json() for r in rows], ensure_ascii=False, indent=2))
        return
    if not rows:
        echo("The store holds no files (`ruleslawyer ingest FILE` adds some).")
        return
    for r in rows:
        when = r.date if r.dated else f"{r.date} (ingested)"
        parts = [f"{printable(r.shown or r.name):<40}", f"{r.format:<14}", f"{when:<23}",
                 version_label(r.version) or "-", f"prefer {r.preference:+d}" if r.preference else "",
                 f"{r.records} records", reading_summary(r), f"{len(r.warnings)} warnings" if r.warnings else ""]
        echo("  ".join(p for p in parts if p).rstrip())
        if show_warnings:
            for line in reading_details(r):
                echo(printable(f"    {line}"))
            for w in r.warnings:
                echo(printable(f"    warning: {w}"))


def reading_summary(row) -> str:
    """What a file was read as, how much of it became records, and its edition, in few words
    ("faction pack, 87% placed, 11th ed. (inferred)"); empty for files read before this was kept."""
    reading = row.reading or {}
    parts = []
    if reading.get("read_as"):
        parts.append(str(reading["read_as"]).replace("_", " "))
    if isinstance(reading.get("coverage"), (int, float)):
        parts.append(f"{round(100 * reading['coverage'])}% placed")
    if row.edition:
        inferred = "edition" in (reading.get("inferred") or {})
        parts.append(f"{row.edition}th ed." + (" (inferred)" if inferred else ""))
    return ", ".join(parts)


def reading_details(row) -> list[str]:
    """The evidence behind `reading_summary`: why the file was read as it was, its unread
    pages, and the reason for each inferred edition, faction or date."""
    reading = row.reading or {}
    lines = []
    if reading.get("read_as"):
        lines.append(f"read as {str(reading['read_as']).replace('_', ' ')}: {reading.get('evidence') or 'no evidence kept'}")
    if reading.get("unread_pages"):
        lines.append("unread pages: " + ", ".join(str(p) for p in reading["unread_pages"]))
    for field, inferred in sorted((reading.get("inferred") or {}).items()):
        if isinstance(inferred, dict):
            lines.append(f"{field} {inferred.get('value')!s} inferred: {inferred.get('reason') or 'no reason kept'}")
    return lines


@click.command()
@click.argument("names", nargs=-1, required=True)
@pass_app
def remove(app, names):
    """Drop stored files and their records. NAMES are file names or paths as `files` lists them.

    Example: ruleslawyer remove core-faq.pdf
    """
    from ..library.files import remove_files

    from ..library.files import distinct_names

    with app.store() as store:
        shown = distinct_names([f.path for f in store.files()])
        removed = remove_files(store, names)
    for path in removed:
        echo(printable(f"Removed {shown.get(path, Path(path).name)} and its records"))


@click.command()
@click.option("--kind", help="Only records of this kind (datasheet, rule, stratagem, ...).")
@click.option("--faction", help="Only records of this faction.")
@click.option("--json", "as_json", is_flag=True, help="Print the conflicts as JSON.")
@pass_app
def conflicts(app, kind, faction, as_json):
    """Report records printed in several files that disagree: a characteristic, keyword or
    wording, side by side, the chosen printing first.

    Example: ruleslawyer conflicts --kind datasheet --faction necrons
    """
    from ..library.factions import check_faction
    from ..library.files import find_conflicts

    with app.store() as store:
        check_faction(store, faction)  # a mistyped faction is an error with suggestions, not "no conflicts"
        found = find_conflicts(store, kind=kind, faction=faction)
    if as_json:
        echo(json.dumps([c.to_json() for c in found], ensure_ascii=False, indent=2))
        return
    if not found:
        echo("No conflicts: where several files print a record, they agree.")
        return
    for c in found:
        echo(f"{c.name} ({c.kind}{', ' + c.faction if c.faction else ''}"
                   f"{f', {c.edition}th ed.' if c.edition else ''}): uses {c.chosen_file}")
        for d in c.differences:
            values = "; ".join(f"{v!s} in {f}" for f, v in d.values)
            echo(f"  {d.field}: {values}")
    echo(f"{len(found)} records with conflicting printings")
