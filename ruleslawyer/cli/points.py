"""`points`: current points (Munitorum Field Manual) of units and detachments, and what changed."""
from __future__ import annotations

import json

import click

from .context import echo
from .main import pass_app


def _costs(record) -> str:
    """"5: 60, 10: 120 (1st-2nd); 5: 70, 10: 130 (3rd+)" for units, "2 DP" for detachments (of a
    points record or a library.prices.Price); "20" pts for an enhancement."""
    if record.target_kind == "enhancement":
        return ", ".join(f"{c.points if c.points is not None else '?'} pts" for c in record.costs) or "-"
    tiers: dict = {}
    for c in record.costs:
        tiers.setdefault(c.tier, []).append(f"{c.models}: {c.points if c.points is not None else '?'}")
    parts = [", ".join(v) + (f" ({t})" if t else "") for t, v in tiers.items()]
    if record.detachment_points is not None:
        parts.insert(0, f"{record.detachment_points} DP")
    if record.wargear_costs:
        parts.append("; ".join(f"{w.name} {w.points if w.points is not None else '?'}" for w in record.wargear_costs))
    return "; ".join(parts) or "-"


@click.command()
@click.argument("name", required=False)
@click.option("--faction", help='Only this faction ("necrons", or its first letters).')
@click.option("--edition", type=int, help="Only points of this edition, e.g. 11.")
@click.option("--changes", is_flag=True, help="List what changed between two versions of one edition's points "
              "instead (default: the newest edition's two newest versions).")
@click.option("--from", "old", metavar="V", help="With --changes: the older version (default: the one before --to).")
@click.option("--to", "new", metavar="V", help="With --changes: the newer version (default: the newest).")
@click.option("--as-of", metavar="YYYY-MM-DD", help="Use only points published on or before this date.")
@click.option("--json", "as_json", is_flag=True, help="Print the records as JSON lines.")
@pass_app
def points(app, name, faction, edition, changes, old, new, as_of, as_json):
    """Show current points of units and detachments, and where they come from.

    The current price is the newest dated source of the unit's edition: a Munitorum Field
    Manual version, an export's or a catalogue's costs. Where sources disagree, each is listed
    with its date. A model count with the name ("10 boyz", "boyz x10") gives that size's price.
    Examples: ruleslawyer points "doomsday ark"; ruleslawyer points "20 necron warriors";
    ruleslawyer points --changes --faction necrons
    """
    from ..library.factions import check_faction
    from ..library.points import find_points_changes
    from ..records_json import to_dict

    with app.store() as store:
        check_faction(store, faction)
        if changes:
            old_v, new_v, found, changes_ed = find_points_changes(store, old=old, new=new, faction=faction,
                                                         edition=edition)
        else:
            from ..library.corpus import load_corpus
            from ..library.queries import priced_at_size

            corpus = load_corpus(store, amended=False, as_of=as_of)
            entries, _count = priced_at_size(corpus, name, faction=faction, edition=edition)
    if changes:
        if name:
            found = [c for c in found if name.casefold() in c.name.casefold()]
        if as_json:
            for c in found:
                echo(json.dumps({"name": c.name, "faction": c.faction, "kind": c.target_kind, "status": c.status,
                                       "from": to_dict(c.before) if c.before else None,
                                       "to": to_dict(c.after) if c.after else None}, ensure_ascii=False))
            return
        edition_label = f"{changes_ed}th edition " if changes_ed else ""
        echo(f"Points changes, {edition_label}v{old_v} -> v{new_v}: {len(found)}")
        for c in found:
            before = _costs(c.before) if c.before else "(not listed)"
            after = _costs(c.after) if c.after else "(removed)"
            echo(f"{c.faction or '-'} | {c.name} [{c.status}]: {before}  ->  {after}")
        return
    _print_prices(entries, as_json, corpus.as_of_note(), corpus.as_of)


def _print_prices(entries, as_json: bool, note: str | None, as_of: str | None) -> None:
    """One line per entry (its current price and source), then each disagreeing source."""
    if as_json:
        for e in entries:
            echo(json.dumps({"name": e.current.name, "faction": e.current.faction, "edition": e.current.edition,
                                   "kind": e.current.target_kind, "points": e.current.text,
                                   "detachment": e.current.detachment,
                                   "sources": [_source_json(p) for p in e.sources], "as_of": as_of},
                                  ensure_ascii=False))
        return
    if note:
        echo(note)
    for e in entries:
        p = e.current
        kind = {"detachment": "detachment", "enhancement": "enhancement"}.get(p.target_kind, "unit")
        if p.target_kind == "enhancement" and p.detachment:
            kind = f"enhancement of {p.detachment}"
        edition = f", {p.edition}th ed." if p.edition else ""
        echo(f"{p.faction or '-'} | {p.name} ({kind}{edition}): {_costs(p)}  [{p.where}]")
        for other in e.disagreeing:
            echo(f"    other source: {_costs(other)}  [{other.where}]")


def _source_json(price) -> dict:
    return {"points": price.text, "detachment": price.detachment, "file": price.file, "date": price.date, "version": price.version,
            "source_kind": price.kind, "detachment_points": price.detachment_points,
            "costs": [{"models": c.models, "points": c.points, "tier": c.tier} for c in price.costs]}
