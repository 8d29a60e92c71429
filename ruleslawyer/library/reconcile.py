"""One reference from a pile of overlapping documents.

The same record is often printed in several files: a datasheet in the Wahapedia export, on a
saved Wahapedia page and in a BattleScribe catalogue; a core rule on every faction page that
shows it in a pop-up. Each record gets an identity (`identity`): kind, folded name, faction,
edition, and the detachment or group where the kind has one. Records with one identity are one
entry with several printings; one printing is chosen (`rank`), the others are kept as "also
printed in", and the characteristics, keywords or wording on which they disagree are reported
as conflicts.

Precedence: the user's preference for a file (`ingest --prefer`, `ruleslawyer.toml`) first, then
a file that states its publication date over one dated only by the day it was ingested, then the
newest date, then a structured export or catalogue over a scraped page of the same date.
"""
from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from ..names import fold
from ..records import Datasheet, Record, Rule, record_name
from ..records_json import to_dict

# Kinds whose records belong to a detachment or rules set: two namesakes in different groups
# are two records.
GROUPED_KINDS = frozenset({"stratagem", "enhancement", "detachment_rule"})
# Kinds that are amendments or answers, not printings of a rule: each FAQ version is its own
# document, and the errata step picks the newest version.
UNMERGED_KINDS = frozenset({"errata", "faq", "note"})
# Formats that are scraped or typed pages; a structured export beats them at the same date.
STRUCTURED_FORMATS = frozenset({"wahapedia-csv", "battlescribe", "structured", "csv", "json", "yaml", "points"})
# Fields that say where or how a record was printed, not what it says.
_NOT_CONTENT = frozenset({"source", "changes", "kind"})


@dataclass(frozen=True)
class FileInfo:
    """What precedence needs to know of one stored file."""

    path: str
    name: str
    date: str  # the publication date, else the ingest date (ISO)
    format: str = ""
    preference: int = 0
    version: str | None = None
    published: str | None = None  # the document's own date (or the user's `--dated`), when known

    @property
    def structured(self) -> bool:
        return self.format in STRUCTURED_FORMATS or not self.format.startswith(("pdf", "html", "text"))


def rank(info: FileInfo) -> tuple:
    """Sort key of a printing's file: higher wins.

    The user's preference first; then a file whose document states its date over one known
    only by the day it was ingested (an undated catalogue is not known to be newer); then the
    newer date; then a structured export over a scraped page.
    """
    return (info.preference, info.published is not None, info.date, info.structured)


@dataclass(frozen=True)
class Difference:
    """One field on which printings of a record disagree: the value in each file."""

    field: str  # "Ld (Canoptek Reanimator)", "keywords", "text"
    values: tuple[tuple[str, str], ...]  # (file name, value) for each printing, chosen first


@dataclass
class Printings:
    """The printings of one record: the chosen one, the others, and how they differ."""

    key: tuple
    chosen: Record
    chosen_file: FileInfo
    others: list[tuple[Record, FileInfo]] = field(default_factory=list)
    _differences: list[Difference] | None = None

    @property
    def differences(self) -> list[Difference]:
        """Where the printings disagree (worked out when first asked: loading does not pay for it)."""
        if self._differences is None:
            self._differences = differences(self.chosen, self.chosen_file, self.others)
        return self._differences


@dataclass
class Reconciled:
    """The records with one printing per identity, and the printings of merged records."""

    records: list[Record]
    printings: dict[int, Printings]  # id(chosen record) -> its printings (only where there are several)

    @property
    def conflicts(self) -> list[Printings]:
        """The merged records whose printings disagree on something."""
        return [p for p in self.printings.values() if p.differences]


@lru_cache(maxsize=1 << 17)
def _folded(name: str) -> str:  # names, factions and groups repeat across thousands of records
    return fold(name)


def identity(record: Record) -> tuple | None:
    """The key that makes two printings one record; None for kinds that are never merged."""
    kind = record.kind
    if kind in UNMERGED_KINDS:
        return None
    fields = record.__dict__  # read directly: this runs once per stored record on every load
    faction = fields.get("faction")
    group = _folded(fields.get("group") or "") if kind in GROUPED_KINDS else ""
    return (kind, _folded(fields["name"]), _folded(faction) if faction else "", fields.get("edition") or 0, group,
            fields.get("version") if kind == "points" else None)


def reconcile(pairs: Iterable[tuple[Record, FileInfo]], *, choose: Mapping[str, str] | None = None) -> Reconciled:
    """Merge printings of the same record; keep the first-seen order of entries.

    `choose` maps a folded record name to a file name whose printing the user asked for
    (`show --source FILE`).
    """
    pairs = list(pairs)
    pairs = _adopt_defining_faction(pairs)
    groups: dict[tuple, list[tuple[Record, FileInfo]]] = {}
    order: list[tuple | int] = []
    for n, (record, info) in enumerate(pairs):
        key = identity(record)
        if key is None:
            order.append(n)
            continue
        members = groups.get(key)
        if members is None:
            groups[key] = members = []
            order.append(key)
        members.append((record, info))
    records: list[Record] = []
    printings: dict[int, Printings] = {}
    for item in order:
        if isinstance(item, int):
            records.append(pairs[item][0])
            continue
        members = groups[item]
        if len(members) == 1:
            records.append(members[0][0])
            continue
        chosen, chosen_info = _choose(members, choose)
        others = [(r, i) for r, i in members if r is not chosen]
        entry = Printings(item, chosen, chosen_info, others)
        printings[id(chosen)] = entry
        records.append(chosen)
    return Reconciled(records=records, printings=printings)


def _choose(members: list[tuple[Record, FileInfo]], choose: Mapping[str, str] | None) -> tuple[Record, FileInfo]:
    if choose:
        wanted = choose.get(fold(record_name(members[0][0])))
        for record, info in members:
            if wanted and wanted in (info.name, info.path):
                return record, info
    # max() keeps the first of equals: files ingested first win ties, whatever the dict order.
    return max(members, key=lambda m: rank(m[1]))


def _adopt_defining_faction(pairs: list[tuple[Record, FileInfo]]) -> list[tuple[Record, FileInfo]]:
    """A rule shown on another faction's page keeps the faction of the document that defines it.

    A web page shows core rules and other factions' rules in pop-ups, and its parser gives them
    the page's faction. Where a structured source or another document defines a rule of the same
    name and edition under exactly one faction (or as a core rule), the page's copy is that rule.
    """
    if not any(info.format.startswith("html") for _, info in pairs):
        return pairs
    defined: dict[tuple, set[str]] = defaultdict(set)
    for record, info in pairs:
        if isinstance(record, Rule) and (info.structured or not info.format.startswith("html")):
            defined[(fold(record.name), record.edition)].add(record.faction or "")
    if not defined:
        return pairs
    out = []
    for record, info in pairs:
        if isinstance(record, Rule) and info.format.startswith("html") and record.faction:
            owners = defined.get((fold(record.name), record.edition))
            if owners and len(owners) == 1 and record.faction not in owners:
                owner = next(iter(owners))
                record = dataclasses.replace(record, faction=owner or None)
        out.append((record, info))
    return out


# ---------------------------------------------------------------- differences
_WORDS = re.compile(r"[a-z0-9+]+")


def wording(value: str) -> tuple[str, ...]:
    """Wording compared without case, punctuation or markup: only a change of words counts."""
    return tuple(_WORDS.findall(fold(value)))


def differences(chosen: Record, chosen_info: FileInfo, others: Sequence[tuple[Record, FileInfo]]) -> list[Difference]:
    """The fields on which the printings disagree (characteristics per profile and weapon,
    keyword sets, wording), each with every printing's value, the chosen one first."""
    views = [(chosen_info.name, _content(chosen))] + [(info.name, _content(r)) for r, info in others]
    fields: dict[str, list[tuple[str, str]]] = {}
    for file, view in views:
        for name, value in view.items():
            fields.setdefault(name, []).append((file, value))
    out = []
    for name, values in fields.items():
        present = [v for _, v in values]
        if len(values) < 2 or len(set(present)) < 2:
            continue
        first = present[0]
        out.append(Difference(name, tuple((file, _shown(v, first)) for file, v in values)))
    return out


def _shown(value: Any, chosen: Any = None) -> str:
    """A value as the user reads it; wording as a few words around where it departs from the
    chosen printing's."""
    if isinstance(value, tuple) and value[:1] == ("\x00words",):
        words, base = value[1:], (chosen or ())[1:]
        at = next((i for i, (a, b) in enumerate(zip(words, base)) if a != b), min(len(words), len(base)))
        start = max(at - 3, 0)
        excerpt = " ".join(words[start:at + 7])
        return f"\u201c{'…' if start else ''}{excerpt}{'…' if at + 7 < len(words) else ''}\u201d ({len(words)} words)"
    if isinstance(value, frozenset):
        return ", ".join(sorted(value))
    return str(value)


def _spelling(name: str) -> str:
    """A name's letters and digits as spelled (case, punctuation, spaces and format characters
    aside, accents kept): two printings keyed alike whose spellings differ ("Café", "Cafe") are
    two names that collide, reported as a difference on "name"."""
    import unicodedata

    text = unicodedata.normalize("NFC", name).casefold()
    return "".join(c for c in text if c.isalnum())


def _content(record: Record) -> dict[str, Any]:
    """A flat view of what a printing says, in comparable form (empty values left out, so a
    printing that omits a field does not disagree with one that has it)."""
    out: dict[str, Any] = {"name": _spelling(record_name(record))}
    if isinstance(record, Datasheet):
        for p in record.profiles:
            for stat, value in p.stats.items():
                if value not in (None, ""):
                    out[f"{stat} ({p.name})"] = fold(value).replace(" ", "") or value
        for w in record.weapons:
            for attr in ("range", "A", "skill", "S", "AP", "D"):
                value = getattr(w, attr)
                if value not in (None, ""):
                    out[f"{attr} ({w.name})"] = fold(value).replace(" ", "") or value
        for name in ("keywords", "faction_keywords"):
            values = getattr(record, name)
            if values:
                out[name] = frozenset(fold(k) for k in values)
        if record.invulnerable_save:
            out["invulnerable save"] = record.invulnerable_save
        return out
    data = to_dict(record)
    for name, value in data.items():
        if name == "name":
            continue
        if name in _NOT_CONTENT or value in (None, "", [], {}):
            continue
        if isinstance(value, str):
            out[name] = ("\x00words",) + wording(value) if len(value) > 40 else fold(value)
        elif isinstance(value, (int, float)):
            out[name] = str(value)
    return out
