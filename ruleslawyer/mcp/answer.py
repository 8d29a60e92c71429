"""`answer(question)`: the few records that best answer a player's question, each cut to the
passage that answers it, with the FAQ entries that touch it.

The question becomes two searches of the index (its content words, with the past tenses
players write put back to the rules' words; once over every edition and once over the newest
edition, so the current rules are always among the candidates). The records whose names the
question spells out are added: a unit, a rule, an ability of a unit (which brings its unit),
a detachment (which brings its rules); a name in the possessive ("the Painboy's ...") is the
question's subject. When the question asks for points, the current points of the units it
names are added. The candidates are then ranked by the index's score, a name in the
question, a kind the question asks for ("stratagem"), how much of the question their best
passage covers, and the newest edition first.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotFoundError, QueryError
from ..names import fold
from ..records import Record, record_name
from .passages import STOPWORDS, best_passage, stem, terms

MAX_QUESTION_CHARS = 500
CANDIDATES = 40  # index hits weighed per question (and half as many of the newest edition)
_NUMBER = re.compile(r"\b\d{1,2}\.\d{1,2}\b")
_EDITION = re.compile(r"\b(5|9|10|11)(?:st|nd|rd|th)?[ -]?(?:ed\b|edition\b)", re.I)
_WORDS = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")
_MAX_NAME_WORDS = 6
# Words of a question, as players write them, that the rules spell otherwise.
_PLAYER_WORDS = {"fell": "fall", "fought": "fight", "shot": "shoot", "made": "make", "took": "take",
                 "far": "distance", "invuln": "invulnerable", "tank": "vehicle", "tanks": "vehicle"}
# A question asking for one kind of record (the word stems, as `terms` gives them).
_KIND_WORDS = {"stratagem": "stratagem", "strat": "stratagem", "enhanc": "enhancement", "detach": "detachment_rule",
               "faq": "faq", "errata": "errata", "erratum": "errata", "datasheet": "datasheet"}
_POINTS = re.compile(r"\b(points?|pts|cost|costs|price)\b", re.I)
_NOT_POINTS = re.compile(r"\b(cp|command points?)\b", re.I)


@dataclass
class Candidate:
    record: Record
    score: float = 0.0
    named: bool = False
    passage: str = ""
    label: str = ""


_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?")


def name_key(text: str) -> str:
    """A name as the stems of its words ("Consolidation Move" -> "consolid move"), so that a
    question's "consolidates" or "engaged" finds "Consolidate" or "Engagement"."""
    return " ".join(stem(w) for w in fold(text).split())


class NameIndex:
    """Name keys -> (record, weight): records by their own names, datasheets also by the names
    of their abilities, detachment rules and enhancements also by their detachment's, errata
    by what they change."""

    def __init__(self, records):
        self.by_name: dict[str, list[tuple[Record, float]]] = {}
        for r in records:
            if r.kind in ("faq", "errata", "points"):
                continue
            self._add(record_name(r), r, 1.0)
            if r.kind == "datasheet":
                for a in r.abilities:
                    self._add(a.name, r, 0.6)
            elif r.kind in ("detachment_rule", "enhancement") and getattr(r, "group", None):
                self._add(r.group, r, 0.6)
        for r in records:  # an erratum by the unit or rule it changes ("Sporocyst, Abilities, ...")
            if r.kind == "errata":
                self._add((r.target or record_name(r)).split(",")[0], r, 0.6)

    def _add(self, name: str, record: Record, weight: float) -> None:
        name = re.sub(r"\s*[(\[].*?[)\]]\s*$", "", name or "")  # "Boss' Ammo Runt (Once per battle)"
        key = name_key(name)
        if len(key) >= 4 and fold(name) not in STOPWORDS:
            self.by_name.setdefault(key, []).append((record, weight))

    def named_in(self, question: str) -> list[tuple[str, bool, list[tuple[Record, float]]]]:
        """(name key, in the possessive, its records) for the longest names in `question`."""
        tokens = _TOKEN.findall(question)
        possessive = [t.casefold().endswith(("'s", "’s")) for t in tokens]
        words = [name_key(re.sub(r"['’]s$", "", t, flags=re.I)) for t in tokens]
        found = []
        covered: set[int] = set()
        for size in range(min(_MAX_NAME_WORDS, len(words)), 0, -1):
            for i in range(len(words) - size + 1):
                span = range(i, i + size)
                if covered.intersection(span):
                    continue
                key = " ".join(words[i:i + size])
                if key in self.by_name:
                    found.append((key, possessive[i + size - 1], self.by_name[key]))
                    covered.update(span)
        return found


_names_cache: dict[int, NameIndex] = {}


def names_of(corpus) -> NameIndex:
    """The NameIndex of a corpus, made once per loaded corpus."""
    index = _names_cache.get(id(corpus))
    if index is None:
        _names_cache.clear()
        index = _names_cache[id(corpus)] = NameIndex(corpus.records)
    return index


def search_text(question: str) -> str:
    """The words of `question` worth searching for, free of query syntax (quotes, fields, AND)."""
    words = [_PLAYER_WORDS.get(w.casefold(), w.casefold()) for w in _WORDS.findall(question)
             if w.casefold() not in STOPWORDS]
    return " ".join([*_NUMBER.findall(question), *words])


def rank(ref, question: str, limit: int = 3) -> list[Candidate]:
    """The `limit` records that best answer `question`, best first, each with its passage."""
    question = question.strip()[:MAX_QUESTION_CHARS]
    wanted = set(terms(search_text(question)))
    edition_match = _EDITION.search(question)
    edition = int(edition_match.group(1)) if edition_match else None
    pool = candidates(ref, question, wanted, edition)
    asked_kinds = {kind for word, kind in _KIND_WORDS.items() if word in wanted}
    asks, said = asked_for(question)
    current = {e: bonus for e, bonus in zip(ref.editions(), (0.9, 0.3))}
    newest_of = _newest_editions(pool)
    for c in pool:
        own = set(terms(record_name(c.record)))
        c.label, c.passage, share = best_passage(c.record, wanted - said or wanted, points_line=ref.points_line,
                                                 asks=asks, own=own)
        # The current edition first, among records that answer: a rule of the newest edition
        # sharing one word with the question does not pass an older one that answers it.
        relevant = len((set(terms(c.passage)) | own) & wanted) / len(wanted) if wanted else 0.0
        c.score += 1.5 * share + current.get(c.record.edition or 0, 0.0) * min(1.0, 2 * relevant)
        c.score += 0.3 if newest_of.get(_edition_free(c.record)) == (c.record.edition or 0) else 0.0
        c.score += 0.6 if c.record.kind in asked_kinds else 0.0
        # An erratum's wording is also the amended record's, which cites it: the record first.
        c.score -= 0.4 if c.record.kind == "errata" and "errata" not in asked_kinds else 0.0
    ranked = sorted(pool, key=lambda c: -c.score)
    return _distinct(ranked)[:limit]


def candidates(ref, question: str, wanted: set[str], edition: int | None) -> list[Candidate]:
    """The records that may answer `question`, each with its first score: the index's hits
    (every edition, and the newest), rules by number, records named in it, FAQ entries asking
    the same, current points when it asks a price. NotFoundError when there are none."""
    query = search_text(_EDITION.sub(" ", question))
    if not query.strip():
        raise NotFoundError("the question names no rule, unit or stratagem",
                            hint="ask about a rule, unit, stratagem or ability by name")
    pool: dict[tuple, Candidate] = {}
    newest = ref.editions()[0] if ref.editions() else None
    searches = [(edition, CANDIDATES)] + ([(newest, CANDIDATES // 2)] if edition is None and newest else [])
    for wanted_edition, size in searches:
        try:
            hits = ref.search(query, edition=wanted_edition, limit=size).hits
        except QueryError:
            hits = []
        top = max((h.score for h in hits), default=1.0) or 1.0
        for h in hits:
            c = pool.setdefault(_key(h.record), Candidate(h.record))
            c.score = max(c.score, h.score / top)
    for number in _NUMBER.findall(question):
        for r in ref.by_number(number):
            pool.setdefault(_key(r), Candidate(r)).score += 2.0
    named_units = []
    for key, possessive, records in names_of(ref.corpus).named_in(question):
        for r, weight in records:
            if edition is not None and r.edition != edition:
                continue
            c = pool.setdefault(_key(r), Candidate(r))
            c.named = True
            c.score += weight * (0.8 + 0.2 * len(key.split())) + (0.5 if possessive and weight == 1.0 else 0.0)
            if r.kind == "datasheet" and weight == 1.0:
                named_units.append(r)
    for faq, overlap in similar_faqs(ref, wanted):
        pool.setdefault(_key(faq), Candidate(faq)).score += 2.5 * overlap
    if _POINTS.search(question) and not _NOT_POINTS.search(question):
        for unit in {fold(r.name): r for r in named_units}.values():
            try:
                prices = ref.points(unit.name, unit.faction)
            except NotFoundError:
                continue
            for p in prices:
                pool.setdefault(_key(p), Candidate(p)).score += 2.5
    if not pool:
        raise NotFoundError(f"nothing in the store answers {question!r}",
                            hint="try other words, or the `search` tool with a record's name")
    return list(pool.values())


# What a question asks for -> the part of a record (passages.passages labels) that answers it.
_ASKS = (
    ("effect", r"\b(what|how)\b.*\b(do|does|did|give|gives|work|works|let|lets|happen|happens)\b"),
    ("quantity", r"\bhow (far|close|many|much|long)\b|\bwhat do i need\b|\bdistance\b|\bwhat roll\b"),
    ("when", r"^\s*when\b"),
    ("profile", r"\b(characteristics?|stats?|statline|profile|toughness|movement|leadership)\b"),
    ("unit composition", r"\bhow many models\b|\bunit size\b|\bcomposition\b|\bequipped with\b"),
)


def asked_for(question: str) -> tuple[set[str], set[str]]:
    """What the question asks for ("effect": what something does, not when or on whom;
    "quantity": a distance, a number, a roll; "when": when it can be used; "profile": a unit's
    characteristics; "unit composition": how many models, what they carry), and the stems of
    the words that said so (a passage is not chosen for repeating them: "how many models are
    in a unit" asks for the unit composition, not for any text saying "model" and "unit")."""
    asks, said = set(), set()
    for part, pattern in _ASKS:
        m = re.search(pattern, question, re.I)
        if m:
            asks.add(part)
            if part in ("profile", "unit composition"):
                said |= set(terms(m.group(0)))
    return asks, said


def similar_faqs(ref, wanted: set[str], least: float = 0.5) -> list[tuple[Record, float]]:
    """FAQ entries whose question shares at least `least` of its words with the player's."""
    out = []
    for faq in ref.faqs():
        if faq.kind != "faq":
            continue
        asked = set(terms(faq.question))
        if asked:
            overlap = len(asked & wanted) / len(asked)
            if overlap >= least:
                out.append((faq, overlap))
    return out


def _key(record: Record) -> tuple:
    return (record.kind, fold(record_name(record)), fold(getattr(record, "faction", None) or ""),
            fold(getattr(record, "group", None) or ""), record.edition or 0, record.source.file)


def _edition_free(record: Record) -> tuple:
    """A record's kind and name: the 9th edition Smokescreen of one faction and the 11th
    edition core one are the same question."""
    return (record.kind, fold(record_name(record)))


def _newest_editions(candidates) -> dict[tuple, int]:
    newest: dict[tuple, int] = {}
    for c in candidates:
        key = _edition_free(c.record)
        newest[key] = max(newest.get(key, 0), c.record.edition or 0)
    return newest


def _distinct(ranked: list[Candidate]) -> list[Candidate]:
    """`ranked` without a second copy of one passage (the same rule read from two documents)."""
    seen: set[str] = set()
    out = []
    for c in ranked:
        key = " ".join(c.passage.casefold().split())[:200]
        if key in seen:
            continue
        seen.add(key)
        out.append(c)
    return out


def touching(ref, record: Record, limit: int = 3) -> list[Record]:
    """FAQ answers and designer's notes that name `record` (its name as whole words)."""
    name = fold(record_name(record))
    if len(name) < 5 or record.kind in ("faq", "note"):
        return []
    pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    out = []
    for r, text in ref.faqs_folded():
        if pattern.search(text) and (not r.edition or not record.edition or r.edition == record.edition):
            out.append(r)
            if len(out) == limit:
                break
    return out
