"""`ingest`, `export` and `stats`: filling the store and reading it back."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..printable import printable
from .context import echo
from .main import pass_app

WARNINGS_SHOWN = 5  # more than this are counted, and listed with -v or `ruleslawyer files --warnings`


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(readable=False))
@click.option("--force", is_flag=True, help="Re-read files even when their content is unchanged.")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors and the summary line.")
@click.option("--verbose", "-v", is_flag=True, help="List every warning the readers recorded.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) when any file gives a warning.")
@click.option("--dated", metavar="YYYY-MM-DD", callback=lambda c, p, v: _iso_date(v),
              help="The publication date of these files (newer printings win; errata apply only to older ones).")
@click.option("--prefer", is_flag=True, help="Prefer these files' printings over other files' of any date.")
@click.option("--no-index", is_flag=True, help="Do not update the search index now (the next search will).")
@pass_app
def ingest(app, paths, force, quiet, verbose, strict, dated, prefer, no_index):
    """Read rules documents (PDF, HTML, text/Markdown; files or folders) into the store.

    Folders are read recursively. Unchanged files are skipped; a file that fails is reported
    on one line and leaves the store as it was. Exit status 1 if any file failed. The example
    corpus a new store starts with is removed the first time you ingest your own documents.

    Example: ruleslawyer ingest rules/ faq.pdf --dated 2025-10-22
    """
    from ..ingest.pipeline import Dating, ingest_paths, remove_example_corpus
    from .progress import progress_bar

    dating = Dating(date=dated, preference=1 if prefer else None)
    with app.store(seed_corpus=False) as store, progress_bar(enabled=not quiet) as progress:
        report = ingest_paths(store, paths, force=force, progress=progress, dating=dating)
        removed = remove_example_corpus(store, paths) if report.read or report.unchanged else 0
    for skipped in report.skipped:  # an army list, a notes file, our own site or index: one line each
        echo(printable(f"Skipped: {skipped.path}: {skipped.note}"), err=True)
    for failure in report.failed:
        echo(f"Error: {failure.error}" + (f" (hint: {failure.hint})" if failure.hint else ""), err=True)
    if removed:
        echo(f"Removed the example corpus ({removed} files): the store now holds your own documents.")
    shown = report.warnings if verbose else report.warnings[:WARNINGS_SHOWN]
    for path, warning in shown:
        echo(printable(f"Warning: {Path(path).name}: {warning}"), err=True)  # names may hold newlines, escapes
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(report.kinds.items())) or "no records"
    if report.factions and not quiet:
        echo("By faction: " + ", ".join(f"{f} {n}" for f, n in sorted(report.factions.items())))
    echo(f"{report.read} files read, {report.unchanged} unchanged, {len(report.failed)} failed; {kinds}")
    if len(report.warnings) > len(shown):
        echo(f"{len(report.warnings)} warnings, {len(shown)} shown (list them all with "
                   "`ruleslawyer files --warnings` or ingest -v)", err=True)
    if not no_index:  # so the first search after an ingest does not wait for the index
        from ..index import update_after_ingest
        from .progress import index_progress
        from .search import notice

        with index_progress() as progress:
            update_after_ingest(app.db, progress=progress, notice=notice)
    if report.failed or (strict and report.warnings):
        sys.exit(1)


def _iso_date(value: str | None) -> str | None:
    if value is None:
        return None
    import datetime

    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date like 2025-10-22") from None


@click.command()
@click.option("--format", "fmt", type=click.Choice(["jsonl", "json"]), default="jsonl", show_default=True,
              help="jsonl: one record per line (records.md); json: one array.")
@click.option("--kind", "kinds", multiple=True, help="Only records of this kind (repeatable), e.g. datasheet.")
@click.option("--amended", is_flag=True, help="Export with errata applied (amended copies, change logs).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              help="Write to this file (replaced only once the export is complete), not stdout.")
@pass_app
def export(app, fmt, kinds, amended, output):
    """Write the stored records as JSON in the records.md interchange shape."""
    from ..library.corpus import load_corpus
    from ..records import KINDS
    from ..records_json import to_dict

    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise click.BadParameter(f"unknown kind {unknown[0]!r}; kinds are: {', '.join(KINDS)}", param_hint="--kind")
    from ..outputs import atomic_output, refuse_store_target

    with app.store() as store:
        if output != "-":  # before reading anything: `-o` naming the store itself must not clobber it
            refuse_store_target(output, store.path)
        # Plain export: every stored record as parsed; --amended: the one reference, errata applied.
        corpus = load_corpus(store, amended=amended, reconciled=amended)
        where = store.path
    rows = [to_dict(r, include_changes=amended) for r in corpus.records if not kinds or r.kind in kinds]
    if output == "-":
        _write_rows(sys.stdout, rows, fmt)
        return
    with atomic_output(output, store_path=where) as handle:
        _write_rows(handle, rows, fmt)


def _write_rows(out, rows: list[dict], fmt: str) -> None:
    if fmt == "json":
        json.dump(rows, out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@pass_app
def stats(app, as_json):
    """Show what the store holds: files, records by kind and by faction."""
    with app.store() as store:
        files, kinds, factions = store.files(), store.counts_by_kind(), store.counts_by_faction()
        where = str(store.path)
    if as_json:
        echo(json.dumps({"store": where, "files": len(files), "kinds": kinds, "factions": factions}, indent=2))
        return
    echo(f"Store: {where}")
    echo(f"{len(files)} files, {sum(kinds.values())} records")
    for f in files:
        echo(f"  {printable(f.name):<40} {f.format:<5} {f.record_count:>6} records")
    echo("By kind: " + ", ".join(f"{k} {n}" for k, n in kinds.items()))
    echo("By faction: " + ", ".join(f"{k} {n}" for k, n in factions.items()))
