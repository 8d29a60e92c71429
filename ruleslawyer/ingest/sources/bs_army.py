"""BattleScribe army-building entries -> detachment rules and enhancements.

A detachment is a selection entry inside a group named "Detachment(s)". Its rules are the rules
it links to or carries inline; 11th edition adds its Detachment Points (a cost of that name) and
its Force Disposition (a category link naming one of the choices of the game system's "Force
Disposition" group). An enhancement is a selection entry inside a group named "Enhancements…"
(the catalogue-wide group, or 11th edition unit-level groups such as "Enhancements - Upgrades").
It belongs to the detachment whose selection un-hides it: a `set hidden` modifier on the entry
or one of its ancestors conditioned on that detachment's id; failing that, the entry's comment
naming the detachment.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Iterator

from ...names import fold, title_case
from ...records import DetachmentRule, Enhancement, Record, Stratagem
from .bs_text import plain
from .bs_tree import children, grand, local, number
from .bs_units import Index, UnitReader, chars

_DETACHMENT_GROUP = re.compile(r"^\s*detachments?\s*$", re.I)
_ENHANCEMENT_GROUP = re.compile(r"^\s*enhancements?\b", re.I)
_RESTRICTION = re.compile(r"^([^.]{0,80}?\bonly\.)\s*")


def _entries(group: ET.Element, index: Index) -> Iterator[ET.Element]:
    """Selection entries of a group, its nested groups and its entry links (resolved)."""
    for entry in grand(group, "selectionEntries", "selectionEntry"):
        yield entry
    for link in grand(group, "entryLinks", "entryLink"):
        target = index.get(link.get("targetId"))
        if target is not None and local(target.tag) == "selectionEntry" and link.get("hidden") != "true":
            yield target
    for sub in grand(group, "selectionEntryGroups", "selectionEntryGroup"):
        yield from _entries(sub, index)


def _groups(root: ET.Element, pattern: re.Pattern) -> list[ET.Element]:
    return [el for el in root.iter() if local(el.tag) == "selectionEntryGroup" and pattern.match(el.get("name", ""))]


def dispositions(roots: list[ET.Element]) -> dict[str, str]:
    """The Force Disposition choices the game system offers, by folded name."""
    out = {}
    for root in roots:
        for group in _groups(root, re.compile(r"^\s*force dispositions?\s*$", re.I)):
            for entry in grand(group, "selectionEntries", "selectionEntry"):
                out[fold(entry.get("name", ""))] = entry.get("name", "").strip()
    return out


@dataclass
class ArmyReader:
    """Reads detachments and enhancements of one catalogue."""

    units: UnitReader
    root: ET.Element
    roots: list[ET.Element]

    def records(self, warnings: list[str]) -> Iterator[Record]:
        """Detachment rules, then enhancements."""
        index = self.units.index
        detachments: dict[str, str] = {}
        disposition_names = dispositions(self.roots)
        seen: set[int] = set()
        for group in _groups(self.root, _DETACHMENT_GROUP):
            for entry in _entries(group, index):
                if id(entry) in seen or entry.get("hidden") == "true":
                    continue
                seen.add(id(entry))
                detachments[entry.get("id", "")] = plain(entry.get("name", "")).strip()
                yield from self._detachment(entry, disposition_names, warnings)
        parents = {child: parent for parent in self.root.iter() for child in parent}
        seen.clear()
        for group in _groups(self.root, _ENHANCEMENT_GROUP):
            for entry in _entries(group, index):
                if id(entry) in seen or entry.get("hidden") == "true":
                    continue
                seen.add(id(entry))
                record = self._enhancement(entry, group, parents, detachments, warnings)
                if record is not None:
                    yield record

    def stratagems(self, warnings: list[str]) -> Iterator[Stratagem]:
        """Stratagem profiles (a profile type named "Stratagem…": CP, When, Target, Effect), where a
        catalogue has them; grouped by the detachment whose selection shows them, if any."""
        index, detachments = self.units.index, {}
        for group in _groups(self.root, _DETACHMENT_GROUP):
            for entry in _entries(group, index):
                detachments[entry.get("id", "")] = plain(entry.get("name", "")).strip()
        parents = {child: parent for parent in self.root.iter() for child in parent}
        seen: set[tuple] = set()
        for profile in self.root.iter():
            if local(profile.tag) != "profile" or "stratagem" not in profile.get("typeName", "").lower():
                continue
            ch = {k.strip().lower(): plain(v) for k, v in chars(profile).items()}
            name = plain(profile.get("name", "")).strip()
            cp = number(ch.get("cp") or ch.get("cost") or ch.get("command points"))
            if (ch.get("cp") or ch.get("cost")) and cp is None:
                warnings.append(f"{self.units.file_name}: stratagem {name}: CP {ch.get('cp') or ch.get('cost')!r} "
                                "is not a number")
            group = self._owner(profile, parents, detachments)
            if not name or (name, group) in seen:
                continue
            seen.add((name, group))
            yield Stratagem(name=title_case(name), source=self.units.source(profile), edition=self.units.edition,
                            faction=self.units.faction, cp=int(cp) if cp is not None else None,
                            category=ch.get("type") or ch.get("category") or None, group=group,
                            when=ch.get("when") or None, target=ch.get("target") or None,
                            effect=ch.get("effect") or ch.get("description") or None,
                            restrictions=ch.get("restrictions") or None)

    def _detachment(self, entry: ET.Element, disposition_names: dict[str, str],
                    warnings: list[str]) -> Iterator[DetachmentRule]:
        index, name = self.units.index, plain(entry.get("name", "")).strip()
        points = None
        for cost in grand(entry, "costs", "cost"):
            if cost.get("name", "").strip().lower() == "detachment points":
                value = number(cost.get("value"))
                if value is None:
                    warnings.append(f"{self.units.file_name}: {name}: Detachment Points {cost.get('value')!r} "
                                    "is not a number; left out")
                points = int(value) if value is not None else None
        disposition = None
        for link in grand(entry, "categoryLinks", "categoryLink"):
            target = index.get(link.get("targetId"))
            label = link.get("name") or (target.get("name", "") if target is not None else "")
            disposition = disposition or disposition_names.get(fold(label))
        rules: list[ET.Element] = [r for r in grand(entry, "rules", "rule") if r.get("hidden") != "true"]
        core = self._core_rule_ids()
        for link in grand(entry, "infoLinks", "infoLink"):
            target = index.get(link.get("targetId"))
            # a link to a rule of the game system is a core ability the detachment's rules use
            # (Hazardous, Sustained Hits), not a rule of the detachment
            if (target is not None and local(target.tag) == "rule" and link.get("hidden") != "true"
                    and target.get("id") not in core):
                rules.append(target)
        for rule in rules:
            text = plain(" ".join((d.text or "") for d in children(rule, "description")))
            if not text:
                continue
            yield DetachmentRule(name=title_case(plain(rule.get("name", "")).strip()), source=self.units.source(rule),
                                 edition=self.units.edition, faction=self.units.faction, group=name, text=text,
                                 detachment_points=points, force_disposition=disposition)

    def _core_rule_ids(self) -> set[str]:
        """The ids of the rules the game system defines (its core rules and abilities)."""
        if not hasattr(self, "_core_ids"):
            self._core_ids = {el.get("id", "") for root in self.roots if local(root.tag) == "gameSystem"
                              for el in root.iter() if local(el.tag) == "rule" and el.get("id")}
        return self._core_ids

    def _enhancement(self, entry: ET.Element, group: ET.Element, parents: dict, detachments: dict[str, str],
                     warnings: list[str]) -> Enhancement | None:
        name = plain(entry.get("name", "")).strip()
        texts = [plain(chars(p).get("Description", "")) for p in grand(entry, "profiles", "profile")]
        for link in grand(entry, "infoLinks", "infoLink"):
            target = self.units.index.get(link.get("targetId"))
            if target is not None and local(target.tag) == "profile" and link.get("hidden") != "true":
                texts.append(plain(chars(target).get("Description", "")))
        text = "\n".join(t for t in texts if t)
        if not name or not text:
            return None
        points = None
        for cost in grand(entry, "costs", "cost"):
            if cost.get("name", "").strip().lower() in ("pts", "points"):
                points = number(cost.get("value"))
                if points is None:
                    warnings.append(f"{self.units.file_name}: {name}: cost {cost.get('value')!r} is not a number")
        restriction = None
        m = _RESTRICTION.match(text)
        if m:
            restriction, text = m.group(1).strip(), text[m.end():].strip()
        return Enhancement(name=title_case(name), source=self.units.source(entry), edition=self.units.edition,
                           faction=self.units.faction, points=int(points) if points is not None else None,
                           group=self._owner(entry, parents, detachments), restriction=restriction, text=text,
                           upgrade=True if "upgrade" in group.get("name", "").lower() else None)

    @staticmethod
    def _owner(entry: ET.Element, parents: dict, detachments: dict[str, str]) -> str | None:
        """The detachment whose selection shows this entry (nearest ancestor first), else its comment."""
        el: ET.Element | None = entry
        while el is not None:
            if el is not entry and el.get("id") in detachments:  # inside the detachment's own entry
                return detachments[el.get("id")]
            for mod in grand(el, "modifiers", "modifier"):
                if mod.get("field") == "hidden":
                    for cond in mod.iter():
                        if local(cond.tag) == "condition" and cond.get("childId") in detachments:
                            return detachments[cond.get("childId")]
            el = parents.get(el)
        comments = " ".join((c.text or "") for c in children(entry, "comment"))
        by_name = {fold(v): v for v in detachments.values()}
        return next((v for k, v in by_name.items() if k and k in fold(comments)), None)
