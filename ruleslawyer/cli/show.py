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
@click.option("--source", "source_file", metavar="FILE",
              help="Show the printing of this stored file (see `ruleslawyer files`) when several files print it.")
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON.")
@pass_app
def show(app, name, kind, edition, faction, as_printed, source_file, as_json):
    """Show a datasheet, stratagem, rule or table by name.

    Matching ignores case and punctuation, accepts a prefix and tolerates typos; when several
    records match, they are listed. A name printed in several editions shows the newest (and
    says which others exist); a record printed in several files shows the chosen printing and
    names the others. Example: ruleslawyer show "skorpekh lord"
    """
    from ..library.factions import check_faction
    from ..library.corpus import load_corpus
    from ..library.pick import pick_record
    from ..names import fold
    from ..records import record_name, to_dict
    from ..termview import format_printings, format_record

    query = " ".join(name)
    with app.store() as store:
        check_faction(store, faction)
        corpus = load_corpus(store, amended=not as_printed)
        picked = pick_record(corpus, query, kind=kind, edition=edition, faction=faction)
        if source_file:
            corpus = load_corpus(store, amended=not as_printed, choose={fold(record_name(picked.record)): source_file})
            picked = pick_record(corpus, query, kind=kind, edition=edition or picked.record.edition, faction=faction)
            if picked.record.source.file != source_file and not _printed_in(picked, source_file):
                raise click.BadParameter(f"{record_name(picked.record)} is not printed in {source_file!r}",
                                         param_hint="--source")
    if as_json:
        data = to_dict(picked.record, include_changes=True)
        if picked.printings:
            data["also_printed_in"] = [info.name for _, info in picked.printings.others]
        if picked.other_editions:
            data["other_editions"] = picked.other_editions
        if picked.points is not None:
            data["current_points"] = to_dict(picked.points)
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        width = min(shutil.get_terminal_size((100, 24)).columns, 120)
        click.echo(format_record(picked.record, width))
        for line in format_printings(picked.printings, picked.other_editions, picked.record, picked.points):
            click.echo(line)


def _printed_in(picked, source_file: str) -> bool:
    return bool(picked.printings) and any(info.name == source_file or info.path == source_file
                                          for _, info in [(None, picked.printings.chosen_file),
                                                          *picked.printings.others])
