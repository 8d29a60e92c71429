"""A Whoosh collector of ours, built on Whoosh's public collector classes (`engine.py` uses it).

The current-edition ranking (editions.py) needs, beside the best hits overall, the best hits of
the newest edition and the query terms each hit matched (to weigh how much of a question it
answers). Whoosh scores every matching document anyway; this collector keeps the edition's best
as they go by (a set lookup a document, where a second search restricted to the edition would
walk the postings again), and reads the matched terms only of the documents that enter one of
its top lists (Whoosh's `terms=True` reads them for every matching document).
"""
from __future__ import annotations


def matched_words(term) -> set[str]:
    """The index words of one matched (field, text) term: a word pair "a|b" counts as both."""
    text = term[1]
    word = text.decode("utf-8") if isinstance(text, bytes) else str(text)
    return set(word.split("|"))


def edition_collector(limit: int, edition_docs: frozenset, edition_limit: int, terms: bool = False):
    """A Whoosh top-`limit` collector that also keeps the best `edition_limit` of the documents
    in `edition_docs` (`best_of_edition()`: (score, docnum), best first) and, with `terms`, the
    query terms each of those documents matched (`matched`: docnum -> frozenset of words).

    It never skips blocks of postings by their best score (block-quality optimisation): a block
    too weak for the overall top may hold the edition's best.
    """
    import heapq

    from whoosh.collectors import TopCollector

    class EditionCollector(TopCollector):
        def __init__(self):
            super().__init__(limit=limit, usequality=False)
            self.edition_heap: list[tuple[float, int]] = []
            self.matched: dict[int, frozenset] = {}
            self.term_matchers: list = []

        def prepare(self, top_searcher, q, context) -> None:
            # Matched terms need every term matcher kept in step with the current document, as
            # Whoosh's own TermsCollector asks (needs_current).
            super().prepare(top_searcher, q, context.set(needs_current=True) if terms else context)
            # A scored collector passes every score through `final_fn` (the weighting's final
            # adjustment, when it has one): the one place each document's score is seen once.
            if edition_docs:
                self.final_fn = self.keep(self.final_fn)

        def set_subsearcher(self, subsearcher, offset: int) -> None:
            super().set_subsearcher(subsearcher, offset)
            self.term_matchers = list(self.matcher.term_matchers()) if terms else []

        def current_terms(self, sub_docnum: int) -> frozenset:
            words: set[str] = set()
            for matcher in self.term_matchers:
                if matcher.is_active() and matcher.id() == sub_docnum:
                    words |= matched_words(matcher.term())
            return frozenset(words)

        def keep(self, final):
            heap = self.edition_heap
            push, replace = heapq.heappush, heapq.heapreplace

            def final_fn(searcher, docnum: int, score: float) -> float:
                if final is not None:
                    score = final(searcher, docnum, score)
                if docnum not in edition_docs:
                    return score
                entry = (score, -docnum)  # lower docnums first among equals, as Whoosh orders
                if len(heap) < edition_limit:
                    push(heap, entry)
                elif entry > heap[0]:
                    replace(heap, entry)
                else:
                    return score
                if terms:
                    self.matched[docnum] = self.current_terms(docnum - self.offset)
                return score
            return final_fn

        def best_of_edition(self) -> list[tuple[float, int]]:
            return [(score, -negated) for score, negated in sorted(self.edition_heap, reverse=True)]

    class MatchedTermsCollector(EditionCollector):
        """With `terms`: only then does each collected document cost a look at its top-list entry."""

        def collect(self, sub_docnum: int):
            key = super().collect(sub_docnum)  # non-zero when the document entered the top list
            if key:
                self.matched[self.offset + sub_docnum] = self.current_terms(sub_docnum)
            return key

    return MatchedTermsCollector() if terms else EditionCollector()
