"""Errata on a datasheet's wargear options and unit composition: lists of lines.

    Death Korps of Krieg – Wargear Options      Change 2nd bullet to: '…'
    Dark Reapers – Unit Composition, 3rd line   Change to 'Every model is equipped with: …'
    Captain – Wargear Options                   Add to 1st bullet: '- 1 plasma pistol'
    Grey Hunters – Wargear Options              Add bullet: '- 1 Grey Hunter's bolt pistol can be …'
    Vypers – Unit Composition                   Change to '1 Vyper'.  (the line counting the models)
    Primaris Sword Brethren – Wargear Options   Change '1 master-crafted power weapon' to '1 power weapon'.

A datasheet keeps each bullet (or composition line) as one item, its sub-bullets as "- " lines
inside it. `list_target(e)` says whether an entry is about one of these lists and
`target.update(sheet, e)` gives the changed field, or raises ListEditError: entries on a
sub-bullet, or whose place or new wording cannot be read, are reported, not applied.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .datasheet import DatasheetEditError, changed_lines, sheet_section
from ..records import Datasheet, Erratum

_FIELDS = {"wargear options": "wargear_options", "unit composition": "composition"}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
             "last": -1, "final": -1}
_PLACE = re.compile(r"^(?:the\s+)?(?P<n>\d+)?(?:st|nd|rd|th)?\s*(?P<word>[a-z]+)?\s*(?P<unit>bullet|line)(?: point)?$", re.I)
# "Add 6th bullet to read:": a second instruction run on into an entry's wording.
_INSTRUCTION = re.compile(r"^(?:change|add|delete|remove|replace|insert)\b.{0,80}:$", re.I)
_SWAP = re.compile(r"^change\s+['‘’\"“”](?P<old>.+?)['‘’\"“”]\s+to\s+['‘’\"“”](?P<new>.+?)['‘’\"“”]\.?$", re.I)


class ListEditError(DatasheetEditError):
    """An entry on wargear options or unit composition that cannot be applied (the message says why)."""


@dataclass(frozen=True)
class ListTarget:
    """Which list an entry is about: the unit, the datasheet field, and any place the header names."""

    unit: str
    field: str
    place: str | None

    @property
    def label(self) -> str:
        return "wargear options" if self.field == "wargear_options" else "unit composition"

    def update(self, sheet: Datasheet, e: Erratum) -> tuple[dict, str, str]:
        """The datasheet field `e` changes, and the lines before and after (for its Change)."""
        items = tuple(getattr(sheet, self.field))
        new = edit_list(items, e, self)
        return {self.field: new}, *changed_lines(items, new)


def list_target(e: Erratum) -> ListTarget | None:
    """The list `e` is about ("Dark Reapers, Unit Composition, 3rd line"), else None."""
    found = sheet_section(e)
    if found is None or found[1] not in _FIELDS:
        return None
    unit, section, rest = found
    return ListTarget(unit, _FIELDS[section], rest)


def edit_list(items: tuple[str, ...], e: Erratum, target: ListTarget) -> tuple[str, ...]:
    """The list after `e` (see the module docstring). An item whose new wording differs from
    the printed one only in its apostrophes keeps the printed one."""
    printed = {_plain(i): i for i in items}
    return tuple(printed.get(_plain(i), i) for i in _edited(items, e, target))


def _edited(items: tuple[str, ...], e: Erratum, target: ListTarget) -> tuple[str, ...]:
    text = (e.text or "").strip()
    place = target.place or e.location
    # "… Wargear Options, 4th bullet" / "Change sub-bullets to:": the heading and the instruction
    # together name the place.
    if "sub-bullet" in f"{target.place or ''} {e.location or ''}".lower():
        raise ListEditError("changes a sub-bullet: reported, not applied")
    if any(_INSTRUCTION.match(line.strip()) for line in text.splitlines()):
        raise ListEditError("the entry's wording runs into another instruction")
    swap = _SWAP.match(text)
    if swap or e.old_text:
        # "Change '1 master-crafted power weapon' to '1 power weapon'." (the old words kept apart,
        # or the whole instruction as the text)
        old, new = (_plain(swap.group("old")), _plain(swap.group("new"))) if swap else (_plain(e.old_text), _plain(text))
        if not any(old in _plain(i) for i in items):
            if any(new in _plain(i) for i in items):
                return items  # the datasheet already reads so
            raise ListEditError(f"{old!r} is not in the {target.label}")
        return tuple(_plain(i).replace(old, new) if old in _plain(i) else i for i in items)
    if not text:
        raise ListEditError("the entry gives no new wording")
    n = _position(place, len(items), target) if place else None
    if e.operation in ("append", "add"):
        if n is None:  # new bullets at the end
            return items + tuple(_bullets(text))
        if not text.startswith("- "):
            raise ListEditError("the entry's addition to a bullet is not a sub-bullet")
        have = {_plain(line.strip()) for line in items[n].splitlines()}
        if all(_plain(line.strip()) in have for line in text.splitlines()):
            return items  # every sub-bullet is printed already
        return items[:n] + (f"{items[n]}\n{text}",) + items[n + 1:]
    if e.operation != "replace":
        raise ListEditError(f"cannot {e.operation} {target.label}")
    if n is not None:
        new = _one_item(text)
        if _counts_models(new) != _counts_models(items[n]):
            raise ListEditError(f"the {place} of the {target.label} is not the line the entry rewrites "
                                "(one counts models, the other does not)")
        return items[:n] + (new,) + items[n + 1:]
    if target.field == "composition":
        # "Change to '1 Vyper'": one line counting models replaces the line that counts them.
        if "\n" in text or not _counts_models(text):
            raise ListEditError("a new unit composition without a place is read only as its model count")
        counts = [k for k, i in enumerate(items) if _counts_models(i)]
        if len(counts) != 1:
            raise ListEditError("the unit composition has no single line counting its models")
        return items[:counts[0]] + (text,) + items[counts[0] + 1:]
    return tuple(_bullets(text))


def _counts_models(line: str) -> bool:
    """ "4-9 Dark Reapers", "1 Vyper": a composition line that counts models."""
    return bool(re.match(r"^\d", line))


def _plain(text: str) -> str:
    """Wording compared without regard to the apostrophe's shape (datasheets print ’, FAQs ')."""
    return text.replace("\u2019", "'").replace("\u2018", "'")


def _position(place: str, size: int, target: ListTarget) -> int:
    """The index an ordinal place names ("2nd bullet", "third line", "last bullet")."""
    m = _PLACE.match(place.strip())
    if not m:
        raise ListEditError(f"place not understood: {place!r}")
    number = int(m.group("n")) if m.group("n") else _ORDINALS.get((m.group("word") or "").lower())
    if number is None:
        raise ListEditError(f"place not understood: {place!r}")
    index = size - 1 if number == -1 else number - 1
    if not 0 <= index < size:
        raise ListEditError(f"there is no {place} in the {target.label} (it has {size})")
    return index


def _bullets(text: str) -> list[str]:
    """Bullet lines ("- …") as items. An FAQ prints bullets and sub-bullets alike, so a bullet
    counting wargear ("- 1 death spinner") under one that ends "one of the following:" is a
    sub-bullet of it; a line that is not a bullet goes on the item above it."""
    items: list[str] = []
    opens = False
    for line in text.splitlines():
        line = line.strip()
        bullet = line.startswith("- ")
        body = line[2:].strip() if bullet else line
        if items and (not bullet or (opens and re.match(r"^\d+\s", body))):
            items[-1] = f"{items[-1]}\n{'- ' + body if bullet else body}"
            continue
        items.append(body)
        opens = body.endswith(":")
    return items


def _one_item(text: str) -> str:
    """New wording for one bullet: its own "- " marker dropped; sub-bullet lines kept inside it."""
    return text[2:].strip() if text.startswith("- ") else text
