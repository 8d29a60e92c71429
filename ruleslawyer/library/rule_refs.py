"""One resolver from a name printed on a datasheet to the rule it means.

A weapon keyword (`[blast]`, "rapid fire 2", "anti-infantry 4+"), a 9th edition weapon type
("Assault 2D3") or an ability printed by name ("Deep Strike", "Feel No Pain 5+", "Leader",
"Nurgle's Gift (Aura)") names a rule. The static site links such a name to the rule's page and
the cards print the rule's text; both ask this module, so a card and a page never disagree on
what a name means.

Matching is tolerant but never fuzzy:
- names are folded (`names.fold`), trailing parameters ("2", "D3", "4+", "6\"", "X") and an
  "(Aura)" tag are dropped: `rule_key`;
- a rule is filed under its key and under its key without a plural or a heading word
  ("Blast Weapons" answers for Blast, "Characters" for CHARACTER): `index_keys`;
- a name is looked up under its key, then those variants, then (for "Anti-Infantry") the
  hyphenated first word: `query_keys`. The first key with a usable rule wins;
- among the rules under a key, a rule of another edition (both known) or another faction
  (both known) is never used; a rule filed under the exact key beats a variant, then the same
  edition, the same faction, the better kind (`rank`), the first added.
"""
from __future__ import annotations

import re
from typing import Generic, Iterable, NamedTuple, TypeVar

from ..names import fold

T = TypeVar("T")

# Trailing parameters of a rule name as printed: "Rapid Fire 1", "Assault 2D3", "Sustained Hits
# D3", "Feel No Pain 5+", "Scouts 6\"", "Anti-Infantry 4+", "Deadly Demise X", "Anti-X".
_PARAM = re.compile(r"^(?:\d+|\d*d\d+(?:\+\d+)?|x|\d+\+|x\+|\d+\")$")
# Words a rules heading adds to the name a card uses ("Blast" -> "Blast Weapons").
_SUFFIXES = ("weapons", "weapon", "abilities", "ability", "moves", "move", "rule", "rules")
_AURA = re.compile(r"\(\s*aura\s*\)", re.I)
_HYPHEN_HEAD = re.compile(r"\s*([A-Za-z]+)-\S")
# Longer texts in a weapon's abilities are sentences (9th edition), not rule names.
MAX_NAME_WORDS = 5


def rule_key(name: str) -> str:
    """The folded name without trailing parameters or an "(Aura)" tag ("Feel No Pain 5+" ->
    "feel no pain")."""
    words = fold(_AURA.sub("", name or "")).split()
    while len(words) > 1 and _PARAM.match(words[-1]):
        words.pop()
    return " ".join(words)


def _variants(key: str) -> list[str]:
    """The key without a heading word, and singular/plural forms of both (sorted, key excluded)."""
    out = {key}
    words = key.split()
    if len(words) > 1 and words[-1] in _SUFFIXES:
        out.add(" ".join(words[:-1]))
    for k in list(out):
        if k.endswith("s") and len(k) > 3:
            out.add(k[:-1])
        else:
            out.add(k + "s")
    out.discard(key)
    return sorted(out)


def index_keys(rule_name: str) -> list[str]:
    """Every key a rule called `rule_name` is filed under: its key first, then the variants."""
    key = rule_key(rule_name)
    return [key, *_variants(key)] if key else []


def query_keys(name: str) -> list[str]:
    """The keys a printed name is looked up under, in order (empty for a sentence)."""
    if not name or len(name.split()) > MAX_NAME_WORDS:
        return []
    key = rule_key(name)
    if not key:
        return []
    keys = [key, *_variants(key)]
    head = _HYPHEN_HEAD.match(name)
    if head:  # "Anti-Infantry 4+" is the rule "Anti-X"
        keys.append(fold(head.group(1)))
    return list(dict.fromkeys(keys))


class Entry(NamedTuple, Generic[T]):
    """One rule under one key: what the caller gets back, and what the choice looks at."""

    payload: T
    exact: bool
    edition: int | None
    faction: str | None
    rank: int
    order: int


class RuleRefs(Generic[T]):
    """Rules (any payload: a Rule record, a page link) by key, and the choice among them."""

    def __init__(self):
        self.by_key: dict[str, list[Entry[T]]] = {}
        self._count = 0

    def add(self, name: str, payload: T, *, edition: int | None = None, faction: str | None = None,
            rank: int = 0) -> None:
        """File `payload`, a rule called `name`, under every key of `index_keys(name)`."""
        for i, key in enumerate(index_keys(name)):
            self.by_key.setdefault(key, []).append(Entry(payload, i == 0, edition, faction, rank, self._count))
        self._count += 1

    @staticmethod
    def choose(entries: Iterable[Entry[T]], edition: int | None, faction: str | None) -> T | None:
        """The best usable entry's payload for a record of this edition and faction, or None."""
        best = None
        for e in entries:
            if edition is not None and e.edition is not None and e.edition != edition:
                continue
            if faction and e.faction and fold(e.faction) != fold(faction):
                continue
            score = (not e.exact, e.edition != edition, e.faction != faction, e.rank, e.order)
            if best is None or score < best[0]:
                best = (score, e.payload)
        return best[1] if best else None

    def find_all(self, name: str, edition: int | None = None, faction: str | None = None) -> list[T]:
        """Every usable rule under the first key that has one, best first (for a fallback such as
        a rule that carries a summary)."""
        for key in query_keys(name):
            entries = self.by_key.get(key, ())
            best = self.choose(entries, edition, faction)
            if best is not None:
                rest = [e.payload for e in entries if e.payload is not best
                        and self.choose([e], edition, faction) is not None]
                return [best, *rest]
        return []

    def find(self, name: str, edition: int | None = None, faction: str | None = None) -> T | None:
        """The rule `name` refers to for a record of this edition and faction, or None."""
        for key in query_keys(name):
            found = self.choose(self.by_key.get(key, ()), edition, faction)
            if found is not None:
                return found
        return None


def named_on_datasheet(d) -> list[str]:
    """The rule names a datasheet prints, in card order, each once (by `rule_key`): 9th edition
    weapon types, weapon keywords, abilities, and Leader when it has a Leader section."""
    names: list[str] = []
    for w in d.weapons:
        if w.type and fold(w.type) != "melee":
            names.append(w.type)
        names.extend(a for a in w.abilities if len(a.split()) <= MAX_NAME_WORDS)
    names.extend(a.name for a in d.abilities)
    if d.leader is not None:
        names.append("Leader")
    seen: set[str] = set()
    out = []
    for n in names:
        k = rule_key(n)
        if k and k not in seen:
            seen.add(k)
            out.append(n)
    return out
