"""What `list check` says first: one summary line, and the problems with repeated per-unit notes
folded into one line each.

    summary_line(check) -> str       "14 of 14 units resolved · 2,000 pts (list 2,000) · 11th edition"
    problem_lines(check) -> list[Problem]   the problems, each repeated per-unit kind folded

A player reads the summary to know whether the list is usable, and the problems to know what to
do; fourteen lines saying the same thing of fourteen units hide the one that matters. The JSON
keeps every problem as it was found.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence
from ..names import nth

if TYPE_CHECKING:  # only for annotations: armylist imports this module
    from .armylist import ListCheck, ResolvedUnit

MAX_NAMES = 8
FOLDED = ("mixed editions", "indentation lost", "unknown unit", "unknown enhancement")


@dataclass
class Problem:
    """One thing the player should look at: the list line, the unit, what kind, and a suggestion."""

    line: int | None
    kind: str
    message: str
    unit: str | None = None
    suggestion: str | None = None
    item: str | None = None  # the wargear item the problem is about, when it is about one

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "unit": self.unit, "kind": self.kind, "message": self.message,
                "suggestion": self.suggestion, "item": self.item}


def _names(names: Sequence[str]) -> str:
    """"Boyz (x3), Warboss, ... and 4 more": repeated names counted, at most MAX_NAMES shown."""
    counted = Counter(names)
    shown = [f"{n} (x{counted[n]})" if counted[n] > 1 else n for n in dict.fromkeys(names)]
    more = len(shown) - MAX_NAMES
    return ", ".join(shown[:MAX_NAMES]) + (f" and {more} more" if more > 0 else "")


def older_datasheets(check: "ListCheck") -> dict[int, list["ResolvedUnit"]]:
    """Units whose datasheet is of an older edition than the list, by that edition (newest first)."""
    out: dict[int, list] = {}
    if check.edition is None:
        return out
    for u in check.units:
        d = u.datasheet
        if d is not None and d.edition is not None and d.edition < check.edition:
            out.setdefault(d.edition, []).append(u)
    return dict(sorted(out.items(), reverse=True))


def summary_line(check: "ListCheck") -> str:
    """One line: units resolved, points (current, and the list's own), edition, and what is missing:
    enhancements and detachments not in the documents, units on older editions' datasheets."""
    units = check.units
    resolved = sum(u.resolved for u in units)
    total = check.points_current if check.points_current is not None else check.points_total
    listed = check.army.points_listed if check.army.points_listed is not None else check.points_total
    parts = [f"{resolved} of {len(units)} units resolved", f"{total:,} pts (list {listed:,})",
             f"{nth(check.edition)} edition" if check.edition else "edition not said"]
    missing = sum(1 for u in units if u.entry.enhancement and u.enhancement is None)
    if missing:
        parts.append(f"{missing} enhancement{'s' if missing != 1 else ''} not in your documents")
    lost = sum(1 for d in check.detachments if not d.found)
    if lost:
        parts.append(f"{lost} detachment{'s' if lost != 1 else ''} not in your documents")
    for edition, old in older_datasheets(check).items():
        n = len(old)
        parts.append(f"{n} unit{'s' if n != 1 else ''} on {nth(edition)} edition datasheets"
                     + (f" ({_names([u.entry.name for u in old])})" if edition <= check.edition - 2 else ""))
    return " \u00b7 ".join(parts)


def _line_of(p: "Problem") -> str:
    return f"{p.unit} (line {p.line})" if p.line else (p.unit or "?")


def problem_lines(check: "ListCheck") -> list["Problem"]:
    """The problems in their order, each kind of per-unit note that repeats folded into one.

    Folded: units on an older edition's datasheet (one line per edition), lost indentation, units
    and enhancements not in the documents (those with a "did you mean" stay on their own line)."""
    problems = _fold_items(check.problems)
    out: list[Problem] = []
    folded: set[str] = set()
    older = older_datasheets(check)
    for p in problems:
        same = [q for q in problems if q.kind == p.kind and (q.unit or q.line) and not _has_guess(q)]
        if p.kind not in FOLDED or not (p.unit or p.line) or _has_guess(p) or len(same) < 2:
            out.append(p)
            continue
        if p.kind in folded:
            continue
        folded.add(p.kind)
        n = len(same)
        if p.kind == "mixed editions":
            for edition, units in older.items():
                out.append(Problem(None, p.kind, f"{len(units)} unit{'s' if len(units) != 1 else ''} use "
                                   f"{nth(edition)} edition datasheets (no {nth(check.edition)} edition one in "
                                   f"your documents): {_names([u.entry.name for u in units])}", None,
                                   f"ingest {nth(check.edition)} edition data for their faction"))
        elif p.kind == "indentation lost":
            lines = ", ".join(str(q.line) for q in same[:MAX_NAMES * 2]) + (", ..." if n > MAX_NAMES * 2 else "")
            out.append(Problem(None, p.kind, f"{n} units lost their indentation (lines {lines}); models and "
                               "wargear were told apart by the bullets", None, "check them"))
        elif p.kind == "unknown unit":
            out.append(Problem(None, p.kind, f"{n} units are not in your documents: "
                               f"{_names([_line_of(q) for q in same])}", None,
                               "ingest the data of their faction, or check the spelling"))
        elif p.kind == "unknown enhancement":
            out.append(Problem(None, p.kind, f"{n} enhancements are not in your documents: "
                               f"{_names([_line_of(q) for q in same])}", None,
                               "ingest the data that has them"))
    return out


def _fold_items(problems: Sequence[Problem]) -> list[Problem]:
    """One line per wargear item a problem repeats over units and lines ("'Twin pulse carbine' ...:
    Crisis Sunforge Battlesuits (lines 120, 123), Crisis Fireknife Battlesuits (lines 104, 107)")."""
    groups: dict[tuple, list[Problem]] = {}
    for p in problems:
        if p.item and p.unit:
            groups.setdefault((p.kind, p.item.casefold(), p.suggestion), []).append(p)
    out: list[Problem] = []
    for p in problems:
        group = groups.get((p.kind, p.item.casefold(), p.suggestion)) if p.item and p.unit else None
        if not group or len(group) < 2:
            out.append(p)
            continue
        if group[0] is not p:
            continue
        lines: dict[str, list[str]] = {}
        for q in group:
            lines.setdefault(q.unit, []).append(str(q.line) if q.line else "?")
        where = ", ".join(f"{u} (line{'s' if len(ls) > 1 else ''} {', '.join(ls)})" for u, ls in lines.items())
        what = p.message.split(f"{p.unit}: ", 1)[-1].replace(" on its datasheet", " on their datasheets")
        out.append(Problem(None, p.kind, f"{what}: {where}", None, p.suggestion, p.item))
    return out


def _has_guess(p: "Problem") -> bool:
    return bool(p.suggestion and p.suggestion.startswith("did you mean"))


def compare_datasheet_prices(units: Sequence["ResolvedUnit"]) -> list[tuple[str, str, str]]:
    """One note when the store's datasheets price units differently from the list (another points
    version, usually); each unit's own figure is in the JSON as `points_datasheet`. Give only
    units no points source prices, on a datasheet of the list's edition."""
    differ = [(u, p) for u in units if u.entry.points is not None and (p := u.datasheet_points()) is not None
              and p != u.entry.points]
    if not differ:
        return []
    shown = ", ".join(f"{u.entry.name} {u.entry.points} vs {p}" for u, p in differ[:4])
    return [("points version", f"{len(differ)} unit(s) are priced differently by the store's datasheets "
             f"({shown}{', ...' if len(differ) > 4 else ''})", "the list or the store may use another points version")]
