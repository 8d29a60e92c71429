"""`show NAME`: one record in full (a datasheet card, a stratagem, a rule as amended), or a
detachment's view, with its edition, source and current points."""
from __future__ import annotations

import json
import shutil

import click

from ..records import KINDS
from .context import echo
from .main import pass_app


@click.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--kind", type=click.Choice(KINDS), help="Only look among records of this kind.")
@click.option("--edition", type=int, help="Pick the record of this edition (e.g. 9 or 10); default: the newest.")
@click.option("--faction", help="Pick the record of this faction (or the start of its name), e.g. necrons.")
@click.option("--as-printed", is_flag=True, help="Show the wording as printed, without errata.")
@click.option("--as-of", metavar="YYYY-MM-DD",
              help="Use only documents, errata and points published on or before this date.")
@click.option("--source", "source_file", metavar="FILE",
              help="Show the printing of this stored file (see `ruleslawyer files`) when several files print it.")
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON.")
@pass_app
def show(app, name, kind, edition, faction, as_printed, as_of, source_file, as_json):
    """Show a datasheet, stratagem, rule, table or detachment by name or rule number.

    Matching ignores case and punctuation, accepts a prefix and tolerates typos. The current
    printing is shown (the newest edition) with its edition, source and date, and the other
    printings are named in one line; only different things of one name (a table and a rule)
    are listed, each with the command that shows it. A rule number ("05.02") names the 11th
    edition rule it numbers. Examples: ruleslawyer show "skorpekh lord"; ruleslawyer show
    "awakened dynasty" (a detachment)
    """
    from ..library.factions import check_faction
    from ..library.corpus import load_corpus
    from ..library.pick import pick_record
    from ..names import fold
    from ..records import record_name

    query = " ".join(name)
    with app.store() as store:
        check_faction(store, faction)
        corpus = load_corpus(store, amended=not as_printed, as_of=as_of)
        picked = pick_record(corpus, query, kind=kind, edition=edition, faction=faction, source=source_file)
        if source_file and picked.detachment is None and picked.record.source.file != source_file:
            corpus = load_corpus(store, amended=not as_printed, as_of=as_of,
                                 choose={fold(record_name(picked.record)): source_file})
            picked = pick_record(corpus, query, kind=kind, edition=edition or picked.record.edition, faction=faction,
                                 source=source_file)
            if picked.record.source.file != source_file and not _printed_in(picked, source_file):
                raise click.BadParameter(f"{record_name(picked.record)} is not printed in {source_file!r}",
                                         param_hint="--source")
    width = min(shutil.get_terminal_size((100, 24)).columns, 120)
    if picked.detachment is not None:
        _show_detachment(picked.detachment, corpus, as_json, width)
    elif as_json:
        echo(json.dumps(_as_json(picked, corpus), ensure_ascii=False, indent=2))
    else:
        from ..library.pick import also_text
        from ..termview import format_record
        from ..termview.answer import answer_lines

        echo(format_record(_displayed(picked), width))
        for line in answer_lines(picked, also_text(picked.record, picked.also, corpus), corpus.as_of_note(),
                                 width):
            echo(line)


def _displayed(picked):
    """The record as shown: a datasheet's title gives its current price, so the card and the
    "Current points" line agree."""
    import dataclasses

    price = picked.price
    if picked.record.kind == "enhancement" and price is not None and len(price.wargear_costs) == 1:
        same = not (price.edition and picked.record.edition and price.edition != picked.record.edition)
        return dataclasses.replace(picked.record, points=price.wargear_costs[0].points if same else None)
    if picked.record.kind == "datasheet" and price is not None and price.costs:
        if price.edition and picked.record.edition and price.edition != picked.record.edition:
            return dataclasses.replace(picked.record, points=None)  # priced in another edition: see its line
        return dataclasses.replace(picked.record, points=price.costs)
    return picked.record


def _as_json(picked, corpus) -> dict:
    from ..records_json import to_dict

    data = to_dict(picked.record, include_changes=True)
    info = picked.file
    data["answer"] = {"edition": picked.record.edition, "file": picked.record.source.file,
                      "date": corpus.date_of(picked.record),
                      "ingested": info.date if info is not None and not info.published else None,
                      "as_of": corpus.as_of}
    if picked.printings:
        data["also_printed_in"] = [info.name for _, info in picked.printings.others]
    if picked.other_editions:
        data["other_editions"] = picked.other_editions
    if picked.also:
        data["also"] = [{"name": r.name if hasattr(r, "name") else None, "kind": r.kind, "edition": r.edition,
                         "faction": getattr(r, "faction", None), "file": r.source.file} for r in picked.also]
    if picked.price is not None:
        data["current_points"] = _price_json(picked.price)
    if picked.newer_errata:
        data["newer_errata_not_applied"] = [
            {"document": o.erratum.document, "edition": o.erratum.edition, "date": date, "target": o.erratum.target,
             "location": o.erratum.location, "text": o.erratum.text, "reason": o.reason}
            for o, date in picked.newer_errata]
    return data


def _price_json(price) -> dict:
    from ..records_json import to_dict

    out = {"text": price.text, "file": price.file, "date": price.date, "version": price.version,
           "edition": price.edition,
           "source_kind": price.kind, "detachment_points": price.detachment_points,
           "costs": [{"models": c.models, "points": c.points, "tier": c.tier} for c in price.costs],
           "wargear_costs": [{"name": c.name, "points": c.points} for c in price.wargear_costs]}
    if price.record is not None and price.record.kind == "points":
        out["record"] = to_dict(price.record)
    return out


def _show_detachment(detachment, corpus, as_json: bool, width: int) -> None:
    from ..records_json import to_dict

    if as_json:
        data = {"kind": "detachment", "name": detachment.name, "faction": detachment.faction,
                "edition": detachment.edition, "detachment_points": detachment.detachment_points,
                "rules": [to_dict(r) for r in detachment.rules],
                "enhancements": [dict(to_dict(e), current_points=detachment.enhancement_cost(e))
                                 for e in detachment.enhancements],
                "stratagems": [to_dict(s) for s in detachment.stratagems],
                "listed_enhancements": [{"name": i.name, "points": i.points, "text": None}
                                        for i in detachment.listed_only],
                "enhancement_costs": _price_json(detachment.listed) if detachment.listed is not None else None,
                "sources": [{"file": f, "date": d} for f, d in detachment.sources],
                "also_printed_in": detachment.also_printed_in,
                "current_points": _price_json(detachment.price) if detachment.price is not None else None,
                "newer_points": _price_json(detachment.newer_price) if detachment.newer_price is not None else None,
                "other_editions": detachment.other_editions, "as_of": corpus.as_of,
                "also": [{"name": r.name, "kind": r.kind, "edition": r.edition, "faction": getattr(r, "faction", None),
                          "file": r.source.file} for r in detachment.also]}
        echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    from ..termview.answer import format_detachment

    echo(format_detachment(detachment, width))
    note = corpus.as_of_note()
    if note:
        echo(note)


def _printed_in(picked, source_file: str) -> bool:
    return bool(picked.printings) and any(info.name == source_file or info.path == source_file
                                          for _, info in [(None, picked.printings.chosen_file),
                                                          *picked.printings.others])
