"""When candidates of one name are one thing printed by several sources.

`reconcile.identity` makes printings one record when kind, name, faction, edition and group
agree. Sources label factions differently: a Wahapedia faction page gives the core rules it
reprints in pop-ups its own faction ("Engagement Range", Necrons), and a chapter's stratagem is
filed under the chapter in its faction pack and under the parent faction in an export ("Chilling
Howl": Space Wolves, Adeptus Astartes, Space Marines). Such candidates differ in nothing but the
faction label; they are one thing, not a choice to ask the user about:
- the same identity but for the faction, and the same wording (a rule printed by two sources;
  a page that runs the next pop-up's words on after it still starts with the whole wording);
- or the same identity but for the faction, in one detachment or set (a grouped kind), of
  factions of one family (one's datasheets bear the other's name as a faction keyword, or both
  bear a common one).
Of one thing the faction-less (core) printing is the answer, else the newest dated one; the
others are named under "also". Datasheets are never merged here: two units of two factions are
two things (`pick` settles a unit filed under two factions by its faction keywords).
"""
from __future__ import annotations

from typing import Sequence

from ..names import fold
from ..records import Record
from .corpus import Corpus
from .reconcile import GROUPED_KINDS, FileInfo, differences, identity, rank, wording

# Fields that say where a printing was filed, not what it says.
_LABELS = frozenset({"faction", "section", "group", "name"})


def one_per_thing(corpus: Corpus, records: Sequence[Record]) -> tuple[list[Record], list[Record]]:
    """(one record per thing, the other printings of those things), in the order given."""
    families: dict[str, set[str]] | None = None
    things: list[list[Record]] = []
    for r in sorted(records, key=lambda r: _preference(corpus, r), reverse=True):
        for thing in things:
            if _labels_apart(thing[0], r):
                if families is None:
                    families = _families(corpus)
                if _same(corpus, thing[0], r, families):
                    thing.append(r)
                    break
        else:
            things.append([r])
    chosen = {id(t[0]) for t in things}
    return ([r for r in records if id(r) in chosen],
            [r for t in things for r in t[1:]])


def _preference(corpus: Corpus, r: Record) -> tuple:
    info = corpus.file_of(r) or FileInfo(r.source.file, r.source.file, "")
    return (not getattr(r, "faction", None), rank(info))


def _labels_apart(a: Record, b: Record) -> bool:
    """Whether `a` and `b` have one identity but for the faction, or for a group only one of
    them names (a catalogue that lists an enhancement without its detachment) — and are not
    datasheets."""
    if a.kind == "datasheet" or b.kind == "datasheet":
        return False
    ka, kb = identity(a), identity(b)
    if ka is None or kb is None:
        return False
    if not (ka[4] and kb[4]):  # (kind, name, faction, edition, group, version): one names no group
        ka, kb = ka[:4] + ka[5:], kb[:4] + kb[5:]
    return ka[:2] + ka[3:] == kb[:2] + kb[3:]


def _same(corpus: Corpus, a: Record, b: Record, families: dict[str, set[str]]) -> bool:
    info_a = corpus.file_of(a) or FileInfo(a.source.file, a.source.file, "")
    info_b = corpus.file_of(b) or FileInfo(b.source.file, b.source.file, "")
    apart = {d.field for d in differences(a, info_a, [(b, info_b)]) if d.field not in _LABELS}
    if not apart or (apart == {"text"} and _starts_alike(getattr(a, "text", ""), getattr(b, "text", ""))):
        return True  # the same wording, filed under two factions
    if fold(getattr(a, "faction", None) or "") == fold(getattr(b, "faction", None) or ""):
        return True  # one faction's one name of one kind and edition: a group only one names
    return a.kind in GROUPED_KINDS and bool(getattr(a, "group", None)) and _one_family(a, b, families)


def _starts_alike(a: str, b: str, least: int = 12) -> bool:
    """Whether one wording is the whole start of the other (at least `least` words)."""
    wa, wb = wording(a or ""), wording(b or "")
    short, long = sorted((wa, wb), key=len)
    return len(short) >= least and long[:len(short)] == short


def _one_family(a: Record, b: Record, families: dict[str, set[str]]) -> bool:
    fa, fb = fold(getattr(a, "faction", None) or ""), fold(getattr(b, "faction", None) or "")
    if not fa or not fb:
        return False
    family_a, family_b = families.get(fa, set()) | {fa}, families.get(fb, set()) | {fb}
    return fa in family_b or fb in family_a or bool(families.get(fa, set()) & families.get(fb, set()))


def _families(corpus: Corpus) -> dict[str, set[str]]:
    """Each faction's family: the faction keywords its datasheets bear (folded)."""
    out: dict[str, set[str]] = {}
    for r in corpus.records:
        if r.kind == "datasheet" and r.faction:
            out.setdefault(fold(r.faction), set()).update(fold(k) for k in r.faction_keywords if k)
    return out
