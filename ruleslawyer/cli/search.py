"""`search QUERY`: ranked records with a highlighted snippet, one line each."""
from __future__ import annotations

import json
import sys

import click

from .main import pass_app
from .progress import index_progress


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--kind", help="Only records of this kind (stratagem, datasheet, rule, ...).")
@click.option("--faction", help="Only records of this faction, e.g. necrons.")
@click.option("--edition", help="Only records of this edition, e.g. 10.")
@click.option("--limit", type=click.IntRange(1, 500), default=10, show_default=True, help="Show at most this many hits.")
@click.option("--json", "as_json", is_flag=True, help="Print the hits as JSON records with score and snippet.")
@pass_app
def search(app, query, kind, faction, edition, limit, as_json):
    """Search every record (errata applied) by words, phrases and filters.

    Words rank records whose name matches first. Quote phrases ("feel no pain"), combine with
    AND / OR / NOT, filter with kind: faction: group: edition: cp: phase: keyword: (a unit's
    keywords) ability: (unit and weapon ability names) number:, and mistyped words are
    corrected. A rule number ("24.12") finds that rule. FAQs show their answer, errata their
    new wording. Example: ruleslawyer search fnp kind:enhancement
    """
    from ..index.search import search_db

    app.ensure_seeded()
    if faction:  # a mistyped faction is an error with suggestions, not "no results"
        from ..library.factions import check_faction

        check_faction(app.db, faction)
    with index_progress() as progress:
        result = search_db(app.db, " ".join(query), kind=kind, faction=faction, edition=edition, limit=limit,
                           progress=progress, notice=notice)
    if as_json:
        click.echo(json.dumps({"query": result.query, "corrected": result.corrected,
                               "hits": [h.to_json() for h in result.hits]}, ensure_ascii=False, indent=2))
    else:
        color = sys.stdout.isatty()
        if result.corrected:
            click.echo(f"Showing results for: {result.corrected}")
        for hit in result.hits:
            click.echo(f"{_label(hit)} {_highlight(hit.snippet, hit.highlights, color)}")
    if not result.hits:
        tips = "; ".join(result.suggestions) or "fewer or other words"
        click.echo(f"No results for {result.query!r}. Try: {tips}", err=True)
        sys.exit(1)


def notice(line: str) -> None:
    """One line on stderr about index work (a damaged index rebuilt)."""
    click.echo(f"Notice: {line}", err=True)


def _label(hit) -> str:
    d = hit.data
    where = " / ".join(p for p in (d.get("faction"), d.get("group") or d.get("document")) if p)
    edition = f"{d['edition']}th ed." if d.get("edition") else ""
    parts = [f"[{hit.kind}]", click.style(hit.name, bold=True) if sys.stdout.isatty() else hit.name, where, edition]
    return " ".join(p for p in parts if p) + " —"


def _highlight(snippet: str, spans: list[tuple[int, int]], color: bool) -> str:
    if not color:
        return snippet
    out, pos = [], 0
    for start, end in spans:
        out += [snippet[pos:start], click.style(snippet[start:end], fg="yellow", bold=True)]
        pos = end
    return "".join(out) + snippet[pos:]
