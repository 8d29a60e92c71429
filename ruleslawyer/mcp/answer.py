"""`answer(question)`: the few records that best answer a player's question, each cut to the
passage that answers it, with the FAQ entries and errata that touch it.

The question is turned into a search of the index (its content words; a rule number as a
number; an edition it names as a filter), the records whose names the question spells out
are added, and the candidates are ranked by the index's score, a name in the question, how
much of the question their best passage covers, and the newest edition of a name first.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotFoundError, QueryError
from ..names import fold
from ..records import Record, record_name
from .passages import STOPWORDS, best_passage, terms

MAX_QUESTION_CHARS = 500
CANDIDATES = 40  # index hits weighed per question
_NUMBER = re.compile(r"\b\d{1,2}\.\d{1,2}\b")
_EDITION = re.compile(r"\b(5|9|10|11)(?:st|nd|rd|th)?[ -]?(?:ed\b|edition\b)", re.I)
_WORDS = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")
_MAX_NAME_WORDS = 6


@dataclass
class Candidate:
    record: Record
    score: float = 0.0
    named: bool = False
    passage: str = ""
    label: str = ""


class NameIndex:
    """Folded record names -> records, to spot the names a question spells out."""

    def __init__(self, records):
        self.by_name: dict[str, list[Record]] = {}
        for r in records:
            if r.kind in ("faq", "errata", "points"):
                continue
            key = fold(record_name(r))
            if len(key) >= 4 and key not in STOPWORDS:
                self.by_name.setdefault(key, []).append(r)

    def named_in(self, question: str) -> list[tuple[str, list[Record]]]:
        """The longest names found in `question` (as whole words), longest first."""
        words = fold(question).split()
        found: dict[str, list[Record]] = {}
        covered: set[int] = set()
        for size in range(min(_MAX_NAME_WORDS, len(words)), 0, -1):
            for i in range(len(words) - size + 1):
                if covered.issuperset(range(i, i + size)):
                    continue
                key = " ".join(words[i:i + size])
                if key in self.by_name:
                    found[key] = self.by_name[key]
                    covered.update(range(i, i + size))
        return list(found.items())


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
    words = [w for w in _WORDS.findall(question) if w.casefold() not in STOPWORDS]
    numbers = _NUMBER.findall(question)
    return " ".join([*numbers, *(w.casefold() for w in words)])


def rank(ref, question: str, limit: int = 3) -> list[Candidate]:
    """The `limit` records that best answer `question`, best first, each with its passage."""
    question = question.strip()[:MAX_QUESTION_CHARS]
    wanted = set(terms(question))
    edition_match = _EDITION.search(question)
    edition = int(edition_match.group(1)) if edition_match else None
    query = search_text(_EDITION.sub(" ", question))
    if not query.strip():
        raise NotFoundError("the question names no rule, unit or stratagem",
                            hint="ask about a rule, unit, stratagem or ability by name")
    pool: dict[tuple, Candidate] = {}
    try:
        hits = ref.search(query, edition=edition, limit=CANDIDATES).hits
    except QueryError:
        hits = []
    top = max((h.score for h in hits), default=1.0) or 1.0
    for h in hits:
        record = h.record
        pool.setdefault(_key(record), Candidate(record, score=h.score / top))
    for number in _NUMBER.findall(question):
        for r in ref.by_number(number):
            pool.setdefault(_key(r), Candidate(r)).score += 2.0
    for key, records in names_of(ref.corpus).named_in(question):
        weight = 1.0 + 0.2 * len(key.split())
        for r in records:
            if edition is None or r.edition == edition:
                c = pool.setdefault(_key(r), Candidate(r))
                c.named = True
                c.score += weight
    if not pool:
        raise NotFoundError(f"nothing in the store answers {question!r}",
                            hint="try other words, or the `search` tool with a record's name")
    newest = _newest_editions(pool.values())
    # Players ask about the rules they play now: the store's newest edition first, then its
    # predecessor (unless the question names an edition, which filtered the search above).
    current = {e: bonus for e, bonus in zip(ref.editions(), (0.5, 0.2))}
    for c in pool.values():
        c.label, c.passage, share = best_passage(c.record, wanted, points_line=ref.points_line)
        c.score += 1.5 * share + current.get(c.record.edition or 0, 0.0)
        c.score += 0.3 if newest.get(_edition_free(c.record)) == c.record.edition else 0.0
    ranked = sorted(pool.values(), key=lambda c: -c.score)
    return _distinct(ranked)[:limit]


def _key(record: Record) -> tuple:
    return (record.kind, fold(record_name(record)), fold(getattr(record, "faction", None) or ""),
            fold(getattr(record, "group", None) or ""), record.edition or 0, record.source.file)


def _edition_free(record: Record) -> tuple:
    return (record.kind, fold(record_name(record)), fold(getattr(record, "faction", None) or ""))


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
    for r in ref.faqs():
        text = fold(f"{record_name(r)} {getattr(r, 'answer', '') or getattr(r, 'text', '')}")
        if pattern.search(text) and (not r.edition or not record.edition or r.edition == record.edition):
            out.append(r)
            if len(out) == limit:
                break
    return out

