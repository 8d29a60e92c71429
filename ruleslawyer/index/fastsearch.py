"""A search that opens the index without importing Whoosh (the cold start of `search`).

Most of a search process's time was importing Whoosh: unpickling its TOC (fields, analysis,
formats), the query, searching and scoring modules. `rawread.py` reads the same files
without them; this module runs the common query shapes on it exactly as `engine.Index.search`
and `evaluate.TermAtATime` do: the same Whoosh query tree (built here as plain tuples, and
normalised by the rules of Whoosh's `normalize()`: nested Or/And flattened, duplicates
dropped, one-part compounds unwrapped), the same statistics (shared idf of `engine._weighting`,
BM25F with Whoosh's B and K1), the same order of every float operation, ties to the lower
document number. Anything else -- a positional phrase over names, a filter-only (sorted)
query, an index this reader does not know -- is handed to the Whoosh index, opened then.
`tests/test_search_fastpath.py` compares hits, order and scores with the Whoosh path.
"""
from __future__ import annotations

from math import log
from pathlib import Path
from typing import Callable, Sequence

from . import analysis, evaluate
from .engine import SCORED_FIELDS, Hit
from .evaluate import and_scores, best_of, pruned_or, union_scores
from .querytree import NULL, Unsupported, boost_of, query_tree
from .rawread import LENGTH_OF_BYTE, RawIndex, UnreadableIndex

B, K1 = 0.75, 1.2  # whoosh.scoring.BM25F's defaults, which engine._weighting keeps


# ---------------------------------------------------------------- evaluation
class _Stats:
    """Index-wide statistics (Whoosh's parent searcher): idf, average field lengths."""

    def __init__(self, raw: RawIndex):
        self.raw = raw
        self._idf: dict = {}

    def idf(self, field: str, text: str) -> float:
        key = (field, text)
        if key not in self._idf:
            self._idf[key] = log(self.raw.doc_count_all / (self.raw.doc_frequency(field, text) + 1)) + 1
        return self._idf[key]

    def scorer(self, field: str, text: str) -> tuple[float, float] | None:
        """(idf, avgfl) of a BM25F field (engine._weighting's shared idf), None for weights."""
        if not self.raw.scorable[field]:
            return None
        idf = self.idf(field, text)
        if field in ("name", "tags") and self.raw.doc_frequency("text", text):
            idf = self.idf("text", text)
        avgfl = self.raw.field_length(field) / (self.raw.doc_count_all or 1) or 1
        return idf, avgfl


class SegmentEval:
    """evaluate.TermAtATime's arithmetic on one segment of a RawIndex."""

    def __init__(self, segment, stats: _Stats):
        self.seg = segment
        self.stats = stats
        self.deleted = segment.deleted
        self.doc_count = segment.doc_count_all - len(segment.deleted)
        self._denominators: dict = {}

    def top(self, q: tuple, limit: int) -> list[tuple[float, int]]:
        if evaluate.PRUNE and q[0] == "or" and q[1] == 1.0 and all(s[0] == "term" for s in q[2]):
            scores = self._pruned_or(q[2], limit)
        else:
            scores = self.scores(q)
        return best_of(scores, limit)

    def _pruned_or(self, terms, limit: int) -> dict[int, float]:
        return pruned_or(terms, limit, self._upper_bound, self._term)

    def _lookup(self, term: tuple):
        field, text = term[1], term[2]
        if field not in self.stats.raw.scorable:
            return None
        info = self.seg.term_info(field, text)
        if info is None:
            return None
        return info, self.stats.scorer(field, text)

    def _upper_bound(self, term: tuple) -> float:
        found = self._lookup(term)
        if found is None:
            return 0.0
        info, scorer = found
        weight = info.max_weight
        if scorer is None:
            return weight * term[3] * (1 + 1e-9)
        idf, avgfl = scorer
        length_part = K1 * ((1 - B) + B * info.min_length / avgfl)
        return idf * (K1 + 1) * weight / (weight + length_part) * term[3] * (1 + 1e-9)

    def estimate_size(self, q: tuple) -> int:
        kind = q[0]
        if kind == "term":
            info = self.seg.term_info(q[1], q[2]) if q[1] in self.stats.raw.scorable else None
            return info.doc_frequency if info is not None else 0
        if kind == "and":
            return min(self.estimate_size(s) for s in q[2])
        if kind == "not":
            return self.doc_count
        parts = q[2] if kind == "or" else (q[1], q[2])
        return min(sum(self.estimate_size(s) for s in parts), self.doc_count)

    def scores(self, q: tuple, within=None) -> dict[int, float]:
        kind = q[0]
        if kind == "term":
            return self._term(q, within)
        if q is NULL:
            return {}
        if kind == "or":
            found = union_scores([self.scores(sub, within) for sub in q[2]])
        elif kind == "and":
            found = self._and(q, within)
        elif kind == "andmaybe":
            found = self.scores(q[1], within)
            if found:
                optional = self.scores(q[2], found)
                get = optional.get
                found = {d: s + get(d, 0.0) for d, s in found.items()}
        else:
            raise Unsupported(kind)
        boost = boost_of(q)
        if boost != 1.0:
            found = {d: s * boost for d, s in found.items()}
        return found

    def _and(self, q: tuple, within) -> dict[int, float]:
        positive = [sub for sub in q[2] if sub[0] != "not"]
        negative = [sub[1] for sub in q[2] if sub[0] == "not"]
        if not positive:
            raise Unsupported("only NOT parts")
        positive.sort(key=self.estimate_size)
        return and_scores(positive, negative, within, self.scores)

    def _term(self, term: tuple, within=None) -> dict[int, float]:
        found = self._lookup(term)
        if found is None:
            return {}
        info, scorer = found
        boost = term[3]
        if within is not None and len(within) * evaluate.SKIP_RATIO < info.doc_frequency:
            return self._term_at(term, info, scorer, sorted(within))
        ids, weights = self.seg.postings(info)
        if self.deleted:
            deleted = self.deleted
            kept = [i for i, d in enumerate(ids) if d not in deleted]
            ids, weights = [ids[i] for i in kept], [weights[i] for i in kept]
        if within is not None:
            kept = [i for i, d in enumerate(ids) if d in within]
            ids, weights = [ids[i] for i in kept], [weights[i] for i in kept]
        if scorer is None:
            return {d: w * boost for d, w in zip(ids, weights)}
        idf, avgfl = scorer
        per_doc = self._per_doc_denominators(term[1], avgfl)
        factor = idf * (K1 + 1) * boost
        return {d: factor * w / (w + per_doc[d]) for d, w in zip(ids, weights)}

    def _term_at(self, term: tuple, info, scorer, docnums: list[int]) -> dict[int, float]:
        """Whoosh's matcher path (skip to each document, score it with the scorer's own
        formula, times the boost when it is not 1)."""
        ids, weights = self.seg.postings(info)
        wanted = set(docnums)
        lengths = self.seg.length_bytes(term[1]) if scorer is not None else None
        boost = term[3]
        found = {}
        for d, w in zip(ids, weights):
            if d not in wanted or d in self.deleted:
                continue
            if scorer is None:
                score = w
            else:
                idf, avgfl = scorer
                code = lengths[d]
                if not code:
                    raise Unsupported("a posting without a length")
                fl = LENGTH_OF_BYTE[code]
                score = idf * ((w * (K1 + 1)) / (w + K1 * ((1 - B) + B * fl / avgfl)))
            found[d] = score * boost if boost != 1.0 else score
        return found

    def _per_doc_denominators(self, field: str, avgfl: float) -> list[float]:
        key = (field, avgfl)
        if key not in self._denominators:
            table = [K1 * ((1 - B) + B * LENGTH_OF_BYTE[n] / avgfl) for n in range(256)]
            self._denominators[key] = list(map(table.__getitem__, self.seg.length_bytes(field)))
        return self._denominators[key]


# ---------------------------------------------------------------- an open index
class FastIndex:
    """`engine.Index`'s interface over a RawIndex; Whoosh's index is opened only for what
    this module does not run (and then answers those queries)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._raw = RawIndex(self.path)
        if not self._raw.segments:
            self._raw.close()
            raise UnreadableIndex("an empty index")
        stats = _Stats(self._raw)
        self._leaves = [(SegmentEval(seg, stats), base) for seg, base in zip(self._raw.segments, self._raw.offsets)]
        self._whoosh = None
        self._vocab: dict[str, list[tuple[str, int]]] | None = None

    def whoosh(self):
        """The same folder opened by Whoosh (`engine.Index`), opened on first use."""
        if self._whoosh is None:
            from .engine import Index

            self._whoosh = Index(self.path)
        return self._whoosh

    def close(self) -> None:
        self._raw.close()
        if self._whoosh is not None:
            self._whoosh.close()

    def __enter__(self) -> "FastIndex":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def doc_count(self) -> int:
        return sum(leaf.doc_count for leaf, _ in self._leaves)

    def search(self, node, filters: Sequence = (), limit: int = 10, sort_by_name: bool = False) -> list[Hit]:
        """As `engine.Index.search`; Whoosh's index runs what this module does not."""
        best = None if sort_by_name else self.top(node, filters, limit)
        if best is None:
            return self.whoosh().search(node, filters, limit=limit, sort_by_name=sort_by_name)
        return [Hit(score, self._raw.stored_fields(docnum)) for score, docnum in best]

    def top(self, node, filters: Sequence, limit: int) -> list[tuple[float, int]] | None:
        """The best (score, docnum) as `evaluate.TermAtATime.top` gives them, or None."""
        try:
            query = query_tree(node, filters)
            if len(self._leaves) == 1:
                return self._leaves[0][0].top(query, limit)
            merged = []
            for leaf, offset in self._leaves:
                merged.extend((score, docnum + offset) for score, docnum in leaf.top(query, limit))
        except Unsupported:
            return None
        merged.sort(key=lambda item: (-item[0], item[1]))
        return merged[:limit]

    def has_term(self, term: str) -> bool:
        """True when index term `term` (stemmed) occurs in any scored field."""
        return any(self._raw.doc_frequency(f, term) for f in SCORED_FIELDS)

    def close_words(self, word: str, maxdist: int) -> list[tuple[str, int]]:
        """As `engine.Index.close_words`."""
        if self._vocab is None:
            from .engine import read_vocabulary

            self._vocab = {}
            for w, n in read_vocabulary(self.path).items():
                self._vocab.setdefault(w[:1], []).append((w, n))
        found = [(w, n) for w, n in self._vocab.get(word[:1], ())
                 if w != word and abs(len(w) - len(word)) <= maxdist and analysis.edit_distance(w, word, maxdist) <= maxdist]
        return sorted(found, key=lambda p: (-p[1], p[0]))


def open_live(locate: Callable[[], Path], attempts: int = 3):
    """`engine.open_live`, opening the folder with a FastIndex (an `engine.Index` when this
    reader does not know the index's files)."""
    for attempt in range(attempts):
        try:
            folder = locate()
            try:
                return FastIndex(folder)
            except UnreadableIndex:
                from .engine import open_live as open_whoosh

                return open_whoosh(locate, attempts - attempt)
        except OSError:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")
