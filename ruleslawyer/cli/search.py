"""`search QUERY`: ranked records with a highlighted snippet, one line each (`results.py` prints them)."""
from __future__ import annotations

import sys

import click

from .main import pass_app
from .results import notice, run_search

__all__ = ["search", "notice"]  # `notice` is what ingest passes to the index update


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--kind", help="Only records of this kind (stratagem, datasheet, rule, ...).")
@click.option("--faction", help="Only records of this faction, e.g. necrons.")
@click.option("--edition", help="Only records of this edition, e.g. 10.")
@click.option("--limit", type=click.IntRange(1, 500), default=10, show_default=True, help="Show at most this many hits.")
@click.option("--json", "as_json", is_flag=True, help="Print the hits as JSON records with score and snippet.")
@click.option("--as-of", metavar="YYYY-MM-DD", help="Leave out what was published after this date (an event's freeze).")
@pass_app
def search(app, query, kind, faction, edition, limit, as_json, as_of):
    """Search every record (errata applied) by words, phrases and filters.

    Words rank records whose name matches first. Quote phrases ("feel no pain"), combine with
    AND / OR / NOT, filter with kind: faction: group: edition: cp: phase: keyword: (a unit's
    keywords) ability: (unit and weapon ability names) number:, and mistyped words are
    corrected. Players' shorthand works (invuln, FNP, DS, OC, CP, MW, 5+++, 4++). A rule
    number ("24.12") finds that rule. When a rule is printed in several editions, the newest
    comes first; every hit names its edition. FAQs show their answer, errata their new
    wording. Example: ruleslawyer search fnp kind:enhancement
    """
    code = run_search(app, query, kind=kind, faction=faction, edition=edition, limit=limit, as_json=as_json,
                      as_of=as_of)
    if code:
        sys.exit(code)
