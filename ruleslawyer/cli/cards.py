"""`cards NAME...`: print-ready unit cards as PDF or printable HTML."""
from __future__ import annotations

import click

from .main import pass_app

SIZES = ("poker", "tarot", "a6", "a5")


@click.command()
@click.argument("name", nargs=-1)
@click.option("--faction", help="Only units of this faction; with no NAME, every unit of it.")
@click.option("--edition", type=int, help="Only this edition (default: the newest of each name).")
@click.option("--size", type=click.Choice(SIZES), default="poker", show_default=True,
              help="Card size: poker 63.5x88.9 mm, tarot 70x120, a6 105x148, a5 148x210.")
@click.option("--landscape", is_flag=True, help="Turn the card sideways (for big datasheets).")
@click.option("--sheet", type=click.Choice(["a4", "letter", "none"]), default="none", show_default=True,
              help="Impose the cards on A4/Letter sheets with crop marks, or one card a page.")
@click.option("--duplex", is_flag=True, help="Sheets of fronts, then backs mirrored for flip-on-long-edge.")
@click.option("--bleed", type=float, default=0.0, show_default=True, help="Bleed around each card, in mm.")
@click.option("--stratagems", is_flag=True, help="Also make stratagem cards (names may name stratagems).")
@click.option("--full-rules", is_flag=True,
              help="Every rule in full: what does not fit the back goes on the front's free space, then a second "
                   "card titled 'Unit (2/2)'; a rules-sheet reference only when two cards cannot hold it. "
                   "Default: one card a unit, long rules by the sentence that says what they do.")
@click.option("--rules-sheet", is_flag=True,
              help="Add cards with the full text of the long rules (Leader, Deep Strike, ...) the set names, once.")
@click.option("--list", "list_file", type=click.Path(dir_okay=False),
              help="Cards for the units of this army list (chosen wargear, enhancements, detachment stratagems).")
@click.option("--out", "out", default="cards.pdf", show_default=True, type=click.Path(dir_okay=False),
              help="Output file: .pdf, or .html for a printable page.")
@click.option("--as-of", metavar="YYYY-MM-DD", help="Use only the rules and points published on or before this date.")
@pass_app
def cards(app, name, faction, edition, list_file, out, as_of, full_rules, **layout):
    """Print datasheets (and stratagems) as cards of an exact size.

    Fronts show points (one line: sizes, then tiers), profiles, weapons with their abilities,
    the unit's own abilities and keywords, with wound boxes; backs the rules the card names by
    their operative text (never cut; a long rule by the sentence saying what it does, with its
    number for the rules sheet), then composition and wargear options where there is room. Type
    is 7 to 9 pt (poker), one size for the set where every face stays 60% full; a unit whose
    front does not fit continues on a second card marked 2/2. --full-rules prints every rule in
    full instead: the front's free space first, then a second card, a reference only as a last
    resort (--rules-sheet prints the long rules in full once). A name in several editions prints
    the newest unless --edition says.
    With --list, only the enhancements the list takes get cards, beside the detachment's rule
    and stratagems. Example: ruleslawyer cards "skorpekh lord" "royal warden" --sheet a4 --duplex
    """
    from ..cards import write_cards
    from ..library.factions import check_faction

    layout["one_card"] = not full_rules
    if list_file:
        from .lists import write_list_cards

        return write_list_cards(app, list_file, out, layout, as_of=as_of)
    with app.store() as store:
        check_faction(store, faction)
        report = write_cards(store, name, out=out, faction=faction, edition=edition, options=layout, as_of=as_of)
    click.echo(describe(report))


def describe(report) -> str:
    """The summary lines of a card run: what was written, notes, records on a second card."""
    opts = report.options
    w, h = opts.card_mm
    sheet = opts.sheet
    where = "one card a page" if sheet == "none" else f"on {sheet.upper() if sheet == 'a4' else 'Letter'} sheets"
    lines = [f"Wrote {report.path}: {len(report.records)} record(s), {report.cards} card(s) "
             f"{w:g} x {h:g} mm, {report.pages} page(s) {where}{', duplex' if opts.duplex else ''}."]
    lines.extend(report.notes)
    if report.split:
        lines.append("Continued on a second card: " + ", ".join(report.split))
    return "\n".join(lines)
