"""The one module that knows the search engine (Whoosh): schema, building, lifecycle, running.

Everything else in `index/` speaks in plain Python (query nodes from `query.py`, documents
from `documents.py`), so the engine could be swapped for another by rewriting this module.

Where the index lives and when it is rebuilt is `lifecycle.py`'s business. A search opens
the index with `fastsearch.py` first, which reads Whoosh's files without importing Whoosh
(`rawread.py`) and asks this module only for what it cannot run.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Sequence

from . import analysis
from .evaluate import TermAtATime
from .plain import Plain

# Scored fields and their weight: a word in a record's name counts most, then its tags
# (faction, group, keywords, weapon names, section headings), then its text.
SCORED_FIELDS = {"name": 4.0, "tags": 2.0, "text": 1.0}
# Fields only filters look at (`faction:necrons`): the value's words must all be there.
FILTER_FIELDS = ("faction", "group", "keywords", "abilities", "weapons", "section")
EXACT_NAME_BOOST = 30.0
# A kind named among plain words ("... stratagem"); kinds are common, so idf is low (~2).
KIND_HINT_BOOST = 15.0
# A phrase of n words says more than one word: boost it by 1 + PHRASE_BOOST * (n - 1).
PHRASE_BOOST = 0.5
VOCABULARY_FILE = "words.txt"


def load_whoosh() -> None:
    """Import Whoosh's core without three imports it never uses on our path.

    Start-up time of `ruleslawyer search` is mostly imports, and half of Whoosh's is three
    modules it does not need here: `whoosh.compat` imports `urllib.request` (http.client,
    email, ssl) only to re-export `urlretrieve`; `whoosh.reading` imports the
    `cached_property` package, which imports asyncio, for one synchronous property; and
    `whoosh.query.terms` imports `whoosh.lang.morph_en` (large regexes compiled at import) for
    Variations queries, which we never build. While Whoosh is first imported, stand-ins serve
    those names (lazy `urlretrieve` and `variations`, functools' cached_property); they are
    removed right after, so any later import gets the real modules. A module already
    imported is simply used.
    """
    import sys

    if "whoosh.reading" in sys.modules:
        return
    import functools
    import types

    shims = {}
    if "urllib.request" not in sys.modules:
        def urlretrieve(*args, **kwargs):
            import importlib

            return importlib.import_module("urllib.request").urlretrieve(*args, **kwargs)

        shims["urllib.request"] = types.ModuleType("urllib.request")
        shims["urllib.request"].urlretrieve = urlretrieve
    if "whoosh.lang.morph_en" not in sys.modules:  # Variations queries only; compiles big regexes
        def variations(word):
            import importlib

            return importlib.import_module("whoosh.lang.morph_en").variations(word)

        shims["whoosh.lang.morph_en"] = types.ModuleType("whoosh.lang.morph_en")
        shims["whoosh.lang.morph_en"].variations = variations
    if "cached_property" not in sys.modules:
        shims["cached_property"] = types.ModuleType("cached_property")
        shims["cached_property"].cached_property = functools.cached_property
    sys.modules.update(shims)
    try:
        import whoosh.compat  # noqa: F401
        import whoosh.index  # noqa: F401
        import whoosh.query  # noqa: F401
        import whoosh.reading  # noqa: F401
        import whoosh.searching  # noqa: F401
    finally:
        for name, module in shims.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]


class Hit(Plain):
    """One result: engine score (float) and the stored fields of the document (dict)."""

    FIELDS = (("score", Plain.REQUIRED), ("fields", Plain.REQUIRED))
    FROZEN = True


def _schema():
    load_whoosh()
    from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

    text = analysis.text_analyzer()
    return Schema(
        kind=ID(stored=True), edition=ID(stored=True), cp=ID, phase=KEYWORD(lowercase=True),
        name_exact=ID(sortable=True), number=ID,
        # The record's content hash (lifecycle.py): what an incremental update deletes by. A
        # column, so the keys of a whole index are read in one go.
        key=ID(sortable=True),
        # Phrases match the word-pair terms of `pairs` (a Phrase over positions is ~10x slower);
        # positions are kept only in names (short, cheap). In the text they would be most of
        # the postings' bytes, and unpickling them most of the time a common word costs.
        name=TEXT(analyzer=text, stored=True),
        tags=TEXT(analyzer=text, phrase=False), text=TEXT(analyzer=text, phrase=False),
        pairs=KEYWORD(scorable=True),
        faction=TEXT(analyzer=text, phrase=False, stored=True), group=TEXT(analyzer=text, phrase=False, stored=True),
        keywords=TEXT(analyzer=text, phrase=False), abilities=TEXT(analyzer=text, phrase=False),
        weapons=TEXT(analyzer=text, phrase=False),
        section=TEXT(analyzer=text, phrase=False),
        snippet=STORED, data=STORED,
    )


def _weighting():
    """BM25F whose idf for name and tag words is the word's idf in the text.

    Whoosh computes idf per field, so a common word that is rare in names ("range",
    "rules") scored as if it were telling; measured on the whole text it is not.
    """
    load_whoosh()
    from whoosh import scoring

    class SharedIdfBM25F(scoring.BM25F):
        def scorer(self, searcher, fieldname, text, qf=1):
            scorer = super().scorer(searcher, fieldname, text, qf=qf)
            if fieldname in ("name", "tags") and isinstance(scorer, scoring.BM25FScorer):
                parent = searcher.get_parent()
                if parent.doc_frequency("text", text):
                    scorer.idf = parent.idf("text", text)
            return scorer

    return SharedIdfBM25F()


def _phrase(q, field: str, terms: tuple[str, ...], boost: float):
    """Words in this order: a positional Phrase in names, all word pairs elsewhere."""
    if field == "name":
        return q.Phrase("name", list(terms), boost=boost)
    pairs = [q.Term("pairs", f"{a}|{b}", boost=boost) for a, b in zip(terms, terms[1:])]
    return pairs[0] if len(pairs) == 1 else q.And(pairs)


def _union_tree_ors(q, query) -> None:
    """Make every Or in `query` a tree of union matchers.

    On an index of at most 5,000 documents Whoosh's automatic choice for an Or of more than
    two parts preloads every posting of every part into an array and scores them all; under an
    And (a fielded query) that is about 3x slower than the union tree, which can skip to the
    documents the filters leave (measured on the 4,097 records of the Wahapedia export).
    Larger indexes already get the tree.
    """
    if isinstance(query, q.Or):
        query.matcher_type = q.Or.DEFAULT_MATCHER
    for child in query.children():
        _union_tree_ors(q, child)


def compile_query(node):
    """Turn a query node of `query.py` into a Whoosh query.

    Nodes are tuples: ("terms", field|None, (term, ...)) one word or phrase (already index
    terms) in one field or in all scored fields, ("any", node, ...) synonyms (best one counts),
    ("and"|"or", node, ...), ("andmaybe", required, optional), ("not", node), ("id", field,
    value) an exact filter, ("all",) every document, ("exact_name", folded name) and
    ("kind_hint", kind) score bonuses.
    """
    load_whoosh()
    from whoosh import query as q

    op = node[0]
    if op == "terms":
        field, terms = node[1], node[2]
        if field in FILTER_FIELDS:
            parts = [q.Term(field, t) for t in terms]
            return parts[0] if len(parts) == 1 else q.And(parts)
        if field:
            return q.Term(field, terms[0]) if len(terms) == 1 else q.And(
                [_phrase(q, field, terms, 1.0)] + ([q.Term(field, t) for t in terms] if field != "name" else []))
        if len(terms) == 1:
            return q.Or([q.Term(name, terms[0], boost=boost) for name, boost in SCORED_FIELDS.items()])
        boost = 1 + PHRASE_BOOST * (len(terms) - 1)
        return q.Or([_phrase(q, "name", terms, SCORED_FIELDS["name"] * boost), _phrase(q, "pairs", terms, boost)])
    if op == "any":  # synonyms (a DisjunctionMax would rank the same here, but cannot skip blocks)
        return q.Or([compile_query(n) for n in node[1:]])
    if op == "and":
        return q.And([compile_query(n) for n in node[1:]])
    if op == "or":
        return q.Or([compile_query(n) for n in node[1:]])
    if op == "andmaybe":  # the first must match; the second only adds to the score
        return q.AndMaybe(compile_query(node[1]), compile_query(node[2]))
    if op == "not":
        return q.Not(compile_query(node[1]))
    if op == "id":
        return q.Term(node[1], node[2])
    if op == "kind_hint":
        return q.Term("kind", node[1], boost=KIND_HINT_BOOST)
    if op == "number":  # a printed rule number ("24.12") typed as a word
        return q.Term("number", node[1], boost=EXACT_NAME_BOOST)
    if op == "exact_name":
        return q.Term("name_exact", node[1], boost=EXACT_NAME_BOOST)
    if op == "all":
        return q.Every()
    raise ValueError(f"unknown query node {op!r}")


# ---------------------------------------------------------------- an open index
class Index:
    """An open index: run queries, look up term frequencies and spelling candidates."""

    def __init__(self, path: str | Path):
        load_whoosh()
        from whoosh.index import open_dir

        self.path = Path(path)
        self._ix = open_dir(str(self.path), readonly=True)
        self._searcher = self._ix.searcher(weighting=_weighting())
        self._reader = self._searcher.reader()
        self._evaluator = TermAtATime(self._searcher)

    def close(self) -> None:
        self._searcher.close()

    def __enter__(self) -> "Index":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def doc_count(self) -> int:
        return self._searcher.doc_count()

    def search(self, node, filters: Sequence = (), limit: int = 10, sort_by_name: bool = False,
               *, whoosh_collector: bool = False) -> list[Hit]:
        """The best `limit` documents for query node `node`, restricted by filter nodes.

        Queries run term at a time (`evaluate.py`); `whoosh_collector` runs them through
        Whoosh's own searcher instead (same scores, slower on common words; tests compare).
        """
        query = self.whoosh_query(node, filters)
        if not sort_by_name and not whoosh_collector:
            best = self._evaluator.top(query, limit)
            if best is not None:
                return [Hit(score, self._reader.stored_fields(docnum)) for score, docnum in best]
        if sort_by_name:
            results = self._searcher.search(query, limit=limit, sortedby="name_exact")
        else:
            results = self._searcher.search(query, limit=limit)
        return [Hit(0.0 if sort_by_name else (results.score(i) or 0.0), results[i].fields())
                for i in range(results.scored_length())]

    def whoosh_query(self, node, filters: Sequence = ()):
        """The Whoosh query for query node `node` and filter nodes, flattened for speed."""
        from whoosh import query as q

        parts = [compile_query(f) for f in filters]
        if node[0] != "all" or not parts:  # Whoosh's normalize() lets Every() swallow an And
            parts.insert(0, compile_query(node))
        query = parts[0] if len(parts) == 1 else q.And(parts)
        # Flatten nested Or/And (one word over three fields is an Or inside the Or of words):
        # Whoosh runs a flat Or several times faster than a tree of them.
        query = query.normalize()
        _union_tree_ors(q, query)
        return query

    def has_term(self, term: str) -> bool:
        """True when index term `term` (stemmed) occurs in any scored field."""
        return any(self._reader.doc_frequency(f, term) for f in SCORED_FIELDS)

    def close_words(self, word: str, maxdist: int) -> list[tuple[str, int]]:
        """Indexed words (unstemmed) within `maxdist` edits of `word`, most frequent first.

        Candidates share the first letter (typos there are rare, and it keeps this fast).
        """
        found = [(w, n) for w, n in self._vocabulary().get(word[:1], ())
                 if w != word and abs(len(w) - len(word)) <= maxdist and analysis.edit_distance(w, word, maxdist) <= maxdist]
        return sorted(found, key=lambda p: (-p[1], p[0]))

    def _vocabulary(self) -> dict[str, list[tuple[str, int]]]:
        if not hasattr(self, "_vocab"):
            self._vocab: dict[str, list[tuple[str, int]]] = {}
            path = self.path / VOCABULARY_FILE
            lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
            for line in lines:
                w, _, n = line.partition("\t")
                self._vocab.setdefault(w[:1], []).append((w, int(n or 1)))
        return self._vocab


def open_live(locate: Callable[[], Path], attempts: int = 3) -> Index:
    """Open the index folder `locate()` names, asking again if it vanished meanwhile.

    Builds keep the previous folder for readers, but a reader that was slow to open one can
    still find it removed by two later rebuilds; the pointer then names a newer folder.
    """
    load_whoosh()
    from whoosh.index import EmptyIndexError

    for attempt in range(attempts):
        try:
            return Index(locate())
        except (OSError, EmptyIndexError):
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


# ---------------------------------------------------------------- building
def create_index_dir(path: str | Path):
    """A new, empty index with our schema in folder `path` (created if needed)."""
    load_whoosh()
    from whoosh.index import create_in

    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    return create_in(str(path), _schema())


def open_writable(path: str | Path):
    """The index in `path`, opened for writing."""
    load_whoosh()
    from whoosh.index import open_dir

    return open_dir(str(path))


def bulk_writer(ix, *, limitmb: int = 256):
    """A fast writer (writer.BulkWriter) on index `ix`.

    One file per part, not Whoosh's compound file: opening a compound segment copies every
    part into memory (BytesIO over the mmap), 110 ms and the index's size in RAM for a 127 MB
    index, before the first search; separate files are read as needed.
    """
    from .writer import BulkWriter

    return BulkWriter(ix.writer(limitmb=limitmb, compound=False))


def build_index_dir(documents: Iterable[dict], path: str | Path, *, limitmb: int = 256,
                    progress=None, total: int | None = None, second: Iterable[dict] | None = None) -> int:
    """Write a new index of `documents` (from documents.make_document) into empty folder `path`.

    With `second` (the documents that follow, as a lazy iterable), a forked process writes
    those into a second segment while this one writes the first: both cores work, and the
    index lists the two segments in order (docnums as if written by one writer).

    Beside Whoosh's files goes `words.txt`, the unstemmed words of names and text with their
    document counts: what typo correction compares a word that matched nothing against.
    """
    from .writer import add_all, fork_segment

    ix = create_index_dir(path)
    child = fork_segment(ix, second, limitmb) if second is not None else None
    bulk = bulk_writer(ix, limitmb=limitmb)
    try:
        count, vocabulary = add_all(bulk, documents, progress, total)
        if child is None:
            bulk.commit()
        else:
            segments = [bulk.writer._finalize_segment()]
            segment, more, words = child.result()
            segments.append(segment)
            bulk.writer._commit_toc(segments)
            bulk.writer._finish()
            count += more
            vocabulary.update(words)
    except BaseException:
        if child is not None:
            child.kill()
        if not bulk.writer.is_closed:
            bulk.cancel()
        raise
    ix.close()
    write_vocabulary(path, vocabulary)
    return count


def write_vocabulary(path: str | Path, vocabulary) -> None:
    """Write `words.txt` (word, tab, document count) from a Counter of words, atomically."""
    import os

    words = "".join(f"{w}\t{n}\n" for w, n in sorted(vocabulary.items()) if n > 0 and w.isalpha())
    tmp = Path(path) / (VOCABULARY_FILE + ".tmp")
    tmp.write_text(words, encoding="utf-8")
    os.replace(tmp, Path(path) / VOCABULARY_FILE)


def read_vocabulary(path: str | Path):
    """The Counter `write_vocabulary` wrote (empty when there is none)."""
    from collections import Counter

    found: Counter = Counter()
    file = Path(path) / VOCABULARY_FILE
    if file.exists():
        for line in file.read_text(encoding="utf-8").splitlines():
            w, _, n = line.partition("\t")
            found[w] = int(n or 1)
    return found
