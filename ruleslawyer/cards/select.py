"""Which records to print: datasheets (and stratagems) by name or faction, one edition of each."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..names import nth
from ..library.find import find_by_name
from ..names import fold
from ..records import Record
from .options import CardError


@dataclass
class Selection:
    """The records to print, and notes for the user (a name printed in one of several editions)."""

    records: list[Record]
    notes: list[str] = field(default_factory=list)


def select_records(records: Sequence[Record], names: Sequence[str], *, faction: str | None = None,
                   stratagems: bool = False, edition: int | None = None) -> Selection:
    """The datasheets (and with `stratagems`, stratagems) to print, in the order asked.

    Each NAME is matched like `show` does (case, punctuation, prefix, typos); with no names,
    every datasheet (and stratagem) of `faction` is printed. A name that matches one unit in
    several editions prints the `edition` asked, else the newest, and says so in `notes`.
    """
    kinds = ["datasheet", "stratagem"] if stratagems else ["datasheet"]
    pool = [r for r in records if r.kind in kinds]
    if faction:
        want = fold(faction)
        pool = [r for r in pool if fold(getattr(r, "faction", None) or "") == want]
        if not pool:
            known = sorted({r.faction for r in records if r.kind in kinds and getattr(r, "faction", None)})
            raise CardError(f"no {' or '.join(kinds)} records of faction {faction!r}",
                            hint="known factions: " + ", ".join(known) if known else None)
    if edition is not None:
        editions = sorted({r.edition for r in pool if r.edition is not None})
        pool = [r for r in pool if r.edition == edition]
        if not pool:
            raise CardError(f"nothing to print in edition {edition}",
                            hint="editions here: " + ", ".join(map(str, editions)) if editions else None)
    if not names:
        if not faction:
            raise CardError("give one or more unit names, or --faction to print a whole faction")
        return _newest_only(pool, None, edition)
    chosen: list[Record] = []
    notes: list[str] = []
    for name in names:
        found = _newest_only(find_by_name(pool, name, kinds=kinds), name, edition)
        notes.extend(n for n in found.notes if n not in notes)
        chosen.extend(r for r in found.records if r not in chosen)
    return Selection(chosen, notes)


def _newest_only(found: Sequence[Record], name: str | None, edition: int | None) -> Selection:
    """Of records sharing a name (and faction) in several editions, the newest; notes name the others."""
    groups: dict[tuple, list[Record]] = {}
    for r in found:
        groups.setdefault((r.kind, fold(r.name), fold(getattr(r, "faction", None) or "")), []).append(r)
    keep: list[Record] = []
    notes = []
    for group in groups.values():
        editions = {r.edition for r in group}
        if len(editions) > 1 and edition is None:
            newest = max(e for e in editions if e is not None) if any(e is not None for e in editions) else None
            others = sorted(e for e in editions if e is not None and e != newest)
            group = [r for r in group if r.edition == newest]
            notes.append(f"{group[0].name}: printed the {nth(newest)} edition; also in "
                         + ", ".join(nth(e) for e in others) + " (use --edition)")
        keep.extend(group)
    order = {id(r): i for i, r in enumerate(found)}
    return Selection(sorted(keep, key=lambda r: order[id(r)]), notes)
