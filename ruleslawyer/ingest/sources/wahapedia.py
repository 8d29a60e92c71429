"""Wahapedia's data export (pipe-separated CSV, one file per table) -> records.

Recognised by its file set (Datasheets.csv with Factions.csv and Datasheets_models.csv); the
10th and 9th edition layouts are told apart by the characteristic columns (OC vs WS) and
columns are always located by header name. Quirks handled: UTF-8 BOM, CRLF, the trailing `|`
on every row, no quoting at all (a `|` in text shifts the row, so extra fields are folded back
into the text column), ids with leading zeros kept as strings, header rows repeated inside a
table. Text cells hold HTML fragments, converted with `fragments.fragment_text`.
"""
from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from ...errors import LoadError
from ...records import (Ability, Datasheet, DetachmentRule, Enhancement, Leader, Profile, Record, Rule, Source, Stratagem, Weapon)
from ..load.fragments import fragment_lines, fragment_text
from ...names import fold, title_case
from .structured import StructuredSource
from .wahapedia11 import flag, iso_date, publications, rule_number, unit_costs, weapon_keywords, without_number
from .wahapedia_csv import is_11th_export, read_header, read_table

REQUIRED = ("Datasheets.csv", "Factions.csv", "Datasheets_models.csv")
STATS_10 = ("M", "T", "Sv", "W", "Ld", "OC")
STATS_9 = ("M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv")


def detect(path: Path) -> "WahapediaExport | None":
    """A WahapediaExport when `path` is a folder holding the export's file set."""
    if not path.is_dir() or not all((path / name).is_file() for name in REQUIRED):
        if path.is_dir() and all((path / name).is_file() for name in REQUIRED[:2]):
            # The export's two main tables without the third: an incomplete copy, not another format.
            missing = next(name for name in REQUIRED if not (path / name).is_file())
            raise LoadError(path / missing, "missing or not a file, and the Wahapedia export beside it needs it")
        return None
    files = tuple(sorted(p for p in path.iterdir() if p.suffix.lower() == ".csv"))
    header = read_header(path / "Datasheets_models.csv")
    edition = 10 if "OC" in header else 9 if "WS" in header else None
    if edition == 10 and is_11th_export(path):
        edition = 11
    return WahapediaExport(path=path, files=files, format="wahapedia-csv", edition=edition,
                           title=f"Wahapedia data export ({edition}th edition)" if edition else "Wahapedia data export")


def _dash(name: str) -> str:
    return re.sub(r"\s*[\u2013\u2014]\s*", " - ", name).strip()


def _inches(value: str) -> str:
    value = value.strip()
    return f'{value}"' if re.fullmatch(r"\d+", value) else value


def _plus(value: str) -> str:
    value = value.strip()
    return f"{value}+" if re.fullmatch(r"\d+", value) else value


def _int(value: str) -> int | None:
    m = re.search(r"-?\d+", value or "")
    return int(m.group()) if m else None


def split_stratagem_text(fragment: str) -> dict[str, str | None]:
    """WHEN/TARGET/EFFECT/RESTRICTIONS from a stratagem's HTML (bold labels), else all as effect."""
    parts: dict[str, list[str]] = {}
    current = None
    for spans in fragment_lines(fragment):
        text = "".join(s.text for s in spans).strip()
        m = re.match(r"(WHEN|TARGET|EFFECT|RESTRICTIONS?)\s*:\s*", text)
        if m and spans[0].bold:
            current = m.group(1).lower().rstrip("s") + ("s" if m.group(1).startswith("RESTRICTION") else "")
            text = text[m.end():]
        parts.setdefault(current or "effect", []).append(text)
    joined = {k: "\n".join(t for t in v if t).strip() or None for k, v in parts.items()}
    return {k: joined.get(k) for k in ("when", "target", "effect", "restrictions")}


def split_restriction(text: str) -> tuple[str | None, str]:
    """A leading "X model only." limit of an enhancement, and the rest of its text."""
    m = re.match(r"\s*([^.]{0,80}?\bmodels? only\.)\s*", text)
    if m:
        return m.group(1).strip(), text[m.end():].strip()
    return None, text


def shared_rule_text(row: dict[str, str]) -> str:
    """The rules text of an Abilities.csv row, without the repeated title and flavour lines it embeds."""
    return _shared_text(row.get("name", ""), row.get("description") or "", row.get("legend") or "")


@lru_cache(maxsize=4096)
def _shared_text(name: str, description: str, legend_html: str) -> str:
    # Thousands of datasheet rows name the same few shared abilities: each is converted once.
    lines = fragment_text(without_number(description)).split("\n")
    legend = fragment_text(legend_html)
    while lines and (lines[0].strip().casefold() == name.casefold() or (legend and lines[0].strip() == legend)):
        lines.pop(0)
    return "\n".join(lines).strip()


class WahapediaExport(StructuredSource):
    """One export folder; `records()` joins its tables into records."""

    _date: str | None = None
    _publications: dict | None = None
    _unknown_factions: dict[str, int]

    def _source(self, file: str, row_id: str, source_id: str | None = None) -> Source:
        date, version = (self._publications or {}).get(source_id or "", (None, None))
        return Source(file=file, page=None, format=self.format, sha256=None, locator=f"id={row_id}",
                      date=date or self._date, version=version)

    # Columns each table must have; everything else is read with .get() and may be missing. A
    # table without its text column would store every record empty: it is refused instead.
    _REQUIRED = {"Factions.csv": ("id", "name"), "Datasheets.csv": ("id", "name"),
                 "Stratagems.csv": ("id", "name", "description"), "Enhancements.csv": ("id", "name", "description"),
                 "Detachment_abilities.csv": ("id", "name", "description"), "Abilities.csv": ("id", "name"),
                 "Wargear_list.csv": ("wargear_id",), "Datasheets_abilities.csv": ("datasheet_id",),
                 "Datasheets_wargear.csv": ("datasheet_id",), "Datasheets_keywords.csv": ("datasheet_id", "keyword"),
                 "Datasheets_models_cost.csv": ("datasheet_id", "description", "cost"),
                 "Datasheets_leader.csv": ("leader_id", "attached_id")}

    # Tables every export of an edition has: one that is missing leaves its part of every record
    # out, so it is said (a table only some exports have, like Source.csv, is read if there).
    _EXPECTED = {9: ("Datasheets_wargear.csv", "Wargear_list.csv", "Stratagems.csv"),
                 10: ("Datasheets_abilities.csv", "Datasheets_keywords.csv", "Datasheets_wargear.csv",
                      "Datasheets_models_cost.csv", "Stratagems.csv", "Enhancements.csv", "Detachment_abilities.csv",
                      "Abilities.csv")}

    def _table(self, name: str) -> list[dict[str, str]]:
        path = self.path / name
        required = self._REQUIRED.get(name, ())
        if name == "Datasheets_models.csv":
            required = ("datasheet_id", *(STATS_9 if self.edition == 9 else STATS_10))
        if path.is_file():
            return read_table(path, required, self.warnings)
        if name in self._EXPECTED.get(min(self.edition or 10, 10), ()):
            self.warnings.append(f"{name} is missing from the export; what it holds is left out")
        return []

    def _faction(self, factions: dict[str, str], row: dict[str, str]) -> str | None:
        """The faction a row names; an id Factions.csv does not have is counted, and said once at the end."""
        fid = row.get("faction_id", "")
        if fid and fid not in factions:
            self._unknown_factions[fid] = self._unknown_factions.get(fid, 0) + 1
        return factions.get(fid)

    def records(self) -> Iterator[Record]:
        """Datasheets, stratagems, enhancements, detachment rules and shared abilities of the export."""
        factions = {r["id"]: r["name"] for r in self._table("Factions.csv")}
        self._unknown_factions = {}
        yield from self._records(factions)
        if self._unknown_factions:
            ids = sorted(self._unknown_factions, key=lambda f: -self._unknown_factions[f])
            self.warnings.append(f"Factions.csv: {sum(self._unknown_factions.values())} rows name factions it does not "
                                 f"have ({', '.join(ids[:8])}{', ...' if len(ids) > 8 else ''}); stored without a faction")

    def _records(self, factions: dict[str, str]) -> Iterator[Record]:
        self._date = next((iso_date(r.get("last_update")) for r in self._table("Last_update.csv")), None)
        self._publications = publications(self._table("Source.csv"))
        if self.edition == 9:
            yield from self._datasheets_9(factions)
            yield from self._stratagems_9(factions)
            return
        ed = self.edition
        ability_rows = self._table("Abilities.csv")
        abilities = {r["id"]: r for r in ability_rows}
        yield from self._datasheets_10(factions, abilities)
        yield from self._stratagems_10(factions)
        for row in self._table("Enhancements.csv"):
            restriction, text = split_restriction(fragment_text(row.get("description")))
            yield Enhancement(name=title_case(row["name"]), source=self._source("Enhancements.csv", row["id"]), edition=ed,
                              faction=self._faction(factions, row),
                              points=self._checked_int("Enhancements.csv", row, "cost"),
                              group=row.get("detachment") or None, restriction=restriction, text=text,
                              fluff=fragment_text(row.get("legend")) or None, upgrade=flag(row.get("upgrade")),
                              support=bool(row["support_leader"].strip()) if row.get("support_leader") else None)
        detachments = {}
        for row in self._table("Detachments.csv"):
            info = (self._checked_int("Detachments.csv", row, "dp"), (row.get("force_disposition") or "").strip() or None)
            detachments[row.get("id", "")] = detachments[fold(row.get("name", ""))] = info
        for row in self._table("Detachment_abilities.csv"):
            points, disposition = detachments.get(row.get("detachment_id", "")) or detachments.get(
                fold(row.get("detachment", "")), (None, None))
            yield DetachmentRule(name=title_case(row["name"]), source=self._source("Detachment_abilities.csv", row["id"]),
                                 edition=ed, faction=self._faction(factions, row),
                                 group=row.get("detachment") or None, text=fragment_text(row.get("description")),
                                 fluff=fragment_text(row.get("legend")) or None, detachment_points=points,
                                 force_disposition=disposition)
        for row in ability_rows:
            yield Rule(name=title_case(row["name"]), source=self._source("Abilities.csv", row["id"]), edition=ed,
                       faction=self._faction(factions, row), text=shared_rule_text(row),
                       fluff=fragment_text(row.get("legend")) or None, number=rule_number(row.get("description")))

    def _checked_int(self, table: str, row: dict[str, str], column: str) -> int | None:
        """An integer cell; a cell that holds something else is a warning, not a silent None."""
        value = (row.get(column) or "").strip()
        if not value:
            return None
        m = re.fullmatch(r"([-+]?)\s*(\d+)", value)  # "+40": a cost on top of something, still 40
        if not m:
            self.warnings.append(f"{table}: row id={row.get('id', '?')}: {column} {value!r} is not a number; left out")
            return None
        return -int(m.group(2)) if m.group(1) == "-" else int(m.group(2))

    # ------------------------------------------------------------ 10th edition
    def _datasheets_10(self, factions, abilities) -> Iterator[Datasheet]:
        by_sheet = {name: _group(self._table(name)) for name in (
            "Datasheets_models.csv", "Datasheets_wargear.csv", "Datasheets_abilities.csv", "Datasheets_keywords.csv",
            "Datasheets_options.csv", "Datasheets_unit_composition.csv", "Datasheets_models_cost.csv")}
        sheets = self._table("Datasheets.csv")
        names = {r["id"]: r["name"] for r in sheets}
        leads = defaultdict(list)
        for row in self._table("Datasheets_leader.csv"):
            if row.get("attached_id") in names:
                leads[row["leader_id"]].append(names[row["attached_id"]])
        # A table cut short at a row's end reads cleanly: what gives it away is the datasheets it
        # has nothing for (in a whole export, 0-4 of 1,676 for each of these tables).
        for table, what in (("Datasheets_models.csv", "characteristics"), ("Datasheets_abilities.csv", "abilities"),
                            ("Datasheets_keywords.csv", "keywords"), ("Datasheets_wargear.csv", "weapons"),
                            ("Datasheets_models_cost.csv", "points"), ("Datasheets_unit_composition.csv", "composition")):
            missing = [r["id"] for r in sheets if not by_sheet[table].get(r["id"])]
            if not (self.path / table).is_file() or not (len(missing) * 10 > len(sheets)):
                continue
            if table == "Datasheets_models.csv" or len(missing) >= 3:
                self.warnings.append(f"{table}: {len(missing)} of {len(sheets)} datasheets have no {what} rows "
                                     "(a truncated or incomplete file?)")
        orphans = {table: sum(len(rows) for sid, rows in groups.items() if sid not in names)
                   for table, groups in by_sheet.items()}  # rows read but not stored: their datasheet is not there
        if any(orphans.values()):
            self.warnings.append("rows that name datasheets Datasheets.csv does not have, left out: " + ", ".join(
                f"{table} {n}" for table, n in orphans.items() if n))
        for row in sheets:
            sid = row["id"]
            models = by_sheet["Datasheets_models.csv"].get(sid, [])
            points, wargear_costs = unit_costs(by_sheet["Datasheets_models_cost.csv"].get(sid, []),
                                               f"Datasheets_models_cost.csv: datasheet {sid}", self.warnings)
            leader_text = "\n".join(t for t in (fragment_text(row.get("leader_head")),
                                                fragment_text(row.get("leader_footer"))) if t)
            box = Leader(leader_text, tuple(leads[sid])) if leader_text or leads.get(sid) else None
            is_support = flag(row.get("is_support")) is True
            profiles = tuple(Profile(name=fragment_text(m.get("name")), stats={k: m.get(k, "") for k in STATS_10}) for m in models)
            invuln = next((_plus(m["inv_sv"]) for m in models if m.get("inv_sv", "").strip("-+ ")), None)
            base = next((m["base_size"] for m in models if m.get("base_size")), None)
            kw = by_sheet["Datasheets_keywords.csv"].get(sid, [])
            composition = [fragment_text(c.get("description")) for c in by_sheet["Datasheets_unit_composition.csv"].get(sid, [])]
            if row.get("loadout"):
                composition.append(fragment_text(row["loadout"]))
            damaged = " ".join(t for t in (row.get("damaged_w", ""), fragment_text(row.get("damaged_description"))) if t)
            yield Datasheet(
                name=title_case(fragment_text(row["name"])), source=self._source("Datasheets.csv", sid, row.get("source_id")),
                edition=self.edition,
                faction=self._faction(factions, row), role=row.get("role") or None, base=base,
                points=points, wargear_costs=wargear_costs,
                faction_keywords=_unique(k["keyword"].upper() for k in kw if k.get("is_faction_keyword") == "true"),
                keywords=_unique(k["keyword"].upper() for k in kw if k.get("is_faction_keyword") != "true"),
                profiles=profiles, invulnerable_save=invuln,
                weapons=tuple(self._weapon_10(w) for w in by_sheet["Datasheets_wargear.csv"].get(sid, [])),
                abilities=tuple(a for a in (self._ability_10(a, abilities, sid) for a in
                                            by_sheet["Datasheets_abilities.csv"].get(sid, [])) if a is not None),
                wargear_options=tuple(t for t in (fragment_text(o.get("description"))
                                                  for o in by_sheet["Datasheets_options.csv"].get(sid, [])) if t),
                composition=tuple(t for t in composition if t),
                leader=None if is_support else box, support=box if is_support else None,
                damaged=damaged or None)

    @staticmethod
    def _weapon_10(w: dict[str, str]) -> Weapon:
        melee = w.get("type", "").lower() == "melee"
        return Weapon(name=_dash(fragment_text(w.get("name"))), range="Melee" if melee else _inches(w.get("range", "")),
                      A=w.get("A") or None, skill=_plus(w.get("BS_WS", "")) or None, S=w.get("S") or None,
                      AP=w.get("AP") or None, D=w.get("D") or None,
                      abilities=weapon_keywords(w.get("description")))

    def _ability_10(self, a: dict[str, str], shared: dict[str, dict[str, str]], sid: str) -> Ability | None:
        category = re.sub(r"\s*\(.*\)", "", a.get("type", "")).strip().lower() or None
        category = {"datasheet": "unit"}.get(category, category)
        ref = shared.get(a.get("ability_id", ""))
        name = fragment_text(a.get("name")) or (fragment_text(ref.get("name")) if ref else "")
        if not name.strip():  # a row naming an ability id Abilities.csv lacks: no nameless ability
            self.warnings.append(f"Datasheets_abilities.csv: datasheet {sid}: ability id "
                                 f"{a.get('ability_id', '')!r} is not in Abilities.csv; left out")
            return None
        text = fragment_text(a.get("description")) or (shared_rule_text(ref) if ref else "")
        if a.get("parameter"):
            name = f"{name} {a['parameter']}"
        return Ability(name=name, text=text, category=category)

    def _stratagems_10(self, factions) -> Iterator[Stratagem]:
        older = 0
        for row in self._table("Stratagems.csv"):
            kind = _dash(row.get("type", ""))
            category = re.sub(r"\s*Stratagem$", "", kind.split(" - ")[-1]).strip() or None
            group = row.get("detachment") or (kind.split(" - ")[0].strip() if " - " in kind else None) or "Core"
            parts = split_stratagem_text(without_number(row.get("description", "")))
            number = rule_number(row.get("description")) or rule_number(row.get("name"))
            edition = self.edition
            if edition == 11 and category and not number and not row.get("detachment"):
                # 11th edition stratagem cards have no category (Battle Tactic, Strategic Ploy...)
                # and the core ones are numbered: an unnumbered, categorised stratagem of no
                # detachment in an 11th edition export is a 10th edition card it still carries.
                edition, older = 10, older + 1
            yield Stratagem(name=title_case(fragment_text(without_number(row["name"]))),
                            source=self._source("Stratagems.csv", row["id"]), edition=edition,
                            faction=self._faction(factions, row),
                            cp=self._checked_int("Stratagems.csv", row, "cp_cost"), number=number,
                            category=category, group=group, fluff=fragment_text(row.get("legend")) or None, **parts)
        if older:
            self.warnings.append(f"Stratagems.csv: {older} stratagems of no detachment have a 10th edition "
                                 "category and no rule number; stored as 10th edition")

    # ------------------------------------------------------------ 9th edition
    def _datasheets_9(self, factions) -> Iterator[Datasheet]:
        models = _group(self._table("Datasheets_models.csv"))
        links = _group(self._table("Datasheets_wargear.csv"))
        profiles_by_wargear = _group(self._table("Wargear_list.csv"), key="wargear_id")
        damage = _group(self._table("Datasheets_damage.csv"))
        wargear_names = {r["id"]: fragment_text(r.get("name")) for r in self._table("Wargear.csv") if r.get("id")}
        for row in self._table("Datasheets.csv"):
            sid = row["id"]
            weapons = []
            for link in links.get(sid, []):
                rows = profiles_by_wargear.get(link.get("wargear_id", ""), [])
                for p in rows:
                    name = _dash(re.sub(r"^\d+:\s*", "", fragment_text(p.get("name"))))
                    parent = wargear_names.get(link.get("wargear_id", ""))
                    if len(rows) > 1 and parent and fold(parent) not in fold(name):  # one entry per profile
                        name = f"{parent} - {name}"
                    weapons.append(Weapon(name=name, range=p.get("Range"),
                                          type=p.get("type"), S=p.get("S"), AP=p.get("AP"), D=p.get("D"),
                                          abilities=(fragment_text(p["abilities"]),) if p.get("abilities") else ()))
            brackets = damage.get(sid, [])
            damaged = "\n".join("\t".join(c for c in (b.get(f"Col{i}", "") for i in range(1, 6)) if c) for b in brackets)
            yield Datasheet(
                name=title_case(fragment_text(row["name"])), source=self._source("Datasheets.csv", sid, row.get("source_id")), edition=9,
                faction=self._faction(factions, row), role=row.get("role") or None,
                power=_int(row.get("power_points", "")),
                base=next((m["base_size"] for m in models.get(sid, []) if m.get("base_size")), None),
                profiles=tuple(Profile(name=fragment_text(m.get("name")), models=m.get("models_per_unit") or None,
                                       stats={k: m.get(k, "") for k in STATS_9}) for m in models.get(sid, [])),
                weapons=_unique_weapons(weapons),
                composition=tuple(t for t in (_without_power(fragment_text(row.get("unit_composition"))),) if t),
                damaged=damaged or None)

    def _stratagems_9(self, factions) -> Iterator[Stratagem]:
        # StratagemPhases.csv only tags the phases; the WHEN of a 9th edition stratagem is its prose.
        for row in self._table("Stratagems.csv"):
            kind = row.get("type", "")
            # dated by its publication's row in Source.csv: a 9th edition export states no date of its own
            yield Stratagem(name=title_case(row["name"]), edition=9,
                            source=self._source("Stratagems.csv", row["id"], row.get("source_id")),
                            faction=self._faction(factions, row), cp=_int(row.get("cp_cost", "")),
                            group=_dash(kind).split(" - ")[0].strip() if " - " in _dash(kind) else
                            re.sub(r"\s*Stratagem$", "", kind).strip() or None,
                            category=re.sub(r"\s*Stratagem$", "", _dash(kind).split(" - ")[-1]).strip()
                            if " - " in _dash(kind) else None,
                            effect=fragment_text(row.get("description")) or None,
                            fluff=fragment_text(row.get("legend")) or None)


def _without_power(text: str) -> str:
    """A 9th edition composition without its Power Rating sentences (power is its own field)."""
    return re.sub(r"[^.]*\bPower Rating\b[^.]*\.\s*", "", text).strip()


def _group(rows: list[dict[str, str]], key: str = "datasheet_id") -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        out[row.get(key, "")].append(row)
    for items in out.values():
        if items and "line" in items[0]:
            items.sort(key=lambda r: (_int(r.get("line", "")) or 0, _int(r.get("line_in_wargear", "")) or 0))
    return out


def _unique(items) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i))


def _unique_weapons(weapons: list[Weapon]) -> tuple[Weapon, ...]:
    seen, out = set(), []
    for w in weapons:
        if w.name not in seen:
            seen.add(w.name)
            out.append(w)
    return tuple(out)
