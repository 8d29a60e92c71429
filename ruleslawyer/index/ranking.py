"""How much of a query a hit answers: the concepts it matched (query.ParsedQuery.concepts).

A question names several things ("summoned by slaughter first battle round"); a record that
speaks of all of them answers it better than one that repeats a few of them often. The
engine's BM25 sums word scores, so the hit's score is scaled by the share of the query's
concepts it matched (the "coordination" factor of classic Lucene scoring).
"""
from __future__ import annotations


def concepts_matched(hit, concepts) -> int:
    """How many concepts the engine hit matched (one alternative, all its terms, of each)."""
    terms = hit.terms or frozenset()
    return sum(1 for alts in concepts if any(set(alt) <= terms for alt in alts))


def answers_all(hit, concepts) -> bool:
    """Whether the engine hit matched every concept of the query (a hit of a one-concept query
    matched it: the engine found it for that concept, and its terms are not looked up)."""
    if len(concepts) == 1 and hit.terms is None:
        return True
    return bool(concepts) and concepts_matched(hit, concepts) == len(concepts)


def coordinated(hits: list, concepts) -> list:
    """`hits` (engine hits) rescored by the share of the query's concepts each matched, best
    first; a hit whose matched terms are unknown (terms None: a printing looked up by name)
    and queries of one concept are left as they are."""
    if len(concepts) < 2:
        return hits
    total = len(concepts)
    rescored = [h._replace(score=h.score * concepts_matched(h, concepts) / total) if h.terms is not None else h
                for h in hits]
    return sorted(rescored, key=lambda h: -h.score)
