"""BattleScribe unit entries -> Datasheet records (9th, 10th and 11th edition, XML or JSON).

A unit is walked with everything it links to (shared entries, profiles, rules, info groups),
except army-building choices that are not part of its datasheet (enhancements, Crusade, the
warlord). Profiles are read by `typeName` and characteristics by name; what comes only with an
optional upgrade (a wargear ability such as a Dispersion Shield) is listed but never sets the
unit's invulnerable save. Points are the `pts` cost, with unit sizes and tiers read by `bs_costs`.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from ...names import title_case
from ...records import Ability, Datasheet, ItemCost, Leader, Profile, Source, UnitCost, Weapon
from .bs_text import bullets, plain
from .bs_costs import model_bounds, repeat_surcharge, tier_modifiers, unit_size
from .bs_tree import children, grand, local, number
from .mfm_changelog import tier_of

# BattleScribe spells some characteristics differently from the printed cards.
CHAR_NAMES = {"SV": "Sv", "LD": "Ld", "Save": "Sv", "Sv": "Sv", "Ld": "Ld"}
INVULN_CHARS = ("InSv", "Inv", "ISv")
MAX_LINK_DEPTH = 12
# Option groups a unit links to that are not part of its datasheet (army-wide choices, Crusade
# bookkeeping); following them would give every unit every enhancement and battle honour.
NOT_DATASHEET = re.compile(r"enhancement|crusade|battle honou?r|battle scar|warlord|relic|detachment|"
                           r"weapon modification|psychic fortitude|upgrades?$|requisition|agenda|legendary|"
                           r"trait|fortitude|cybernetica|battle trait|bossloot|specialism", re.I)
_NOT_KEYWORD = re.compile(r"^(Configuration|Detachment|Crusade|Ranged Weapons?|Melee Weapons?|New CategoryEntry)\b", re.I)
_INVULN = re.compile(r"^(?:this model|this unit|models in this unit|the bearer)\s+ha(?:s|ve)\s+an?\s+(\d\+)\s+"
                     r"invulnerable save", re.I)
_BOX_NAMES = ("leader", "support")


class Index:
    """Elements with an id across the catalogue and its game system, for resolving links."""

    KINDS = ("selectionEntry", "selectionEntryGroup", "profile", "rule", "infoGroup", "categoryEntry")

    def __init__(self, roots: list[ET.Element]):
        self.by_id: dict[str, ET.Element] = {}
        for root in roots:
            for el in root.iter():
                el_id = el.get("id")
                if el_id and local(el.tag) in self.KINDS:
                    self.by_id.setdefault(el_id, el)
        self.pts_ids = {el.get("id") for root in roots for el in root.iter()
                        if local(el.tag) == "costType" and el.get("name", "").strip().lower() in ("pts", "points")}
        self.pts_ids.add("51b2-306e-1021-d207")  # the 10th/11th edition pts cost type

    def get(self, el_id: str | None) -> ET.Element | None:
        return self.by_id.get(el_id or "")


_WEAPON_TYPES = frozenset({"Ranged Weapons", "Melee Weapons", "Weapon"})


def _weapon_entry(el: ET.Element) -> bool:
    """A wargear entry that is itself a weapon ("Relic gauss blaster" in a unit's Wargear group):
    its name may share a word with list-building groups ("relic") without being one."""
    return local(el.tag) == "selectionEntry" and any(p.get("typeName") in _WEAPON_TYPES
                                                     for p in grand(el, "profiles", "profile"))


def _hidden(el: ET.Element) -> bool:
    return el.get("hidden") == "true"


def _appended_name(link: ET.Element, name: str) -> str:
    """A name with the unconditional `append` modifiers of its link ("Deadly Demise" + "D3")."""
    for mod in grand(link, "modifiers", "modifier"):
        if mod.get("type") == "append" and mod.get("field") == "name" and not list(mod):
            name = f"{name} {mod.get('value', '')}".strip()
    return name


@dataclass
class _Found:
    """A profile reached from a unit, and whether it comes only with an optional upgrade."""

    element: ET.Element
    optional: bool


@dataclass
class Collector:
    """Walks one unit entry and what it links to, gathering profiles, rules and keywords."""

    index: Index
    profiles: list[_Found] = field(default_factory=list)
    rules: list[Ability] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    priced: list[tuple[str, int]] = field(default_factory=list)  # options with a points cost of their own
    seen: set[int] = field(default_factory=set)

    def walk(self, el: ET.Element, depth: int = 0, optional: bool = False, link: ET.Element | None = None) -> None:
        if depth > MAX_LINK_DEPTH or id(el) in self.seen or _hidden(el):
            return
        if depth and NOT_DATASHEET.search((link if link is not None else el).get("name", "")) and not _weapon_entry(el):
            return
        self.seen.add(id(el))
        kind = local(el.tag)
        own = depth == 0 or el.get("type") == "model" or kind == "infoGroup"  # rules and keywords of the unit
        optional = optional or (kind == "selectionEntry" and el.get("type") == "upgrade")
        if depth and kind == "selectionEntry" and el.get("type") == "upgrade":
            cost = next((number(c.get("value")) for c in grand(el, "costs", "cost")
                         if c.get("typeId") in self.index.pts_ids or c.get("name", "").lower() == "pts"), None)
            if cost and cost > 0:
                self.priced.append((plain((link if link is not None else el).get("name", "")).strip(), int(cost)))
        for child in el:
            tag = local(child.tag)
            if tag == "profiles":
                self.profiles.extend(_Found(p, optional) for p in children(child, "profile") if not _hidden(p))
            elif tag == "rules" and own:
                for rule in children(child, "rule"):
                    if not _hidden(rule):
                        self.rules.append(Ability(name=rule.get("name", "").strip(), text=plain(_description(rule)),
                                                  category="unit"))
            elif tag == "categoryLinks" and own:
                for c in children(child, "categoryLink"):
                    self._category(c)
            elif tag == "infoLinks":
                for info in children(child, "infoLink"):
                    self._info(info, depth, optional, own)
            elif tag in ("selectionEntries", "selectionEntryGroups", "infoGroups"):
                for entry in child:
                    self.walk(entry, depth + 1, optional)
            elif tag == "entryLinks":
                for entry_link in children(child, "entryLink"):
                    target = self.index.get(entry_link.get("targetId"))
                    if target is not None and not _hidden(entry_link):
                        self.walk(target, depth + 1, optional, link=entry_link)

    def _category(self, link: ET.Element) -> None:
        target = self.index.get(link.get("targetId"))
        if _hidden(link) or (target is not None and _hidden(target)):
            return  # hidden categories are list-building flags, not printed keywords
        name = link.get("name") or (target.get("name") if target is not None else "")
        if name:
            self.categories.append(name.strip())

    def _info(self, info: ET.Element, depth: int, optional: bool, own: bool) -> None:
        if _hidden(info):
            return
        target = self.index.get(info.get("targetId"))
        kind = local(target.tag) if target is not None else info.get("type")
        if kind == "profile" and target is not None:
            if not _hidden(target):
                self.profiles.append(_Found(target, optional))
        elif kind == "rule" and own:
            name = info.get("name") or (target.get("name") if target is not None else "")
            if name:  # a rule the datasheet names; its text lives with the rule
                self.rules.append(Ability(name=_appended_name(info, name.strip()), text="", category="core"))
        elif kind == "infoGroup" and target is not None and not NOT_DATASHEET.search(info.get("name", "")):
            self.walk(target, depth + 1, optional)


def _description(el: ET.Element) -> str:
    return " ".join((d.text or "").strip() for d in children(el, "description")).strip()


def chars(profile: ET.Element) -> dict[str, str]:
    """A profile's characteristics by name (text stripped, empty as "")."""
    return {c.get("name", ""): (c.text or "").strip() for c in grand(profile, "characteristics", "characteristic")}


def _weapon_keywords(value: str) -> tuple[str, ...]:
    return tuple(k for k in (plain(p).strip().lower() for p in value.split(",")) if k and k not in ("-", "—"))


def _text_of(ch: dict[str, str]) -> str:
    if "Description" in ch:
        return plain(ch["Description"])
    return "\n".join(f"{k}: {plain(v)}" for k, v in ch.items() if v)


@dataclass
class UnitReader:
    """Makes Datasheet records from unit entries of one catalogue."""

    index: Index
    file_name: str
    format: str
    faction: str | None
    edition: int | None

    def source(self, el: ET.Element) -> Source:
        page = el.get("page")
        return Source(file=self.file_name, page=int(page) if page and page.isdigit() else None, format=self.format,
                      locator=f"id={el.get('id')}")

    def datasheet(self, entry: ET.Element, warnings: list[str]) -> Datasheet | None:
        """The datasheet of a unit or model entry, or None when it has no Unit profile."""
        walker = Collector(self.index)
        walker.walk(entry)
        if not any(f.element.get("typeName") == "Unit" for f in walker.profiles):
            return None
        lo, hi = model_bounds(entry, self.index)
        size = "1" if entry.get("type") == "model" else unit_size(lo, hi)
        profiles, weapons, abilities, boxes = [], [], [], []
        seen_profiles, seen_weapons, names = set(), set(), set()
        invuln = None
        for found in walker.profiles:
            p = found.element
            type_name, ch, name = p.get("typeName", ""), chars(p), plain(p.get("name", "")).strip()
            if type_name == "Unit":
                stats = {CHAR_NAMES.get(k, k): v for k, v in ch.items() if k not in INVULN_CHARS}
                inv = next((ch[k] for k in INVULN_CHARS if ch.get(k, "").strip("- ")), None)
                if inv and not found.optional:
                    invuln = invuln or inv
                key = (name, tuple(sorted(stats.items())))
                if key not in seen_profiles:
                    seen_profiles.add(key)
                    profiles.append(Profile(name=name, stats=stats, models=size if self.edition == 9 else None))
            elif type_name in ("Ranged Weapons", "Melee Weapons", "Weapon"):
                weapon = self._weapon(type_name, name, ch)
                key = (weapon.name.lower(), weapon.range, weapon.type, weapon.A, weapon.skill, weapon.S, weapon.AP,
                       weapon.D, weapon.abilities)
                if key not in seen_weapons:
                    seen_weapons.add(key)
                    weapons.append(weapon)
            elif name.lower() in _BOX_NAMES or (type_name == "Abilities" and name.lower().startswith("leader")):
                boxes.append(_text_of(ch))
            else:
                text = _text_of(ch)
                m = _INVULN.match(text)
                if m and not found.optional:
                    invuln = invuln or m.group(1)
                if name.lower() == "invulnerable save" or name in names:
                    continue
                names.add(name)
                abilities.append(Ability(name=name, text=text, category="wargear" if found.optional else "unit"))
        for rule in walker.rules:
            if rule.name not in names and rule.name.lower() != "invulnerable save":
                names.add(rule.name)
                abilities.append(rule)
        leader, support = self._boxes(boxes, {a.name.lower() for a in walker.rules}, walker.categories)
        cats = list(dict.fromkeys(walker.categories))
        faction_kw = tuple(c.split(":", 1)[1].strip() for c in cats if c.lower().startswith("faction:"))
        keywords = tuple(c for c in cats if not c.lower().startswith("faction:") and not _NOT_KEYWORD.match(c))
        power, points = self._costs(entry, lo, hi, warnings)
        wargear_costs = () if self.edition == 9 else tuple(ItemCost(name=n, points=p)
                                                           for n, p in dict(walker.priced).items())
        return Datasheet(name=title_case(plain(entry.get("name", "")).strip()), source=self.source(entry), edition=self.edition,
                         faction=self.faction, power=power, points=points, faction_keywords=faction_kw,
                         keywords=keywords, profiles=tuple(profiles), invulnerable_save=invuln,
                         weapons=tuple(weapons), abilities=tuple(abilities), leader=leader, support=support,
                         wargear_costs=wargear_costs)

    @staticmethod
    def _weapon(type_name: str, name: str, ch: dict[str, str]) -> Weapon:
        if type_name == "Weapon":  # 9th edition: Type and a free-text Abilities column
            abil = plain(ch.get("Abilities", ""))
            return Weapon(name=name, range=ch.get("Range") or None, type=ch.get("Type") or None,
                          S=ch.get("S") or None, AP=ch.get("AP") or None, D=ch.get("D") or None,
                          abilities=(abil,) if abil and abil != "-" else ())
        return Weapon(name=re.sub(r"\s*[\u2013\u2014]\s*", " - ", name), range=ch.get("Range") or None,
                      A=ch.get("A") or None, skill=ch.get("BS") or ch.get("WS") or None, S=ch.get("S") or None,
                      AP=ch.get("AP") or None, D=ch.get("D") or None,
                      abilities=_weapon_keywords(ch.get("Keywords", "")))

    @staticmethod
    def _boxes(texts: list[str], rule_names: set[str], categories: list[str]) -> tuple[Leader | None, Leader | None]:
        """The LEADER or SUPPORT box: an 11th edition unit that links the Support rule (and not
        the Leader rule) supports, whatever its attach-list profile is called."""
        if not texts:
            return None, None
        text = "\n".join(dict.fromkeys(texts))
        box = Leader(text=text, attaches_to=tuple(title_case(b) for b in bullets(text)))
        is_support = "support" in rule_names and "leader" not in rule_names
        return (None, box) if is_support else (box, None)

    def _costs(self, entry: ET.Element, lo: int, hi: int | None,
               warnings: list[str]) -> tuple[int | None, tuple[UnitCost, ...] | None]:
        power = base = None
        for cost in grand(entry, "costs", "cost"):
            name = cost.get("name", "").strip().lower()
            value = number(cost.get("value"))
            if cost.get("value") is not None and value is None:
                warnings.append(f"{self.file_name}: {entry.get('name')}: cost {cost.get('name')!r} is not a number "
                                f"({cost.get('value')!r}); left out")
                continue
            if name in ("pl", "power level", "power"):
                power = int(value) if value is not None else None
            elif name in ("pts", "points") or cost.get("typeId") in self.index.pts_ids:
                base = value
        if base is None or self.edition == 9:  # 9th edition prices models and wargear, not unit sizes
            return power, None
        tiers = sorted(tier_modifiers(entry, self.index.pts_ids, warnings, self.file_name))
        sizes = [t for t, _ in tiers]
        first = lo if entry.get("type") != "model" else 1
        out = [UnitCost(models=str(min(first, sizes[0] - 1) if sizes else first), points=int(base))]
        for i, (threshold, value) in enumerate(tiers):
            models = sizes[i + 1] - 1 if i + 1 < len(sizes) else (hi if hi and hi >= threshold else threshold)
            out.append(UnitCost(models=str(models), points=int(value)))
        repeat = repeat_surcharge(entry, self.index.pts_ids)
        if repeat:  # 11th edition: the first N copies at the listed price, later copies dearer
            copies, extra = repeat
            early, late = tier_of(f"[1,{copies}]"), tier_of(f"[{copies + 1},)")
            out = ([UnitCost(models=c.models, points=c.points, tier=early) for c in out]
                   + [UnitCost(models=c.models, points=c.points + extra, tier=late) for c in out])
        return power, tuple(out)
