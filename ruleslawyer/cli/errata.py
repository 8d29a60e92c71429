"""`errata`, `table` and `wound`: FAQ entries and what became of them, chart lookups."""
from __future__ import annotations

import json
import shutil

import click

from .context import echo
from .main import pass_app


@click.command()
@click.option("--document", "-d", help="Only entries of this FAQ document (part of its name, e.g. 'core book').")
@click.option("--unapplied", is_flag=True, help="Only the entries that could not be applied, with the reason.")
@click.option("--as-of", metavar="YYYY-MM-DD", help="Only errata and documents published on or before this date.")
@click.option("--json", "as_json", is_flag=True, help="Print the entries and outcomes as JSON.")
@pass_app
def errata(app, document, unapplied, as_of, as_json):
    """List FAQ errata entries: where each one applied, or why it did not.

    Example: ruleslawyer errata --document "core rules" --unapplied
    """
    from ..amend.report import outcome_dict, select_outcomes
    from ..library.corpus import load_corpus
    from ..termview.errata import format_outcome

    with app.store() as store:
        corpus = load_corpus(store, as_of=as_of)
    chosen = select_outcomes(corpus.outcomes, document, unapplied)
    if as_json:
        echo(json.dumps([outcome_dict(o) for o in chosen], ensure_ascii=False, indent=2))
        return
    if corpus.as_of_note():
        echo(corpus.as_of_note())
    for outcome in chosen:
        echo(format_outcome(outcome))
    if unapplied:
        total = len(select_outcomes(corpus.outcomes, document, False))
        echo(f"{len(chosen)} of {total} entries not applied" + ("" if chosen else ": every entry applied"))
        return
    applied = sum(1 for o in chosen if o.applied)
    echo(f"{len(chosen)} entries: {applied} applied, {len(chosen) - applied} not applied")


@click.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--row", help="Row label as printed (e.g. 4, To-Hit).")
@click.option("--col", help="Column label as printed (e.g. 5).")
@click.option("--s", "strength", type=int, help="Strength, for a Strength-vs-Toughness chart.")
@click.option("--t", "toughness", type=int, help="Toughness, for a Strength-vs-Toughness chart.")
@click.option("--edition", type=int, help="Use the table of this edition.")
@pass_app
def table(app, name, row, col, strength, toughness, edition):
    """Print a reference table, or one cell of it.

    Examples: ruleslawyer table "to wound" --row 4 --col 5 (prints 5+);
    ruleslawyer table "to wound" (the whole chart).
    """
    from ..library.corpus import load_corpus
    from ..library.lookup import find_table, lookup
    from ..termview.errata import format_table

    with app.store() as store:
        corpus = load_corpus(store)
    found = find_table(corpus.records, " ".join(name), edition)
    if row is None and col is None and strength is None and toughness is None:
        width = min(shutil.get_terminal_size((100, 24)).columns, 120)
        echo(format_table(found, width))
    else:
        echo(lookup(found, row, col, strength, toughness))


@click.command()
@click.argument("strength", type=int)
@click.argument("toughness", type=int)
def wound(strength, toughness):
    """The roll needed to wound, from the 9th/10th edition Strength-vs-Toughness rule.

    Example: ruleslawyer wound 4 5 (prints 5+: Strength lower than Toughness).
    """
    from ..library.lookup import wound_roll

    result = wound_roll(strength, toughness)
    echo(result.roll)
    echo(f"S {strength} vs T {toughness}: {result.case}.")
