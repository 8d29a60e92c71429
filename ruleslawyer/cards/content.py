"""What goes on a card: the records to print and their content as streams of blocks.

A card has two streams. The front stream of a datasheet holds its profiles, weapons tables
and keywords; the back stream its abilities and the text of every rule it names. A stratagem
has a front stream only. `fit.py` decides the type size of each stream and, when a stream
does not fit one face even at the floor size, splits it over several faces. Blocks are the
units it moves: a table can be split between rows, a text between lines.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from ..library.find import find_by_name
from ..names import fold
from ..records import Ability, Datasheet, Record, Rule, Stratagem
from .options import CardError
from .references import RuleIndex, referenced_rules, rule_key

# Shown for an ability printed by name only when its rule is printed further down the card.
RULE_BELOW = "(Rule below.)"


@dataclass(frozen=True)
class Block:
    """One unit of card content, rendered by the `cards/blocks.html` macro of its `kind`.

    kind: profiles | weapons | keywords | ability | heading | rule | stratagem.
    `split` says how the block may be divided when it does not fit: "rows" (a table),
    "text" (an ability or rule text, between lines) or None (kept whole).
    `continued` marks the second part of a divided block (its title gets "(cont.)").
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    split: str | None = None
    continued: bool = False
    keep_with_next: bool = False

    def text_of(self) -> str:
        """The splittable text of an ability or rule block."""
        item = self.data["item"]
        return item.text

    def with_text(self, text: str, continued: bool, last: bool = True) -> "Block":
        item = replace(self.data["item"], text=text)
        if not last and getattr(item, "summary", None):
            item = replace(item, summary=())  # a rule's recap goes after its last part
        if continued and self.kind == "ability" and not self.continued:
            item = replace(item, name=f"{item.name} (cont.)")  # the rule partial has no title slot
        return replace(self, data={**self.data, "item": item}, continued=continued or self.continued)

    def with_rows(self, rows: Sequence[Any], continued: bool) -> "Block":
        return replace(self, data={**self.data, "weapons": tuple(rows)}, continued=continued)


@dataclass(frozen=True)
class CardContent:
    """One record's card: title line, meta line, and its front and back streams."""

    record: Record
    title: str
    meta: tuple[str, ...]
    front: tuple[Block, ...]
    back: tuple[Block, ...] = ()
    kind: str = "datasheet"


def select_records(records: Sequence[Record], names: Sequence[str], *, faction: str | None = None,
                   stratagems: bool = False) -> list[Record]:
    """The datasheets (and with `stratagems`, stratagems) to print, in the order asked.

    Each NAME is matched like `show` does (case, punctuation, prefix, typos); with no names,
    every datasheet (and stratagem) of `faction` is printed. A name that matches several
    records (a prefix such as "primaris", one unit in two editions) prints each of them.
    """
    kinds = ["datasheet", "stratagem"] if stratagems else ["datasheet"]
    pool = [r for r in records if r.kind in kinds]
    if faction:
        want = fold(faction)
        pool = [r for r in pool if fold(getattr(r, "faction", None) or "") == want]
        if not pool:
            known = sorted({r.faction for r in records if r.kind in kinds and getattr(r, "faction", None)})
            raise CardError(f"no {' or '.join(kinds)} records of faction {faction!r}",
                            hint="known factions: " + ", ".join(known) if known else None)
    if not names:
        if not faction:
            raise CardError("give one or more unit names, or --faction to print a whole faction")
        return pool
    chosen: list[Record] = []
    for name in names:
        for r in find_by_name(pool, name, kinds=kinds):
            if r not in chosen:
                chosen.append(r)
    return chosen


def build_content(records: Sequence[Record], corpus_records: Sequence[Record]) -> list[CardContent]:
    """The card content of each record, with rules resolved against the corpus's rules."""
    index = RuleIndex(r for r in corpus_records if isinstance(r, Rule))
    out = []
    for r in records:
        if isinstance(r, Datasheet):
            out.append(datasheet_content(r, index))
        elif isinstance(r, Stratagem):
            out.append(stratagem_content(r))
    return out


def is_tenth(d: Datasheet) -> bool:
    """10th-edition weapon columns (A and BS/WS) rather than 9th edition's Type."""
    return not any(w.type for w in d.weapons) and any(w.A for w in d.weapons)


def datasheet_content(d: Datasheet, index: RuleIndex) -> CardContent:
    """Front: profiles, ranged and melee weapons, keywords. Back: abilities, then named rules."""
    meta = [m for m in (d.faction,) if m]
    if d.power is not None:
        meta.append(f"Power {d.power}")
    if d.points:
        meta.append("; ".join(f"{c.models} model{'' if c.models == '1' else 's'}: "
                              f"{c.points if c.points is not None else '?'} pts" for c in d.points))
    front: list[Block] = []
    if d.profiles:
        front.append(Block("profiles", {"ds": d}))
    melee = [w for w in d.weapons if fold(w.range or "") == "melee" or fold(w.type or "") == "melee"]
    ranged = [w for w in d.weapons if w not in melee]
    for title, weapons in (("Ranged weapons", ranged), ("Melee weapons", melee)):
        if weapons:
            front.append(Block("weapons", {"title": title, "weapons": tuple(weapons), "tenth": is_tenth(d)},
                               split="rows"))
    if d.keywords or d.faction_keywords:
        front.append(Block("keywords", {"ds": d}))
    rules = referenced_rules(d, index)
    explained = {rule_key(r.name) for r in rules} | {rule_key(r.section[0]) for r in rules if r.section}
    leader_text = None
    if d.leader is not None:
        leader_text = d.leader.text
        if d.leader.attaches_to:
            leader_text += "\n" + ", ".join(d.leader.attaches_to)
    back: list[Block] = []
    for a in d.abilities:
        if fold(a.name) == "leader" and leader_text is not None and not a.text.strip():
            a, leader_text = replace(a, text=leader_text), None  # the card's own Leader section
        elif not a.text.strip() and rule_key(a.name) in explained:
            a = replace(a, text=RULE_BELOW)
        back.append(Block("ability", {"item": a}, split="text"))
    if leader_text is not None:
        back.append(Block("ability", {"item": Ability("Leader", leader_text)}, split="text"))
    if rules:
        back.append(Block("heading", {"text": "Rules named on this card"}, keep_with_next=True))
        named = {rule_key(a.name) for a in d.abilities}
        for r in rules:
            # a rule found through its section ("Angels of Death") is titled with it
            via = r.section[0] if r.section and rule_key(r.section[0]) in named else None
            label = f"{via}: {r.name}" if via else r.name
            back.append(Block("rule", {"item": r, "label": label}, split="text"))
    return CardContent(d, d.name, tuple(meta), tuple(front), tuple(back), kind="datasheet")


def stratagem_content(s: Stratagem) -> CardContent:
    """A stratagem card: one front stream (cost, category, when/target/effect)."""
    meta = [m for m in (s.faction, s.group) if m]
    return CardContent(s, s.name, tuple(meta), (Block("stratagem", {"item": s}),), (), kind="stratagem")
