"""The army list reference sheet: what a player needs at the table for the list they play.

    build_sheet(check, records) -> ListSheet

It holds the army rule(s) and detachment rule(s), the detachments' stratagems and
enhancements, the list's units with their chosen wargear, every rule the units name (core
abilities and weapon abilities) once each, and the reminder table by phase. The records are
the corpus with errata applied (`load_corpus`), so every text is the amended one; a rule that
an erratum changed says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Sequence

from ..names import fold
from ..records import Ability, Enhancement, Record, Rule, Stratagem
from .armylist import ListCheck, Problem, ResolvedUnit
from .armylist_phases import PHASES, STEPS, is_once_per_battle, moment_of
from .armylist_points import enhancement_pricer
from .operative import action_line, operative_text

_PARAM = re.compile(r"^(?:\d+|\d*d\d+(?:\+\d+)?|x|\d+\+|x\+|\d+\")$")
# What changes a characteristic for good or gives a capacity is on the datasheet; nothing to remind.
_STANDING = re.compile(r"^(?:(?:add|subtract) \d+ (?:to|from) (?:the bearer['’]s|this model['’]s|this unit['’]s)"
                       r"[^.]*characteristic\b[^.]*\.?$|capacity:|this model has a transport capacity|"
                       r"for the purposes of transport capacity)", re.IGNORECASE)


@dataclass
class SheetRule:
    """A rule as the sheet prints it: name, text, who uses it, whether errata changed it."""

    name: str
    text: str
    used_by: list[str] = field(default_factory=list)
    amended: bool = False
    found: bool = True  # False when the store has no text for a rule a unit names


@dataclass
class Reminder:
    """One row of the reminder table: in this phase and step, this unit (or the army) does this."""

    phase: str
    who: str
    name: str
    summary: str  # what to do, one line: the rule's operative sentence without its timing
    step: str = "during"


@dataclass
class SheetUnit:
    """A line of the sheet's army roster."""

    name: str
    datasheet: str | None
    points: int | None
    models: int | None
    wargear: list[str]
    enhancement: str | None
    warlord: bool
    edition: int | None


@dataclass
class ListSheet:
    """Everything the sheet prints, in print order."""

    title: str
    subtitle: str
    units: list[SheetUnit]
    army_rules: list[SheetRule]
    detachment_rules: list[SheetRule]
    stratagems: list[Stratagem]
    enhancements: list[Enhancement]
    chosen_enhancements: set[str]
    rules: list[SheetRule]
    reminders: dict[str, list[Reminder]]
    problems: list[Problem]
    points_total: int
    points_listed: int | None
    summary: str = ""  # the list check's summary line

    @property
    def phase_labels(self) -> dict[str, str]:
        return PHASES

    @property
    def step_labels(self) -> dict[str, str]:
        return STEPS

    def steps(self, phase: str) -> list[tuple[str, list[Reminder]]]:
        """The phase's reminders by step, in table order (steps with none left out)."""
        rows = self.reminders.get(phase, [])
        return [(k, [r for r in rows if r.step == k]) for k in STEPS if any(r.step == k for r in rows)]


def rule_key(name: str) -> str:
    """A rule name without brackets, an "(Aura)" tag or trailing parameters ("Rapid Fire 2")."""
    name = re.sub(r"\((?:aura|psychic)\)", "", name, flags=re.IGNORECASE).strip("[] ")
    words = fold(name).split()
    while len(words) > 1 and _PARAM.match(words[-1]):
        words.pop()
    return " ".join(words)


def _rule_index(records: Sequence[Record]) -> dict[str, list[Rule]]:
    index: dict[str, list[Rule]] = {}
    for r in records:
        if isinstance(r, Rule) and r.text:
            k = rule_key(r.name)
            for variant in {k, k[:-1] if k.endswith("s") else k + "s",
                            re.sub(r"\s+(?:weapons?|abilit(?:y|ies))$", "", k)}:
                index.setdefault(variant, []).append(r)
    return index


def _find_rule(index: dict[str, list[Rule]], name: str, edition: int | None, faction: str | None) -> Rule | None:
    key = rule_key(name)
    # "Lethal Hits: Non-Monster/Vehicle" is Lethal Hits with a restriction
    keys = [key] + (["anti"] if key.startswith("anti ") else []) + \
        ([rule_key(name.split(":", 1)[0])] if ":" in name else [])
    for k in keys:
        found = index.get(k, [])
        if found:
            return max(found, key=lambda r: (r.faction in (faction, None), edition is None or r.edition == edition,
                                             r.faction is None, r.edition or 0))
    return None


def build_sheet(check: ListCheck, records: Sequence[Record]) -> ListSheet:
    """Gather the sheet's content for a checked list (records: corpus with errata applied)."""
    index = _rule_index(records)
    army = check.army
    edition = check.edition
    units = [u for u in check.units]
    rows = [_sheet_unit(u) for u in units]
    army_rules: dict[str, SheetRule] = {}
    named: dict[str, SheetRule] = {}
    reminders: dict[str, list[Reminder]] = {k: [] for k in PHASES}

    def remind(who: str, name: str, text: str, weapon: str | None = None) -> None:
        body = operative_text(text)
        if not body or _STANDING.match(body):
            return
        phase, step, at = moment_of(body, weapon)
        once = is_once_per_battle(body, name) and "once per" not in name.casefold()
        reminders[phase].append(Reminder(phase, who, name + (" (once per battle)" if once else ""),
                                         action_line(body, at), step))

    seen_unit_rules: set[tuple[str, str]] = set()
    weapon_kinds: dict[str, set[str]] = {}  # rule key -> "ranged"/"melee" weapons that carry it
    for u in units:
        d = u.datasheet
        if d is None:
            continue
        for a in d.abilities:
            cat = (a.category or "").casefold()
            if cat == "faction":
                _add(army_rules, a.name, index, edition, d.faction, a.text, u.entry.name)
            elif cat == "core":
                _add(named, a.name, index, edition, None, a.text, u.entry.name)
            elif cat != "special" and (d.name, a.name) not in seen_unit_rules and _used(a, u):
                seen_unit_rules.add((d.name, a.name))
                if a.text:
                    remind(u.entry.name, a.name, a.text)
        for w in u.chosen_weapons():
            kind = "melee" if fold(w.range or "") == "melee" or fold(w.type or "") == "melee" else "ranged"
            for ab in w.abilities:
                _add(named, ab, index, edition, None, "", u.entry.name, weapon=True)
                weapon_kinds.setdefault(rule_key(ab), set()).add(kind)
        if u.enhancement is not None:
            e = u.enhancement
            remind(u.entry.name, f"{e.name} (enhancement)", e.text)
    for key, rule in list(named.items()) + list(army_rules.items()):
        if rule.found and rule.text:
            who = ", ".join(_short(rule.used_by))
            for kind in sorted(weapon_kinds.get(key, ())) or [None]:
                remind(who, rule.name, rule.text, kind)
    detachment_rules, stratagems, enhancements = [], [], []
    price_now = enhancement_pricer(records, check.edition)
    for det in check.detachments:
        for r in det.rules:
            detachment_rules.append(SheetRule(f"{det.name}: {r.name}", r.text, [det.name], bool(r.changes)))
            remind("Army (detachment)", r.name, r.text)
        stratagems.extend(det.stratagems)
        for e in det.enhancements:  # at its cost in the newest points list of the list's edition, where one prices it
            now = price_now(e.name, e.group, e.faction)
            enhancements.append(replace(e, points=now) if now is not None else e)
        for s in det.stratagems:
            phase, step, _ = moment_of(s.when) if s.when else ("any", "during", 0)
            reminders[phase].append(Reminder(phase, f"Stratagem, {s.cp if s.cp is not None else '?'}CP", s.name,
                                             action_line(s.effect or s.when or ""), step))
    chosen = {u.enhancement.name for u in units if u.enhancement is not None}
    reminders = {k: _merge(v) for k, v in reminders.items()}
    title = army.title or ", ".join(check.factions) or "Army list"
    bits = [", ".join(check.factions), ", ".join(d.name for d in check.detachments),
            army.force_disposition or "", army.battle_size or "",
            f"{check.points_total} points" + (f" (list says {army.points_listed})"
                                              if army.points_listed not in (None, check.points_total) else "")]
    if check.prices is not None and check.points_current not in (None, check.points_total):
        bits.append(f"{check.points_current} points at the current points ({check.prices.label()})")
    return ListSheet(title=title, subtitle=" · ".join(b for b in bits if b), units=rows,
                     army_rules=list(army_rules.values()), detachment_rules=detachment_rules,
                     stratagems=stratagems, enhancements=enhancements, chosen_enhancements=chosen,
                     rules=sorted(named.values(), key=lambda r: fold(r.name)), reminders=reminders,
                     problems=check.problem_lines(), points_total=check.points_total,
                     points_listed=army.points_listed, summary=check.summary())


def _merge(rows: list[Reminder]) -> list[Reminder]:
    """One row per rule and text: units sharing a rule (Storm Shield, Deep Strike) share the row."""
    out: dict[tuple[str, str], Reminder] = {}
    for r in rows:
        key = (fold(r.name), r.summary, r.step)
        if key in out:
            if r.who not in out[key].who:
                out[key].who += ", " + r.who
        else:
            out[key] = Reminder(r.phase, r.who, r.name, r.summary, r.step)
    return list(out.values())


def _used(a: Ability, u: ResolvedUnit) -> bool:
    """A wargear ability counts only when the list took that wargear."""
    if (a.category or "").casefold() != "wargear":
        return True
    return any(it.ability is a for it in u.items)


def _short(names: list[str]) -> list[str]:
    return names if len(names) <= 3 else names[:3] + [f"+{len(names) - 3} more"]


def _add(into: dict[str, SheetRule], name: str, index, edition, faction, fallback: str, unit: str,
         weapon: bool = False) -> None:
    key = rule_key(name)
    if not key:
        return
    if key in into:
        if unit not in into[key].used_by:
            into[key].used_by.append(unit)
        return
    rule = _find_rule(index, name, edition, faction)
    shown = re.sub(r"^\[|\]$", "", name).strip()
    shown = shown if not shown.islower() else shown.title()
    if rule is not None:
        into[key] = SheetRule(rule.name if not weapon else shown, rule.text, [unit], bool(rule.changes))
    elif fallback:
        into[key] = SheetRule(shown, fallback, [unit])
    else:
        into[key] = SheetRule(shown, "", [unit], found=False)


def _sheet_unit(u: ResolvedUnit) -> SheetUnit:
    e = u.entry
    gear: dict[str, int] = {}
    for it in u.items:
        if it.kind not in ("model", "enhancement"):
            gear[it.item.name] = gear.get(it.item.name, 0) + it.item.count
    return SheetUnit(e.name, u.datasheet.name if u.datasheet else None, e.points, e.models,
                     [f"{n}x {g}" if n != 1 else g for g, n in gear.items()],
                     u.enhancement.name if u.enhancement else e.enhancement, e.warlord,
                     u.datasheet.edition if u.datasheet else None)
