"""`stratagems`: list stratagems as a table, filtered by faction, group, category, phase, cost."""
from __future__ import annotations

import json
import shutil

import click

from .context import echo
from .main import pass_app


@click.command()
@click.option("--faction", help='Faction ("necrons"); "none" for universal sets such as Core.')
@click.option("--group", help='Detachment or rules set, or part of it ("awakened", "core").')
@click.option("--category", help='Battle Tactic, Strategic Ploy, Epic Deed or Wargear.')
@click.option("--phase", help='A word of the WHEN text ("shooting", "command").')
@click.option("--cp", type=int, help="Exact command point cost.")
@click.option("--edition", type=int, help="Only stratagems of this edition, e.g. 11.")
@click.option("--every-edition", is_flag=True, help="Without --edition: list older editions' printings too.")
@click.option("--as-of", metavar="YYYY-MM-DD", help="Use only documents and errata published on or before this date.")
@click.option("--json", "as_json", is_flag=True, help="Print the matching records as JSON lines.")
@pass_app
def stratagems(app, faction, group, category, phase, cp, edition, every_edition, as_of, as_json):
    """List stratagems: name, CP, category, group and when, by edition (the newest printing of
    each stratagem unless --edition or --every-edition).

    Example: ruleslawyer stratagems --faction necrons --category "battle tactic" --edition 10
    """
    from ..library.factions import check_faction
    from ..library.queries import find_stratagems
    from ..records_json import to_dict
    from ..termview.lists import format_stratagem_table

    with app.store() as store:
        check_faction(store, faction)
        found = find_stratagems(store, faction=faction, group=group, category=category, phase=phase, cp=cp,
                                edition=edition, as_of=as_of, every_edition=every_edition)
    if as_json:
        for record in found:
            echo(json.dumps(to_dict(record), ensure_ascii=False))
        return
    if not found:
        echo("No stratagems match.", err=True)
        return
    from ..termview.answer import edition_label

    width = min(shutil.get_terminal_size((120, 24)).columns, 160)
    if as_of:
        echo(f"As of {as_of}: only documents published on or before that date")
    editions = sorted({r.edition or 0 for r in found}, reverse=True)
    if len(editions) == 1:  # one table (`--json` gives each stratagem's edition and source)
        echo(format_stratagem_table(found, width))
        return
    for n, ed in enumerate(editions):  # several: one table per edition, newest first, under its name
        of_edition = [r for r in found if (r.edition or 0) == ed]
        sources = sorted({r.source.file for r in of_edition})
        more = f" and {len(sources) - 3} more" if len(sources) > 3 else ""
        echo(("\n" if n else "") + f"{edition_label(ed or None).capitalize()} (from {', '.join(sources[:3])}{more}):")
        echo(format_stratagem_table(of_edition, width))
