"""BattleScribe data (BSData catalogues and game systems, XML or JSON) -> records.

Recognised by the root element (`catalogue` / `gameSystem` with the BattleScribe namespace, or
the JSON object of that name), not by the suffix. One reader serves every serialisation:
`bs_tree.read_tree` turns 11th edition JSON into the element tree the XML gives. A catalogue
gives its datasheets (`bs_units`), detachment rules and enhancements (`bs_army`) and shared
rules; its game system, found beside it, only resolves links, and a game system on its own gives
its shared rules. Each catalogue is judged on its own: a game system that cannot be read is a
warning (its links stay unresolved), not a failure of the catalogue.
"""
from __future__ import annotations

import re
from dataclasses import replace
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator

from ...errors import LoadError
from ...records import Record, Rule
from .bs_army import ArmyReader
from .bs_text import plain
from .bs_tree import children, grand, linked_catalogues, local, read_tree, root_id, root_kind
from .bs_units import Index, UnitReader
from .structured import StructuredSource

SUFFIXES = (".cat", ".gst", ".json", ".xml")
_EDITION = re.compile(r"(\d+)(?:st|nd|rd|th)\s+Edition", re.I)


def detect(path: Path) -> "BattleScribeSource | None":
    """A source for a BattleScribe catalogue or game system file (by its content), else None."""
    if not path.is_file() or path.suffix.lower() not in SUFFIXES:
        return None
    kind = root_kind(path)
    if kind == "catalogue":
        siblings = [p for p in sorted(path.parent.iterdir())
                    if p != path and p.suffix.lower() in SUFFIXES and p.is_file()]
        systems = [p for p in siblings if root_kind(p) == "gameSystem"]
        wanted = linked_catalogues(path)  # shared libraries its links may point into
        libraries = [p for p in siblings if wanted and root_kind(p) == "catalogue" and root_id(p) in wanted]
        return BattleScribeSource(path=path, files=(path, *systems, *libraries), format="battlescribe",
                                  title=path.stem)
    if kind == "gameSystem":
        return BattleScribeSource(path=path, files=(path,), format="battlescribe", title=path.stem)
    return None


def faction_name(root: ET.Element) -> str | None:
    """"Xenos - Necrons" -> "Necrons": the catalogue's name without its grand-alliance prefix."""
    if local(root.tag) != "catalogue":
        return None
    return re.sub(r"^(Xenos|Imperium|Chaos|Unaligned)\s*-\s*", "", root.get("name", "")).strip() or None


def edition_of(root: ET.Element, systems: list[ET.Element]) -> int | None:
    """The edition from the game system's name ("… 11th Edition"), else from the profile shape:
    an invulnerable-save characteristic (InSv) is 11th, OC 10th, WS 9th."""
    for r in [root, *systems]:
        if local(r.tag) == "gameSystem":
            m = _EDITION.search(r.get("name", ""))
            if m:
                return int(m.group(1))
    names = {c.get("name") for r in [root, *systems] for c in r.iter() if local(c.tag) in ("characteristic",
                                                                                             "characteristicType")}
    if "InSv" in names:
        return 11
    if "OC" in names:
        return 10
    if "WS" in names:
        return 9
    return None


def _unresolved(root: ET.Element, index) -> str:
    """One line naming the links of `root` that point at nothing it can see: only these need
    the file that is missing or broken (with its game system beside it, BSData's have none)."""
    links = [el for el in root.iter() if local(el.tag) in ("infoLink", "entryLink", "categoryLink")
             and index.get(el.get("targetId")) is None]
    names = list(dict.fromkeys(plain(el.get("name", "")).strip() or el.get("targetId", "?") for el in links))
    return (f"{len(links)} links ({len(names)} names: {', '.join(names[:6])}{', ...' if len(names) > 6 else ''})"
            if links else "none (every link resolved)")


class BattleScribeSource(StructuredSource):
    """One catalogue (with its game system) or one game system file."""

    def records(self) -> Iterator[Record]:
        """A catalogue's datasheets, detachment rules, enhancements and shared rules; or a game system's rules."""
        root = read_tree(self.path)
        systems, libraries, lost = [], [], []
        for extra in self.files[1:]:
            try:
                tree = read_tree(extra)
            except LoadError as exc:  # judged on its own: the catalogue is still read
                lost.append(f"{exc}; links into that file are left unresolved")
                continue
            (systems if local(tree.tag) == "gameSystem" else libraries).append(tree)
        wanted = root.get("gameSystemId")
        if local(root.tag) == "catalogue" and wanted and not systems and not lost:
            lost.append(f"its game system (id {wanted}) is not in the folder; links into it are left unresolved")
        roots = [root, *systems, *libraries]  # libraries only resolve links; their units are their own
        index = Index(roots)
        if lost:  # one line: what is missing, and which links needed it
            self.warnings.append(f"{'; '.join(lost)}: {_unresolved(root, index)}")
        faction = faction_name(root)
        edition = edition_of(root, systems)
        self.edition = edition
        version = root.get("revision")
        reader = UnitReader(index=index, file_name=self.path.name, format=self.format, faction=faction, edition=edition)
        read, skipped = 0, []
        if local(root.tag) == "catalogue":
            for entry in self._unit_entries(root, index):
                read += 1
                sheet = reader.datasheet(entry, self.warnings)
                if sheet is None:
                    skipped.append(plain(entry.get("name", "")).strip() or entry.get("id", "?"))
                else:
                    yield self._versioned(sheet, version)
            army = ArmyReader(reader, root, roots)
            for record in army.records(self.warnings):
                yield self._versioned(record, version)
            for record in army.stratagems(self.warnings):
                yield self._versioned(record, version)
        for rule in grand(root, "sharedRules", "rule") + grand(root, "rules", "rule"):
            text = plain(" ".join((d.text or "") for d in children(rule, "description")))
            if text:
                yield self._versioned(Rule(name=plain(rule.get("name", "")).strip(), source=reader.source(rule),
                                           edition=edition, faction=faction, text=text), version)
        # Counts checked: every unit entry read gives a datasheet (in BSData's catalogues, all do).
        if read and len(skipped) == read:
            self.warnings.append(f"{self.path.name}: {read} unit entries but none has a Unit profile; no datasheets")
        elif skipped:
            self.warnings.append(f"{self.path.name}: {len(skipped)} of {read} unit entries have no Unit profile; "
                                 f"left out: {', '.join(skipped[:5])}{', ...' if len(skipped) > 5 else ''}")

    @staticmethod
    def _versioned(record: Record, version: str | None) -> Record:
        if not version:
            return record
        return replace(record, source=replace(record.source, version=version))

    @staticmethod
    def _unit_entries(root: ET.Element, index: Index) -> list[ET.Element]:
        """The datasheets a list can take: root entries and the targets of root entry links (the
        shared entries only when the root lists none; a shared model entry is a part of a unit)."""
        out, seen = [], set()
        candidates = grand(root, "selectionEntries", "selectionEntry")
        for link in grand(root, "entryLinks", "entryLink"):
            target = index.get(link.get("targetId"))
            if target is not None and link.get("hidden") != "true":
                candidates.append(target)
        if not candidates:
            candidates = grand(root, "sharedSelectionEntries", "selectionEntry")
        for entry in candidates:
            if entry.get("type") in ("unit", "model") and entry.get("hidden") != "true" and id(entry) not in seen:
                seen.add(id(entry))
                out.append(entry)
        return out
