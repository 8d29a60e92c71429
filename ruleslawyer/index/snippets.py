"""The snippet of a search hit: the sentence of its text that answers the query best, cut to
one line around the words that matched.

A question names common words and one or two that carry its point ("can a unit shoot after
advancing": *advancing*). Each passage scores the weights of the query terms it holds (their
rarity in the index, `term_weights`), leaving out the terms the hit's name already shows; a
question asking for a number ("how far", "how many points") prefers a passage that prints one.
Lines a PDF wrapped mid-sentence are joined first, and a bullet keeps the line that leads into
it ("... unless one or more of the following apply: ■ It is battle-shocked.").
"""
from __future__ import annotations

import math
import re

from ..sentences import ends_with_abbreviation
from . import analysis

SNIPPET_CHARS = 200
# A wrapped line: the next line goes on with a lower-case word, a bracket or a quote.
_WRAPPED = re.compile(r"\n(?=[a-z(\"'’‘“])")
# Sentence ends inside a passage ("... this turn. EFFECT: ...").
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z■•●▪▫◦\"“])")
_BULLET = re.compile(r"^\s*[■•●▪▫◦\-–]\s*")
# Numbers that answer "how far / how many": 3", 50%, 2D6, 4+, 12 models, 100 pts.
MEASURE = re.compile(r"\d+\s*(?:\"|”|″|%|\+|D\d|mm|pts?\b|points\b|CP\b)|\bD\d|\d+\s+(?:models?|inch)", re.I)
# Question words asking for a number.
_NUMBER_QUESTION = re.compile(r"\bhow\s+(?:far|close|many|much|long|big)\b|\bdistance\b|\brange\b|\bcost\b", re.I)


def asks_for_number(query: str) -> bool:
    """Whether a query asks for a number ("how far", "how many", "distance", "cost")."""
    return bool(_NUMBER_QUESTION.search(query))


def term_weights(doc_frequency, doc_count: int, terms) -> dict[str, float]:
    """Index term -> its weight in a snippet: the inverse document frequency of the term
    (`doc_frequency(term)`), so the rare words of a question count most."""
    return {t: 1.0 + math.log((doc_count + 1) / (doc_frequency(t) + 1)) for t in terms}


def passages(text: str) -> list[str]:
    """`text` as sentences: wrapped lines joined, each line split at its sentence ends, a
    bullet prefixed with the line that leads into it (one ending in a colon)."""
    return [passage for passage, _ in _numbered_passages(text)]


def _numbered_passages(text: str) -> list[tuple[str, int]]:
    """`passages` of `text`, each with the number of the line (paragraph) it is from."""
    out: list[tuple[str, int]] = []
    lead = ""
    for number, line in enumerate(_WRAPPED.sub(" ", text).split("\n")):
        line = line.strip()
        if not line:
            continue
        if _BULLET.match(line) and lead:
            out.append((f"{lead} {line}", number))
            continue
        lead = line if line.endswith(":") else ""
        sentences: list[str] = []
        for piece in _SENTENCE_END.split(line):
            if piece and sentences and ends_with_abbreviation(sentences[-1]):  # "(e.g. Stealth)"
                sentences[-1] = f"{sentences[-1]} {piece}"
            elif piece:
                sentences.append(piece)
        out.extend((s, number) for s in sentences)
    return out


def _term_finder(terms: set[str]) -> re.Pattern | None:
    """A regex that finds words which may stem to one of `terms` (checked by stemming after).

    Porter stems are word prefixes except for a final y -> i ("deny" -> "deni"), so the stem
    minus its last letter is a safe prefix; regex scanning is much cheaper than stemming
    every word of every passage.
    """
    prefixes = sorted({t[:-1] if len(t) > 3 else t for t in terms if t}, key=len, reverse=True)
    if not prefixes:
        return None
    return re.compile(r"\b(?:" + "|".join(map(re.escape, prefixes)) + r")[\w']*\+?", re.I)


def _matches(finder: re.Pattern | None, passage: str, terms: set[str]) -> list[tuple[int, int, str]]:
    if finder is None:
        return []
    return [(m.start(), m.end(), stem) for m in finder.finditer(passage)
            if (stem := analysis.stem(m.group(0).lower())) in terms]


def make_snippet(text: str, terms: set[str], width: int = SNIPPET_CHARS, *, weights: dict | None = None,
                 shown: set[str] = frozenset(), wants_number: bool = False) -> tuple[str, list[tuple[int, int]]]:
    """The passage of `text` that answers the query terms `terms` best, cut to `width` around
    its matches. `weights`: term -> weight (default 1 each); `shown`: terms the hit's name
    already shows (they count only between passages otherwise equal); `wants_number`: prefer a
    passage printing a number. Returns the snippet and the (start, end) ranges of matched words."""
    finder = _term_finder(terms)
    weights = weights or {}
    numbered = _numbered_passages(text)
    parts = [passage for passage, _ in numbered]
    best, best_spans, best_score, at = "", [], (0.0, 0.0, 0), 0
    for i, passage in enumerate(parts):
        found = _matches(finder, passage, terms)
        stems = {stem for _, _, stem in found}
        score = (sum(weights.get(s, 1.0) for s in stems - shown)
                 + (max(weights.values(), default=1.0) if wants_number and stems and MEASURE.search(passage) else 0.0),
                 sum(weights.get(s, 1.0) for s in stems & shown),
                 0 if passage.endswith(":") else 1)  # a lead-in line gives way to itself with a bullet
        if score > best_score:
            best, best_spans, best_score, at = passage, found, score, i
    if best_score[:2] == (0.0, 0.0):  # nothing matched (a filter-only query): the first real passage
        parts = parts or [text]
        best = next((p for p in parts if len(p) > 40), parts[0])
    else:  # room left: the sentences that follow in its paragraph ("... Unless otherwise stated, ...")
        while at + 1 < len(numbered) and numbered[at + 1][1] == numbered[at][1] \
                and len(best) + 1 + len(numbered[at + 1][0]) <= width:
            at += 1
            best = f"{best} {numbered[at][0]}"
    start = _window(best, best_spans, width, weights, wants_number)
    cut = _cut(best, start, width)
    if start + width < len(best):
        cut += " ..."
    prefix = "... " if start else ""
    highlights = [(s - start + len(prefix), e - start + len(prefix)) for s, e, _ in best_spans
                  if s >= start and e <= start + len(cut)]
    return prefix + cut, highlights


def _window(passage: str, spans: list, width: int, weights: dict, wants_number: bool) -> int:
    """Where to start a `width` cut of `passage`: the start of the passage when it fits, else
    the cut (starting a little before a match, at a word) holding the most matched weight, and
    a number when one is wanted; then the cut reaching the passage's end; then the earliest."""
    if len(passage) <= width or not spans:
        return 0
    best_start, best_score = 0, (-1.0, -1.0, -1.0)
    for s, _, _ in spans:
        start = max(0, s - width // 4)
        start = passage.rfind(" ", 0, start) + 1 if start else 0
        window = _cut(passage, start, width)
        held = {stem for a, b, stem in spans if a >= start and b <= start + len(window)}
        score = (sum(weights.get(t, 1.0) for t in held), 1.0 if wants_number and MEASURE.search(window) else 0.0)
        if wants_number:
            score = (score[1], score[0])
        # Between cuts holding as much, one reaching the passage's end shows how it concludes
        # (the effect of a rule comes after its conditions).
        score = (*score, 1.0 if start + len(window) >= len(passage) else 0.0)
        if score > best_score:
            best_start, best_score = start, score
    return best_start


def _cut(passage: str, start: int, width: int) -> str:
    """`width` characters of `passage` from `start`, ending at the last whole word when the
    passage goes on after them."""
    cut = passage[start:start + width]
    if start + width < len(passage) and " " in cut:
        cut = cut[:cut.rfind(" ")]
    return cut
