"""The current printing first: how search orders hits of one rule printed in several editions.

The newest edition the store holds is the current one. Older editions score a little less,
and an older printing of a rule (same kind and name) never outranks a newer one: when only
the older made the cut, the newer is looked up by its exact name and placed just before it.
"""
from __future__ import annotations

from . import analysis

# A record of an older edition than the newest the store holds scores this much less per
# edition behind (never below OLDEST_FACTOR): between near equals, the current rule wins.
EDITION_DECAY = 0.85
OLDEST_FACTOR = 0.6


def current_first(index, hits: list, filters: list) -> list:
    """`hits` (engine hits of an open `engine.Index`, best first) in current-edition order,
    with the newer printings they lack added (`filters`: the query's filter nodes)."""
    found = newest_preferred(hits, index.editions())
    found = sorted(found + newer_printings(index, found, filters), key=lambda h: -h.score)
    return newest_in_place(found)


def _edition_number(fields: dict) -> int:
    edition = fields.get("edition") or ""
    return int(edition) if edition.isdigit() else 0


def newest_preferred(hits: list, editions: list[int]) -> list:
    """`hits` rescored so that older editions than the newest of `editions` count less, best
    first (equal scores keep their order). Records that name no edition are left as they are."""
    if len(editions) < 2:
        return hits
    newest = editions[0]

    def factor(hit) -> float:
        behind = newest - _edition_number(hit.fields) if _edition_number(hit.fields) else 0
        return max(OLDEST_FACTOR, EDITION_DECAY ** behind)

    rescored = [type(hit)(hit.score * factor(hit), hit.fields) for hit in hits]
    return sorted(rescored, key=lambda h: -h.score)


def _rule_key(fields: dict) -> tuple[str, str, str]:
    """What makes two records printings of one rule: kind, name and faction (folded)."""
    return (fields.get("kind") or "", analysis.fold_name(fields.get("name") or ""),
            analysis.fold_name(fields.get("faction") or ""))


def newer_printings(index, hits: list, filters: list) -> list:
    """Printings of the rules among `hits` (same kind, name and faction) from newer editions
    than the hit's, that the filters allow and `hits` lack, each scored a hair above the
    printing it supersedes (so it is placed just before it)."""
    editions = index.editions()
    older = {_rule_key(h.fields): h for h in hits
             if h.fields.get("kind") not in ("errata", "faq") and editions
             and 0 < _edition_number(h.fields) < editions[0]}
    if not older:
        return []
    have = {(*_rule_key(h.fields), h.fields.get("edition")) for h in hits}
    oldest: dict[tuple[str, str], int] = {}  # the columns tell which candidates are newer
    for (kind, name, _), hit in older.items():
        oldest[(kind, name)] = min(oldest.get((kind, name), 99), _edition_number(hit.fields))
    out = []
    for docnum, kind, name, edition in index.printings(sorted({name for _, name in oldest}), filters):
        if _edition_number({"edition": edition}) <= oldest.get((kind, name), 99):
            continue
        fields = index.stored(docnum)
        key = _rule_key(fields)
        printed = older.get(key)
        if (printed is not None and (*key, edition) not in have
                and _edition_number({"edition": edition}) > _edition_number(printed.fields)):
            out.append(type(printed)(printed.score * (1 + 1e-9) + 1e-12, fields))
            have.add((*key, edition))
    return out


def newest_in_place(hits: list) -> list:
    """`hits` (engine hits, best first) with every printing of one rule in newest-edition order.

    Printings of one rule from several editions (the 9th, 10th and 11th edition Deep Strike)
    keep the places they won between them, and the newest edition takes the best of those
    places: an older printing never outranks the current one. Others keep their place.
    """
    places: dict[tuple[str, str, str], list[int]] = {}
    for i, hit in enumerate(hits):
        places.setdefault(_rule_key(hit.fields), []).append(i)
    out = list(hits)
    for spots in places.values():
        if len(spots) > 1:
            newest_first = sorted((hits[i] for i in spots), key=lambda h: -_edition_number(h.fields))
            for i, hit in zip(spots, newest_first):
                out[i] = hit
    return out
