"""The lines that say what an answer is: its edition and source (file and date), its current
price, its other printings and the other candidates, and a detachment's view.

`show` prints a record's view (`format_record`) and then `answer_lines`; a detachment gets
`format_detachment`.
"""
from __future__ import annotations

import textwrap

from ..names import nth
from ..records import Record
from .common import printing_lines, wrap


def edition_label(edition: int | None) -> str:
    """ "11th edition", or "no stated edition"."""
    return f"{nth(edition)} edition" if edition else "no stated edition"


def origin_line(record: Record, file_info=None, as_of_note: str | None = None) -> str:
    """ "11th edition · Necrons.json (published 2026-06-10)": the edition and source of an
    answer, with the date it was published (`--json` gives the ingest day of an undated file)."""
    date = record.source.date or (file_info.published if file_info is not None else None)
    when = f"published {date}" if date else "publication date unknown"
    line = f"{edition_label(record.edition)} · {record.source.file} ({when})"
    return f"{line} · {as_of_note}" if as_of_note else line


def newer_erratum_line(outcome, date: str | None, record: Record) -> str:
    """ "Newer erratum, not applied: Balance Dataslate (10th edition, 2024-06-01): Trophy Claim
    Stratagem, CP Cost: Change to 2CP (no 10th edition printing of it in your documents)"."""
    erratum = outcome.erratum
    where = ", ".join(p for p in (edition_label(erratum.edition), date) if p)
    place = ", ".join(p for p in (erratum.target, erratum.location) if p)
    reason = (f"no {edition_label(erratum.edition)} printing of it in your documents"
              if outcome.reason == "target not in the corpus" else outcome.reason)
    return (f"Newer erratum, not applied: {erratum.document or erratum.source.file} ({where}): {place}: "
            f"{erratum.text.strip()} ({reason}; this {record.kind} is {edition_label(record.edition)})")


def answer_lines(picked, also: str = "", as_of_note: str | None = None, width: int = 0) -> list[str]:
    """What follows a record's view in `show`: its edition and source, its current price (and
    where it comes from), the other files that print it (and where they differ), and the other
    candidates in one line ("also: 10th ed. (Baneblade.html)")."""
    lines = [origin_line(picked.record, picked.file, as_of_note)]
    price = picked.price
    if price is not None and price.text:
        record = picked.record
        if record.kind == "enhancement" and len(price.wargear_costs) == 1:  # its detachment's price
            cost = price.wargear_costs[0].points
            if price.edition and record.edition and price.edition != record.edition:
                lines.append(f"Current points: {edition_label(record.edition)} text; {edition_label(price.edition)} "
                             f"points: {cost}, {price.where}")
            else:
                lines.append(f"Current points ({price.where}): {cost} pts")
        elif price.edition and record.edition and price.edition < record.edition:  # no list of its edition
            lines.append(f"Points ({edition_label(price.edition)}, {price.where}): {price.text}; "
                         f"no {edition_label(record.edition)} points in your documents")
        elif price.edition and record.edition and price.edition != record.edition:  # a newer edition's list
            lines.append(f"Current points ({edition_label(price.edition)}, {price.where}): {price.text}; "
                         f"the newest {record.kind} in your documents is {edition_label(record.edition)}")
        else:
            lines.append(f"Current points ({price.where}): {price.text}")
    lines.extend(printing_lines(picked.printings))
    lines.extend(newer_erratum_line(o, date, picked.record) for o, date in picked.newer_errata)
    if also:
        lines.append(f"also: {also} (pick one with --edition N, --faction or --kind)")
    if width:  # the lines made here wrapped to the terminal (a printing's differences are not)
        ours = {lines[0]} | {line for line in lines if line.startswith(("also: ", "Newer "))}
        return [part for line in lines
                for part in (textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False)
                             if line in ours else [line])]
    return lines


def format_detachment(detachment, width: int = 80) -> str:
    """A detachment: its name, faction, edition and Detachment Points, its rule, its
    enhancements with their costs and its stratagems (one line each)."""
    title = detachment.name.upper()
    dp = detachment.detachment_points
    newer = getattr(detachment, "newer_price", None)
    newer_dp = getattr(newer, "detachment_points", None) if dp is None else None
    meta = " · ".join(p for p in (detachment.faction, edition_label(detachment.edition),
                                  f"{dp} DP" if dp is not None else None,
                                  f"{edition_label(newer.edition)}: {newer_dp} DP" if newer_dp is not None else None)
                      if p)
    lines = [f"{title}  (detachment)", meta, "─" * min(width, max(len(title) + 14, 20))]
    for rule in detachment.rules:
        lines.append(f"RULE: {rule.name}")
        lines.extend(wrap(rule.text, width, "  "))
        if rule.force_disposition:
            lines.append(f"  Force Disposition: {rule.force_disposition}")
    listing = next((p for p in (detachment.price, newer)
                    if p is not None and getattr(p.record, "force_disposition", None)), None)
    if listing is not None and not any(r.force_disposition for r in detachment.rules):
        lines.append(f"Force Disposition: {listing.record.force_disposition} ({listing.where})")
    listed_only = detachment.listed_only
    if detachment.enhancements or listed_only:
        lines.append("")
        lines.append("ENHANCEMENTS")
        for e in detachment.enhancements:
            cost = detachment.enhancement_cost(e)
            head = f"• {e.name}" + (f" ({cost} pts)" if cost is not None else "")
            # the whole text, never its first line only: a rule cut at its colon says nothing
            text = " ".join(p for p in (getattr(e, "restriction", None), " ".join((e.text or "").split())) if p)
            lines.extend(textwrap.wrap(f"{head}: {text}" if text else head, width, subsequent_indent="    "))
        for item in listed_only:  # named by the points list only
            cost = f" ({item.points} pts)" if item.points is not None else ""
            lines.append(f"• {item.name}{cost}: no text in your documents")
    if detachment.stratagems:
        lines.append("")
        lines.append("STRATAGEMS")
        for s in detachment.stratagems:
            cost = f"{s.cp}CP" if s.cp is not None else "?CP"
            lines.append(f"• {s.name} ({cost}{', ' + s.category if s.category else ''})")
    price = detachment.price
    lines.append("")
    if detachment.sources:
        lines.extend(textwrap.wrap("Source: " + "; ".join(f"{file} ({f'published {date}' if date else 'date unknown'})"
                                                          for file, date in detachment.sources),
                                   width, subsequent_indent="  "))
    if getattr(detachment, "also_printed_in", None):
        lines.extend(textwrap.wrap("Also printed in: " + ", ".join(detachment.also_printed_in), width,
                                   subsequent_indent="  "))
    if price is not None:
        lines.append(f"Current points ({price.where}): {price.text}")
    listed = getattr(detachment, "listed", None)
    if listed is not None:
        lines.append(f"Enhancement costs ({listed.where}): {listed.text}")
    if newer is not None:
        lines.append(f"{edition_label(newer.edition).capitalize()} points ({newer.where}): {newer.text}; "
                     "that edition's rules of this detachment are not in the store")
    older = getattr(detachment, "also", None) or []
    if older:  # an older edition's record of the detachment's name (a 9th edition stratagem)
        lines.extend(textwrap.wrap("also: " + ", ".join(
            f"{r.kind} {edition_label(r.edition) if r.edition else 'no edition'} ({r.source.file}): "
            f'ruleslawyer show "{r.name}" --kind {r.kind}' + (f" --edition {r.edition}" if r.edition else "")
            for r in older), width, subsequent_indent="  "))
    if detachment.other_editions:
        lines.append("Other editions: " + ", ".join(edition_label(e) for e in detachment.other_editions)
                     + " (show one with --edition N)")
    lines.append(f'Each part in full: ruleslawyer show "NAME" (e.g. ruleslawyer show "{_first_name(detachment)}")')
    return "\n".join(lines)


def _first_name(detachment) -> str:
    for group in (detachment.rules, detachment.enhancements, detachment.stratagems):
        if group:
            return group[0].name
    return detachment.name
