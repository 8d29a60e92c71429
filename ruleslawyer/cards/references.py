"""Which rules a card names, resolved against the rule records of the corpus.

On paper there is no hover popup, so the back of a card prints the text of every core rule or
weapon keyword the card names: `[blast]`, "Rapid Fire 1", an ability printed by name only
("Deep Strike", "Reanimation Protocols", "Leader") or a named rules section ("Angels of Death",
whose rules sit under that heading). Matching is tolerant (`library.fold`, parameters such as
"2D3", "4+" or "X" dropped, "Blast" finds "Blast Weapons") but never fuzzy, so a card does
not print an unrelated rule.
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

from ..names import fold
from ..records import Datasheet, Rule

# Trailing parameters of a rule name as a card prints it: "Rapid Fire 1", "Assault 2D3",
# "Sustained Hits D3", "Feel No Pain 5+", "Scouts 6\"", "Anti-Infantry 4+", "Deadly Demise X".
_PARAM = re.compile(r"^(?:\d+|\d*d\d+(?:\+\d+)?|x|\d+\+|x\+|\d+\")$")
# Words a rules heading adds to the name a card uses ("Blast" -> "Blast Weapons").
_SUFFIXES = ("weapons", "weapon", "abilities", "ability", "moves", "move", "rule", "rules")
# Longer weapon-ability texts are sentences, not rule names.
_MAX_NAME_WORDS = 5


def rule_key(name: str) -> str:
    """The folded name with trailing parameters and an "(Aura)" tag removed."""
    words = fold(re.sub(r"\(aura\)", "", name, flags=re.I)).split()
    while len(words) > 1 and _PARAM.match(words[-1]):
        words.pop()
    return " ".join(words)


def _variants(key: str) -> set[str]:
    """Keys under which a rule heading may be found: itself, singular/plural, minus a suffix."""
    out = {key}
    words = key.split()
    if len(words) > 1 and words[-1] in _SUFFIXES:
        out.add(" ".join(words[:-1]))
    for k in list(out):
        out.add(k[:-1] if k.endswith("s") else k + "s")
    return out


class RuleIndex:
    """Rules by tolerant key, and by section heading, for one edition (None matches any)."""

    def __init__(self, rules: Iterable[Rule]):
        self.by_key: dict[str, list[Rule]] = {}
        self.by_section: dict[str, list[Rule]] = {}
        for r in rules:
            for k in _variants(rule_key(r.name)):
                self.by_key.setdefault(k, []).append(r)
            if r.section:
                self.by_section.setdefault(rule_key(r.section[0]), []).append(r)

    def find(self, name: str, edition: int | None) -> list[Rule]:
        """The rules `name` refers to: one rule, or every rule of a section of that name."""
        if not name or len(name.split()) > _MAX_NAME_WORDS:
            return []
        key = rule_key(name)
        for k in (key, *sorted(_variants(key) - {key})):
            found = _same_edition(self.by_key.get(k, []), edition)
            if found:
                return found[:1]
        # "Anti-Infantry 4+" is the rule "Anti-X": a hyphenated first word names the rule.
        head = re.match(r"\s*([A-Za-z]+)-", name)
        if head:
            found = _same_edition(self.by_key.get(fold(head.group(1)), []), edition)
            if found:
                return found[:1]
        return _same_edition(self.by_section.get(key, []), edition)


def _same_edition(rules: Sequence[Rule], edition: int | None) -> list[Rule]:
    return [r for r in rules if edition is None or r.edition is None or r.edition == edition]


def named_rules(d: Datasheet) -> list[str]:
    """The rule names a datasheet mentions, in card order, without duplicates."""
    names: list[str] = []
    for w in d.weapons:
        if w.type and fold(w.type) != "melee":
            names.append(w.type)  # 9th edition weapon types: "Rapid Fire 1", "Pistol 1"
        names.extend(a for a in w.abilities if len(a.split()) <= _MAX_NAME_WORDS)
    for a in d.abilities:
        names.append(a.name)
    if d.leader is not None:
        names.append("Leader")
    seen, out = set(), []
    for n in names:
        k = rule_key(n)
        if k and k not in seen:
            seen.add(k)
            out.append(n)
    return out


def referenced_rules(d: Datasheet, index: RuleIndex) -> list[Rule]:
    """Every rule record the card names, in card order, each once.

    Abilities that carry their own text are looked up too: a card printing "Deep Strike: ..."
    in full gets no second copy, because a rule whose name equals an ability with text is
    skipped.
    """
    own_text = {rule_key(a.name) for a in d.abilities if a.text.strip()}
    out: list[Rule] = []
    seen: set[int] = set()
    for name in named_rules(d):
        if rule_key(name) in own_text:
            continue
        for r in index.find(name, d.edition):
            if id(r) not in seen:
                seen.add(id(r))
                out.append(r)
    return out
