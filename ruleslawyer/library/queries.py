"""Library queries behind list commands: which stratagems match a set of filters, and the prices
of a unit named as a player names it ("10 boyz").

The CLI passes the options through unchanged; everything here works on records (amended
copies from `load_corpus`), so the site and tests can ask the same questions.
"""
from __future__ import annotations

from typing import Iterable

from ..names import fold
from ..records import Record, Stratagem


def filter_stratagems(records: Iterable[Record], *, faction: str | None = None, group: str | None = None,
                      category: str | None = None, phase: str | None = None,
                      cp: int | None = None, edition: int | None = None) -> list[Stratagem]:
    """Stratagems matching every given filter, sorted by faction, group and name.

    Matching ignores case and hyphens. `faction` is the record's faction ("none" or
    "universal" for the Core/Boarding Actions sets, which have none); `group` and `phase`
    match a part of the group name or of the WHEN text ("shooting" finds "Your Shooting
    phase"); `category`, `cp` and `edition` must be equal.
    """
    out = []
    for r in records:
        if r.kind != "stratagem":
            continue
        if faction is not None:
            want = _folded(faction)
            if want in ("none", "universal"):
                if r.faction:
                    continue
            elif _folded(r.faction) != want:
                continue
        if group is not None and _folded(group) not in _folded(r.group):
            continue
        if category is not None and _folded(category) != _folded(r.category):
            continue
        if phase is not None and _folded(phase) not in _folded(r.when):
            continue
        if cp is not None and r.cp != cp:
            continue
        if edition is not None and r.edition != edition:
            continue
        out.append(r)
    return sorted(out, key=lambda r: (_folded(r.faction), _folded(r.group), _folded(r.name)))


def find_stratagems(store, *, as_of: str | None = None, every_edition: bool = False, **filters) -> list[Stratagem]:
    """The stratagems in `store` (errata applied) that match `filters` (see filter_stratagems).

    Without an `edition`, a stratagem printed in several editions is given in its newest only
    (`every_edition` keeps them all). `as_of` freezes the store at a date (see load_corpus). An
    `edition` no stored stratagem has is NotFoundError naming the editions there are (a typo such
    as 110 is an error, not an empty table)."""
    from ..errors import NotFoundError
    from .corpus import load_corpus

    records = load_corpus(store, as_of=as_of).records
    edition = filters.get("edition")
    if edition is not None:
        known = sorted({r.edition for r in records if r.kind == "stratagem" and r.edition})
        if edition not in known:
            raise NotFoundError(f"no stratagems of edition {edition}",
                                suggestions=[str(e) for e in known], hint="leave out --edition for every edition")
    found = filter_stratagems(records, **filters)
    if edition is None and not every_edition:
        from .pick import newest_editions

        kept = {id(r) for r in newest_editions(found)[0]}
        found = [r for r in found if id(r) in kept]
    return found


def _folded(s: str | None) -> str:
    return fold(s or "")


def priced_at_size(corpus, name: str | None = None, *, faction: str | None = None,
                   edition: int | None = None) -> tuple[list, int | None]:
    """The priced entries matching `name` (library.prices.priced_entries) and the model count the
    name gave: a name no entry has, with a count ("10 boyz", "boyz x10"), gives the entries of
    the name without it, each source priced at that size only. NotFoundError when nothing has
    that size (naming the sizes there are)."""
    from ..errors import NotFoundError
    from .points import at_size, model_count
    from .prices import PricedEntry, priced_entries

    try:
        return priced_entries(corpus, name, faction=faction, edition=edition), None
    except NotFoundError:
        bare, count = model_count(name or "")
        if count is None:
            raise
    entries = priced_entries(corpus, bare, faction=faction, edition=edition)
    out = []
    for entry in entries:
        sized = {id(p): at_size(p, count) for p in entry.sources}
        if sized[id(entry.current)] is not None:
            out.append(PricedEntry(sized[id(entry.current)], tuple(p for p in sized.values() if p is not None)))
    if not out:
        sizes = sorted({c.models for e in entries for c in e.current.costs}, key=lambda m: (len(m), m))
        raise NotFoundError(f"no {count}-model unit of {bare!r}", suggestions=[f"{m} {bare}" for m in sizes],
                            hint=f"the sizes priced are: {', '.join(sizes) or 'none'}")
    return out, count
