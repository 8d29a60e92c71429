"""`changes`: what a newer document changed (rules, stratagems, datasheets, points)."""
from __future__ import annotations

import json

import click

from .context import echo
from .main import pass_app


@click.command()
@click.argument("files", nargs=-1)
@click.option("--document", "-d", metavar="NAME",
              help="Compare the two newest stored versions of this document (part of its file name).")
@click.option("--since", metavar="YYYY-MM-DD", help="Everything published on or after this date.")
@click.option("--as-of", metavar="YYYY-MM-DD", help="With --since: only documents published on or before this date.")
@click.option("--kind", "kinds", multiple=True, help="Only records of this kind (repeatable): rule, stratagem, ...")
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON lines.")
@pass_app
def changes(app, files, document, since, as_of, kinds, as_json):
    """List what a newer document changed against the printing it supersedes.

    Give two stored files (older first, e.g. pack_v1.0.pdf pack_v1.1.pdf), --document NAME for
    the two newest versions of one document (-d "world eaters"), or --since DATE.

    Example: ruleslawyer changes --since 2026-07-01
    """
    from ..library.changes import changes_between, changes_since, document_changes

    if len(files) not in (0, 2) or (files and (document or since)) or not (files or document or since):
        raise click.UsageError("give two stored files, --document NAME or --since DATE")
    header = None
    with app.store() as store:
        if files:
            old, new, found = changes_between(store, files[0], files[1])
        elif document:
            old, new, found = document_changes(store, document)
        else:
            from ..library.corpus import load_corpus

            corpus = load_corpus(store, amended=False, as_of=as_of)
            found = changes_since(corpus, since, kinds=kinds or None)
            header = f"Changes published since {since}" + (f", as of {as_of}" if as_of else "")
    if kinds and header is None:
        found = [c for c in found if c.kind in kinds]
    if header is None:
        header = f"Changes from {old.name} ({old.published or 'undated'}) to {new.name} ({new.published or 'undated'})"
    if as_json:
        for c in found:
            echo(json.dumps({"status": c.status, "kind": c.kind, "name": c.name, "faction": c.faction,
                                   "fields": list(c.fields), "from": c.before_file, "to": c.after_file,
                                   "date": c.date}, ensure_ascii=False))
        return
    echo(f"{header}: {len(found)}")
    for c in found:  # changes since a date come from many documents: each line names its own
        echo(f"{c.line} · {c.where}" if since else c.line)
