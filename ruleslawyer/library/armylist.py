"""Check an army list against the records: each unit to its datasheet, wargear to weapon
profiles, enhancements and detachments to theirs; points added up again.

    check_list(army, records) -> ListCheck     (records: the corpus, errata applied)
    check_list_file(store, path) -> ListCheck  (reads the file and the store)

The edition is the list's own (its 11th edition markers, its app version); a list that says
nothing gets the edition most of its units resolve in. Factions come from the list's header,
else from its units. Nothing is dropped: every unit is reported, resolved or not, and every
doubt becomes a `Problem` naming the list line, with a suggestion where one helps. The list is
also priced at the newest points of its edition (armylist_points): `ListCheck.prices`.
"""
from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..ingest.sources.armylists import ArmyList, ListItem, ListUnit, load_list
from ..names import fold
from ..records import Ability, Datasheet, DetachmentRule, Enhancement, Record, Stratagem, Weapon
from .armylist_match import SUGGEST, Catalogue, close_weapons, name_forms, weapons_named
from .armylist_points import ListPrices, majority_edition, price_list, price_notes
from ..names import nth
from .armylist_report import Problem, compare_datasheet_prices, problem_lines, summary_line


@dataclass
class ResolvedItem:
    """A wargear item and what it turned out to be: weapon (with profiles), ability, enhancement,
    model, or unknown."""

    item: ListItem
    kind: str
    weapons: tuple[Weapon, ...] = ()
    ability: Ability | None = None


@dataclass
class ResolvedUnit:
    """A list unit with its datasheet (None when unresolved), wargear and enhancement."""

    entry: ListUnit
    datasheet: Datasheet | None = None
    match: str = ""
    items: list[ResolvedItem] = field(default_factory=list)
    enhancement: Enhancement | None = None

    @property
    def resolved(self) -> bool:
        return self.datasheet is not None

    def datasheet_points(self) -> int | None:
        """What the datasheet (plus enhancement) prices this unit at, for the list's model count;
        None when the datasheet gives no price for that size."""
        d = self.datasheet
        costs = [c for c in (d.points or ()) if c.points is not None] if d else []
        costs = [c for c in costs if c.tier is None] or [c for c in costs if c.tier == costs[0].tier]
        models = self.entry.models or (sum(n for _, n in self.entry.model_lines) or None)
        match = [c for c in costs if models is not None and c.models.strip() == str(models)]
        if not match and len(costs) == 1 and models in (None, 1):
            match = costs
        if not match:
            return None
        extra = self.enhancement.points if self.enhancement is not None and self.enhancement.points else 0
        return match[0].points + extra

    def chosen_weapons(self) -> list[Weapon]:
        """The weapon profiles the list chose for this unit, each once, in datasheet order."""
        picked = {id(w) for it in self.items for w in it.weapons}
        return [w for w in (self.datasheet.weapons if self.datasheet else ()) if id(w) in picked]


@dataclass
class ResolvedDetachment:
    """A detachment the list names, with its rule(s), stratagems and enhancements when known."""

    name: str
    found: bool
    rules: list[DetachmentRule] = field(default_factory=list)
    stratagems: list[Stratagem] = field(default_factory=list)
    enhancements: list[Enhancement] = field(default_factory=list)


@dataclass
class ListCheck:
    """The outcome of checking a list: resolved units, detachments, points and problems."""

    army: ArmyList
    units: list[ResolvedUnit]
    detachments: list[ResolvedDetachment]
    factions: list[str]
    sub_faction: str | None
    edition: int | None
    problems: list[Problem]
    prices: ListPrices | None = None  # the units at the newest points of the list's edition
    as_of_note: str | None = None  # "As of 2026-10-01: ..." when checked against the rules of a date

    @property
    def points_total(self) -> int:
        return sum(u.entry.points or 0 for u in self.units)

    @property
    def points_current(self) -> int | None:
        """The list's total at the current points (None when no points list of its edition prices it)."""
        return self.prices.total([u.entry.points for u in self.units]) if self.prices else None

    def summary(self) -> str:
        """The one line `list check` opens with (armylist_report.summary_line)."""
        return summary_line(self)

    def problem_lines(self) -> list[Problem]:
        """The problems with repeated per-unit notes folded into one line each."""
        return problem_lines(self)

    def to_json(self) -> dict[str, Any]:
        """The `list check --json` object."""
        return {
            "summary": self.summary(),
            "format": self.army.format,
            "title": self.army.title,
            "factions": self.factions,
            "edition": self.edition,
            "edition_markers": self.army.edition_markers,
            "units": [_unit_json(u, p) for u, p in zip(self.units, self.prices.units if self.prices else
                                                        [None] * len(self.units))],
            "detachments": [{"name": d.name, "resolved": d.found, "rules": [r.name for r in d.rules],
                             "stratagems": [s.name for s in d.stratagems],
                             "enhancements": [e.name for e in d.enhancements]} for d in self.detachments],
            "force_disposition": self.army.force_disposition,
            "battle_size": self.army.battle_size,
            "warlord": self.army.warlord,
            "points_total": self.points_total,
            "points_listed": self.army.points_listed,
            "points_limit": self.army.points_limit,
            "points_datasheets": sum(p for u in self.units if (p := u.datasheet_points()) is not None),
            "points_unpriced_units": sum(1 for u in self.units if u.datasheet_points() is None),
            "points_current": self.points_current,
            "points_current_versions": self.prices.versions if self.prices else [],
            "points_current_priced_units": self.prices.priced if self.prices else 0,
            "detachment_points_current": self.prices.detachment_points if self.prices else None,
            "points_sources": [s.describe() for s in self.prices.sources] if self.prices else [],
            "problems": [p.to_json() for p in self.problems], "as_of": self.as_of_note,
            "problems_folded": [p.to_json() for p in self.problem_lines()],
        }


def _unit_json(u: ResolvedUnit, price) -> dict[str, Any]:
    d = u.datasheet
    return {"points_current": price.to_json() if price is not None else None,
        "name": u.entry.name, "line": u.entry.line or None, "resolved": u.resolved,
        "datasheet": d.name if d else None, "faction": d.faction if d else None,
        "edition": d.edition if d else None, "match": u.match or None,
        "points": u.entry.points, "points_datasheet": u.datasheet_points(), "models": u.entry.models,
        "wargear": [f"{it.item.count}x {it.item.name}" if it.item.count != 1 else it.item.name
                    for it in u.items if it.kind not in ("model", "enhancement")],
        "weapons": [w.name for w in u.chosen_weapons()],
        "unresolved_wargear": [it.item.name for it in u.items if it.kind == "unknown"],
        "enhancement": u.enhancement.name if u.enhancement else u.entry.enhancement,
        "warlord": u.entry.warlord, "attached_as": u.entry.attached_as,
    }


def check_list_file(store, path: str | Path, *, as_of: str | None = None) -> ListCheck:
    """Read the list at `path` and check it against the store's records (errata applied);
    `as_of` checks it against the rules and points published on or before that date."""
    from .corpus import load_corpus

    army = load_list(path)
    corpus = load_corpus(store, as_of=as_of)
    result = check_list(army, corpus.records, printings=corpus.printings)
    result.as_of_note = corpus.as_of_note()
    return result


def check_list(army: ArmyList, records: Sequence[Record], *, printings: dict | None = None) -> ListCheck:
    """Resolve every unit, item, enhancement and detachment of `army` in `records` (`printings`,
    the corpus's, let every printing of a datasheet offer its points)."""
    cat = Catalogue.of(records)
    problems = [Problem(n.line, n.kind, n.message) for n in army.notes]
    factions, sub = _factions(army, cat, problems)
    candidates = {id(u): cat.datasheets.find(u.name) for u in army.units}
    edition = army.edition or majority_edition(army.units, candidates)
    if not factions:
        counted = Counter(d.faction for recs, _ in candidates.values() for d in recs[:1] if d.faction)
        factions = [counted.most_common(1)[0][0]] if counted else []
        if factions:
            problems.append(Problem(None, "faction", f"the list names no faction; using {factions[0]}, "
                                    f"the faction of most of its units"))
    units = [_resolve_unit(u, candidates[id(u)], cat, factions, sub, edition, problems) for u in army.units]
    detachments = _detachments(army, cat, factions, edition, problems)
    for ru in units:
        _resolve_enhancement(ru, cat, factions, detachments, edition, problems)
    if army.points_listed is not None and army.points_listed != sum(u.points or 0 for u in army.units):
        total = sum(u.points or 0 for u in army.units)
        problems.append(Problem(None, "points", f"the units add up to {total} points; the list says "
                                f"{army.points_listed}", suggestion="check for a unit left out or priced twice"))
    prices = price_list(units, detachments, records, edition, factions, printings)
    for kind, message, suggestion in price_notes(units, prices, army.points_listed, army.points_limit,
                                                   army.detachment_points, army.date):
        problems.append(Problem(None, kind, message, None, suggestion))
    # an older edition's datasheet never prices a unit: its points are of another game
    problems.extend(Problem(None, *note) for note in compare_datasheet_prices(
        [u for u, p in zip(units, prices.units) if p.points is None
         and (edition is None or u.datasheet is None or u.datasheet.edition == edition)]))
    for u in army.units:
        if u.points is None:
            problems.append(Problem(u.line or None, "points", f"line {u.line}: {u.name} has no points", u.name))
    return ListCheck(army, units, detachments, factions, sub, edition, problems, prices)


def _factions(army: ArmyList, cat: Catalogue, problems: list[Problem]) -> tuple[list[str], str | None]:
    factions, sub = [], None
    for text in army.factions:
        faction, keyword = cat.faction_of(text)
        if faction and faction not in factions:
            factions.append(faction)
        elif keyword:
            sub = keyword
        elif not faction and fold(text) not in ("xenos", "imperium", "chaos"):
            # a misspelling, not another faction that shares words ("Chaos Space Marines" is not
            # "Space Marines"): as many words as the faction named
            close = [c for c in difflib.get_close_matches(fold(text), list(cat.factions), n=3, cutoff=0.8)
                     if len(c.split()) == len(fold(text).split())][:1]
            if close:
                factions.append(cat.factions[close[0]])
            else:
                problems.append(Problem(None, "unknown faction", f"faction {text!r} is not in the store",
                                        suggestion="ingest the data of that faction"))
    return factions, sub


def _pick(records: list[Datasheet], factions: list[str], sub: str | None, edition: int | None) -> Datasheet:
    """The faction's datasheet of the list's edition; else of the nearest newer edition; else the
    newest older one (the check then says so)."""
    def nearness(e: int | None) -> tuple:
        if edition is None or e is None:
            return (0, e or 0)
        return (2, 0) if e == edition else (1, edition - e) if e > edition else (0, e)

    def score(d: Datasheet) -> tuple:
        return (d.faction in factions, nearness(d.edition),
                sub is not None and fold(sub) in {fold(k) for k in d.faction_keywords}, d.edition or 0)
    return max(records, key=score)


def _resolve_unit(u: ListUnit, found, cat: Catalogue, factions: list[str], sub: str | None,
                  edition: int | None, problems: list[Problem]) -> ResolvedUnit:
    records, how = found
    where = f"line {u.line}: " if u.line else ""
    ru = ResolvedUnit(u)
    if not records:
        pool = [k for k, rs in cat.datasheets.exact.items() if any(r.faction in factions for r in rs)] or None
        close = cat.datasheets.close(u.name, pool)
        if close:
            records, how = cat.datasheets.exact[close[0]], "close"
    if not records:
        close = cat.datasheets.close(u.name, pool, SUGGEST) or cat.datasheets.close(u.name, None, SUGGEST)
        names = [cat.datasheets.exact[k][0].name for k in close[:3]]
        problems.append(Problem(u.line or None, "unknown unit", f"{where}no datasheet named {u.name!r}", u.name,
                                f"did you mean: {', '.join(names)}" if names else
                                "ingest the data of its faction, or check the spelling"))
        return ru
    d = _pick(list(records), factions, sub, edition)
    ru.datasheet, ru.match = d, how
    if how == "close":
        problems.append(Problem(u.line or None, "close name", f"{where}{u.name!r} read as the datasheet {d.name!r}",
                                u.name, "check the name"))
    if factions and d.faction not in factions:
        problems.append(Problem(u.line or None, "wrong faction",
                                f"{where}{u.name} is a {d.faction} datasheet, not {' / '.join(factions)}",
                                u.name, "fine for allied units; otherwise check the list's faction"))
    if edition and d.edition and d.edition != edition:
        problems.append(Problem(u.line or None, "mixed editions",
                                f"{where}{u.name}: no {nth(edition)} edition datasheet in the store; "
                                f"using the {nth(d.edition)} edition one", u.name,
                                f"ingest {nth(edition)} edition data for this faction"))
    for item in u.wargear:
        ru.items.append(_resolve_item(item, d, u, cat, factions, problems))
    return ru


def _resolve_item(item: ListItem, d: Datasheet, u: ListUnit, cat: Catalogue, factions: list[str],
                  problems: list[Problem]) -> ResolvedItem:
    weapons = weapons_named(d, item.name)
    if weapons:
        return ResolvedItem(item, "weapon", tuple(weapons))
    forms = {fold(f) for f in name_forms(item.name)}
    for a in d.abilities:
        if fold(a.name) in forms or fold(a.name.replace("(Aura)", "")) in forms:
            return ResolvedItem(item, "ability", ability=a)
    if u.enhancement and fold(u.enhancement) in forms:
        return ResolvedItem(item, "enhancement")
    enh, _ = cat.enhancements.find(item.name)
    if any(e.faction in factions or not factions for e in enh):
        if u.enhancement is None:
            u.enhancement = enh[0].name
        return ResolvedItem(item, "enhancement")
    models = {fold(p.name) for p in d.profiles} | {fold(m) for m, _ in u.model_lines} | {fold(d.name)}
    if forms & models or any(f in fold(" ".join(d.composition)) for f in forms if len(f) > 3):
        return ResolvedItem(item, "model")
    if fold(item.name) in {fold(o) for o in d.wargear_options} or any(
            f and f in fold(" ".join(d.wargear_options)) for f in forms if len(f) > 5):
        return ResolvedItem(item, "option")
    line = item.line or u.line or None
    close = close_weapons(d, item.name, 0.86)
    if close:
        weapons = weapons_named(d, close[0])
        problems.append(Problem(line, "close name", f"line {line}: {u.name}: {item.name!r} read as "
                                f"the weapon {close[0]!r}", u.name, item=item.name))
        return ResolvedItem(item, "weapon", tuple(weapons))
    hint = close_weapons(d, item.name, SUGGEST)
    problems.append(Problem(line, "unknown wargear",
                            f"line {line}: {u.name}: no weapon or ability {item.name!r} on its datasheet "
                            f"({d.faction}, {nth(d.edition) if d.edition else '?'} edition)", u.name,
                            f"did you mean: {', '.join(hint)}" if hint else "check the datasheet's wargear",
                            item=item.name))
    return ResolvedItem(item, "unknown")


def _detachments(army: ArmyList, cat: Catalogue, factions: list[str], edition: int | None,
                 problems: list[Problem]) -> list[ResolvedDetachment]:
    out = []
    dispositions = {fold(r.force_disposition): r.force_disposition for rs in cat.groups.values() for r in rs
                    if isinstance(r, DetachmentRule) and r.force_disposition}
    for text in list(army.detachments):
        if fold(text) in dispositions and fold(text) not in cat.groups and not army.force_disposition:
            # a header line read as a detachment is the list's Force Disposition (the data says so)
            army.force_disposition = dispositions[fold(text)]
            army.detachments.remove(text)
    for text in army.detachments:
        for name in _detachment_names(text, cat):
            members = cat.groups.get(fold(name), [])
            members = [r for r in members if not factions or r.faction in factions or r.faction is None] or members
            if edition and any(r.edition == edition for r in members):
                members = [r for r in members if r.edition == edition]
            if not members:
                close = difflib.get_close_matches(fold(name), list(cat.group_names), n=3, cutoff=SUGGEST)
                problems.append(Problem(None, "unknown detachment", f"detachment {name!r} is not in the store", None,
                                        ("did you mean: " + ", ".join(cat.group_names[c] for c in close)) if close
                                        else "ingest the data that has this detachment"))
                out.append(ResolvedDetachment(name, False))
                continue
            out.append(ResolvedDetachment(
                cat.group_names[fold(name)], True,
                [r for r in members if isinstance(r, DetachmentRule)],
                [r for r in members if isinstance(r, Stratagem)],
                [r for r in members if isinstance(r, Enhancement)]))
    return out


def _detachment_names(text: str, cat: Catalogue) -> list[str]:
    """The detachments one list entry names: itself when known, its bracket's parts, or its "and"
    parts when each of those is known; else the whole (reported unknown)."""
    for form in name_forms(text):
        if fold(form) in cat.groups:
            return [form]
    words = text.split(" and ")
    for k in range(1, len(words)):
        left, right = " and ".join(words[:k]), " and ".join(words[k:])
        if fold(left) in cat.groups or fold(right) in cat.groups:
            return [left, right]
    return [text]


def _resolve_enhancement(ru: ResolvedUnit, cat: Catalogue, factions: list[str],
                         detachments: list[ResolvedDetachment], edition: int | None, problems: list[Problem]) -> None:
    u = ru.entry
    if not u.enhancement:
        return
    chosen = {fold(d.name) for d in detachments}
    found, _ = cat.enhancements.find(u.enhancement)
    if not found:
        pool = sorted({e.name for d in detachments for e in d.enhancements})
        close = difflib.get_close_matches(u.enhancement, pool, n=3, cutoff=SUGGEST)
        problems.append(Problem(u.line or None, "unknown enhancement",
                                f"line {u.line}: {u.name}: no enhancement named {u.enhancement!r}", u.name,
                                f"did you mean: {', '.join(close)}" if close else
                                "ingest the data that has this enhancement"))
        return
    ru.enhancement = max(found, key=lambda e: (fold(e.group or "") in chosen, e.faction in factions,
                                               edition is None or e.edition == edition))
    if chosen and fold(ru.enhancement.group or "") not in chosen:
        problems.append(Problem(u.line or None, "enhancement detachment",
                                f"line {u.line}: {u.name}: {ru.enhancement.name} belongs to "
                                f"{ru.enhancement.group}, not a detachment of the list", u.name))
