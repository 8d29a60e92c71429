"""Name matching for army lists: datasheets, weapons, abilities, enhancements and detachments.

List builders spell names their own way: plural or singular ("Kroot Carnivore"), curly or
straight apostrophes, a profile suffix the datasheet adds ("Cyclic ion blaster - overcharge"),
a bracket naming what an option carries ("Gun Drone (Twin pulse carbine)"), "upgrade" after an
enhancement's name. Everything is compared through `names.fold`/`name_key`; a close spelling
is accepted only above a high cutoff and always reported.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..names import fold, name_key
from ..records import Datasheet, DetachmentRule, Enhancement, Points, Record, Stratagem, Weapon

CLOSE = 0.86  # a close spelling accepted as the same name
SUGGEST = 0.55  # names shown as suggestions
_PROFILE_SEP = re.compile(r"\s+[-–—]\s+|\s*[➤►]\s*|\s*\[[^\]]*\]\s*$")


def weapon_base(name: str) -> str:
    """A weapon profile's name without its profile suffix ("Cyclic ion blaster - overcharge")."""
    return _PROFILE_SEP.split(name)[0].strip()


def name_forms(name: str) -> list[str]:
    """The spellings to try for a list item: as written, without a bracket, the bracket's content,
    without a trailing "upgrade", without a "w/ ..." tail."""
    out = [name]
    m = re.match(r"^(.*?)\s*\(([^)]*)\)\s*$", name)
    if m:
        out += [m.group(1), m.group(2)]
    for form in list(out):
        for pattern in (r"\s+upgrade$", r"\s+w/\s.*$", r"\s+with\s.*$"):
            cut = re.sub(pattern, "", form, flags=re.IGNORECASE)
            if cut != form and cut:
                out.append(cut)
    seen, forms = set(), []
    for f in out:
        if f.strip() and fold(f) not in seen:
            seen.add(fold(f))
            forms.append(f.strip())
    return forms


def keys(name: str) -> tuple[str, str]:
    """The exact and the plural-insensitive key of a name."""
    return fold(name), name_key(name)


@dataclass
class NameIndex:
    """Records of some kinds by folded name and by plural-insensitive key."""

    exact: dict[str, list[Record]] = field(default_factory=dict)
    loose: dict[str, list[Record]] = field(default_factory=dict)

    @classmethod
    def of(cls, records: Iterable[Record]) -> "NameIndex":
        index = cls()
        for r in records:
            a, b = keys(r.name)
            index.exact.setdefault(a, []).append(r)
            index.loose.setdefault(b, []).append(r)
        return index

    def find(self, name: str) -> tuple[list[Record], str]:
        """Records named `name` and how they were found: "exact", "plural" or "" (none)."""
        for form in name_forms(name):
            a, b = keys(form)
            if a in self.exact:
                return self.exact[a], "exact"
            if b in self.loose:
                return self.loose[b], "plural"
        return [], ""

    def close(self, name: str, pool_names: Sequence[str] | None = None, cutoff: float = CLOSE) -> list[str]:
        """Folded names close to `name` (best first), among `pool_names` or all."""
        pool = list(pool_names) if pool_names is not None else list(self.exact)
        return difflib.get_close_matches(fold(name), pool, n=5, cutoff=cutoff)


@dataclass
class Catalogue:
    """What a list is resolved against: datasheets, enhancements, detachment groups, factions."""

    datasheets: NameIndex
    enhancements: NameIndex
    factions: dict[str, str]  # folded -> as stored
    sub_factions: dict[str, str]  # folded faction keyword (a chapter, a legion) -> as printed
    groups: dict[str, list[Record]]  # folded detachment name -> its rules, stratagems, enhancements
    group_names: dict[str, str]  # folded -> as stored

    @classmethod
    def of(cls, records: Sequence[Record]) -> "Catalogue":
        sheets = [r for r in records if isinstance(r, Datasheet)]
        factions = {fold(d.faction): d.faction for d in sheets if d.faction}
        for r in records:  # a faction with only points, detachments or enhancements stored is known too
            if isinstance(r, (Points, DetachmentRule, Enhancement)) and r.faction:
                factions.setdefault(fold(r.faction), r.faction)
        for f in list(factions.values()):  # a stored "Xenos - Orks" also answers to "Orks"
            factions.setdefault(fold(re.split(r"\s+-\s+", f)[-1]), f)
        subs: dict[str, str] = {}
        for d in sheets:
            for k in d.faction_keywords:
                if fold(k) not in factions:
                    subs.setdefault(fold(k), k)
        groups: dict[str, list[Record]] = {}
        names: dict[str, str] = {}
        for r in records:
            if isinstance(r, (DetachmentRule, Enhancement, Stratagem)) and r.group and (r.faction or isinstance(r, DetachmentRule)):
                groups.setdefault(fold(r.group), []).append(r)
                names.setdefault(fold(r.group), r.group)
            elif isinstance(r, DetachmentRule) and not r.group:  # a detachment rule named as its detachment
                groups.setdefault(fold(r.name), []).append(r)
                names.setdefault(fold(r.name), r.name)
        return cls(NameIndex.of(sheets), NameIndex.of(r for r in records if isinstance(r, Enhancement)),
                   factions, subs, groups, names)

    def faction_of(self, text: str) -> tuple[str | None, str | None]:
        """(faction as stored, sub-faction keyword) a list's faction line names, trying each " - " part."""
        parts = [text] + [p.strip() for p in re.split(r"\s+-\s+|\s*/\s*", text) if p.strip()]
        for p in parts:
            if fold(p) in self.factions:
                return self.factions[fold(p)], None
        for p in parts:
            if fold(p) in self.sub_factions:
                return None, self.sub_factions[fold(p)]
        return None, None


def weapons_named(sheet: Datasheet, name: str) -> list[Weapon]:
    """The weapon profiles of `sheet` an item names (every profile of a multi-profile weapon)."""
    for form in name_forms(name):
        want = fold(form)
        found = [w for w in sheet.weapons if fold(weapon_base(w.name)) == want or fold(w.name) == want]
        if not found:
            want_key = name_key(form)
            found = [w for w in sheet.weapons if name_key(weapon_base(w.name)) == want_key]
        if found:
            return found
    return []


def close_weapons(sheet: Datasheet, name: str, cutoff: float) -> list[str]:
    """Weapon names of `sheet` spelled close to `name`."""
    bases = {fold(weapon_base(w.name)): weapon_base(w.name) for w in sheet.weapons}
    want = fold(name)
    # "Crushing teeth and claws" for "Teeth and claws": one name holds the other (two words or more)
    held = [v for k, v in bases.items() if len(k.split()) >= 2 and (f" {k} " in f" {want} " or f" {want} " in f" {k} ")]
    return (held + [bases[k] for k in difflib.get_close_matches(want, list(bases), n=3, cutoff=cutoff)])[:3]
