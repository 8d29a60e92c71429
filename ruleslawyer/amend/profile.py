"""Errata on a datasheet's characteristics ("Heldrake, Profile" with location "M": change to 12").

A profile entry names its unit, the part ("Profile", "Profile line", "Characteristics") and,
in its location, one characteristic: by its abbreviation ("M", "OC") or its name ("Move
characteristic", "Leadership characteristic"). `profile_target(e)` reads that;
`profile_update(sheet, e)` sets the characteristic in every profile row of the datasheet that
prints it (a unit's models share an entry that does not name one), or raises DatasheetEditError.
"""
from __future__ import annotations

import dataclasses

from .datasheet import DatasheetEditError, sheet_section
from ..names import fold
from ..records import Datasheet, Erratum

_PROFILE_PARTS = {"profile", "profiles", "profile line", "characteristics"}
# A characteristic's name, as errata write it, and the abbreviation profiles print.
_NAMES = {"move": "m", "toughness": "t", "save": "sv", "wounds": "w", "leadership": "ld",
          "objective control": "oc", "weapon skill": "ws", "ballistic skill": "bs", "strength": "s",
          "attacks": "a", "invulnerable save": "insv"}


def profile_target(e: Erratum) -> str | None:
    """The unit whose characteristics `e` changes ("Heldrake, Profile"), else None."""
    found = sheet_section(e)
    if found is None or found[1] not in _PROFILE_PARTS or found[2]:
        return None
    return found[0]


def characteristic(location: str | None) -> str | None:
    """The folded abbreviation a location names ("Move characteristic" -> "m", "OC" -> "oc")."""
    words = fold(location or "")
    if words.endswith(" characteristic"):
        words = words[: -len(" characteristic")]
    return _NAMES.get(words, words) or None


def profile_update(sheet: Datasheet, e: Erratum) -> tuple[dict, str, str]:
    """The datasheet fields `e` changes (its profiles), and the characteristic before and after."""
    wanted = characteristic(e.location)
    if e.operation != "replace" or not wanted or not (e.text or "").strip():
        raise DatasheetEditError("the entry names no characteristic and value to set")
    new_value = e.text.strip()
    profiles, before = [], []
    for profile in sheet.profiles:
        key = next((k for k in profile.stats if fold(k) == wanted), None)
        if key is None:
            profiles.append(profile)
            continue
        old = profile.stats[key]
        value = new_value
        if old.endswith('"') and value[-1:].isdigit():  # "5" for a Move printed 6"
            value += '"'
        before.append(old)
        profiles.append(dataclasses.replace(profile, stats={**profile.stats, key: value}))
    if not before:
        raise DatasheetEditError(f"no {e.location} characteristic on the datasheet")
    label = (e.location or "").strip()
    return {"profiles": tuple(profiles)}, f"{label} {', '.join(before)}", f"{label} {new_value}"
