"""A Whoosh collector of ours, built on Whoosh's public collector classes (`engine.py` uses it).

The current-edition ranking (editions.py) needs the best hits of the newest edition beside the
best hits overall. Whoosh scores every matching document anyway; keeping the edition's best as
they go by costs a set lookup a document, where a second search restricted to the edition would
walk the postings again.
"""
from __future__ import annotations


def edition_collector(limit: int, edition_docs: frozenset, edition_limit: int):
    """A Whoosh top-`limit` collector that also keeps the best `edition_limit` of the documents
    in `edition_docs` (`best_of_edition()`: (score, docnum), best first).

    It never skips blocks of postings by their best score (block-quality optimisation): a block
    too weak for the overall top may hold the edition's best.
    """
    import heapq

    from whoosh.collectors import TopCollector

    class EditionCollector(TopCollector):
        def __init__(self):
            super().__init__(limit=limit, usequality=False)
            self.edition_heap: list[tuple[float, int]] = []

        def prepare(self, top_searcher, q, context) -> None:
            # A scored collector passes every score through `final_fn` (the weighting's final
            # adjustment, when it has one): the one place each document's score is seen once.
            super().prepare(top_searcher, q, context)
            self.final_fn = self.keep(self.final_fn)

        def keep(self, final):
            def final_fn(searcher, docnum: int, score: float) -> float:
                if final is not None:
                    score = final(searcher, docnum, score)
                if docnum in edition_docs:
                    entry = (score, -docnum)  # lower docnums first among equals, as Whoosh orders
                    if len(self.edition_heap) < edition_limit:
                        heapq.heappush(self.edition_heap, entry)
                    elif entry > self.edition_heap[0]:
                        heapq.heapreplace(self.edition_heap, entry)
                return score
            return final_fn

        def best_of_edition(self) -> list[tuple[float, int]]:
            return [(score, -negated) for score, negated in sorted(self.edition_heap, reverse=True)]

    return EditionCollector()
