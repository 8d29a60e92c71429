"""The query tree `engine.Index.whoosh_query` builds, as plain tuples, without Whoosh.

`fastsearch.py` evaluates these trees. They must be exactly Whoosh's: the same parts, boosts
and order, after the same normalisation (Whoosh's `normalize()`: nested Or/And flattened,
duplicate parts dropped, empty parts removed, a one-part compound unwrapped); the evaluator's
sums are added in the order of the parts, so the scores depend on it. `tests/test_search_fastpath.py`
compares these trees with Whoosh's normalised queries.

Trees: ("term", field, text, boost), ("or"|"and", boost, parts), ("andmaybe", a, b),
("not", query, boost), and NULL (Whoosh's NullQuery). A node Whoosh would run as a positional
phrase (several words over names) raises Unsupported: the caller asks Whoosh.
"""
from __future__ import annotations

from typing import Sequence

from .engine import EXACT_NAME_BOOST, FILTER_FIELDS, KIND_HINT_BOOST, SCORED_FIELDS

NULL = ("null",)


class Unsupported(Exception):
    """A query this module does not run; the Whoosh index runs it."""


# ---------------------------------------------------------------- the query tree
def compile_node(node) -> tuple:
    """The query tree `engine.compile_query` builds for `node`, as tuples:
    ("term", field, text, boost), ("or"|"and", boost, parts), ("andmaybe", a, b), ("not", q, boost)."""
    op = node[0]
    if op == "terms":
        field, terms = node[1], node[2]
        if field in FILTER_FIELDS:
            parts = tuple(_term(field, t) for t in terms)
            return parts[0] if len(parts) == 1 else ("and", 1.0, parts)
        if field:
            if len(terms) == 1:
                return _term(field, terms[0])
            if field == "name":
                raise Unsupported("a phrase over name positions")
            return ("and", 1.0, (_pairs(terms, 1.0), *(_term(field, t) for t in terms)))
        if len(terms) == 1:
            return ("or", 1.0, tuple(_term(name, terms[0], boost) for name, boost in SCORED_FIELDS.items()))
        raise Unsupported("a phrase over name positions")
    if op in ("any", "or"):
        return ("or", 1.0, tuple(compile_node(n) for n in node[1:]))
    if op == "and":
        return ("and", 1.0, tuple(compile_node(n) for n in node[1:]))
    if op == "andmaybe":
        return ("andmaybe", compile_node(node[1]), compile_node(node[2]))
    if op == "not":
        return ("not", compile_node(node[1]), 1.0)
    if op == "id":
        return _term(node[1], node[2])
    if op == "kind_hint":
        return _term("kind", node[1], KIND_HINT_BOOST)
    if op == "number":
        return _term("number", node[1], EXACT_NAME_BOOST)
    if op == "exact_name":
        return _term("name_exact", node[1], EXACT_NAME_BOOST)
    raise Unsupported(op)


def _term(field: str, text: str, boost: float = 1.0) -> tuple:
    return ("term", field, text, boost)


def _pairs(terms, boost: float) -> tuple:
    pairs = tuple(_term("pairs", f"{a}|{b}", boost) for a, b in zip(terms, terms[1:]))
    return pairs[0] if len(pairs) == 1 else ("and", 1.0, pairs)


def query_tree(node, filters: Sequence = ()) -> tuple:
    """`engine.Index.whoosh_query`'s tree for a node and filter nodes, normalised."""
    parts = [compile_node(f) for f in filters]
    if node[0] != "all" or not parts:
        parts.insert(0, compile_node(node))
    query = parts[0] if len(parts) == 1 else ("and", 1.0, tuple(parts))
    return normalize(query)


def boost_of(q: tuple) -> float:
    kind = q[0]
    if kind == "term":
        return q[3]
    if kind in ("or", "and"):
        return q[1]
    if kind == "not":
        return q[2]
    return 1.0  # AndMaybe's class attribute


def with_boost(q: tuple, boost: float) -> tuple:
    """Query.with_boost (BinaryQuery's passes the boost to both sides)."""
    kind = q[0]
    if kind == "term":
        return (kind, q[1], q[2], boost)
    if kind in ("or", "and"):
        return (kind, boost, q[2])
    if kind == "not":
        return (kind, q[1], boost)
    if kind == "andmaybe":
        return (kind, with_boost(q[1], boost), with_boost(q[2], boost))
    return q


def normalize(q: tuple) -> tuple:
    """Whoosh's normalize() of the query shapes `compile_node` makes."""
    kind = q[0]
    if kind == "andmaybe":
        a, b = normalize(q[1]), normalize(q[2])
        if a is NULL:
            return NULL
        return a if b is NULL else (kind, a, b)
    if kind == "not":
        inner = normalize(q[1])
        return NULL if inner is NULL else (kind, inner, q[2])
    if kind not in ("or", "and"):
        return q
    subs: list[tuple] = []
    for s in q[2]:
        s = normalize(s)
        if s[0] == kind:
            subs += [with_boost(ss, boost_of(ss) * s[1]) for ss in s[2]]
        else:
            subs.append(s)
    seen: set = set()
    kept = []
    for s in subs:
        if s is not NULL and s not in seen:
            seen.add(s)
            kept.append(s)
    if not kept:
        return NULL
    if len(kept) == 1:
        sub = kept[0]
        if not (q[1] == 1.0 and boost_of(sub) == 1.0):
            sub = with_boost(sub, boost_of(sub) * q[1])
        return sub
    return (kind, q[1], tuple(kept))
