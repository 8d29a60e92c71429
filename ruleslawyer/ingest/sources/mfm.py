"""Munitorum Field Manual points (the BSData MFM data set: YAML per faction) -> versioned Points.

Recognised by content: a folder whose `meta.yaml` holds the manual's `version` and its list of
`factions`, or one faction file (`name`, `version`, `units` with `pricing`). Each unit gives a
`Points` record with its unit sizes, the tier of repeated units ("1st-2nd", "3rd+") and its
wargear costs; each detachment gives one with its Detachment Points and its enhancements' costs
(as `wargear_costs`). The version is the data's own ("1.1").

The generated changelog beside the data (`DATA-CHANGELOG.md`, "## [date] — MFM v1.1" sections
of Added / Changed / Removed lines) is read backwards from the current data: undoing a version's
lines gives the previous version's points, stored as records of that version (only for what
changed; a record with no costs means "not in that version"). `library.points` compares them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ...errors import LoadError
from ...names import fold, title_case
from ...records import ItemCost, Note, Points, Record, Source, UnitCost
from .mfm_changelog import Entry, previous_versions, tier_of
from .structured import StructuredSource

FORMAT = "mfm-yaml"


def _yaml(path: Path):
    try:
        import yaml
    except ImportError:  # pragma: no cover - PyYAML ships with the project
        raise LoadError(path, "reading points YAML needs PyYAML", hint="pip install pyyaml") from None
    try:
        with open(path, encoding="utf-8-sig") as fh:
            # libyaml's loader when PyYAML was built with it: the same result, six times faster
            return yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        raise LoadError(path, f"not valid YAML: {str(exc).splitlines()[0]}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LoadError(path, f"cannot read: {exc}") from None


def _head(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            return fh.read(65536).decode("utf-8", errors="replace")
    except OSError:
        return ""


def _is_meta(path: Path) -> bool:
    head = _head(path)
    return bool(re.search(r"^version:", head, re.M) and re.search(r"^factions:", head, re.M))


def _is_faction(path: Path) -> bool:
    head = _head(path)
    return bool(re.search(r"^units:", head, re.M) and re.search(r"^\s+pricing:", head, re.M)
                or re.search(r"^detachments:\s*$", head, re.M) and re.search(r"^\s+dp:", head, re.M))


def detect(path: Path) -> "MfmSource | None":
    """An MfmSource for an MFM data folder (meta.yaml + faction files) or one faction file."""
    if path.is_dir():
        metas = [p for p in (path / "meta.yaml", path / "meta.yml") if p.is_file() and _is_meta(p)]
        if not metas:
            return None
        files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in (".yaml", ".yml")
                       or p.name.upper().startswith("DATA-CHANGELOG"))
        return MfmSource(path=path, files=tuple(files), format=FORMAT, title="Munitorum Field Manual", edition=11)
    if path.is_file() and path.suffix.lower() in (".yaml", ".yml") and _is_faction(path):
        return MfmSource(path=path, files=(path,), format=FORMAT, title=f"Munitorum Field Manual: {path.stem}",
                         edition=11)
    return None


def _items(value, where: str, what: str, warnings: list[str]) -> list[dict]:
    """The mappings of a YAML list; anything else is a warning (a hand-edited file), never a crash."""
    if value is None:
        return []
    if not isinstance(value, list):
        warnings.append(f"{where}: {what} is not a list; left out")
        return []
    bad = [v for v in value if not isinstance(v, dict)]
    if bad:
        warnings.append(f"{where}: {len(bad)} {what} entries are not mappings; left out")
    return [v for v in value if isinstance(v, dict)]


def _points(value, where: str, warnings: list[str]) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        if value is not None:
            warnings.append(f"{where}: points {value!r} is not a number; left out")
        return None
    return int(value)


@dataclass
class MfmSource(StructuredSource):
    """An MFM data folder or one faction file."""

    def records(self) -> Iterator[Record]:
        """Current points of every unit and detachment, then the earlier versions the changelog implies."""
        version = date = None
        notes: list[Note] = []
        faction_files = [f for f in self.files if f.suffix.lower() in (".yaml", ".yml") and not _is_meta(f)]
        for meta in (f for f in self.files if f.suffix.lower() in (".yaml", ".yml") and _is_meta(f)):
            data = _yaml(meta) or {}
            if not isinstance(data, dict):  # a damaged meta.yaml that still parses (to text, a list)
                self.warnings.append(f"{meta.name}: not a mapping of version and factions; its version is left out")
                continue
            version, date = str(data.get("version") or "") or None, str(data.get("lastUpdated") or "") or None
            notes.extend(self._notes(meta, data.get("notes"), version, date))
        current: dict[tuple, Entry] = {}
        for path in faction_files:
            data = _yaml(path)
            if not isinstance(data, dict):
                self.warnings.append(f"{path.name}: no faction data; skipped")
                continue
            for entry in self._faction(path, data, version, date):
                current[entry.key] = entry
        yield from notes
        for entry in current.values():
            yield self._record(entry)
        changelogs = [f for f in self.files if f.name.upper().startswith("DATA-CHANGELOG")]
        for log in changelogs:
            try:
                text = log.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                self.warnings.append(f"{log.name}: cannot read ({exc}); earlier versions left out")
                continue
            for entry in previous_versions(text, current, self.warnings):
                yield self._record(entry)

    def _faction(self, path: Path, data: dict, version: str | None, date: str | None) -> Iterator[Entry]:
        faction = str(data.get("name") or path.stem).strip()
        version = str(data.get("version") or version or "") or None
        date = str(data.get("lastUpdated") or date or "") or None
        src = (path.name, version, date)
        for unit in _items(data.get("units"), path.name, "units", self.warnings):
            if not unit.get("name"):
                self.warnings.append(f"{path.name}: a unit without a name; skipped")
                continue
            where = f"{path.name}: {unit['name']}"
            costs = []
            addons = []
            for price in _items(unit.get("pricing"), where, "pricing", self.warnings):
                tier = tier_of(str(price.get("range") or ""))
                for cost in _items(price.get("costs"), where, "costs", self.warnings):
                    desc = str(cost.get("desc") or "").strip() or None
                    points = _points(cost.get("points"), where, self.warnings)
                    if cost.get("addon") is True and desc:  # a model added to the unit: paid on top, not a size
                        addons.append(ItemCost(name=desc, points=points))
                        continue
                    costs.append(UnitCost(models=str(cost.get("models", "")), tier=tier, points=points,
                                          description=desc))
            wargear = tuple(ItemCost(name=str(w.get("item") or w.get("name") or ""),
                                     points=_points(w.get("points"), where, self.warnings))
                            for w in _items(unit.get("wargear"), where, "wargear", self.warnings)) + tuple(addons)
            yield Entry(faction=faction, name=str(unit["name"]).strip(), kind="datasheet", version=version,
                        costs=tuple(costs), wargear=wargear, source=src)
        for det in _items(data.get("detachments"), path.name, "detachments", self.warnings):
            if not det.get("name"):
                continue
            where = f"{path.name}: {det['name']}"
            enhancements = tuple(ItemCost(name=str(e.get("name", "")), points=_points(e.get("points"), where,
                                                                                        self.warnings))
                                 for e in _items(det.get("enhancements"), where, "enhancements", self.warnings))
            disposition = str(det.get("objective") or "").strip()
            yield Entry(faction=faction, name=str(det["name"]).strip(), kind="detachment", version=version,
                        wargear=enhancements, dp=_points(det.get("dp"), where, self.warnings), source=src,
                        disposition=title_case(disposition.lower()) if disposition else None)

    def _notes(self, meta: Path, notes, version: str | None, date: str | None) -> Iterator[Note]:
        """The manual's own notes, one per "## " section ("Units", "Detachments"): they say what
        its terms mean (Detachment Points (DP), requisition thresholds), so a search finds them."""
        if not isinstance(notes, str):
            return
        for n, part in enumerate(re.split(r"^##\s+", notes, flags=re.M)):
            title, _, body = part.partition("\n") if n else ("Mustering an Army", "", part)
            text = re.sub(r"\*\*(.+?)\*\*", r"\1", body).strip()
            if title.strip() and text:
                yield Note(name=title_case(title.strip()), text=text, edition=11, version=version,
                           document="Munitorum Field Manual",
                           source=Source(file=meta.name, format=self.format, date=date, version=version,
                                         locator=f"notes/{fold(title)}"))

    def _record(self, entry: Entry) -> Points:
        file, _, date = entry.source
        return Points(name=entry.name, source=Source(file=file, format=self.format, date=date, version=entry.version,
                                                     locator=f"{fold(entry.faction)}/{entry.kind}/{entry.name}"),
                      edition=11, faction=entry.faction, version=entry.version, target_kind=entry.kind,
                      costs=entry.costs, wargear_costs=entry.wargear, detachment_points=entry.dp,
                      force_disposition=entry.disposition)
