"""Record -> index document: which words of a record go into which field of the index.

One document per record (errata applied). The fields a query can filter on (kind, faction,
group, edition, cp, phase, keyword, ability, number) and the text fields it is scored against (name, weapons,
keywords, section, text, original wording) are filled here; `engine.py` owns the schema.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterable

from . import analysis
from ..records import (Datasheet, DetachmentRule, Enhancement, Erratum, Faq, Note, Points, Record, RefTable, Rule,
                       Stratagem, record_name)
from ..records_json import to_dict

# The characteristic abbreviations printed on a profile, spelled out so "toughness" finds them.
STAT_NAMES = {
    "M": "Move", "WS": "Weapon Skill", "BS": "Ballistic Skill", "S": "Strength", "T": "Toughness",
    "W": "Wounds", "A": "Attacks", "Ld": "Leadership", "Sv": "Save", "OC": "Objective Control",
}

_PHASE_RE = re.compile(r"\b(command|movement|moving|psychic|shooting|charge|assault|fight|morale)\s+phases?\b"
                       r"|\b(any)\s+phase\b", re.I)
_PHASE_ALIASES = {"moving": ("movement",), "assault": ("charge", "fight")}


def phases_in(texts: Iterable[str | None]) -> list[str]:
    """Battle-round phases named in `texts` ("your Shooting phase" -> "shooting"), in order, once."""
    found: dict[str, None] = {}
    for text in texts:
        for m in _PHASE_RE.finditer(text or ""):
            word = (m.group(1) or m.group(2)).lower()
            for phase in _PHASE_ALIASES.get(word, (word,)):
                found[phase] = None
    return list(found)


def record_phases(record: Record) -> list[str]:
    """The phases a record is used in: a stratagem's WHEN, a rule's headings, else its text."""
    if isinstance(record, Stratagem):
        return phases_in([record.when]) or phases_in([record.effect])
    if isinstance(record, Rule):
        return phases_in([*record.section, record.name]) or phases_in([record.text])
    if isinstance(record, (Enhancement, DetachmentRule)):
        return phases_in([record.text])
    return []


def _profile_text(record: Datasheet) -> list[str]:
    lines = []
    for p in record.profiles:
        stats = " ".join(f"{STAT_NAMES.get(k, k)} {v}" for k, v in p.stats.items() if v)
        lines.append(f"{p.name}: {stats}".strip())
    if record.invulnerable_save:
        lines.append(f"{record.invulnerable_save} invulnerable save")
    return lines


def _weapon_lines(record: Datasheet) -> list[str]:
    out = []
    for w in record.weapons:
        parts = [w.name, w.range, w.type, w.A and f"A {w.A}", w.skill and f"skill {w.skill}",
                 w.S and f"S {w.S}", w.AP and f"AP {w.AP}", w.D and f"D {w.D}", *w.abilities]
        out.append(" ".join(p for p in parts if p))
    return out


def price_text(record: Record) -> str:
    """A unit's or detachment's price as one passage ("Points: 10 models: 90 pts; ..."), so a
    question about its points finds it and shows the price; "" when the record has none."""
    from ..library.points import costs_text, points_text

    if isinstance(record, Points):
        text = points_text(record)
        if record.target_kind == "detachment":
            text = text.split(": ", 1)[1] if ": " in text else ""
    elif isinstance(record, Datasheet) and record.points:
        text = costs_text(record.points)
    else:
        return ""
    return f"Points: {text}" if text else ""


def body_parts(record: Record) -> list[str]:
    """The record's rules text as separate passages, in reading order (the snippet source)."""
    if isinstance(record, Points):
        return [price_text(record)]
    if isinstance(record, Datasheet):
        return [*_profile_text(record), price_text(record),
                *(f"{a.name}: {a.text}" if a.text else a.name for a in record.abilities),
                *_weapon_lines(record), *record.wargear_options, *record.composition,
                record.leader.text if record.leader else "", record.damaged or ""]
    if isinstance(record, Stratagem):
        return [record.category or "", record.when and f"WHEN: {record.when}",
                record.target and f"TARGET: {record.target}", record.effect and f"EFFECT: {record.effect}",
                record.restrictions and f"RESTRICTIONS: {record.restrictions}"]
    if isinstance(record, Enhancement):
        return [record.restriction or "", record.text]
    if isinstance(record, (DetachmentRule, Note)):
        return [record.text]
    if isinstance(record, Rule):
        return [record.text, *record.summary, record.footnote or ""]
    if isinstance(record, Erratum):
        where = ", ".join(p for p in (record.document, record.page and f"page {record.page}", record.location) if p)
        return [where, record.title or "", record.text, *record.bullets, record.designers_note or ""]
    if isinstance(record, Faq):
        return [record.question, record.answer]
    if isinstance(record, RefTable):
        head = " ".join(p for p in (record.row_header, record.column_header) if p)
        rows = [" ".join(p for p in (r.label, *r.cells) if p) for r in record.rows]
        return [head, " ".join(record.columns), *rows]
    return []


def record_keywords(record: Record) -> list[str]:
    """What a `keyword:` filter matches: a unit's keywords and faction keywords, nothing else
    (weapon abilities such as [ANTI-FLY 4+] are abilities, not keywords)."""
    if isinstance(record, Datasheet):
        return [*record.faction_keywords, *record.keywords]
    return []


def record_abilities(record: Record) -> list[str]:
    """What an `ability:` filter matches: the names of a unit's abilities and of its weapons'
    abilities ("Deep Strike", "anti-fly 2+")."""
    if isinstance(record, Datasheet):
        return list(dict.fromkeys([*(a.name for a in record.abilities),
                                   *(a for w in record.weapons for a in w.abilities)]))
    return []


def snippet_parts(record: Record) -> list[str]:
    """The passages a result's snippet is cut from: an FAQ's answer and an erratum's new
    wording (the name already shows the question or the target), else the rules text."""
    if isinstance(record, Faq):
        return [f"A: {record.answer}" if record.answer else record.question]
    if isinstance(record, Erratum):
        new = [record.text, *record.bullets]
        if any(p and p.strip() for p in new):
            return [p for p in new if p] + ([f"Designer's note: {record.designers_note}"] if record.designers_note else [])
        return body_parts(record)
    return body_parts(record)


def _text(parts: Iterable[str | None]) -> str:
    return "\n".join(p.strip() for p in parts if p and p.strip())


def word_pairs(texts: Iterable[str]) -> str:
    """Adjacent index-term pairs ("feel|no no|pain") of each passage: phrase queries match
    these as plain terms, which is far faster than Whoosh's position-checking Phrase."""
    out = []
    for text in texts:
        for passage in text.split("\n"):
            t = analysis.terms(passage)
            out.extend(f"{a}|{b}" for a, b in zip(t, t[1:]))
    return " ".join(out)


# A glossary line of a rules text: "Invulnerable Save (InSv): Presented as ...". The term and
# its abbreviation are what the rule defines, so they count as its tags.
_DEFINITION_RE = re.compile(r"^([A-Z][\w’'-]*(?: [A-Za-z][\w’'-]*){0,4}) \(([A-Za-z]{1,5})\):", re.M)


def defined_terms(record: Record) -> list[str]:
    """The terms a rule defines in glossary lines ("Invulnerable Save (InSv): ..." gives
    "Invulnerable Save" and "InSv"), so a search for the term finds its definition."""
    if not isinstance(record, Rule):
        return []
    return [part for m in _DEFINITION_RE.finditer(record.text or "") for part in m.groups()]


def document_key(record: Record) -> str:
    """The document an FAQ entry or erratum belongs to, as `amend.apply` tells versions of one
    document apart (its folded name and edition): "world eaters|11"; "" for other kinds."""
    if not isinstance(record, (Faq, Erratum)) or not record.document:
        return ""
    return f"{analysis.fold_name(record.document)}|{record.edition or ''}"


def version_column(record: Record) -> str:
    """An FAQ entry's or erratum's version as "<order>|<version>": the order a string that sorts
    as `amend.apply.version_key` sorts versions ("1.10" after "1.9"), so a search compares
    versions without loading the amend code; "" for other kinds or no version."""
    from ..amend.apply import version_key

    version = getattr(record, "version", None) if isinstance(record, (Faq, Erratum)) else None
    if not version:
        return ""
    order = ".".join(f"{number + 1:06d}{letters}" for number, letters in version_key(version))
    return f"{order}|{version}"


def make_document(record: Record, date: str | None = None) -> dict[str, Any]:
    """The index document of one (amended) record, as Whoosh's `add_document` takes it;
    `data` keeps the record for results, `date` is its publication date when known."""
    name = record_name(record)
    group = getattr(record, "group", None)
    if isinstance(record, Erratum):
        group = record.document
    section = " / ".join(getattr(record, "section", ()) or ())
    body = _text(body_parts(record))
    original = _text(c.old_text for c in getattr(record, "changes", ()))
    fluff = getattr(record, "fluff", None)
    faction = getattr(record, "faction", None) or ""
    weapons = _text(w.name for w in record.weapons) if isinstance(record, Datasheet) else ""
    keywords = "\n".join(record_keywords(record))
    abilities = "\n".join(record_abilities(record))
    weapon_abilities = [a for w in record.weapons for a in w.abilities if len(a) < 30] if isinstance(record, Datasheet) else []
    category = getattr(record, "category", None) if isinstance(record, Stratagem) else None
    cp = getattr(record, "cp", None)
    number = getattr(record, "number", None)
    tags = _text([faction, group, keywords, *weapon_abilities, category, weapons, section, *defined_terms(record)])
    text = _text([body, original, fluff])
    snippet = body if isinstance(record, Datasheet) else _text(snippet_parts(record))
    return {
        "kind": record.kind,
        "name": name,
        # An erratum or FAQ is named after the rule it changes: the rule keeps the exact-name bonus.
        "name_exact": "" if isinstance(record, (Erratum, Faq)) else analysis.fold_name(name),
        "number": number or "",
        "document": document_key(record),
        "version": version_column(record),
        "date": date or "",
        "faction": faction,
        "group": group or "",
        "edition": str(record.edition) if record.edition is not None else "none",
        "cp": str(cp) if cp is not None else "",
        "phase": " ".join(record_phases(record)),
        "keywords": keywords,
        "abilities": abilities,
        "weapons": weapons,
        "section": section,
        "tags": tags,
        "text": text,
        "snippet": snippet,
        "pairs": word_pairs([name, text, tags]),
        "words": " ".join(sorted({w for part in (name, text, tags) for w in analysis.words(part) if w.isalpha()})),
        "data": json.dumps(to_dict(record, include_changes=True), ensure_ascii=False),
    }
