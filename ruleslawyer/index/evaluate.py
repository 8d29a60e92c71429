"""Term-at-a-time evaluation of the Whoosh queries `engine.compile_query` builds.

Whoosh runs a query a document at a time through a tree of matcher objects: several Python
method calls per posting per level of the tree. A query made of common words ("uses units",
the phrase "a unit") visits most of the corpus, and on 50,000 records that took 100-170 ms;
Whoosh's block-max skipping never skipped there (a common word's blocks all score near the
threshold). Here each term's posting list is read a block at a time (ids and weights come out
as arrays), scored with the statistics and BM25F formula Whoosh's own scorer uses, and summed
into a dict per query part; the best hits come from `heapq`. Same scores as Whoosh's matchers
(tests compare them), several times faster on common words. A plain query (an Or of terms)
is pruned with MaxScore: once the top hits are out of reach of the remaining (common) words,
those only score the documents still in the running.

Handles Term, Or, And (with Not parts), AndMaybe and the empty query; any other leaf (a
positional Phrase over names) is run by Whoosh's own matcher and its scores collected. For
anything else `top()` returns None and the caller asks Whoosh's searcher instead.

Like `engine.py`, this module knows Whoosh, and some of its internals: the posting blocks of
the whoosh3 codec and the byte-coded field-length columns. The pinned Whoosh-Reloaded version
keeps them stable; where they are missing the generic (slower) matcher path is used.
"""
from __future__ import annotations

import heapq
from itertools import accumulate
from typing import Callable


# A part of an And scores the documents its siblings left by skipping to each of them when
# they are this many times fewer than its postings. Whoosh's skip_to still walks every block
# header and decodes each block it lands in, so skipping pays only when the documents are
# fewer than the blocks (128 postings each); measured on 50,000 records, 16 to 2048 were
# within noise of each other and of never skipping.
SKIP_RATIO = 512
# Prune an Or of terms (MaxScore); a switch for tests that compare with and without.
PRUNE = True


class _Unsupported(Exception):
    """A query shape this evaluator does not handle; Whoosh's searcher runs it instead."""


class TermAtATime:
    """Evaluates queries on one searcher: a segment at a time, deleted documents left out.

    An index updated in place (lifecycle.py) has several segments and deleted documents:
    each segment is evaluated on its own (with the index-wide statistics Whoosh's scorers take
    from the parent searcher) and the best of each are merged, which is exact for a top-k.
    """

    def __init__(self, searcher):
        self._searcher = searcher
        self._reader = searcher.reader()
        self._lengths: dict[str, bytes] = {}
        self._denominators: dict[tuple, list[float]] = {}
        self._leaves: list[tuple[TermAtATime, int]] | None = None
        self._deleted: frozenset = frozenset()
        if self._reader.is_atomic():
            if self._reader.has_deletions():
                self._deleted = frozenset(getattr(self._reader, "deleted_docs_set", None) or
                                          (d for d in range(self._reader.doc_count_all()) if self._reader.is_deleted(d)))
            self.usable = hasattr(self._reader, "_perdoc")
        else:
            self._leaves = [(TermAtATime(sub), offset) for sub, offset in searcher.subsearchers]
            self.usable = all(leaf.usable for leaf, _ in self._leaves)

    def top(self, query, limit: int) -> list[tuple[float, int]] | None:
        """The best `limit` (score, docnum) of `query`, best first, or None when unsupported.

        Ties go to the lower document number, as in Whoosh's collector.
        """
        if not self.usable:
            return None
        if self._leaves is not None:
            merged = []
            for leaf, offset in self._leaves:
                found = leaf.top(query, limit)
                if found is None:
                    return None
                merged.extend((score, docnum + offset) for score, docnum in found)
            merged.sort(key=lambda item: (-item[0], item[1]))
            return merged[:limit]
        from whoosh import query as q

        try:
            if PRUNE and type(query) is q.Or and all(type(sub) is q.Term for sub in query.subqueries) \
                    and not (query.minmatch or query.scale) and query.boost == 1.0:
                scores = self._pruned_or(query.subqueries, limit)
            else:
                scores = self.scores(query)
        except _Unsupported:
            return None
        return best_of(scores, limit)

    def _pruned_or(self, terms, limit: int) -> dict[int, float]:
        """An Or of terms, without scoring documents that cannot reach the best `limit`
        (see `pruned_or`)."""
        return pruned_or(terms, limit, self._upper_bound, self._term)

    def _upper_bound(self, term) -> float:
        """The most `term` adds to any document's score (above by a hair, never below)."""
        from whoosh.scoring import WeightScorer

        found = self._lookup(term)
        if found is None:
            return 0.0
        field, btext, scorer = found
        info = self._reader.term_info(field, btext)
        weight = info.max_weight()
        if type(scorer) is WeightScorer:
            return weight * term.boost * (1 + 1e-9)
        # Shortest length and highest weight need not be one document's, so this bounds it.
        length_part = scorer.K1 * ((1 - scorer.B) + scorer.B * info.min_length() / scorer.avgfl)
        return scorer.idf * (scorer.K1 + 1) * weight / (weight + length_part) * term.boost * (1 + 1e-9)

    def scores(self, query, within: set[int] | dict | None = None) -> dict[int, float]:
        """docnum -> score of every document `query` matches (raises _Unsupported).

        With `within`, only those documents are wanted: an And passes what its most selective
        part matched to the others, which then score those documents alone (skipping through
        their postings when they are few) instead of their whole posting lists.
        """
        from whoosh import query as q

        kind = type(query)
        if kind is q.Term:
            return self._term(query, within)
        if query is q.NullQuery:
            return {}
        if kind is q.Or:
            if query.minmatch or query.scale:
                raise _Unsupported
            found = union_scores([self.scores(sub, within) for sub in query.subqueries])
        elif kind is q.And:
            found = self._and(query, within)
        elif kind is q.AndMaybe:
            found = self.scores(query.a, within)
            if found:
                optional = self.scores(query.b, found)
                get = optional.get
                found = {d: s + get(d, 0.0) for d, s in found.items()}
        elif kind is q.Phrase:
            found = self._by_matcher(query)
            return found if within is None else {d: s for d, s in found.items() if d in within}
        else:
            raise _Unsupported
        boost = getattr(query, "boost", 1.0)
        if boost != 1.0:
            found = {d: s * boost for d, s in found.items()}
        return found

    def _and(self, query, within) -> dict[int, float]:
        """Whoosh's And: documents every positive part matches, scored by the sum, minus the
        documents of Not parts (each Not adds 1.0, as Whoosh's inverse matcher scores)."""
        from whoosh import query as q

        positive = [sub for sub in query.subqueries if type(sub) is not q.Not]
        negative = [sub.query for sub in query.subqueries if type(sub) is q.Not]
        if not positive:
            raise _Unsupported
        positive.sort(key=lambda sub: sub.estimate_size(self._reader))
        return and_scores(positive, negative, within, self.scores)

    # ------------------------------------------------------------ leaves
    def _lookup(self, term) -> tuple[str, bytes, object] | None:
        """(field, term bytes, Whoosh's scorer) of a term the index holds, or None.

        Raises _Unsupported for a scorer other than plain weights or BM25F, whose formula
        `_term` and `_upper_bound` repeat.
        """
        from whoosh.scoring import BM25FScorer, WeightScorer

        searcher, field = self._searcher, term.fieldname
        if field not in searcher.schema:
            return None
        try:
            btext = searcher.schema[field].to_bytes(term.text)
        except ValueError:
            return None
        if (field, btext) not in self._reader:
            return None
        scorer = searcher.weighting.scorer(searcher, field, btext)
        if type(scorer) is not WeightScorer and not (
                isinstance(scorer, BM25FScorer) and type(scorer)._score is BM25FScorer._score):
            raise _Unsupported
        return field, btext, scorer

    def _term(self, query, within=None) -> dict[int, float]:
        from whoosh.scoring import WeightScorer

        found = self._lookup(query)
        if found is None:
            return {}
        field, btext, scorer = found
        reader = self._reader
        if within is not None and len(within) * SKIP_RATIO < reader.doc_frequency(field, btext):
            return self._term_at(query, sorted(within))
        matcher = reader.postings(field, btext)
        if self._deleted:  # read the raw blocks (Whoosh wraps them in a filter) and drop the deleted
            ids, weights = _postings(getattr(matcher, "child", matcher))
            deleted = self._deleted
            kept = [i for i, d in enumerate(ids) if d not in deleted]
            ids, weights = [ids[i] for i in kept], [weights[i] for i in kept]
        else:
            ids, weights = _postings(matcher)
        if within is not None:
            kept = [i for i, d in enumerate(ids) if d in within]
            ids, weights = [ids[i] for i in kept], [weights[i] for i in kept]
        boost = query.boost
        if type(scorer) is WeightScorer:
            return {d: w * boost for d, w in zip(ids, weights)}
        # bm25 = idf * tf * (K1 + 1) / (tf + K1 * ((1 - B) + B * length / avgfl)); the length
        # is one of 256 byte-coded values, so the denominator's second half is a table.
        # The hot path of a query of common words (tens of thousands of postings): one
        # comprehension with the length part looked up per document (a map() chain of
        # operator functions measured 40% slower).
        per_doc = self._per_doc_denominators(field, scorer)
        factor = scorer.idf * (scorer.K1 + 1) * boost
        return {d: factor * w / (w + per_doc[d]) for d, w in zip(ids, weights)}

    def _term_at(self, query, docnums: list[int]) -> dict[int, float]:
        """Scores of a term in a few documents: Whoosh's matcher skips to each (whole blocks
        are passed over unread) and scores it."""
        matcher = query.matcher(self._searcher)
        found = {}
        for docnum in docnums:
            if not matcher.is_active():
                break
            if matcher.id() < docnum:
                matcher.skip_to(docnum)
                if not matcher.is_active():
                    break
            if matcher.id() == docnum:
                found[docnum] = matcher.score()
        return found

    def _by_matcher(self, query) -> dict[int, float]:
        """Scores from Whoosh's own matcher (phrases over positions: short posting lists)."""
        matcher = query.matcher(self._searcher)
        found = {}
        while matcher.is_active():
            found[matcher.id()] = matcher.score()
            matcher.next()
        return found

    # ------------------------------------------------------------ per-field statistics
    def _length_bytes(self, field: str) -> bytes:
        """The byte-coded length of `field` in every document (0 where it is empty)."""
        if field not in self._lengths:
            self._lengths[field] = _read_length_column(self._reader, field)
        return self._lengths[field]

    def _per_doc_denominators(self, field: str, scorer) -> list[float]:
        """K1 * ((1 - B) + B * length / avgfl) of every document: the length part of BM25's
        denominator, the same for every word of a field (a length is one of 256 byte codes)."""
        key = (field, scorer.B, scorer.K1, scorer.avgfl)
        if key not in self._denominators:
            from whoosh.util.numeric import byte_to_length

            k1, b, avgfl = scorer.K1, scorer.B, scorer.avgfl
            table = [k1 * ((1 - b) + b * byte_to_length(n) / avgfl) for n in range(256)]
            self._denominators[key] = list(map(table.__getitem__, self._length_bytes(field)))
        return self._denominators[key]


def best_of(scores: dict[int, float], limit: int) -> list[tuple[float, int]]:
    """The `limit` best (score, docnum), best first, ties to the lower docnum.

    The cut-off score comes from the bare floats (no key function, no tuples), so only the few
    documents at or above it are sorted with their numbers.
    """
    if limit <= 0 or not scores:
        return []
    if len(scores) > limit:
        cutoff = heapq.nlargest(limit, scores.values())[-1]
        items = [(d, s) for d, s in scores.items() if s >= cutoff]
    else:
        items = list(scores.items())
    items.sort(key=lambda item: (-item[1], item[0]))
    return [(score, docnum) for docnum, score in items[:limit]]


# ---------------------------------------------------------------- combining parts
def union_scores(parts: list[dict[int, float]]) -> dict[int, float]:
    """Documents matching any part, scored by the sum of the parts that match (Whoosh's Or)."""
    parts = sorted((p for p in parts if p), key=len, reverse=True)
    if not parts:
        return {}
    total = parts[0]  # every part is a fresh dict of this query: add into the largest
    get = total.get
    for part in parts[1:]:
        for docnum, score in part.items():
            total[docnum] = get(docnum, 0.0) + score
    return total


# ---------------------------------------------------------------- Whoosh internals
def _postings(matcher) -> tuple[list[int], list[float]]:
    """All (ids, weights) of a term's posting list.

    Whoosh3's on-disk matcher is read a block at a time (one unpickle per 128 postings);
    anything else (postings inlined in the term index for rare terms) through the public
    matcher methods.
    """
    ids: list[int] = []
    weights: list[float] = []
    read_block: Callable | None = getattr(matcher, "_read_ids", None)
    if read_block is not None and hasattr(matcher, "_read_weights") and hasattr(matcher, "_lastblock"):
        while True:
            if matcher._data is None:
                matcher._read_data()
            block_ids = matcher._data[0]
            # Ids are stored as gaps; Whoosh sums them in a generator, accumulate() in C.
            ids.extend(block_ids if matcher._byteids else accumulate(block_ids))
            matcher._read_weights()
            weights.extend(matcher._weights)
            if matcher._lastblock:
                return ids, weights
            matcher._next_block()
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        matcher.next()
    return ids, weights


def _read_length_column(reader, field: str) -> bytes:
    """The field-length bytes of every document in one read (Whoosh reads one per call)."""
    count = reader.doc_count_all()
    column = None
    perdoc = getattr(reader, "_perdoc", None)
    if perdoc is not None and hasattr(perdoc, "_cached_reader"):
        from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield

        column = perdoc._cached_reader(_lenfield(field), LENGTHS_COLUMN)
    if column is None:
        return bytes(count)
    if all(hasattr(column, a) for a in ("_dbfile", "_basepos", "_count")) and column._fixedlen == 1:
        stored = min(column._count, count)
        raw = bytes(column._dbfile.get(column._basepos, stored)) if stored else b""
        return raw + bytes(count - stored)
    from whoosh.util.numeric import length_to_byte

    return bytes(length_to_byte(reader.doc_field_length(d, field, 0) or 0) for d in range(count))


def pruned_or(terms, limit: int, upper_bound: Callable, term_scores: Callable) -> dict[int, float]:
    """An Or of terms (`term_scores(term[, within])` scores one, `upper_bound(term)` is the most
    it adds to a document), without scoring documents that cannot reach the best `limit`.

    MaxScore, a term at a time: terms go in order of the most they can add to a document
    (rare words and name matches first, common words of the text last). Once the
    `limit`-th best sum so far beats everything the remaining terms could add together,
    no document they alone match can enter the top: the remaining terms then only score
    the documents that can still reach it. Exact: the returned documents include the top
    `limit` with their full scores.
    """
    bounds = sorted(((upper_bound(t), i, t) for i, t in enumerate(terms)), key=lambda b: (-b[0], b[1]))
    # What the terms after each one could add at most (summed afresh, not by subtraction,
    # so the last is exactly 0 and a document at the cut-off is never dropped by rounding).
    after = [sum(b for b, _, _ in bounds[n + 1:]) for n in range(len(bounds))]
    total: dict[int, float] = {}
    candidates: set[int] | None = None
    for (bound, _, term), remaining in zip(bounds, after):
        if candidates is None:
            total = union_scores([total, term_scores(term)])
            if len(total) < limit:
                continue
            cutoff = heapq.nlargest(limit, total.values())[-1]
            pool = total
        else:
            if candidates:
                for d, sc in term_scores(term, candidates).items():
                    total[d] += sc
            pool = candidates
        if remaining < cutoff:
            candidates = {d for d in pool if total[d] + remaining >= cutoff}
    return total if candidates is None else {d: total[d] for d in candidates}


def and_scores(positive: list, negative: list, within, scores: Callable) -> dict[int, float]:
    """Whoosh's And over parts already split and ordered (smallest positive part first):
    documents every positive part matches, scored by the sum, minus the documents of the Not
    parts, each Not adding 1.0 as Whoosh's inverse matcher scores. `scores(part, within)`
    scores one part among the documents `within` (None: all)."""
    found = scores(positive[0], within)
    for sub in positive[1:]:
        if not found:
            return {}
        part = scores(sub, found)
        found = {d: s + part[d] for d, s in found.items() if d in part}
    for sub in negative:
        if found:
            for docnum in scores(sub, found):
                found.pop(docnum, None)
    if negative:
        found = {d: s + len(negative) for d, s in found.items()}
    return found
