"""The current printing first: how search orders hits of one rule printed in several editions.

The newest edition the store holds is the current one. Older editions score a little less,
and an older printing of a rule (same kind and name) never outranks a newer one: when only
the older made the cut, the newer is looked up by its exact name and placed just before it.

A rule often changes its name between editions (10th "Engagement Range" is 11th "Engagement";
10th "Invulnerable Saves" is a characteristic on the 11th's Profiles). So when an older
edition's rule answers the query, the current edition's rules that answer every word of it
(`answers_all`) come first: a core rule before every older answer, a faction's rule before its
faction's older ones. The current edition's best hits are kept in the same pass over the
postings as the overall best (`engine.Index.search_keeping`).

The same holds for prices and document versions: of one unit's prices, the newest dated source
comes first (`newest_price_in_place`), and an FAQ entry or erratum of a document version a newer
stored version replaces comes after every current hit, marked (`superseded_last`).
"""
from __future__ import annotations

import json

from . import analysis
from .ranking import answers_all, coordinated

# A record of an older edition than the newest the store holds scores this much less per
# edition behind (never below OLDEST_FACTOR): between near equals, the current rule wins.
EDITION_DECAY = 0.85
OLDEST_FACTOR = 0.6


# Kinds that state a rule of the game: a current one that answers the query is the answer.
RULE_KINDS = frozenset({"rule", "table", "stratagem"})
# Kinds an older edition's answer may have: each gives way to the current rule that answers.
ANSWER_KINDS = RULE_KINDS | {"faq", "errata", "note"}
# How many of the current edition's best hits are added when an older edition answers the query.
CURRENT_CANDIDATES = 10
# How many of the engine's best hits a query of several concepts is coordinated over.
COORDINATION_POOL = 20


def ranked(index, node, filters: list, concepts, limit: int) -> list:
    """The best hits (engine hits of an open `engine.Index`) of query node `node` under filter
    nodes `filters`, at least `limit` of them, in current-edition order (`concepts`: the parsed
    query's, see query.ParsedQuery), with the newer printings they lack added."""
    editions = index.editions()
    # A question of several concepts is coordinated over a wider pool: a record answering all
    # may score below the first `limit` on the engine's sums alone. The collector records the
    # terms each pooled hit matched; stored fields are read only for the hits kept.
    wide = max(limit, COORDINATION_POOL) if len(concepts) > 1 else limit
    keep = str(editions[0]) if len(editions) > 1 and concepts and not any(
        f[:2] == ("id", "edition") for f in filters) else None
    if keep is not None or len(concepts) > 1:
        hits, current = index.search_keeping(node, filters, wide, keep, CURRENT_CANDIDATES, fields=False,
                                             terms=len(concepts) > 1)
    else:
        hits, current = index.search(node, filters, limit=wide, fields=False), []
    found = newest_preferred(index.with_fields(coordinated(hits, concepts)[:limit]), editions)
    found = found + newer_printings(index, found, filters)
    if current and _older_answer(found, concepts, editions[0]):
        have = {h.docnum for h in found}
        found += [h for h in index.with_fields(coordinated(current, concepts)) if h.docnum not in have]
    found = sorted(found, key=lambda h: -h.score)
    if concepts and editions:
        found = renamed_first(current_answers_first(found, concepts, editions[0]), editions[0])
    asks_price = any(alt == (analysis.stem("points"),) for alts in concepts for alt in alts)
    return newest_price_in_place(newest_in_place(found), asks_price)


def _older_answer(hits: list, concepts, newest: int) -> bool:
    return any(0 < _edition_number(h.fields) < newest and h.fields.get("kind") in ANSWER_KINDS
               and answers_all(h, concepts) for h in hits)


def current_answers_first(hits: list, concepts, newest: int) -> list:
    """`hits` (best first) with the current edition's rules that answer every concept moved
    before the answers they supersede, when an older edition's answer is among them.

    A current rule of no faction (a core rule) goes before every older answer and every rule
    that answers only part of the query; a faction's rule before those of its faction. Each
    keeps its order among them; everything else keeps its place.
    """
    if not _older_answer(hits, concepts, newest):
        return hits

    def gives_way(hit, faction: str) -> bool:
        kind = hit.fields.get("kind")
        if kind not in ANSWER_KINDS or (faction and analysis.fold_name(hit.fields.get("faction") or "") != faction):
            return False
        older = 0 < _edition_number(hit.fields) < newest
        return older or (kind in RULE_KINDS and not answers_all(hit, concepts))

    out = list(hits)
    for hit in [h for h in hits if _edition_number(h.fields) == newest and h.fields.get("kind") in RULE_KINDS
                and answers_all(h, concepts)]:
        faction = analysis.fold_name(hit.fields.get("faction") or "")
        at = out.index(hit)
        first = next((i for i, other in enumerate(out[:at]) if gives_way(other, faction)), None)
        if first is not None:
            out.insert(first, out.pop(at))
    return out


def renamed_first(hits: list, newest: int) -> list:
    """`hits` with each current rule moved before the older editions' rules (of no faction, or of
    its faction) whose names begin with its name, or its name with theirs: the 10th edition's
    "Battle-shock Tests" is the 11th's "Battle-shock", "Fall Back" its "Fall-back Move"."""
    def words(hit) -> list[str]:
        return analysis.fold_name(hit.fields.get("name") or "").split()

    def renamed(current: list[str], older: list[str]) -> bool:
        shorter, longer = sorted((current, older), key=len)
        return bool(shorter) and current != older and longer[:len(shorter)] == shorter

    out = list(hits)
    for hit in [h for h in hits if _edition_number(h.fields) == newest and h.fields.get("kind") == "rule"]:
        faction = analysis.fold_name(hit.fields.get("faction") or "")
        at = out.index(hit)
        first = next((i for i, other in enumerate(out[:at]) if other.fields.get("kind") == "rule"
                      and 0 < _edition_number(other.fields) < newest
                      and analysis.fold_name(other.fields.get("faction") or "") in ("", faction)
                      and renamed(words(hit), words(other))), None)
        if first is not None:
            out.insert(first, out.pop(at))
    return out


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

    rescored = [hit._replace(score=hit.score * factor(hit)) for hit in hits]
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
    oldest: dict[tuple[str, str], int] = {}  # (kind, name) -> the oldest edition among the hits
    for (kind, name, _), hit in older.items():
        oldest[(kind, name)] = min(oldest.get((kind, name), 99), _edition_number(hit.fields))
    out = []
    newer = [e for e in editions if e > min(oldest.values())]
    for docnum, fields in index.printings(sorted({name for _, name in oldest}), filters, newer):
        key = _rule_key(fields)
        edition = fields.get("edition")
        if _edition_number(fields) <= oldest.get(key[:2], 99):
            continue
        printed = older.get(key)
        if (printed is not None and (*key, edition) not in have
                and _edition_number(fields) > _edition_number(printed.fields)):
            out.append(printed._replace(score=printed.score * (1 + 1e-9) + 1e-12, fields=fields, terms=None,
                                        docnum=docnum))
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


def _price_key(fields: dict, unpriced: bool = False) -> tuple[tuple, bool] | None:
    """What makes two hits prices of one unit (its name, faction and edition) and whether the
    hit carries a price; None for a hit of another kind, or carrying no price unless `unpriced`
    (a datasheet without costs, a points record of a version that dropped the entry)."""
    kind = fields.get("kind")
    if kind not in ("points", "datasheet"):
        return None
    data = json.loads(fields.get("data") or "{}")
    priced = bool(data.get("points") if kind == "datasheet" else
                  data.get("costs") or data.get("wargear_costs") or data.get("detachment_points") is not None)
    if not (priced or unpriced and kind == "datasheet"):
        return None
    return (analysis.fold_name(fields.get("name") or ""), analysis.fold_name(fields.get("faction") or ""),
            fields.get("edition"), data.get("target_kind") or "datasheet"), priced


def newest_price_in_place(hits: list, asks_price: bool = False) -> list:
    """`hits` with the prices of one unit (points records, datasheets with costs; same name,
    faction and edition) in newest-date order in the places they won: the current price is the
    newest dated source, whatever its kind (an undated one comes after the dated). When the query
    asks for points, the unit's datasheets without a price come after its prices."""
    places: dict[tuple, list[int]] = {}
    priced: dict[int, bool] = {}
    for i, hit in enumerate(hits):
        found = _price_key(hit.fields, asks_price)
        if found is not None:
            places.setdefault(found[0], []).append(i)
            priced[i] = found[1]
    out = list(hits)
    for spots in places.values():
        if len(spots) > 1:
            order = sorted(spots, key=lambda i: (priced[i], hits[i].fields.get("date") or ""), reverse=True)
            for i, j in zip(spots, order):
                out[i] = hits[j]
    return out


def superseded_last(index, hits: list, as_of: str | None = None) -> list:
    """`hits` with the FAQ entries and errata of a document that a newer version of the same
    document supersedes (as `amend.apply` picks the version that applies: the newest of one
    document name and edition) moved after the others, each marked in its fields
    (`superseded_by`: "World Eaters v1.1"). With `as_of`, only versions published by then count.
    Versions compare by the order documents.version_column gives them."""
    current, old = [], []
    newest: dict[str, str] = {}
    for hit in hits:
        document = hit.fields.get("document") if hit.fields.get("kind") in ("faq", "errata") else None
        if not document:
            current.append(hit)
            continue
        if document not in newest:
            known = [v for v, date in index.versions(document) if v and not (as_of and date and date > as_of)]
            newest[document] = max(known, default="")
        latest = newest[document]
        if latest and (hit.fields.get("version") or "") < latest:
            name = json.loads(hit.fields["data"]).get("document") or document
            old.append(hit._replace(fields={**hit.fields, "superseded_by": f"{name} v{latest.split('|', 1)[1]}"}))
        else:
            current.append(hit)
    return current + old
