"""BattleScribe data (BSData `.cat` catalogues and `.gst` game systems, XML) -> records.

Recognised by the XML namespace of the root element, not the suffix. A catalogue's units are its
top-level `unit`/`model` selection entries that carry a `Unit` profile; profiles are read by
`typeName` and characteristics by name, and shared entries, profiles and rules reached through
`entryLink`/`infoLink` are resolved against the catalogue and the game system (`.gst`) beside it.
A game system on its own gives its shared rules as `rule` records.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator

from ...errors import LoadError
from ...records import Ability, Datasheet, Profile, Record, Rule, Source, UnitCost, Weapon
from .structured import StructuredSource

CATALOGUE_NS = "http://www.battlescribe.net/schema/catalogueSchema"
SYSTEM_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
# BattleScribe spells some characteristics differently from the printed cards.
CHAR_NAMES = {"SV": "Sv", "LD": "Ld", "Save": "Sv", "Sv": "Sv", "Ld": "Ld"}
MAX_LINK_DEPTH = 12
# Option groups a unit links to that are not part of its datasheet (army-wide choices, Crusade
# bookkeeping); following them would give every unit every enhancement and battle honour.
_NOT_DATASHEET = re.compile(r"enhancement|crusade|battle honou?r|battle scar|warlord|relic|detachment|"
                            r"weapon modification|psychic fortitude|upgrades?$|requisition|agenda|legendary|"
                            r"trait|fortitude|cybernetica|battle trait", re.I)


def _root_namespace(path: Path) -> str | None:
    """The namespace of the root element, read from the first 4 KB (no full parse)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096).decode("utf-8", errors="replace")
    except OSError:
        return None
    m = re.search(r"<(catalogue|gameSystem)\b[^>]*\bxmlns=\"([^\"]+)\"", head)
    return m.group(2) if m else None


def detect(path: Path) -> "BattleScribeSource | None":
    """A source for a `.cat` or `.gst` file (by its XML namespace), else None."""
    if not path.is_file():
        return None
    ns = _root_namespace(path)
    if ns == CATALOGUE_NS:
        systems = tuple(sorted(p for p in path.parent.glob("*.gst")))
        return BattleScribeSource(path=path, files=(path, *systems), format="battlescribe", title=path.stem)
    if ns == SYSTEM_NS:
        return BattleScribeSource(path=path, files=(path,), format="battlescribe", title=path.stem)
    return None


def _parse(path: Path) -> ET.Element:
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise LoadError(path, f"not well-formed XML: {exc}") from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


class _Index:
    """Every element with an id across the catalogue and game system, for link resolution."""

    def __init__(self, roots: list[ET.Element]):
        self.by_id: dict[str, ET.Element] = {}
        for root in roots:
            for el in root.iter():
                el_id = el.get("id")
                if el_id and _local(el.tag) in ("selectionEntry", "selectionEntryGroup", "profile", "rule", "infoGroup"):
                    self.by_id.setdefault(el_id, el)


def _children(el: ET.Element, name: str) -> list[ET.Element]:
    return [c for c in el if _local(c.tag) == name]


def _grand(el: ET.Element, container: str, item: str) -> list[ET.Element]:
    return [g for c in _children(el, container) for g in _children(c, item)]


def _chars(profile: ET.Element) -> dict[str, str]:
    return {c.get("name", ""): (c.text or "").strip() for c in _grand(profile, "characteristics", "characteristic")}


def _rule_text(rule: ET.Element) -> str:
    return " ".join((d.text or "").strip() for d in _children(rule, "description")).strip()


class _Collector:
    """Walks one unit entry (and what it links to), gathering profiles, rules and keywords."""

    def __init__(self, index: _Index):
        self.index = index
        self.profiles: list[ET.Element] = []
        self.rules: list[ET.Element] = []
        self.categories: list[str] = []
        self.seen: set[int] = set()

    def walk(self, el: ET.Element, depth: int = 0) -> None:
        if depth > MAX_LINK_DEPTH or id(el) in self.seen or el.get("hidden") == "true":
            return
        if depth and _NOT_DATASHEET.search(el.get("name", "")):
            return
        self.seen.add(id(el))
        for child in el:
            tag = _local(child.tag)
            if tag == "profiles":
                self.profiles.extend(p for p in _children(child, "profile") if p.get("hidden") != "true")
            elif tag == "rules":
                self.rules.extend(_children(child, "rule"))
            elif tag == "categoryLinks":
                self.categories.extend(c.get("name", "") for c in _children(child, "categoryLink"))
            elif tag == "infoLinks":
                for link in _children(child, "infoLink"):
                    target = self.index.by_id.get(link.get("targetId", ""))
                    if target is None or link.get("hidden") == "true":
                        continue
                    kind = _local(target.tag)
                    if kind == "profile":
                        self.profiles.append(target)
                    elif kind == "rule":
                        self.rules.append(target)
                    elif kind == "infoGroup" and not _NOT_DATASHEET.search(link.get("name", "")):
                        self.walk(target, depth + 1)
            elif tag in ("selectionEntries", "selectionEntryGroups"):
                for entry in child:
                    self.walk(entry, depth + 1)
            elif tag == "entryLinks":
                for link in _children(child, "entryLink"):
                    target = self.index.by_id.get(link.get("targetId", ""))
                    if (target is not None and link.get("hidden") != "true"
                            and not _NOT_DATASHEET.search(link.get("name", ""))):
                        self.walk(target, depth + 1)


class BattleScribeSource(StructuredSource):
    """One catalogue (with its game system) or one game system file."""

    def records(self) -> Iterator[Record]:
        """A catalogue's datasheets and shared rules, or a game system's shared rules."""
        root = _parse(self.path)
        roots = [root] + [_parse(p) for p in self.files[1:]]
        index = _Index(roots)
        file_name = self.path.name
        faction = re.sub(r"^(Xenos|Imperium|Chaos)\s*-\s*", "", root.get("name", "")).strip() or None
        if _local(root.tag) == "gameSystem":
            faction = None
        edition = self._edition(root, roots)
        if _local(root.tag) == "catalogue":
            tops = _grand(root, "sharedSelectionEntries", "selectionEntry") + _grand(root, "selectionEntries", "selectionEntry")
            for entry in tops:
                if entry.get("type") in ("unit", "model") and entry.get("hidden") != "true":
                    sheet = self._datasheet(entry, index, file_name, faction, edition)
                    if sheet is not None:
                        yield sheet
        for rule in _grand(root, "sharedRules", "rule") + _grand(root, "rules", "rule"):
            text = _rule_text(rule)
            if text:
                yield Rule(name=rule.get("name", ""), source=self._src(file_name, rule), edition=edition,
                           faction=faction, text=text)

    def _src(self, file_name: str, el: ET.Element) -> Source:
        page = el.get("page")
        return Source(file=file_name, page=int(page) if page and page.isdigit() else None, format=self.format,
                      locator=f"id={el.get('id')}")

    @staticmethod
    def _edition(root: ET.Element, roots: list[ET.Element]) -> int | None:
        for r in roots:
            m = re.search(r"(\d+)(st|nd|rd|th) Edition", r.get("name", ""))
            if m and _local(r.tag) == "gameSystem":
                return int(m.group(1))
        names = {c.get("name") for r in roots for c in r.iter() if _local(c.tag) == "characteristic"}
        if "OC" in names:
            return 10
        if "WS" in names:
            return 9
        return None

    def _datasheet(self, entry, index, file_name, faction, edition) -> Datasheet | None:
        walker = _Collector(index)
        walker.walk(entry)
        units = [p for p in walker.profiles if p.get("typeName") == "Unit"]
        if not units:
            return None
        profiles, weapons, abilities, seen = [], [], [], set()
        invuln = None
        for p in walker.profiles:
            key = (p.get("typeName"), p.get("name"))
            if key in seen:
                continue
            seen.add(key)
            type_name, chars, name = p.get("typeName", ""), _chars(p), p.get("name", "").strip()
            if type_name == "Unit":
                profiles.append(Profile(name=name, stats={CHAR_NAMES.get(k, k): v for k, v in chars.items()}))
            elif type_name in ("Ranged Weapons", "Melee Weapons"):
                keywords = chars.get("Keywords", "")
                weapons.append(Weapon(name=re.sub(r"\s*[\u2013\u2014]\s*", " - ", name),
                                      range=chars.get("Range"), A=chars.get("A"),
                                      skill=chars.get("BS") or chars.get("WS"), S=chars.get("S"), AP=chars.get("AP"),
                                      D=chars.get("D"),
                                      abilities=tuple(k.strip().lower() for k in keywords.split(",")
                                                      if k.strip() and k.strip() != "-")))
            elif type_name == "Weapon":
                abil = chars.get("Abilities", "")
                weapons.append(Weapon(name=name, range=chars.get("Range"), type=chars.get("Type"), S=chars.get("S"),
                                      AP=chars.get("AP"), D=chars.get("D"),
                                      abilities=(abil,) if abil and abil != "-" else ()))
            elif type_name == "Abilities" or "Description" in chars:
                text = chars.get("Description", "") or " ".join(chars.values())
                m = re.search(r"(\d\+) invulnerable save", text)
                if name.startswith("Invulnerable Save") and m:
                    invuln = invuln or m.group(1)
                abilities.append(Ability(name=name, text=text, category="unit"))
        for rule in walker.rules:
            if rule.get("name") not in {a.name for a in abilities}:
                abilities.append(Ability(name=rule.get("name", ""), text=_rule_text(rule), category="core"))
        cats = list(dict.fromkeys(walker.categories))
        faction_kw = tuple(c.split(":", 1)[1].strip().upper() for c in cats if c.startswith("Faction:"))
        keywords = tuple(c.upper() for c in cats if c and not c.startswith("Faction:")
                         and not re.match(r"(Configuration|Detachment|Crusade|Ranged Weapon$|Melee Weapon$)", c))
        pts = next((c.get("value") for c in _grand(entry, "costs", "cost") if c.get("name") == "pts"), None)
        points = None
        if pts is not None:
            points = (UnitCost(models=str(self._min_models(entry)), points=int(float(pts))),)
        return Datasheet(name=entry.get("name", "").strip(), source=self._src(file_name, entry), edition=edition,
                         faction=faction, points=points, faction_keywords=faction_kw, keywords=keywords,
                         profiles=tuple(profiles), invulnerable_save=invuln, weapons=tuple(weapons),
                         abilities=tuple(abilities))

    @staticmethod
    def _min_models(entry: ET.Element) -> int:
        """The smallest legal unit size from min constraints on model groups (1 for a lone model)."""
        if entry.get("type") == "model":
            return 1
        total = 0
        for group in entry.iter():
            if _local(group.tag) not in ("selectionEntryGroup", "selectionEntry") or group is entry:
                continue
            for c in _grand(group, "constraints", "constraint"):
                if c.get("type") == "min" and c.get("field") == "selections" and c.get("scope") == "parent":
                    if _local(group.tag) == "selectionEntryGroup" or group.get("type") == "model":
                        total += int(float(c.get("value", "0")))
        return total or 1
