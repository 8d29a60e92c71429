"""`show NAME`: one record in full (a datasheet card, a stratagem, a rule as amended)."""
from __future__ import annotations

import json
import shutil

import click

from ..records import KINDS
from .main import pass_app


@click.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--kind", type=click.Choice(KINDS), help="Only look among records of this kind.")
@click.option("--edition", type=int, help="Pick the record of this edition (e.g. 9 or 10).")
@click.option("--faction", help="Pick the record of this faction (or the start of its name), e.g. necrons.")
@click.option("--as-printed", is_flag=True, help="Show the wording as printed, without errata.")
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON.")
@pass_app
def show(app, name, kind, edition, faction, as_printed, as_json):
    """Show a datasheet, stratagem, rule or table by name.

    Matching ignores case and punctuation, accepts a prefix and tolerates typos; when several
    records match, they are listed. Example: ruleslawyer show "skorpekh lord"
    """
    from ..library.factions import check_faction
    from ..library.find import find_one
    from ..library.corpus import load_corpus
    from ..records import to_dict
    from ..termview import format_record

    with app.store() as store:
        check_faction(store, faction)
        corpus = load_corpus(store, amended=not as_printed)
    record = find_one(corpus.records, " ".join(name), kinds=[kind] if kind else None, edition=edition,
                      faction=faction)
    if as_json:
        click.echo(json.dumps(to_dict(record, include_changes=True), ensure_ascii=False, indent=2))
    else:
        width = min(shutil.get_terminal_size((100, 24)).columns, 120)
        click.echo(format_record(record, width))
