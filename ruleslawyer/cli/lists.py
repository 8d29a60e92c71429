"""`list check FILE` and `list sheet FILE --out army.pdf|army.html`: read an army list."""
from __future__ import annotations

import json

import click

from .main import pass_app


@click.group(name="list")
def list_group():
    """Read an army list (official app, New Recruit/BattleScribe text, .ros/.rosz rosters)."""


@list_group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (units, detachments, points, problems).")
@click.option("--as-of", metavar="YYYY-MM-DD", help="Use only the rules and points published on or before this date.")
@pass_app
def check(app, file, as_json, as_of):
    """Resolve each unit of FILE to its datasheet, wargear to weapons, enhancements and
    detachments; add the points up again. Exits 0 when the list was read, even with problems.

    Example: ruleslawyer list check army.txt --json
    """
    from ..library.armylist import check_list_file

    with app.store() as store:
        result = check_list_file(store, file, as_of=as_of)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
        return
    army = result.army
    click.echo(result.summary())
    if result.as_of_note:
        click.echo(result.as_of_note)
    click.echo(f"{file}: {army.format} export; {', '.join(result.factions) or 'faction unknown'}")
    for d in result.detachments:
        click.echo(f"Detachment: {d.name}" + ("" if d.found else " (not in the store)"))
    prices = result.prices
    current = result.points_current
    if prices is not None and current is not None:
        limit = army.points_limit
        over = f", {current - limit} over the limit of {limit}" if limit is not None and current > limit else ""
        unpriced = len(result.units) - prices.priced
        click.echo(f"Priced by {prices.label()}: {current} points{over}"
                   + (f" ({unpriced} unit(s) unpriced, at the list's points)" if unpriced else ""))
    for i, u in enumerate(result.units):
        d = u.datasheet
        where = f" -> {d.name} ({d.faction}, {d.edition}th)" if d else " -> NOT FOUND"
        enh = f", enhancement {u.enhancement.name if u.enhancement else u.entry.enhancement}" if u.entry.enhancement else ""
        now = prices.units[i].points if prices is not None else None
        pts = f"{u.entry.points} pts" + (f", now {now}" if now is not None and now != u.entry.points else "")
        click.echo(f"  {'ok' if d else '??'} {u.entry.name} ({pts}){where}{enh}")
    lines = result.problem_lines()
    if lines:
        click.echo(f"{len(lines)} problem(s):")
        for p in lines:
            click.echo(f"  [{p.kind}] {p.message}" + (f" ({p.suggestion})" if p.suggestion else ""))


@list_group.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--out", "out", default="army.pdf", show_default=True, type=click.Path(dir_okay=False),
              help="Output file: .pdf, or .html.")
@pass_app
def sheet(app, file, out):
    """Write the list's reference sheet: army and detachment rules, stratagems, enhancements,
    every rule the units name (errata applied), and reminders by phase.

    Example: ruleslawyer list sheet army.txt --out army.pdf
    """
    from ..render.armylist import write_list_sheet

    with app.store() as store:
        path, result = write_list_sheet(store, file, out)
    unresolved = [u.entry.name for u in result.units if not u.resolved]
    click.echo(f"Wrote {path}: {len(result.units)} units, {len(result.problem_lines())} problem(s) listed on the sheet.")
    if unresolved:
        click.echo("Not found: " + ", ".join(unresolved))


def write_list_cards(app, list_file: str, out: str, options: dict, *, as_of: str | None = None) -> None:
    """`cards --list FILE`: the list's unit cards (chosen wargear, enhancements on their bearers)
    and its detachments' stratagem and enhancement cards, through the cards package."""
    from pathlib import Path

    from ..cards import CardError, CardOptions, make_cards
    from ..library.armylist_cards import list_card_records

    path = Path(out)
    if path.suffix.lower() not in (".pdf", ".html", ".htm"):
        raise CardError(f"{path}: the output must end in .pdf or .html")
    with app.store() as store:
        chosen = list_card_records(store, list_file, as_of=as_of)
    opts = CardOptions.resolve(options)
    as_pdf = path.suffix.lower() == ".pdf"
    title = f"Cards: {chosen.check.army.title or list_file}"
    cards = make_cards(chosen.records, chosen.corpus_records, opts, title=title, verify=as_pdf)
    cards.save(path)
    units = sum(1 for r in chosen.records if r.kind == "datasheet")
    click.echo(f"Wrote {path}: {units} unit card(s) and {len(chosen.records) - units} detachment rule, stratagem "
               f"and enhancement card(s), {len(cards.pairs)} card(s) in all.")
    check = chosen.check
    if check.prices is not None and check.points_current is not None and check.points_current != check.points_total:
        click.echo(f"At the current points ({check.prices.label()}) the list costs {check.points_current} points, "
                   f"not {check.points_total}; `ruleslawyer list check` says which units changed.")
    missing = [u.entry.name for u in check.units if not u.resolved]
    if missing:
        click.echo("No datasheet found (no card): " + ", ".join(missing))
