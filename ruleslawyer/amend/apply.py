"""Apply FAQ errata to copies of the records they amend, and say what happened to each entry.

`apply_errata(records)` returns an `ApplyResult`: `records` are the current versions (amended
copies in place of the originals, new rules for "add the following" entries, everything else
unchanged) and `outcomes` has one `Outcome` per erratum: applied (to which record, where) or
not, with the reason. The originals are never modified; each amended copy carries a `Change`
per entry (document, version, page, old and new wording).

Targets are found among the rules, detachment rules, enhancements and datasheet abilities of the
erratum's edition, by name with tolerance for case, punctuation and plurals ("LOOK OUT, SIR" =
"Look Out, Sir"); a comma path ("Rare Rules, Resurrected Models", "Sporocyst, Abilities, Spawn
Spore Mines") is tried whole, then by its last part, then as datasheet + ability. A sentence
change whose target name is not in the corpus may still land where its old wording is printed
(a rules summary titles things differently from the core book). Entries on a unit's keywords,
weapon profiles ("Wave Serpent – Ranged Weapons, twin starcannon: Change Attacks to '2'"),
wargear options or unit composition edit its datasheet (amend_datasheet.py, amend_weapons.py,
amend_lists.py); entries on its other parts are reported, not applied.

Applying is idempotent and order-independent: of several versions of one FAQ document only the
newest applies (the others are "superseded"), and an entry seen twice applies once.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Callable

from .datasheet import apply_to_sheet, datasheet_part, keyword_units, keywords_update
from .outcome import ApplyResult, Outcome, already_applied, change_for, erratum_id, joined
from .lists import list_target
from .weapons import weapon_target
from .targets import TargetIndex
from .versions import document_of, drop_superseded_and_repeated, newest_versions, superseded, version_key
from .carried import carried_printing, enhancement_parts, kind_named, whole_stratagem
from .profile import profile_target, profile_update
from .text import LocationError, edit, parse_location, split_place, swap
from .wording import by_wording
from ..names import fold, name_key, respelled
from ..records import Ability, Erratum, Record, Rule, Stratagem, record_name

# Comma parts of a target that name a part of a card or book, not a rule ("rules text").
_GENERIC_PARTS = {"rules text", "abilities", "ability", "unit description", "keywords", "keywords section",
                  "core abilities", "faction abilities", "wargear abilities", "stratagems", "stratagems card",
                  "effect section", "target section", "when section", "restrictions section", "rules"}
# "Target and Effect Sections": a whole new wording of several labelled sections of a stratagem.
_SECTIONS_PART = re.compile(r"^(?:(?:when|target|effect|restrictions?)(?:\s*,\s*|\s+and\s+|\s*&\s*))+"
                            r"(?:when|target|effect|restrictions?)\s+sections?$", re.I)
_STRATAGEM_FIELDS = {"effect section": "effect", "target section": "target", "when section": "when",
                     "restrictions section": "restrictions"}


def apply_errata(records: list[Record], *, dated: Callable[[Record], str | None] | None = None) -> ApplyResult:
    """The records with every applicable erratum applied to copies, and one Outcome per erratum.

    `dated(record)` gives the publication date of the file a record was printed in. An erratum
    applies only to printings older than its own document: a printing dated after it already
    reflects it, and the outcome says so.
    """
    errata = [r for r in records if isinstance(r, Erratum)]
    current: list[Record | None] = list(records)
    outcomes: list[Outcome] = []
    live, skipped = _select(errata)
    outcomes.extend(skipped)
    index = TargetIndex(current)
    for e in live:
        index.start(e, dated)
        outcome = _apply_one(e, current, index)
        if not outcome.applied and index.skipped_newer:
            outcome = _newer_printing(e, outcome, index.skipped_newer[0], dated)
        outcomes.append(outcome)
    withdrawn = drop_superseded_and_repeated(current, newest_versions(records))
    return ApplyResult(records=[r for r in current if r is not None], outcomes=_in_order(errata, outcomes),
                       superseded=withdrawn)


def _newer_printing(e: Erratum, outcome: Outcome, i_record: Record, dated) -> Outcome:
    """The outcome of an entry whose only targets were printed after its document."""
    return Outcome(e, False, outcome.target_name or record_name(i_record),
                   f"not applied: {i_record.source.file} (dated {dated(i_record)}) is newer than "
                   f"{e.document or e.source.file} ({dated(e)})", i_record.kind, "newer printing")


def _in_order(errata: list[Erratum], outcomes: list[Outcome]) -> list[Outcome]:
    position = {id(e): n for n, e in enumerate(errata)}
    return sorted(outcomes, key=lambda o: position.get(id(o.erratum), 0))


def _select(errata: list[Erratum]) -> tuple[list[Erratum], list[Outcome]]:
    """The entries to apply: the newest version of each document, each entry once."""
    newest = newest_versions(errata)
    live: list[Erratum] = []
    skipped: list[Outcome] = []
    seen: dict[str, Erratum] = {}
    for e in errata:
        if superseded(e, newest):
            newer = next(x.version for x in errata if document_of(x) == document_of(e) and not superseded(x, newest))
            skipped.append(Outcome(e, False, e.target, f"superseded by version {newer} of {e.document}"))
            continue
        key = erratum_id(e)
        if key in seen:
            skipped.append(Outcome(e, False, e.target, "duplicate of an entry already applied"))
            continue
        seen[key] = e
        live.append(e)
    # Documents apply in a fixed order (by name), each in its own printed order, so the result
    # does not depend on the order files were ingested in.
    position = {id(e): n for n, e in enumerate(live)}
    live.sort(key=lambda e: (fold(e.document or ""), e.source.file, position[id(e)]))
    return live, skipped


def _apply_one(e: Erratum, current: list[Record | None], index: TargetIndex) -> Outcome:
    if e.operation == "add" and e.title and not _on_a_datasheet(e, index):
        if _is_profile(e.text):  # "Adeptus Astartes Armoury Card: Add flamer profile:" is no rule
            return Outcome(e, False, e.target, f"adds the {e.title} profile to a card: reported, not applied")
        return _add_rule(e, current, index)
    if not e.target:
        return Outcome(e, False, None, "the entry names no target")
    # An entry of no known edition is taken to be for the corpus's newest datasheets.
    sheet_edition = e.edition if e.edition is not None else index.newest_sheet_edition()
    for units, part, update in ((keyword_units(e), "keywords", keywords_update),
                                ([profile_target(e)] if profile_target(e) else [], "profile", profile_update)):
        outcomes = [o for unit in units if (o := _on_sheets(e, unit, sheet_edition, part, current, index, update))]
        if outcomes:
            return joined(outcomes)
    # Entries on a datasheet's weapons, wargear options or unit composition edit that datasheet.
    where = weapon_target(e) or list_target(e)
    if where is not None:
        outcome = apply_to_sheet(e, index.sheets(where.unit, sheet_edition), where.label, current,
                                 lambda sheet: where.update(sheet, e))
        if outcome is not None:
            return outcome
    part = datasheet_part(e)
    if part is not None:  # "Chaos Terminator Squad, Invulnerable Save": never a rule of that name
        unit, section = part
        if not index.sheets(unit, None):
            return Outcome(e, False, e.target, "target not in the corpus")
        if where is not None:  # only a datasheet of another edition has that name
            return Outcome(e, False, unit, f"no edition {sheet_edition} datasheet of that name", "datasheet")
        return Outcome(e, False, unit, f"changes the datasheet's {section.lower()}: reported, not applied",
                       "datasheet")
    if e.operation == "add" and e.title:  # "Primaris Sword Brethren – reverse of card: Add Attached Unit section"
        unit = (e.target or "").split(",")[0].strip()
        return Outcome(e, False, unit, f"adds a {e.title} section to the datasheet: reported, not applied",
                       "datasheet")
    name, location = split_place(e.target, e.location)
    target = _find_target(name, e.edition, index)
    carried = None
    if target is None:
        target = carried = _carry(e, name, current, index) or _carried_ability(e, name, current, index)
    if target is None:
        return by_wording(e, current, index, location) or Outcome(e, False, e.target, "target not in the corpus")
    if e.operation == "renumber":
        return Outcome(e, False, _target_name(current, target), "a mechanical change (numbering or map "
                       "measurements) that cannot be applied to text", _kind(current, target))
    i, ability = target
    record = current[i]
    section = _STRATAGEM_FIELDS.get(_section(location)) if isinstance(record, Stratagem) else None
    place = parse_location(None if section else location)  # "Effect section": that whole field
    if place is None:
        return Outcome(e, False, _target_name(current, target), f"location not understood: {location!r}",
                       _kind(current, target))
    operation = "append" if e.operation == "add" else e.operation
    if already_applied(record, e):
        return Outcome(e, True, _target_name(current, target), None, record.kind, "already applied")
    text_field = section or _text_field(record, e)
    old_text = ability.text if ability is not None else (getattr(record, text_field) or "")
    try:
        if e.old_text and operation == "replace" and place.whole:  # "Change 3" to 6""
            result = swap(old_text, e.old_text, e.text)
        else:
            result = edit(old_text, operation, place, e.text)
    except LocationError as exc:
        outcome = Outcome(e, False, _target_name(current, target), f"location not found: {exc}", record.kind)
        if carried is not None:
            current[i] = None  # the new printing is made only to carry this update
        return outcome
    change = change_for(e, result.old, result.new, location)
    note = result.note
    if carried is not None:
        note = (f"a new edition {e.edition} printing of the edition {_original_edition(index, carried)} "
                f"{record.kind.replace('_', ' ')}, the original kept")
    if ability is not None:
        abilities = tuple(dataclasses.replace(_renamed(a, name), text=result.text) if a is ability else a
                          for a in record.abilities if not (a is ability and e.operation == "delete"
                                                            and place.whole))
        current[i] = dataclasses.replace(record, abilities=abilities, changes=record.changes + (change,))
    else:
        updates = {text_field: result.text, "changes": record.changes + (change,)}
        if operation == "replace" and place.whole and not e.old_text:  # a whole new wording
            sections = whole_stratagem(record, e.text)
            updates.update(sections if sections else enhancement_parts(record, result.text)
                           if text_field == "text" else {})
        if isinstance(record, Rule) and e.bullets:
            updates["summary"] = (tuple(e.bullets) if e.operation == "replace" and place.whole
                                  else record.summary + tuple(e.bullets))
        current[i] = dataclasses.replace(record, **updates)
    return Outcome(e, True, _target_name(current, target), None, record.kind, note)


def _text_field(record: Record, e: Erratum) -> str:
    """The field an erratum edits: `text`, or a stratagem's effect (or the section it names, or
    the one printing the words a "Change 'X' to 'Y'" entry replaces)."""
    if not isinstance(record, Stratagem):
        return "text"
    if e.old_text:
        printing = [f for f in ("when", "target", "effect", "restrictions") if e.old_text in (getattr(record, f) or "")]
        if printing:
            return printing[0]
    parts = {p.strip().lower() for p in (e.target or "").split(",")}
    return next((f for part, f in _STRATAGEM_FIELDS.items() if part in parts), "effect")


def _section(location: str | None) -> str:
    """A location as a stratagem section's name ("Effect" -> "effect section")."""
    words = " ".join((location or "").lower().split())
    return words if words.endswith(" section") else f"{words} section"


def _kind(current, target) -> str:
    return current[target[0]].kind


def _target_name(current, target) -> str:
    i, ability = target
    name = record_name(current[i])
    return f"{name}: {ability.name}" if ability is not None else name


_PROFILE_HEADS = {"range", "a", "bs", "ws", "s", "ap", "d", "m", "t", "sv", "w", "ld", "oc"}


def _is_profile(text: str) -> bool:
    """Whether an entry's wording is a profile table (a "RANGE A BS S AP D" header row)."""
    return any(len(cells) >= 4 and all(c.lower() in _PROFILE_HEADS for c in cells)
               for cells in ([c.strip() for c in line.split("\t") if c.strip()] for line in text.splitlines()))


def _on_a_datasheet(e: Erratum, index: TargetIndex) -> bool:
    """Whether an entry is about a datasheet: its target names a part of one ("Raptors, Melee
    Weapons") or begins with the name of one in the corpus. An added profile or card section is
    part of that datasheet, not a new rule."""
    if keyword_units(e) or weapon_target(e) or list_target(e) or datasheet_part(e):
        return True
    unit = (e.target or "").split(",")[0].strip()
    return bool(unit) and bool(index.sheets(unit, None))


def _find_target(target: str | None, edition: int | None, index: TargetIndex) -> tuple[int, Ability | None] | None:
    """The record (and ability) an erratum's target names, or None."""
    found = _named(target, edition, index)
    if found:
        return found[0], None
    parts = _parts(target)
    if len(parts) >= 2:  # "Sporocyst, Abilities, Spawn Spore Mines"
        bare = kind_named(parts[-1])
        sheets = index.sheets(parts[0], edition)
        for i in sheets:
            for ability in index.current[i].abilities:
                if _ability_key(ability.name) == _ability_key(parts[-1]) or (
                        bare and _ability_key(ability.name) == _ability_key(bare[0]) and index.loosely([i])):
                    return i, ability
        named = _ability_key(_printed_ability(parts))
        for i in sheets:  # none named so: the one ability the pack respells ("Blood Fury" for "Bloody Fury")
            close = [a for a in index.current[i].abilities if respelled(_ability_key(a.name), named)]
            if len(close) == 1:
                return i, close[0]
    return None


def _ability_key(name: str) -> str:
    """An ability's name key without a leading article: a pack may print "Scent Of Blood" for
    the datasheet's "The Scent of Blood"."""
    return name_key(name).removeprefix("the ")


def _printed_ability(parts: list[str]) -> str:
    """The ability name an entry's target prints in its last part, without a kind word
    ("Blood Fury Ability" -> "Blood Fury"); "" for no parts."""
    if not parts:
        return ""
    bare = kind_named(parts[-1])
    return bare[0] if bare else parts[-1]


def _renamed(ability: Ability, target: str | None) -> Ability:
    """`ability` under the name the entry prints for it, when the entry respells it."""
    printed = _printed_ability(_parts(target))
    return dataclasses.replace(ability, name=printed) if respelled(_ability_key(ability.name), _ability_key(printed)) \
        else ability


def _parts(target: str | None) -> list[str]:
    return [p.strip() for p in (target or "").split(",")
            if p.strip() and p.strip().lower() not in _GENERIC_PARTS and not _SECTIONS_PART.match(p.strip())]


def _named(target: str | None, edition: int | None, index: TargetIndex) -> list[int]:
    """The text records of `edition` (None: any) a target names: whole, without its generic
    parts, by its last part inside the first; a name ending in its kind ("Butcher Lord
    Enhancement") also without that word, the records of that kind first."""
    parts = _parts(target)
    candidates = [(target, None), (", ".join(parts), None)]
    if len(parts) > 1:
        candidates.append((parts[-1], parts[0]))
        candidates.append((", ".join(parts[1:]), parts[0]))
    for name, section in candidates:
        found = index.rules(name, edition, section)
        if found:
            return found
        bare = kind_named(name or "")
        if bare is not None:
            found = index.loosely(index.rules(bare[0], edition, section))
            if found:
                return [i for i in found if index.current[i].kind == bare[1]] or found
    return []


def _on_sheets(e: Erratum, unit: str, edition: int | None, part: str, current: list[Record | None],
               index: TargetIndex, update) -> Outcome | None:
    """An entry on a part of a unit's datasheets of `edition` (`update(sheet, e)` gives the new
    fields); when there are none, on a new printing in the entry's edition of its faction's
    datasheet of the edition before (carried.py), kept only if the entry applies to it."""
    found = index.sheets(unit, edition)
    carried = None
    if not found and e.edition is not None and not index.skipped_newer:  # a newer printing is no reason to carry
        carried = _carry(e, lambda: index.sheets(unit, None), current, index)
        found = [carried[0]] if carried is not None else []
    outcome = apply_to_sheet(e, found, part, current, lambda sheet: update(sheet, e))
    if carried is not None:
        if outcome is None or not outcome.applied:
            current[carried[0]] = None  # the new printing is made only to carry this update
        else:
            outcome = dataclasses.replace(outcome, detail=f"a new edition {e.edition} printing of the edition "
                                          f"{_original_edition(index, carried)} datasheet, the original kept")
    return outcome


def _carry(e: Erratum, name, current: list[Record | None], index: TargetIndex) -> tuple | None:
    """Where the update's own-edition printing of a faction record printed only in the edition
    before it now sits (carried.py), or None. `name` is the target's name, or a function giving
    the positions of the records it names in every edition."""
    if e.edition is None:
        return None
    skipped = list(index.skipped_newer)  # looking in every edition must not change why the entry failed
    named = name() if callable(name) else _named(name, None, index)
    older = [current[i] for i in named if (current[i].edition or e.edition) < e.edition]
    index.skipped_newer[:] = skipped
    record = carried_printing(e, older)
    if record is None:
        return None
    current.append(record)
    index.add(len(current) - 1)
    index.carried[len(current) - 1] = e.edition - 1  # carried_printing takes only the edition before
    return len(current) - 1, None


def _carried_ability(e: Erratum, target: str | None, current: list[Record | None], index: TargetIndex):
    """("Chaos Rhino, Meet Any Challenge Ability") An ability of a unit whose datasheets are all
    of the edition before the entry's: found on a new printing of that datasheet in the entry's
    edition (`_carry`), which is dropped again when the ability is not on it."""
    parts = _parts(target)
    if len(parts) < 2 or index.sheets(parts[0], e.edition) or index.skipped_newer:
        return None
    unit = parts[0]
    carried = _carry(e, lambda: index.sheets(unit, None), current, index)
    found = _find_target(target, e.edition, index) if carried is not None else None
    if carried is not None and (found is None or found[0] != carried[0]):
        current[carried[0]] = None
        return None
    return found


def _original_edition(index: TargetIndex, target: tuple) -> int | None:
    return index.carried.get(target[0])


def _add_rule(e: Erratum, current: list[Record | None], index: TargetIndex) -> Outcome:
    """An added rule or sub-section becomes a new Rule record carrying the change."""
    existing = index.rules(e.title, e.edition)
    if existing:
        i = existing[0]
        if already_applied(current[i], e):
            return Outcome(e, True, e.title, None, "rule", "already applied")
        return Outcome(e, False, e.title, f"a rule named {e.title!r} is already in the corpus", "rule")
    section = tuple(p.strip() for p in (e.target or "").split(",") if p.strip())
    rule = Rule(name=e.title, source=e.source, edition=e.edition, section=section, text=e.text,
                summary=tuple(e.bullets), changes=(change_for(e, "", e.text),))
    current.append(rule)
    index.add(len(current) - 1)
    return Outcome(e, True, e.title, None, "rule", "new rule")
