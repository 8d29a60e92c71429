"""Errata aimed at a datasheet rather than rules text.

`keyword_units(e)` names the units whose keywords section an erratum targets ("Kasrkin,
Keywords section: add 'Regiment'"; several units before one "Keywords Section") and `edit_keywords(keywords, e)` returns the new keyword
tuple, or raises KeywordEditError with the reason it cannot be applied; `datasheet_part(e)`
recognises entries on other parts of a datasheet (invulnerable save, transport, leader), which
are reported, not applied. `apply_to_sheet` applies an entry on a keywords section or (with
`amend_weapons`) a weapons section to every datasheet of the unit's name and edition it fits,
as amended copies carrying a Change.
"""
from __future__ import annotations

import dataclasses
import re

from .outcome import Outcome, already_applied, change_for
from ..names import fold
from ..records import Datasheet, Erratum, Record, record_name

_KEYWORD_PARTS = {"keywords", "keywords section", "keyword", "keywords line"}
# A keyword is a few words of letters ("REGIMENT", "BATTLE SISTER", "T'AU EMPIRE").
_KEYWORD = re.compile(r"[A-Za-z][A-Za-z'’\- ]{0,38}")
_QUOTED = re.compile(r"['‘’\"“”]([^'‘’\"“”]+)['‘’\"“”]")


# Parts of a datasheet that are not rules text: an entry naming one never targets a rule.
_DATASHEET_PARTS = {"invulnerable save", "wargear options", "unit composition", "ranged weapons", "melee weapons",
                    "transport", "transport section", "leader", "leader section", "damaged", "damaged section",
                    "faction keywords", "points", "profile", "profiles", "characteristics", "wargear",
                    "reverse of card", "profile line"}


class DatasheetEditError(ValueError):
    """An erratum on a part of a datasheet that cannot be applied (the message says why)."""


class KeywordEditError(DatasheetEditError):
    """An erratum on a keywords section whose new keywords cannot be read."""


def keyword_units(e: Erratum) -> list[str]:
    """The units whose keywords sections `e` targets: one ("Castellan, Keywords section") or
    several ("Chaos Rhino, Khorne Lord of Skulls, Keywords Section"); [] for another target."""
    parts = [p.strip() for p in (e.target or "").split(",") if p.strip()]
    if len(parts) >= 2 and parts[-1].lower() in _KEYWORD_PARTS:
        return parts[:-1]
    return []


def sheet_section(e: Erratum) -> tuple[str, str, str | None] | None:
    """(unit, section in lower case, the rest or None) of a "Unit, Section, rest…" target
    ("Wave Serpent", "ranged weapons", "twin starcannon"), else None."""
    parts = [p.strip() for p in (e.target or "").split(",")]
    if len(parts) < 2 or not parts[0]:
        return None
    return parts[0], parts[1].lower(), ", ".join(p for p in parts[2:] if p) or None


def datasheet_part(e: Erratum) -> tuple[str, str] | None:
    """(unit, part) when the target names a part of a datasheet other than its abilities and
    keywords ("Knight-Centura, Wargear Options", "Chaos Terminator Squad, Invulnerable Save"):
    never a rule of that name, whether or not the part's entries can be applied."""
    found = sheet_section(e)
    if found is None or found[1] not in _DATASHEET_PARTS:
        return None
    return found[0], found[1]


def edit_keywords(keywords: tuple[str, ...], e: Erratum) -> tuple[str, ...]:
    """The keywords after `e`: append adds the entry's keywords, delete removes the quoted (or
    listed) ones, replace sets the list. Names compare case-insensitively; new keywords are
    written in capitals, as datasheets print them."""
    operation = "append" if e.operation == "add" else e.operation
    if operation == "delete":
        named = _QUOTED.findall(e.location or "") or _keyword_list(e.text)
        gone = {fold(k) for k in named}
        missing = gone - {fold(k) for k in keywords}
        if missing:
            raise KeywordEditError(f"keyword not on the datasheet: {', '.join(sorted(missing)).upper()}")
        return tuple(k for k in keywords if fold(k) not in gone)
    new = _keyword_list(e.text)
    if operation == "append":
        have = {fold(k) for k in keywords}
        return keywords + tuple(k for k in new if fold(k) not in have)
    if operation == "replace":
        return new
    raise KeywordEditError(f"cannot {operation} a keywords section")


def keywords_update(sheet: Datasheet, e: Erratum) -> tuple[dict, str, str]:
    """The datasheet fields `e` changes, and the keywords before and after (for its Change)."""
    keywords = edit_keywords(sheet.keywords, e)
    return {"keywords": keywords}, ", ".join(sheet.keywords), ", ".join(keywords)


def changed_lines(before, after, show=str) -> tuple[str, str]:
    """What a change log shows of an edited list: the items dropped and the items added, one a line."""
    return "\n".join(show(x) for x in before if x not in after), "\n".join(show(x) for x in after if x not in before)


def _keyword_list(text: str | None) -> tuple[str, ...]:
    """Keywords from an entry's text: one per line or comma-separated, each a few words.

    Anything else (a sentence, a weapon profile: an entry whose text ran on into the next
    section of the FAQ) is refused rather than read as keywords.
    """
    items = [p.strip().strip(".'‘’\"“”").strip() for line in (text or "").splitlines() for p in line.split(",")]
    items = [i for i in items if i]
    if not items or len(items) > 6 or not all(_KEYWORD.fullmatch(i) and len(i.split()) <= 4 for i in items):
        raise KeywordEditError("the entry's text is not a list of keywords")
    return tuple(i.upper() for i in items)


def apply_to_sheet(e: Erratum, found: list[int], part: str, current: list[Record | None], edit) -> Outcome | None:
    """An entry on one part of a unit's datasheet, applied to the datasheets at positions
    `found` of `current` (those of its name and edition); None when there are none.

    `edit(sheet)` gives (the changed fields, old text, new text) or raises DatasheetEditError.
    """
    if not found:
        return None
    # Several datasheets may share the name (two sources of one unit, its listing under two
    # factions, or an entry of no known edition): the entry applies to every one it fits, and
    # is refused with the first one's reason when it fits none.
    outcomes = [_sheet_outcome(e, i, part, current, edit) for i in found]
    applied = [o for o in outcomes if o.applied]
    if not applied:
        return outcomes[0]
    changed = [o for o in applied if o.detail is None]
    if len(changed) > 1:
        return dataclasses.replace(changed[0], detail=f"{len(changed)} datasheets of that name")
    return (changed or applied)[0]


def _sheet_outcome(e: Erratum, i: int, part: str, current: list[Record | None], edit) -> Outcome:
    """`e` applied to the datasheet at `i` (see `apply_to_sheet`)."""
    sheet = current[i]
    name = f"{record_name(sheet)}: {part}"
    if already_applied(sheet, e):
        return Outcome(e, True, name, None, sheet.kind, "already applied")
    try:
        updates, old, new = edit(sheet)
    except DatasheetEditError as exc:
        return Outcome(e, False, name, str(exc), sheet.kind)
    if all(getattr(sheet, k) == v for k, v in updates.items()):  # a current printing already carries the change
        return Outcome(e, True, name, None, sheet.kind, "the datasheet already reads so")
    change = change_for(e, old, new, location=part)
    current[i] = dataclasses.replace(sheet, **updates, changes=sheet.changes + (change,))
    return Outcome(e, True, name, None, sheet.kind)
