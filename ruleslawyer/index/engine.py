"""The module that knows the search engine (Whoosh): schema, building, lifecycle, running
(with the one collector of ours, `collectors.py`).

Everything else in `index/` speaks in plain Python (query nodes from `query.py`, documents
from `documents.py`), so the engine could be swapped for another by rewriting this module.

Where the index lives and when it is rebuilt is `lifecycle.py`'s business. Only Whoosh's
public API is used here (`open_dir`, `ix.writer()`, `searcher.search`, query objects, BM25F):
no module of the package reads Whoosh's files or private names (tests/test_dependency_internals.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, NamedTuple, Sequence

from . import analysis
from .collectors import edition_collector

# Scored fields and their weight: a word in a record's name counts most, then its tags
# (faction, group, keywords, weapon names, section headings), then its text.
SCORED_FIELDS = {"name": 4.0, "tags": 2.0, "text": 1.0}
# Fields only filters look at (`faction:necrons`): the value's words must all be there.
FILTER_FIELDS = ("faction", "group", "keywords", "abilities", "weapons", "section")
EXACT_NAME_BOOST = 30.0
# A record's whole name typed inside a longer query ("how many points are 10 boyz").
NAME_PART_BOOST = 12.0
# A kind named among plain words ("... stratagem"); kinds are common, so idf is low (~2).
KIND_HINT_BOOST = 15.0
# Up to this many documents are checked against an edition by skipping through its postings
# (Index.among_edition); more are checked against the edition's whole set of documents.
SKIP_THROUGH_EDITION = 32
# A phrase of n words says more than one word: boost it by 1 + PHRASE_BOOST * (n - 1).
PHRASE_BOOST = 0.5


class Hit(NamedTuple):
    """One result: engine score, the stored fields of the document (dict), the index terms of
    the query it matched (None when not recorded: `Index.search_keeping` with `terms`) and its
    document number in the open index."""

    score: float
    fields: dict | None  # None until read (`Index.with_fields`)
    terms: frozenset | None = None
    docnum: int = -1


def schema():
    """Our index schema (fields and analyzers), for `create_in`."""
    from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

    text = analysis.text_analyzer()
    return Schema(
        # name_exact is also a column: hits listed by name (a filter-only query) sort by it.
        kind=ID(stored=True), edition=ID(stored=True), cp=ID,
        phase=KEYWORD(lowercase=True),
        name_exact=ID(sortable=True), number=ID,
        # An FAQ's or erratum's document ("world eaters|11") and version: which printing of a
        # document is the newest is found by querying these (Index.versions). `date` is the
        # record's publication date (stored for results and for --as-of).
        document=ID(stored=True), version=ID(stored=True), date=ID(stored=True),
        # The record's content hash (lifecycle.py): what an incremental update deletes by. A
        # column, so the keys of a whole index are read in one go.
        key=ID(sortable=True),
        # Phrases match the word-pair terms of `pairs` (a Phrase over positions is ~10x slower);
        # positions are kept only in names (short, cheap). In the text they would be most of
        # the postings' bytes, and unpickling them most of the time a common word costs.
        name=TEXT(analyzer=text, stored=True),
        tags=TEXT(analyzer=text, phrase=False), text=TEXT(analyzer=text, phrase=False),
        pairs=KEYWORD(scorable=True),
        # The unstemmed words of name, tags and text, once a document: what typo correction
        # compares a word that matched nothing against (`reader.terms_within`).
        words=KEYWORD,
        faction=TEXT(analyzer=text, phrase=False, stored=True), group=TEXT(analyzer=text, phrase=False, stored=True),
        keywords=TEXT(analyzer=text, phrase=False), abilities=TEXT(analyzer=text, phrase=False),
        weapons=TEXT(analyzer=text, phrase=False),
        section=TEXT(analyzer=text, phrase=False),
        snippet=STORED, data=STORED,
    )


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
    value) an exact filter, ("all",) every document, ("exact_name", folded name),
    ("name_part", folded name) and ("kind_hint", kind) score bonuses.
    """
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
    if op == "name_part":
        return q.Term("name_exact", node[1], boost=NAME_PART_BOOST)
    if op == "all":
        return q.Every()
    raise ValueError(f"unknown query node {op!r}")


# ---------------------------------------------------------------- an open index
class Index:
    """An open index: run queries, look up term frequencies and spelling candidates."""

    def __init__(self, path: str | Path):
        from whoosh.index import open_dir

        self.path = Path(path)
        self.ix = open_dir(str(self.path), readonly=True)
        self.searcher = self.ix.searcher()  # Whoosh's BM25F; field weights are query boosts
        self.reader = self.searcher.reader()
        self._edition_docs: dict[str, frozenset] = {}  # edition -> its document numbers, read on demand

    def close(self) -> None:
        self.searcher.close()

    def __enter__(self) -> "Index":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def doc_count(self) -> int:
        return self.searcher.doc_count()

    def search(self, node, filters: Sequence = (), limit: int = 10, sort_by_name: bool = False,
               fields: bool = True) -> list[Hit]:
        """The best `limit` documents for query node `node`, restricted by filter nodes
        (by name instead of score with `sort_by_name`). Without `fields` the hits carry no
        stored fields yet (None: `with_fields` reads them)."""
        query = self.whoosh_query(node, filters)
        if sort_by_name:
            results = self.searcher.search(query, limit=limit, sortedby="name_exact")
            return [Hit(0.0, hit.fields(), docnum=hit.docnum) for hit in results]
        return [Hit(hit.score or 0.0, hit.fields() if fields else None, docnum=hit.docnum)
                for hit in self.searcher.search(query, limit=limit)]

    def search_keeping(self, node, filters: Sequence, limit: int, edition: str | None, edition_limit: int,
                       fields: bool = True, terms: bool = False) -> tuple[list[Hit], list[Hit]]:
        """`search`, and the best `edition_limit` documents of edition `edition` ("11"; None:
        none) among those it matched: what a second search restricted to that edition would
        find, from the same pass over the postings. With `terms`, each hit carries the query
        terms it matched (`Hit.terms`)."""
        docs = self.edition_docs(edition) if edition is not None else frozenset()
        collector = edition_collector(limit, docs, edition_limit, terms)
        self.searcher.search_with_collector(self.whoosh_query(node, filters), collector)
        matched = collector.matched.get if terms else (lambda docnum: None)
        best = [Hit(hit.score or 0.0, None, matched(hit.docnum), hit.docnum) for hit in collector.results()]
        current = [Hit(score, None, matched(docnum), docnum) for score, docnum in collector.best_of_edition()]
        return (self.with_fields(best), self.with_fields(current)) if fields else (best, current)

    def with_fields(self, hits: Sequence[Hit]) -> list[Hit]:
        """`hits` each with its stored fields (read now for those that have none yet)."""
        return [h if h.fields is not None else h._replace(fields=self.stored(h.docnum)) for h in hits]

    def edition_docs(self, edition: str) -> frozenset:
        """The document numbers of edition `edition` (kept for the life of this open index)."""
        from whoosh import query as q

        if edition not in self._edition_docs:
            self._edition_docs[edition] = frozenset(self.searcher.docs_for_query(q.Term("edition", edition)))
        return self._edition_docs[edition]

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

    def printings(self, names: Sequence[str], filters: Sequence = (),
                  editions: Sequence[int] | None = None) -> list[tuple[int, dict]]:
        """(docnum, stored fields) of every document named exactly one of `names` (folded, as
        documents.make_document folds them) that the filter nodes allow, of one of `editions`
        when given (only those documents' fields are read)."""
        names = [n for n in names if self.reader.doc_frequency("name_exact", n) > 1]  # others: only the hit
        if not names:
            return []
        query = self.whoosh_query(("or", *(("exact_name", n) for n in names)), filters)
        docs = list(self.searcher.docs_for_query(query))
        if editions is not None:
            docs = sorted(set().union(*(self.among_edition(docs, str(e)) for e in editions)))
        return [(d, self.stored(d)) for d in docs]

    def among_edition(self, docs: Sequence[int], edition: str) -> set[int]:
        """Those of document numbers `docs` (ascending) that are of edition `edition` ("10").

        A few are looked up by skipping through the edition's postings (it holds thousands of
        documents: reading them all costs a cold search more than the rest of its work); many,
        in the edition's set of documents, read once for the life of the open index."""
        if not docs or not self.reader.doc_frequency("edition", edition):
            return set()
        if len(docs) > SKIP_THROUGH_EDITION or edition in self._edition_docs:
            return self.edition_docs(edition).intersection(docs)
        postings = self.reader.postings("edition", edition)
        found = set()
        for docnum in docs:
            postings.skip_to(docnum)
            if not postings.is_active():
                break
            if postings.id() == docnum:
                found.add(docnum)
        return found

    def versions(self, document: str) -> list[tuple[str, str]]:
        """(version, date) of every version of the FAQ or errata document `document` (as
        documents.document_key names it), the date that of the version's first record. Kept
        for the life of this open index (a snapshot).

        Version terms are few (labels such as "1.2" are shared by every document): the version
        of every versioned document is read from their postings once, and then one stored
        record per version of `document` (a document may hold hundreds of records)."""
        from whoosh import query as q

        if not hasattr(self, "_versions"):
            self._versions: dict[str, list[tuple[str, str]]] = {}
            self._version_of: dict[int, str] = {}
            for term in self.reader.lexicon("version"):
                version = term.decode("utf-8") if isinstance(term, bytes) else term
                if version:
                    self._version_of.update(dict.fromkeys(self.searcher.docs_for_query(q.Term("version", version)),
                                                          version))
        if document not in self._versions:
            first: dict[str, int] = {}
            for docnum in self.searcher.docs_for_query(q.Term("document", document)):
                version = self._version_of.get(docnum)
                if version is not None:
                    first.setdefault(version, docnum)
            self._versions[document] = sorted((v, self.stored(d).get("date") or "") for v, d in first.items())
        return self._versions[document]

    def stored(self, docnum: int) -> dict:
        """The stored fields of document `docnum`."""
        return self.reader.stored_fields(docnum)

    def text_frequency(self, term: str) -> int:
        """How many documents hold index term `term` in their text."""
        return self.reader.doc_frequency("text", term)

    def has_term(self, term: str) -> bool:
        """True when index term `term` (stemmed) occurs in any scored field."""
        return any(self.reader.doc_frequency(f, term) for f in SCORED_FIELDS)

    def close_words(self, word: str, maxdist: int) -> list[tuple[str, int]]:
        """Indexed words (unstemmed) within `maxdist` edits of `word`, most frequent first.

        Candidates share the first letter (typos there are rare, and it keeps this fast).
        """
        found = [(w, self.reader.doc_frequency("words", w))
                 for w in self.reader.terms_within("words", word, maxdist, prefix=1) if w != word]
        return sorted(found, key=lambda p: (-p[1], p[0]))

    def editions(self) -> list[int]:
        """The numbered editions the index holds, newest first."""
        if not hasattr(self, "_editions"):
            found = (t.decode("utf-8") if isinstance(t, bytes) else t for t in self.reader.lexicon("edition"))
            self._editions = sorted((int(t) for t in found if t.isdigit()), reverse=True)
        return self._editions


def open_live(locate: Callable[[], Path], attempts: int = 3) -> Index:
    """Open the index folder `locate()` names, asking again if it vanished meanwhile.

    Builds keep the previous folder for readers, but a reader that was slow to open one can
    still find it removed by two later rebuilds; the pointer then names a newer folder.
    """
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
    from whoosh.index import create_in

    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    return create_in(str(path), schema())


def open_writable(path: str | Path):
    """The index in `path`, opened for writing."""
    from whoosh.index import open_dir

    return open_dir(str(path))


def writer(ix, *, limitmb: int = 256):
    """Whoosh's writer on index `ix`, writing one file per part.

    Not Whoosh's compound file: opening a compound segment reads every part into memory before
    the first search; separate files are read as needed.
    """
    return ix.writer(limitmb=limitmb, compound=False)


def add_documents(w, documents: Iterable[dict], progress=None, total: int | None = None) -> int:
    """Add `documents` (documents.make_document) through Whoosh writer `w`; returns how many."""
    count = 0
    for count, doc in enumerate(documents, 1):
        w.add_document(**doc)
        if progress is not None and (count % 200 == 0 or count == total):
            progress(count, total or count)
    return count


def build_index_dir(documents: Iterable[dict], path: str | Path, *, limitmb: int = 256,
                    progress=None, total: int | None = None) -> int:
    """Write a new index of `documents` (from documents.make_document) into empty folder `path`;
    returns the number of documents."""
    ix = create_index_dir(path)
    w = writer(ix, limitmb=limitmb)
    try:
        count = add_documents(w, documents, progress, total)
    except BaseException:
        w.cancel()
        ix.close()
        raise
    w.commit()
    ix.close()
    return count
