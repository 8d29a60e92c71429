"""Rules updates of a newer edition for faction rules printed only in an older one.

A new edition keeps the older edition's codexes in use until they are replaced, and its faction
packs amend them: the World Eaters pack for 11th edition changes "Butcher Lord Enhancement",
which the store holds only as a 10th edition printing. Amending the 10th edition record would
label the new wording 10th edition; leaving it would show wording that is no longer current. So
the update makes a new printing of the record in its own edition (a copy, printed in the update's
document, which then receives the update); the older printing is kept as it was, and the current
edition's printing wins where the current answer is asked for.

Only faction records are carried: the text kinds (rules, stratagems, enhancements, detachment
rules), and datasheets for updates of their profile or keywords ("Heldrake, Profile", location
"M"; "Heldrake, Keywords"), and only from the edition just before the update's, to the faction the update's document
names: core rules are replaced by each edition's own book, never carried.
"""
from __future__ import annotations

import dataclasses
import re

from ..names import fold
from ..records import Datasheet, Enhancement, Erratum, Record, Stratagem

# The last words of a target that say what kind of record it names ("Butcher Lord Enhancement").
_KIND_WORDS = re.compile(r"^(?P<name>.+?)\s+(?P<kind>enhancement|stratagem|detachment rule|detachment ability|"
                         r"army rule|ability)$", re.I)
_KINDS = {"enhancement": "enhancement", "stratagem": "stratagem", "detachment rule": "detachment_rule",
          "detachment ability": "detachment_rule", "army rule": "rule", "ability": None}
# The labelled sections of a stratagem, as its cards print them.
_SECTIONS = re.compile(r"(?:^|(?<=\s))(WHEN|TARGET|EFFECT|RESTRICTIONS?)\s*:\s*")
_FIELDS = {"WHEN": "when", "TARGET": "target", "EFFECT": "effect", "RESTRICTION": "restrictions",
           "RESTRICTIONS": "restrictions"}


def kind_named(name: str) -> tuple[str, str | None] | None:
    """A target name without the kind word it ends with, and that kind (None for "ability"):
    ("Butcher Lord", "enhancement"); None when the name ends with no kind word."""
    m = _KIND_WORDS.match(name.strip())
    return (m.group("name"), _KINDS[m.group("kind").lower()]) if m else None


def carried_printing(e: Erratum, older: list[Record]) -> Record | None:
    """The printing of one of `older` (records of the update's name in earlier editions) in the
    update's edition, not yet amended: a copy printed in the update's document. None when the
    records are not one faction record of the edition just before, of the document's faction."""
    if e.edition is None:
        return None
    document = fold(" ".join(filter(None, (e.document, e.faction_heading))))
    fits = [r for r in older if r.edition == e.edition - 1 and getattr(r, "faction", None)
            and fold(r.faction) in document]
    if len({(r.kind, fold(r.faction), fold(getattr(r, "group", None) or "")) for r in fits}) != 1:
        return None
    record = fits[0]
    updates = {"edition": e.edition, "source": e.source, "changes": ()}
    if isinstance(record, (Enhancement, Datasheet)):
        updates["points"] = None  # the update prints wording, not the new edition's cost
    return dataclasses.replace(record, **updates)


def stratagem_sections(text: str) -> dict[str, str] | None:
    """A stratagem's wording split by its labels ("WHEN: … TARGET: … EFFECT: …") into its
    fields; None when the wording is one section's, unlabelled."""
    marks = list(_SECTIONS.finditer(text))
    if not marks or (len(marks) == 1 and text[:marks[0].start()].strip()):
        return None
    out = {}
    for m, nxt in zip(marks, marks[1:] + [None]):
        out[_FIELDS[m.group(1).upper()]] = text[m.end():nxt.start() if nxt else len(text)].strip()
    return out


def enhancement_parts(record: Record, text: str) -> dict[str, str]:
    """An enhancement's new wording as its fields: a first sentence that restricts the bearer
    ("WORLD EATERS INFANTRY model only.") is its restriction, where the record keeps one apart."""
    if isinstance(record, Enhancement) and record.restriction:
        m = re.match(r"\s*([^.]*\bonly\.)\s*(.*)$", text, re.S)
        if m:
            return {"restriction": m.group(1).strip(), "text": m.group(2).strip()}
    return {"text": text}


def whole_stratagem(record: Record, text: str) -> dict[str, str] | None:
    """The fields a whole new stratagem wording replaces (None: not a stratagem's labelled card)."""
    return stratagem_sections(text) if isinstance(record, Stratagem) else None
