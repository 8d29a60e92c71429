"""Pick the one record a user means: the current printing by default, with the others named.

`show`, the cards and the site's lists give the newest edition of a name that several editions
share, and say which other printings exist ("also: 10th ed. (Baneblade page)"); `show --source
FILE` picks one file's printing. A lookup stops on a list only when the candidates are really
different things (a table and a rule, two units of two factions); `AmbiguousNameError` then
carries them, and `show_command` gives the command that shows each.

A name is also looked up as a rule number ("05.02"), a detachment (its rule, enhancements,
stratagems and Detachment Points: `Picked.detachment`), and among errata and FAQ titles when no
rule or unit has it. A detachment of the current edition answers before an older edition's
record of its name (a 9th edition stratagem), which is named under "also".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from ..errors import AmbiguousNameError, NotFoundError
from ..names import fold
from ..records import Datasheet, Record, record_name
from .corpus import Corpus
from .find import find_by_name
from .newer_errata import newer_errata
from .pick_price import shown_price
from .reconcile import FileInfo, Printings, identity
from .samething import one_per_thing


@dataclass
class Picked:
    """The record meant, its printings (when several files print it), the other candidates
    (older editions, other factions' or names' printings), and its current price."""

    record: Record
    printings: Printings | None = None
    other_editions: list[int] = field(default_factory=list)
    # the current Munitorum Field Manual entry of a datasheet, or of the detachment of a
    # detachment rule or enhancement, if any (kept for callers that read a Points record)
    points: Record | None = None
    price: object | None = None  # prices.Price: the current price, from the newest source
    also: list[Record] = field(default_factory=list)
    file: FileInfo | None = None
    detachment: object | None = None  # detachments.Detachment, when the name is a detachment's
    # errata of a newer edition naming the record that could not be applied (newer_errata.py)
    newer_errata: list = field(default_factory=list)


_RULE_NUMBER = re.compile(r"^\s*(\d{1,2})\.(\d{1,2})\s*$")


def newest_editions(records: Sequence[Record]) -> tuple[list[Record], dict[int, list[int]]]:
    """Records with only the newest edition of each name/kind/faction/group kept, and for each
    kept record (by id) the older editions that exist."""
    best: dict[tuple, Record] = {}
    editions: dict[tuple, set[int]] = {}
    for r in records:
        key = _edition_free(r)
        editions.setdefault(key, set()).add(r.edition or 0)
        current = best.get(key)
        if current is None or (r.edition or 0) > (current.edition or 0):
            best[key] = r
    kept = [r for r in records if best.get(_edition_free(r)) is r]
    others = {id(r): sorted((e for e in editions[_edition_free(r)] if e and e != (r.edition or 0)), reverse=True)
              for r in kept}
    return kept, others


def _edition_free(r: Record) -> tuple:
    key = identity(r)
    if key is None:
        return ("unmerged", id(r))
    kind, name, faction, _edition, group, version = key
    return kind, name, faction, group, version


def printings_index(corpus: Corpus) -> dict[tuple, Printings]:
    """The corpus's printings by record identity (an amended copy keeps its original's)."""
    return {identity(p.chosen): p for p in corpus.printings.values()}


def pick_record(corpus: Corpus, name: str, *, kind: str | None = None, edition: int | None = None,
                faction: str | None = None, source: str | None = None) -> Picked:
    """The record `name` refers to (see module docstring), or AmbiguousNameError listing the
    different things it could mean. `source` (a stored file's name or path) keeps the
    candidates printed in that file, when it prints any (`show --source FILE`)."""
    found = _candidates(corpus, name, kind, edition, faction)
    if isinstance(found, Picked):
        return found
    if source:
        index = printings_index(corpus)
        found = [r for r in found if _printed_in(corpus, index, r, source)] or found
    pool = _base_names(found, name)
    current, also = _current(corpus, pool, name, edition, renaming=not source)
    if len(current) != 1:
        raise AmbiguousNameError(f"{len(current)} records match {name!r}, different things", candidates=current,
                                 hint="show one with the command given after it")
    record = current[0]
    also += [r for r in found if r not in pool]
    _, others = newest_editions([r for r in pool if _edition_free(r) == _edition_free(record)])
    picked = Picked(record, printings_index(corpus).get(identity(record)),
                    others.get(id(record), []), also=also, file=corpus.file_of(record))
    picked.price, picked.points = shown_price(corpus, picked.record, newest=edition is None)
    picked.newer_errata = newer_errata(corpus, record)
    return picked


def _candidates(corpus: Corpus, name: str, kind: str | None, edition: int | None,
                faction: str | None) -> list[Record] | Picked:
    """The records `name` could mean: by rule number, else by name; a detachment's name gives
    its detachment view; a name no rule or unit has is looked up among errata and FAQs."""
    number = _RULE_NUMBER.match(name)
    if number:
        wanted = f"{int(number.group(1)):02d}.{int(number.group(2)):02d}"
        found = [r for r in corpus.records if getattr(r, "number", None) == wanted
                 and (kind is None or r.kind == kind) and (edition is None or r.edition == edition)]
        if not found:
            raise NotFoundError(f"no rule numbered {wanted}", hint="11th edition rules are numbered; "
                                "try `ruleslawyer search` for a text search")
        return found
    if kind in (None, "detachment_rule", "enhancement", "stratagem"):
        from .detachments import find_detachment

        detachment = find_detachment(corpus, name, faction=faction, edition=edition, exact_only=kind is None)
        if detachment is not None:
            parts = detachment.rules or detachment.enhancements or detachment.stratagems
            record = parts[0] if parts else detachment.price.record
            return Picked(record, file=corpus.file_of(record), detachment=detachment, price=detachment.price)
    try:
        return find_by_name(corpus.records, name, kinds=[kind] if kind else None, edition=edition, faction=faction)
    except NotFoundError as missing:
        named = None if faction else _faction_named(corpus, name)
        if named is not None:  # "ork boyz": a faction's name, then the unit's
            from .detachments import find_detachment

            detachment = find_detachment(corpus, named[1], faction=named[0], edition=edition)
            if detachment is not None and kind is None:
                return _candidates(corpus, named[1], kind, edition, named[0])
            try:
                return find_by_name(corpus.records, named[1], kinds=[kind] if kind else None, edition=edition,
                                    faction=named[0])
            except NotFoundError:
                pass
        initials = _by_initials(corpus, name, kind, edition)
        if initials:
            return initials
        if kind is not None:
            raise
        try:  # the errata and FAQ names `show` suggests are names too
            return find_by_name(corpus.records, name, kinds=["errata", "faq"], edition=edition, faction=faction)
        except NotFoundError:
            raise missing from None


def _by_initials(corpus: Corpus, name: str, kind: str | None, edition: int | None) -> list[Record]:
    """The rules whose words' initials spell a short query ("fnp" -> Feel No Pain, "ds" ->
    Deep Strike), when exactly one rule name does; otherwise none."""
    want = fold(name)
    if not (2 <= len(want) <= 4 and want.isalpha()) or kind not in (None, "rule"):
        return []
    found = [r for r in corpus.records if r.kind == "rule" and (edition is None or r.edition == edition)
             and "".join(w[0] for w in fold(r.name).split()) == want]
    return found if len({fold(r.name) for r in found}) == 1 else []


def _faction_named(corpus: Corpus, name: str) -> tuple[str, str] | None:
    """(faction, rest) when `name` starts with a word that begins exactly one faction's name
    ("ork boyz" -> ("Orks", "boyz"), "necron warriors" is not split: no unit is found first)."""
    words = name.split()
    if len(words) < 2 or len(fold(words[0])) < 3:
        return None
    head = fold(words[0])
    factions = {fold(f): f for f in (getattr(r, "faction", None) for r in corpus.records) if f}
    found = [f for key, f in factions.items() if any(word.startswith(head) for word in key.split())]
    return (found[0], " ".join(words[1:])) if len(found) == 1 else None


def _base_names(found: list[Record], name: str) -> list[Record]:
    """The records named exactly `name`; else, of several names starting alike ("warbos" ->
    Warboss, Warboss in Mega Armour, Warboss on Warbike), those of the shortest name that
    every other one starts with."""
    want = fold(name)
    exact = [r for r in found if fold(record_name(r)) == want]
    if exact:
        return exact
    names = {fold(record_name(r)) for r in found}
    shortest = min(names, key=len)
    if all(n.startswith(shortest) for n in names):
        return [r for r in found if fold(record_name(r)) == shortest]
    return found


def _printed_in(corpus: Corpus, index: dict[tuple, Printings], record: Record, source: str) -> bool:
    """Whether the stored file `source` (name or path) prints `record`."""
    files = [corpus.file_of(record)]
    entry = index.get(identity(record))
    if entry is not None:
        files += [entry.chosen_file] + [info for _, info in entry.others]
    return record.source.file == source or any(f is not None and source in (f.name, f.path) for f in files)


def _current(corpus: Corpus, pool: list[Record], name: str, edition: int | None,
             renaming: bool = True) -> tuple[list[Record], list[Record]]:
    """(the current candidates, the others): the newest edition's, one per thing; printings of
    one unit under two factions are one thing (the one whose faction it bears everywhere, else,
    when faction keywords link them, the newest dated)."""
    if edition is None:
        newest = max((r.edition or 0) for r in pool)
        current = [r for r in pool if (r.edition or 0) == newest]
        renamed = _renamed(corpus, name, pool, newest) if renaming else None
        if renamed is not None:
            current = [renamed]
    else:
        current = list(pool)
    current = _one_per_thing(_newest_amendments(corpus, current))
    if len(current) > 1:  # one thing filed under two factions by two sources
        current, _ = one_per_thing(corpus, current)
    also = [r for r in pool if r not in current]
    if len(current) > 1:
        owner = _defining(current) or _one_unit(corpus, current)
        if owner is not None:
            also = [r for r in current if r is not owner] + also
            current = [owner]
    return current, also


def _newest_amendments(corpus: Corpus, records: list[Record]) -> list[Record]:
    """Errata, FAQ answers and notes of one name from several versions of a document: the
    newest version's only (a newer version supersedes the older)."""
    from .points import version_key
    from .reconcile import UNMERGED_KINDS

    best: dict[tuple, Record] = {}
    for r in records:
        if r.kind not in UNMERGED_KINDS:
            continue
        key = (r.kind, fold(record_name(r)))
        rank = (corpus.date_of(r) or "", version_key(getattr(r, "version", None)))
        current = best.get(key)
        if current is None or rank > (corpus.date_of(current) or "", version_key(getattr(current, "version", None))):
            best[key] = r
    return [r for r in records if r.kind not in UNMERGED_KINDS or best.get((r.kind, fold(record_name(r)))) is r]


# Of one element read as two kinds (a catalogue's shared rule that is also a detachment's rule),
# the more specific kind is the answer.
_SPECIFIC = {"detachment_rule": 0, "enhancement": 0, "stratagem": 0, "datasheet": 0, "rule": 1}


def _one_per_thing(records: list[Record]) -> list[Record]:
    seen: dict[tuple, Record] = {}
    for r in records:
        seen.setdefault(_edition_free(r) + (r.edition,), r)
    out: dict[tuple, Record] = {}
    for r in seen.values():  # one element of one file (same locator) is one thing
        key = (r.source.file, r.source.locator) if r.source.locator else ("record", id(r))
        if key not in out or _SPECIFIC.get(r.kind, 1) < _SPECIFIC.get(out[key].kind, 1):
            out[key] = r
    return list(out.values())


def _defining(records: list[Record]) -> Record | None:
    """Of one unit's datasheets under several factions, the one of the faction every printing
    bears as a faction keyword (Kasrkin: Astra Militarum, also in Genestealer Cults lists)."""
    if not all(isinstance(r, Datasheet) for r in records) or len({fold(r.name) for r in records}) != 1:
        return None
    shared = set.intersection(*({fold(k) for k in r.faction_keywords} for r in records))
    owners = [r for r in records if r.faction and fold(r.faction) in shared]
    return owners[0] if len(owners) == 1 else None


def _one_unit(corpus: Corpus, records: list[Record]) -> Record | None:
    """Of datasheets of one name filed under several factions, the newest dated printing, when
    they are one unit: each is linked to the others by a printing that bears another's faction
    as a faction keyword (a chapter's unit filed under the parent faction by an export, with the
    chapter's keyword, and under the chapter by its faction pack, whose keywords may not have
    been read). Units of factions that name neither (four legions' Heldrakes) stay apart."""
    if not all(isinstance(r, Datasheet) and r.faction for r in records) \
            or len({fold(r.name) for r in records}) != 1:
        return None
    group = {id(r): id(r) for r in records}

    def root(key: int) -> int:
        while group[key] != key:
            key = group[key]
        return key

    for a in records:
        for b in records:
            if fold(b.faction) in {fold(k) for k in a.faction_keywords if k}:
                group[root(id(a))] = root(id(b))
    if len({root(id(r)) for r in records}) != 1:
        return None
    return max(records, key=lambda r: corpus.date_of(r) or "")


def _renamed(corpus: Corpus, name: str, pool: list[Record], newest: int) -> Record | None:
    """A newer edition's rule (or core stratagem) that took over what older editions named
    `name`, under another name:
    - a shorter name that starts the term and whose text uses it: 11th edition "Engagement"
      (03.04) defines "engagement range";
    - the term and a move word: "Fall Back" became "Fall-back Move" (09.07);
    - a core stratagem ending with the term: "Overwatch" became the "Fire Overwatch" stratagem;
    - a rule whose name holds the term's words: "Starting Strength" is defined in 11th edition
      by "Starting Strength and Half-strength".
    None unless exactly one record of the newest such edition qualifies."""
    if {r.kind for r in pool} != {"rule"}:
        return None
    want = fold(name)
    words = want.split()
    heads = {" ".join(words[:n]) for n in range(1, len(words))}
    found: list[Record] = []
    for r in corpus.records:
        if r.kind not in ("rule", "stratagem") or (r.edition or 0) <= newest:
            continue
        key = fold(r.name)
        if r.kind == "rule" and ((key in heads and want in fold(r.text)) or key in (f"{want} move", f"{want} moves")
                                 or f" {want} " in f" {key} "):
            found.append(r)
        elif r.kind == "stratagem" and not getattr(r, "faction", None) and key.endswith(f" {want}"):
            found.append(r)
    if not found:
        return None
    top = max(r.edition or 0 for r in found)
    best = [r for r in found if (r.edition or 0) == top]
    return best[0] if len({fold(r.name) for r in best}) == 1 else None


def show_command(record: Record, among: Sequence[Record]) -> str:
    """The `ruleslawyer show` command that picks `record` out of `among`: its name, plus the
    kind, faction or edition where those differ."""
    name = record_name(record)
    parts = [f'ruleslawyer show "{name}"']
    among = [r for r in among if fold(record_name(r)) == fold(name)]  # other names tell themselves apart
    if len({r.kind for r in among}) > 1:
        parts.append(f"--kind {record.kind}")
    if len({fold(getattr(r, 'faction', None) or '') for r in among}) > 1 and getattr(record, "faction", None):
        parts.append(f'--faction "{record.faction}"')
    if len({r.edition for r in among}) > 1 and record.edition:
        parts.append(f"--edition {record.edition}")
    if len(parts) == 1 and len({r.source.file for r in among}) > 1:
        parts.append(f'--source "{record.source.file}"')
    return " ".join(parts)


def also_text(record: Record, others: Sequence[Record], corpus: Corpus | None = None, limit: int = 8) -> str:
    """The other candidates in one line: "10th ed. (Baneblade.html), 9th ed. (primer.pdf)",
    naming the faction or kind where it differs from `record`'s; records of other names are
    named once each at the end ("other names: Warboss in Mega Armour, Warboss on Warbike")."""
    parts: list[str] = []
    names: dict[str, tuple[str, list[str]]] = {}  # folded name -> (name, its editions)
    for r in others:
        if fold(record_name(r)) != fold(record_name(record)):
            entry = names.setdefault(fold(record_name(r)), (record_name(r), []))
            label = f"{r.edition}th ed." if r.edition else "no edition"
            if label not in entry[1]:
                entry[1].append(label)
            continue
        bits = []
        if r.kind != record.kind:
            bits.append(r.kind)
        if fold(getattr(r, "faction", None) or "") != fold(getattr(record, "faction", None) or ""):
            bits.append(getattr(r, "faction", None) or "core")
        label = " ".join(bits + [f"{r.edition}th ed." if r.edition else "no edition"])
        text = f"{label} ({r.source.file})"
        if text not in parts:
            parts.append(text)
    shown = ", ".join(parts[:limit]) + (f" and {len(parts) - limit} more" if len(parts) > limit else "")
    if names:
        more = f" and {len(names) - limit} more" if len(names) > limit else ""
        listed = [f"{name} ({', '.join(editions)})" for name, editions in list(names.values())[:limit]]
        shown += ("; " if shown else "") + "other names: " + ", ".join(listed) + more
    return shown
