"""The library's search: `search(store, query)` -> ranked hits with highlighted snippets.

Keeps the index fresh (updated from the amended records when the store changed), parses the
query (`query.py`), retries words that match nothing with the closest indexed word ("showing
results for ..."), and cuts a snippet around the matched words of each hit.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import QueryError
from . import analysis, editions
from .query import ParsedQuery, normalize_edition, normalize_kind, parse_query
from .snippets import asks_for_number, make_snippet, term_weights

# The engine's best this many hits at least are reordered (the share of the query each hit
# answers, the current edition, superseded versions) before the first `limit` are kept. (The
# current edition's best hits join them from the same pass: editions.ranked.)
POOL = 10


@dataclass
class SearchHit:
    """One result: the record (as its records.md dict, errata applied), score and snippet.

    highlights: (start, end) character ranges of matched words inside `snippet`; date: the
    publication date of the record (its own or its file's) when known; superseded_by: the newer
    version of its document that replaces this FAQ entry or erratum ("World Eaters v1.1").
    """

    name: str
    data: dict
    score: float
    snippet: str
    highlights: list = field(default_factory=list)
    date: str | None = None
    superseded_by: str | None = None

    @property
    def kind(self) -> str:
        return self.data["kind"]

    @property
    def record(self):
        """The Record itself (built on demand: most callers only need the dict)."""
        from ..records_json import from_dict

        return from_dict(self.data)

    @property
    def edition(self) -> int | None:
        return self.data.get("edition")

    @property
    def file(self) -> str | None:
        """The file the record was read from."""
        return (self.data.get("source") or {}).get("file")

    def to_json(self) -> dict[str, Any]:
        return {**self.data, "edition": self.edition, "file": self.file, "date": self.date,
                "superseded_by": self.superseded_by, "score": round(self.score, 3), "snippet": self.snippet,
                "highlights": [list(h) for h in self.highlights]}


@dataclass
class SearchResult:
    """What a search found: query, hits, corrected (the query actually run when typos were
    fixed, else None) and suggestions (for an empty result)."""

    query: str
    hits: list
    corrected: str | None = None
    suggestions: list = field(default_factory=list)


# ---------------------------------------------------------------- the index of a store
def _source(store):
    from .lifecycle import Source

    def load():
        from ..library.corpus import load_corpus

        corpus = load_corpus(store)
        # The entries a newer version of their document dropped are indexed too: `--as-of` a
        # date before that version finds them, and otherwise they rank after every current hit,
        # marked "superseded by" (see `superseded_by`).
        return corpus.records + corpus.superseded, corpus.stored_hashes, corpus.date_of

    return Source(load)


def ensure_index(store, *, progress=None, notice=None, damaged: str | None = None) -> Path:
    """The folder of an up-to-date index of `store`: updated in place for what changed, built
    in full when there is none (or it is damaged, with a `notice`)."""
    from . import lifecycle

    return lifecycle.ensure_fresh(store.path, lambda: store.generation, _source(store), progress=progress,
                                  notice=notice, damaged=damaged)


def update_after_ingest(db: str | Path | None, progress=None, notice=None) -> Path | None:
    """Bring the index of the store at `db` up to date (what `ingest` calls at its end), so
    the first search after an ingest is instant. Only the changed documents are rewritten.

    `progress(done, total)` is called while documents are added; `notice(line)` gets a
    one-line message when a damaged index had to be rebuilt. An empty store is left alone
    (the first query command fills it with the shipped corpus, then builds the index).
    """
    from ..library.corpus import open_store

    with open_store(db) as store:
        if store.is_empty():
            return None
        return ensure_index(store, progress=progress, notice=notice)


def search(store, query: str, *, kind: str | None = None, faction: str | None = None,
           edition: int | str | None = None, limit: int = 10, notice=None, as_of: str | None = None) -> SearchResult:
    """Search the records of `store` (errata applied).

    `query` uses the syntax of `query.py`; `kind`, `faction` and `edition` add the same
    filters as `kind:`, `faction:` and `edition:`. An FAQ entry or erratum of a document version
    that a newer stored version supersedes (published by `as_of`, when given) comes after the
    others, marked `superseded_by`. Raises QueryError for a malformed query.
    A damaged index is rebuilt (`notice` gets one line saying so).
    """
    parsed = parse_query(query)  # a malformed query fails before any index work
    return _with_repair(lambda damaged: ensure_index(store, notice=notice, damaged=damaged),
                        lambda index: search_index(index, query, kind=kind, faction=faction, edition=edition,
                                                   limit=limit, parsed=parsed, as_of=as_of))


def search_db(db: str | Path | None, query: str, *, progress=None, notice=None, **options) -> SearchResult:
    """`search` given the store's path: when the index is already fresh, the store is only
    asked for its generation (one SQLite read), so a search does not load the records.

    `db` None means the default store. Options as for `search`.
    """
    if db is None:
        from ..store import default_db_path

        db = default_db_path()
    parsed = parse_query(query)
    return _with_repair(lambda damaged: _live_index(db, progress, notice, damaged),
                        lambda index: search_index(index, query, parsed=parsed, **options))


def _with_repair(locate, run):
    """Open the live index and run `run(index)`; an index that fails to open or read is
    rebuilt once (a derived file: nothing is lost) and the search run again."""
    from ..errors import RuleslawyerError
    from .engine import open_live

    state: dict = {"damaged": None}

    def locate_once():  # a damaged index is rebuilt once, not again on open_live's retries
        damaged, state["damaged"] = state["damaged"], None
        return locate(damaged)

    for attempt in range(2):
        try:
            with open_live(locate_once) as index:
                return run(index)
        except RuleslawyerError:
            raise
        except Exception as exc:  # a truncated or garbage segment: Whoosh raises many kinds
            if attempt:
                raise
            from .lifecycle import describe

            state["damaged"] = describe(exc)
    raise AssertionError("unreachable")


def _live_index(db: str | Path, progress=None, notice=None, damaged: str | None = None) -> Path:
    """The fresh index folder of the store at `db`; opens the Store only to update it."""
    from .lifecycle import index_root, is_fresh, read_current

    current = read_current(index_root(db))
    generation = _stored_generation(db) if current and damaged is None else None
    if current and generation is not None and is_fresh(current, generation):
        return index_root(db) / current["dir"]
    from ..library.corpus import open_store

    with open_store(db) as store:
        return ensure_index(store, progress=progress, notice=notice, damaged=damaged)


def _stored_generation(db: str | Path) -> int | None:
    """The store's generation counter read straight from SQLite (see Store.generation), or
    None when that is not possible (no file yet, older schema): the caller opens the Store."""
    import sqlite3

    try:
        conn = sqlite3.connect(f"file:{Path(db).resolve()}?mode=ro", uri=True, timeout=60)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return int(row[0]) if row else 0


def option_filters(kind=None, faction=None, edition=None) -> list[tuple]:
    """Filter nodes for the --kind/--faction/--edition options."""
    out = []
    if kind:
        out.append(("id", "kind", normalize_kind(kind)))
    if faction:
        out.append(("terms", "faction", analysis.terms(faction)))
    if edition is not None and str(edition) != "":
        out.append(("id", "edition", normalize_edition(str(edition))))
    return out


def search_index(index, query: str, *, kind=None, faction=None, edition=None, limit: int = 10,
                 parsed: ParsedQuery | None = None, as_of: str | None = None) -> SearchResult:
    """Run `query` against an open `engine.Index` (what `search` does once the index is fresh)."""
    parsed = parsed or parse_query(query)
    filters = parsed.filters + option_filters(kind, faction, edition)
    if not parsed.has_terms and not filters:
        raise QueryError("nothing to search for", hint='give words, a "phrase" or a filter such as kind:stratagem')
    corrected = None
    fixes = _corrections(index, parsed)
    if fixes:
        corrected_text = _apply_fixes(query, fixes)
        parsed = parse_query(corrected_text)
        filters = parsed.filters + option_filters(kind, faction, edition)
        corrected = corrected_text
    if parsed.has_terms:
        raw = editions.ranked(index, parsed.node, filters, parsed.concepts, max(limit, POOL))
    else:
        raw = index.search(parsed.node, filters, limit=limit, sort_by_name=True)
    raw = editions.superseded_last(index, raw, as_of)[:limit]
    weights = term_weights(index.text_frequency, index.doc_count, parsed.highlight_terms)
    wants_number = asks_for_number(corrected or query)
    hits = [_hit(h, parsed, weights, wants_number) for h in raw]
    result = SearchResult(query=query, hits=hits, corrected=corrected)
    if not hits:
        result.suggestions = _suggestions(index, parsed, filters)
    return result


# ---------------------------------------------------------------- typo tolerance
def _corrections(index, parsed: ParsedQuery) -> dict[str, str]:
    """word -> closest indexed word, for every query word that matches nothing at all.

    Words the synonym table knows (invuln, FNP, DS) are never corrected: their expansion is
    what they mean, even when the word itself is in no record.
    """
    fixes = {}
    for word in dict.fromkeys(parsed.plain_words):
        if len(word) < 4 or not word.isalpha() or word in parsed.known_words:
            continue
        if index.has_term(analysis.stem(word)):
            continue
        close = index.close_words(word, 1) or (index.close_words(word, 2) if len(word) >= 6 else [])
        if close:
            fixes[word] = close[0][0]
    return fixes


def _apply_fixes(query: str, fixes: dict[str, str]) -> str:
    def swap(m: re.Match) -> str:
        word = m.group(0)
        return fixes.get(word.lower(), word)

    return re.sub(analysis.TOKEN_PATTERN, swap, query)


def _suggestions(index, parsed: ParsedQuery, filters: list[tuple]) -> list[str]:
    """Hints for an empty result: the filters that emptied it, names sharing a word."""
    out = []
    if filters and parsed.has_terms and index.search(parsed.node, (), limit=1):
        out.append("remove the filters (" + ", ".join(_describe(f) for f in filters) + ")")
    stems = {analysis.stem(w) for w in parsed.plain_words}
    if stems:
        named = index.search(("or", *(("terms", "name", (s,)) for s in sorted(stems))), limit=5)
        out.extend(dict.fromkeys(h.fields["name"] for h in named))
    return out[:6]


def _describe(node: tuple) -> str:
    if node[0] == "id":
        return f"{node[1]}:{node[2]}"
    return f"{node[1]}:{' '.join(node[2])}"


# ---------------------------------------------------------------- hits
def as_printing(hit: SearchHit, data: dict, query: str, date: str | None = None) -> SearchHit:
    """`hit` showing another printing of its record (records.md dict `data`: the printing of an
    earlier date, say, published on `date`), its snippet cut from that printing's text as the
    index cuts any hit's."""
    import dataclasses

    from ..records_json import from_dict
    from .documents import make_document

    text = make_document(from_dict(data)).get("snippet") or data.get("name") or ""
    snippet, highlights = _snippet(text, data.get("name"), parse_query(query).highlight_terms, None,
                                   asks_for_number(query))
    return dataclasses.replace(hit, data=data, snippet=snippet, highlights=highlights, date=date)


def _hit(raw, parsed: ParsedQuery, weights: dict, wants_number: bool) -> SearchHit:
    text = raw.fields.get("snippet") or raw.fields.get("name") or ""
    snippet, highlights = _snippet(text, raw.fields.get("name"), parsed.highlight_terms, weights, wants_number)
    return SearchHit(name=raw.fields["name"], data=json.loads(raw.fields["data"]), score=raw.score,
                     snippet=snippet, highlights=highlights, date=raw.fields.get("date") or None,
                     superseded_by=raw.fields.get("superseded_by"))


def _snippet(text: str, name: str | None, terms: set[str], weights: dict | None, wants_number: bool):
    """`make_snippet` of a hit's text, the query terms its name already shows counted last."""
    shown = set(analysis.terms(name or "")) & terms
    return make_snippet(text, terms, weights=weights, shown=shown, wants_number=wants_number)
