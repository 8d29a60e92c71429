"""Errata on a datasheet's weapon profiles (the index-card errata's most common entry).

    Wave Serpent – Ranged Weapons, twin starcannon    Change Attacks to '2'.
    Dominion Squad – Ranged Weapons, boltgun          Add '[ASSAULT, RAPID FIRE 1]'.
    (an entry parsed as location "Attacks", text "2" reads as "Change Attacks to '2'")
    Burna Boyz – Ranged Weapons, kustom mega-blasta   Remove the [BLAST] ability.
    Fortis Kill Team – Ranged Weapons, storm bolter   Delete this weapon profile.
    Raptors – Melee Weapons                           Add close combat weapon profile: (a profile row)

`weapon_target(e)` says whether an erratum names a unit's ranged or melee weapons.
`edit_weapons(weapons, e, target)` returns the new weapon tuple, or raises WeaponEditError with
the reason it cannot be applied; `target.update(sheet, e)` wraps it for `apply_to_sheet`. `amend.py` makes the
amended copy and its Change.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from .datasheet import DatasheetEditError, changed_lines, sheet_section
from ..names import fold
from ..records import Datasheet, Erratum, Weapon

_SECTIONS = {"ranged weapons": False, "melee weapons": True}
# "Change Attacks to '3', Strength to '5' and AP to '-2'."
# A value ends at a quote followed by punctuation or the end, so that '36"' keeps its inch mark.
_STAT = re.compile(r"\b(Attacks|Ballistic Skill|Weapon Skill|BS|WS|Strength|Armour Penetration|AP|Damage|Range)\s+"
                   r"to\s+(?:['‘’\"“”](.+?)['‘’\"“”](?=[\s.,;]|$)|([^\s,;'‘’\"“”]+?)(?=[.,;]?(?:\s|$)))", re.I)
_FIELDS = {"attacks": "A", "ballistic skill": "skill", "weapon skill": "skill", "bs": "skill", "ws": "skill",
           "strength": "S", "armour penetration": "AP", "ap": "AP", "damage": "D", "range": "range"}
# "Change '[ANTI-INFANTRY 4+]' to '[ANTI-INFANTRY 3+]'."
_KEYWORD_SWAP = re.compile(r"^change\s+['‘’\"“”]?\[([^\]]+)\]['‘’\"“”]?\s+to\s+['‘’\"“”]?\[([^\]]+)\]", re.I)
_BRACKETED = re.compile(r"\[([^\]]+)\]")
_PROFILE_HEAD = ("RANGE", "A", "BS", "WS", "S", "AP", "D")


class WeaponEditError(DatasheetEditError):
    """A weapon entry that cannot be applied to the datasheet (the message says why)."""


@dataclass(frozen=True)
class WeaponTarget:
    """Which weapons an entry is about: the unit, melee or ranged, and the weapon (None: the section)."""

    unit: str
    melee: bool
    weapon: str | None

    @property
    def label(self) -> str:
        section = "melee weapons" if self.melee else "ranged weapons"
        return f"{section}: {self.weapon}" if self.weapon else section

    def update(self, sheet: Datasheet, e: Erratum) -> tuple[dict, str, str]:
        """The datasheet fields `e` changes, and the profiles it drops and adds (for its Change)."""
        weapons = edit_weapons(sheet.weapons, e, self)
        return {"weapons": weapons}, *changed_lines(sheet.weapons, weapons, describe)


def weapon_target(e: Erratum) -> WeaponTarget | None:
    """The weapons `e` is about ("Wave Serpent, Ranged Weapons, twin starcannon"), else None."""
    found = sheet_section(e)
    if found is None or found[1] not in _SECTIONS:
        return None
    unit, section, rest = found
    return WeaponTarget(unit, _SECTIONS[section], rest)


def edit_weapons(weapons: tuple[Weapon, ...], e: Erratum, target: WeaponTarget) -> tuple[Weapon, ...]:
    """The weapons after `e` (see the module docstring for the entries understood)."""
    text = (e.text or "").strip()
    if e.operation in ("add", "replace") and "\t" in text:
        # A profile the datasheet already has under that name is replaced where it stands, not doubled.
        lower = any(w.abilities for w in weapons) and all(a == a.lower() for w in weapons for a in w.abilities)
        new = {fold(w.name): w for w in _profiles(text, target.melee, lower, e.title)}
        kept = tuple(new.pop(fold(w.name)) if _is_melee(w) == target.melee and fold(w.name) in new else w
                     for w in weapons)
        return kept + tuple(new.values())
    name = target.weapon
    if name is None and e.operation == "delete" and (e.location or "").lower().endswith(" profile"):
        name = e.location[:-len(" profile")]
    if name is None:
        raise WeaponEditError(f"the entry names no weapon of the {target.label}")
    chosen = _matching(weapons, name, target.melee)
    if e.operation == "delete" and not _BRACKETED.search(f"{e.location or ''} {text}"):
        return tuple(w for w in weapons if w not in chosen)
    edit = _edit_of(e, text)
    return tuple(edit(w) if w in chosen else w for w in weapons)


def describe(weapon: Weapon) -> str:
    """One line for a profile, as a change log shows it:
    `Twin starcannon: Range 36", A 2, BS 3+, S 8, AP -3, D 2 [twin-linked]`."""
    skill = "WS" if _is_melee(weapon) else "BS"
    stats = ", ".join(f"{label} {value}" for label, value in (("Range", weapon.range), ("A", weapon.A),
                                                             (skill, weapon.skill), ("S", weapon.S),
                                                             ("AP", weapon.AP), ("D", weapon.D)) if value)
    keywords = f" [{', '.join(weapon.abilities)}]" if weapon.abilities else ""
    return f"{weapon.name}: {stats}{keywords}"


def _matching(weapons: tuple[Weapon, ...], name: str, melee: bool) -> list[Weapon]:
    """The profiles called `name` in the right section: the exact name, else every profile of
    that weapon ("plasma incinerator" -> "Plasma incinerator - standard" and "- supercharge")."""
    section = [w for w in weapons if _is_melee(w) == melee]
    want = fold(name)
    found = [w for w in section if fold(w.name) == want] or \
        [w for w in section if fold(w.name).startswith(want + " ")]
    if not found:
        raise WeaponEditError(f"no weapon named {name!r} on the datasheet")
    return found


def _is_melee(weapon: Weapon) -> bool:
    """A melee profile: "Melee" as its range (10th edition) or its type (9th), as the site sorts them."""
    return "melee" in ((weapon.range or "").strip().lower(), (weapon.type or "").strip().lower())


def _edit_of(e: Erratum, text: str):
    """A function making one weapon's new profile from the entry's instruction."""
    stats = _STAT.findall(text)
    if not stats and e.location and e.operation == "replace":
        # "Change AP to '-2'." parsed as location "AP", text "-2" ("the weapon's Damage
        # characteristic" names the Damage column).
        column = re.sub(r"^(?:the\s+)?(?:weapon['’]s\s+)?|\s+characteristic$", "", e.location.strip(), flags=re.I)
        stats = _STAT.findall(f"{column} to '{text}'")
    if stats:
        updates = {_FIELDS[label.lower()]: (quoted or bare).strip() for label, quoted, bare in stats}
        return lambda w: dataclasses.replace(w, **updates)
    swap = _KEYWORD_SWAP.match(text if e.old_text is None else f"Change '{e.old_text}' to '{text}'")
    if swap:
        old, new = swap.group(1).strip(), swap.group(2).strip()

        def swapped(w: Weapon) -> Weapon:
            if any(fold(a) == fold(new) for a in w.abilities):
                return w  # the datasheet already reads so
            return dataclasses.replace(w, abilities=tuple(_styled(new, w) if fold(a) == fold(old) else a
                                                          for a in _require(w, [old])))
        return swapped
    named = [k.strip() for group in _BRACKETED.findall(e.location or text if e.operation == "delete" else text)
             for k in group.split(",") if k.strip()]
    if not named:
        raise WeaponEditError("the entry's instruction is not understood for a weapon profile")
    if e.operation == "delete":  # a keyword already gone leaves the profile as it is
        gone = {fold(k) for k in named}
        return lambda w: dataclasses.replace(w, abilities=tuple(a for a in w.abilities if fold(a) not in gone))
    if e.operation in ("append", "add"):
        def add(w: Weapon) -> Weapon:
            have = {fold(a) for a in w.abilities}
            return dataclasses.replace(w, abilities=w.abilities + tuple(_styled(k, w) for k in named
                                                                        if fold(k) not in have))
        return add
    raise WeaponEditError(f"cannot {e.operation} a weapon's keywords")


def _require(weapon: Weapon, keywords: list[str]) -> tuple[str, ...]:
    have = {fold(a) for a in weapon.abilities}
    missing = [k for k in keywords if fold(k) not in have]
    if missing:
        raise WeaponEditError(f"{weapon.name} has no [{', '.join(missing).upper()}]")
    return weapon.abilities


def _styled(keyword: str, weapon: Weapon) -> str:
    """A new weapon keyword in the case the datasheet writes them in (capitals unless it uses lower case)."""
    lower = weapon.abilities and all(a == a.lower() for a in weapon.abilities)
    return keyword.lower() if lower else keyword.upper()


def _profiles(text: str, melee: bool, lower: bool = False, title: str | None = None) -> list[Weapon]:
    """Weapon profiles from a tab-separated "RANGE A BS S AP D" block: a name, then six values.

    `lower`: the datasheet writes weapon keywords in lower case, so the new ones are too.
    `title`: the profile's name when the block prints none ("Add close combat weapon profile:"
    over six values)."""
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("\t")]
        if not any(cells) or all(c.upper() in _PROFILE_HEAD for c in cells if c):
            continue
        if len(cells) == 6 and title:
            cells = [title, *cells]
        if len(cells) != 7 or not cells[0]:
            raise WeaponEditError("the new profile is not a name and six characteristics")
        name, keywords = _name_and_keywords(cells[0])
        range_, a, skill, s, ap, d = cells[1:]
        if melee != (range_.lower() == "melee"):
            raise WeaponEditError(f"the new profile {name!r} is in the wrong section")
        if lower:
            keywords = tuple(k.lower() for k in keywords)
        out.append(Weapon(name=name, range=range_, A=a, skill=skill, S=s, AP=ap, D=d, abilities=keywords))
    if not out:
        raise WeaponEditError("the entry gives no profile")
    return out


def _name_and_keywords(cell: str) -> tuple[str, tuple[str, ...]]:
    """ "Twin lightning claws [TWIN-LINKED]" -> ("Twin lightning claws", ("TWIN-LINKED",))."""
    keywords = tuple(k.strip() for group in _BRACKETED.findall(cell) for k in group.split(",") if k.strip())
    return _BRACKETED.sub("", cell).strip(), keywords
