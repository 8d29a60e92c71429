"""Analyzers for the search index, and the synonym table players' shorthand goes through.

The index keeps every word (no stop filter), so a phrase query matches exactly the words in
quotes: Whoosh's default analyzer drops stop words and renumbers positions, which makes
"feel no pain" match "feel pain". Question words ("how", "what", "can") are dropped from
plain (unquoted) query words instead, in `search.py`.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

SYNONYMS_FILE = Path(__file__).with_name("synonyms.txt")

# Words a player's question is full of that say nothing about which rule is meant. Only plain
# query words are filtered; quoted phrases keep them.
QUERY_STOP_WORDS = frozenset("""
a an and are as at be by can could do does did for from has have how i if in into is it its
me my of on or our that the their them then there these they this to was what when where which
who whom why will with would you your happens happen work works get gets rule rules many much
""".split())

# \w+ keeps "3+" apart from "3"; an apostrophe inside a word ("can't") stays in the word.
TOKEN_PATTERN = r"\w+(?:'\w+)*\+?"
_TOKEN_RE = re.compile(TOKEN_PATTERN)


@functools.lru_cache(maxsize=None)
def text_analyzer():
    """Tokenize, fold case, stem (Porter). No stop filter, so positions are the real ones."""
    from whoosh.analysis import LowercaseFilter, RegexTokenizer, StemFilter

    return RegexTokenizer(TOKEN_PATTERN) | LowercaseFilter() | StemFilter(cachesize=50000)


@functools.lru_cache(maxsize=100000)
def stem(word: str) -> str:
    """The index form of one lower-case word (the same Porter stemmer the analyzer uses)."""
    from whoosh.lang.porter import stem as porter_stem

    return porter_stem(word)


def words(text: str) -> list[str]:
    """Lower-case words of `text` as the tokenizer splits them."""
    return _TOKEN_RE.findall(text.lower())


def terms(text: str) -> tuple[str, ...]:
    """The index terms of `text`: its words, lower-cased and stemmed."""
    return tuple(map(stem, words(text)))


@functools.lru_cache(maxsize=4)
def load_synonyms(path: str | None = None) -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The synonym table: each entry (as index terms) -> every entry of its group.

    Read from `synonyms.txt` (one group a line, entries separated by "|", "#" comments).
    """
    table: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}
    text = Path(path or SYNONYMS_FILE).read_text(encoding="utf-8")
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        group = tuple(dict.fromkeys(t for t in (terms(e) for e in line.split("|")) if t))
        for entry in group:
            merged = table.get(entry, ())
            table[entry] = tuple(dict.fromkeys(merged + group))
    return table


def fold_name(text: str) -> str:
    """Case- and punctuation-folded name ("Look Out, Sir" -> "look out sir"), for exact matches."""
    from ..names import fold

    return fold(text)
