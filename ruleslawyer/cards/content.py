"""What goes on a card: the records to print and their content as streams of blocks.

A datasheet card has two streams. The front: profiles and invulnerable save, weapons with
their abilities as tags, the unit's own abilities in full (a tick box beside a "once per
battle" one), core and faction abilities by name, keywords, and wound boxes. The back: the
operative text of every rule the card names, never cut (library.operative: what the rule does,
not the sentence naming its form), then the unit's composition and wargear options where there
is room. What does not fit the front goes to the back before them (`fit.py`); what does not fit
the back uses the front's free space, then a second card; only as a last resort (two cards do
not hold them, or `one_card`) does a long rule give the sentence that says what it does with a
reference to the rules sheet by name and number, and then the longest rules only their names
and numbers. A stratagem has a front stream only.

Blocks carry plain data, rendered by `templates/cards/blocks.html` and estimated by
`estimate.py`; the two must describe the same markup.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from ..names import nth
from ..library.operative import key_text, operative_text
from ..library.points import wargear_text
from ..library.prices import datasheet_price, newest_datasheet_editions
from ..library.rule_refs import RuleRefs, named_on_datasheet, rule_key
from ..names import fold
from ..records import Datasheet, Record, Rule, Stratagem
from .metrics import text_em


MAX_WOUND_BOXES = 24
EXTRAS_MIN_PT = 8.0  # composition and wargear options go on the back only at this size or larger
TRACKED = ("CHARACTER", "VEHICLE", "MONSTER")
ONCE = re.compile(r"\bonce per (?:battle|game)\b(?! round)", re.I)  # "once per battle round" recurs
CELL_PAD_EM = 0.18  # horizontal padding of a table cell (cards.css: th, td)


@dataclass(frozen=True)
class Block:
    """One unit of card content, rendered by the `cards/blocks.html` macro of its `kind`.

    kind: profiles | weapons | text | lines | wounds | heading | stratagem.
    `split` says how the block may be divided over faces: "rows" (a table, between rows),
    "text" (a text, between lines; only when a record needs a second card) or None.
    `continued` marks the second part of a divided block.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    split: str | None = None
    continued: bool = False
    keep_with_next: bool = False

    def text_of(self) -> str:
        return self.data["text"]

    def with_text(self, text: str, continued: bool, last: bool = True) -> "Block":
        """The block with part of its text. A continuation has no title: its lines then wrap
        exactly as they did in the whole block, so the measured geometry still holds."""
        data = {**self.data, "text": text}
        if continued and not self.continued:
            data["title"] = None
            data["tick"] = False
        return replace(self, data=data, continued=continued or self.continued)

    def with_rows(self, rows: Sequence[Any], continued: bool) -> "Block":
        return replace(self, data={**self.data, "rows": tuple(rows)}, continued=continued)


@dataclass(frozen=True)
class CardContent:
    """One record's card: title line, meta line, front and back streams, long rules named."""

    record: Record
    title: str
    meta: tuple[str, ...]
    front: tuple[Block, ...]
    back: tuple[Block, ...] = ()
    kind: str = "datasheet"
    long_rules: tuple[tuple[str, str], ...] = ()  # (name, full text) for the rules sheet
    # Other contents to fall back on, in order (`fit.py`): without the composition and wargear
    # options (every rule still in full); then, when even two cards do not hold the rules in
    # full, the last resorts: long rules by their key sentence with a rules sheet reference,
    # then the longest rules by name and number.
    fallbacks: tuple["CardContent", ...] = ()
    min_pt: float = 0.0  # this content is tried only at this type size or larger
    last_resort: bool = False  # rules not all in full: used only when the full text needs over two cards
    named_rules: tuple[tuple[str, str, str | None], ...] = ()  # (name, full text, rule number) of the back
    referenced: int = 0  # how many of them the back only names (with their numbers)


def build_content(records: Sequence[Record], corpus_records: Sequence[Record], prices=None) -> list[CardContent]:
    """The card content of each record, with named rules resolved against the corpus's rules.

    `prices` (a `library.prices.PriceIndex`) gives each datasheet its current price, the one
    `show`, `points`, the site and `list check` give; without it a card shows the datasheet's
    own points (a list's unit card, priced by the list check)."""
    refs: RuleRefs[Rule] = RuleRefs()
    for r in corpus_records:
        if isinstance(r, Rule):
            refs.add(r.name, r, edition=r.edition, faction=r.faction)
    newest = newest_datasheet_editions(corpus_records) if prices else {}
    out = []
    for r in records:
        if isinstance(r, Datasheet):
            out.append(datasheet_content(r, refs, datasheet_price(prices, r, newest) if prices else None))
        elif isinstance(r, Stratagem):
            out.append(stratagem_content(r))
    return out


def is_tenth(d: Datasheet) -> bool:
    """10th-edition weapon columns (A and BS/WS) rather than 9th edition's Type."""
    return not any(w.type for w in d.weapons) and any(w.A for w in d.weapons)


def _col_width(label: str, values: Sequence[str], air: float = 0.3) -> float:
    """A stat column's width in em: its widest value or label, the cell padding, and some air."""
    return round(max([text_em(label, True), *(text_em(v or "") for v in values)]) + 2 * CELL_PAD_EM + air, 2)


def profiles_block(d: Datasheet) -> Block:
    stats: list[str] = []
    for p in d.profiles:
        stats.extend(k for k in p.stats if k not in stats)
    several = len(d.profiles) > 1
    rows = tuple((p.name + (f" ({p.models})" if p.models and several else ""), tuple(p.stats.get(k, "") for k in stats))
                 for p in d.profiles)
    air = 0.3 if len(stats) <= 6 else 0.1  # 9th edition's nine columns leave the name room
    cols = tuple((k, _col_width(k, [r[1][i] for r in rows], air)) for i, k in enumerate(stats))
    return Block("profiles", {"cols": cols, "rows": rows, "invuln": d.invulnerable_save})


def weapons_block(title: str, weapons: Sequence, tenth: bool) -> Block:
    # 9th edition: the weapon type goes with the name as a tag, its abilities (sentences) after it
    fields = (("Range", "range"), ("A", "A"), ("WS" if title.startswith("Melee") else "BS", "skill")) if tenth \
        else (("Range", "range"),)
    fields += (("S", "S"), ("AP", "AP"), ("D", "D"))
    rows = []
    for w in weapons:
        if tenth:
            tags = " ".join(f"[{a}]" for a in w.abilities)
        else:
            kind = f"[{w.type}]" if w.type and fold(w.type) != "melee" else ""
            tags = " ".join(x for x in (kind, *w.abilities) if x)
        rows.append((w.name, tags, tuple(getattr(w, f) or "" for _, f in fields)))
    cols = tuple((label, _col_width(label, [r[2][i] for r in rows])) for i, (label, _) in enumerate(fields))
    return Block("weapons", {"title": title, "cols": cols, "rows": tuple(rows), "tenth": tenth}, split="rows")


def text_block(title: str | None, text: str, *, tick: bool = False, cls: str = "ability", note: str = "") -> Block:
    """An ability or rule: bold title, then its text, one paragraph a line."""
    lines = [ln.strip() for ln in (text or "").split("\n") if ln.strip()]
    lines = ["\u2022 " + ln[2:] if ln.startswith(("- ", "* ")) else ln for ln in lines]
    body = "\n".join(lines) + (f" ({note})" if note else "")
    return Block("text", {"title": title, "text": body.strip(), "tick": tick, "cls": cls}, split="text")


def lines_block(lines: Sequence[tuple[str, str]], cls: str) -> Block:
    """Labelled one-paragraph lines: keywords, abilities by name."""
    return Block("lines", {"lines": tuple(lines), "cls": cls})


def wound_rows(d: Datasheet) -> list[tuple[str, int]]:
    """One row of wound boxes per model, for characters, vehicles and monsters with W <= 24."""
    if not {k.upper() for k in d.keywords} & set(TRACKED):
        return []
    rows = []
    models = _model_count(d)
    for p in d.profiles:
        w = (p.stats.get("W") or "").strip()
        if not w.isdigit() or not 0 < int(w) <= MAX_WOUND_BOXES:
            continue
        n = models if len(d.profiles) == 1 else _int(p.models) or 1
        for k in range(min(n, 6)):
            rows.append((p.name if n == 1 else f"{p.name} {k + 1}", int(w)))
    return rows


def _int(text) -> int | None:
    m = re.match(r"\s*(\d+)", text or "")
    return int(m.group(1)) if m else None


def _model_count(d: Datasheet) -> int:
    counts = [_int(c.models) for c in d.points or () if _int(c.models)]
    return min(counts) if counts else 1


def edition_label(edition: int | None) -> str | None:
    """"11th ed." for the meta line of a card (None when the record does not say)."""
    return f"{nth(edition)} ed." if edition else None


def tiers_line(costs) -> str:
    """Unit costs on one line, by size and tier: "10: 75 · 20: 160; 4th+: 85 · 170" (the first
    tier gives the sizes; a later one only its prices when its sizes are the same)."""
    tiers: dict[str | None, list] = {}
    for c in costs:
        tiers.setdefault(getattr(c, "tier", None), []).append(c)
    first = None
    parts = []
    for tier, group in tiers.items():
        sizes = [str(c.models).strip() for c in group]
        prices = ["?" if c.points is None else str(c.points) for c in group]
        if first is None or sizes != first:
            body = " \u00b7 ".join(f"{m}: {p}" if len(group) > 1 or m != "1" else p for m, p in zip(sizes, prices))
        else:
            body = " \u00b7 ".join(prices)
        first = first or sizes
        parts.append(f"{tier}: {body}" if tier and parts else body)
    line = "; ".join(parts)
    return line + " pts"


def points_meta(d: Datasheet, current=None) -> list[str]:
    """The points part of a datasheet card's meta line, on one line: the current price
    (`library.prices.Price`, the newest dated source of the unit's edition) by size and tier,
    else the datasheet's own points, then wargear costs."""
    if current is not None and (current.costs or current.wargear_costs):
        costs, wargear = current.costs, current.wargear_costs
        label = f"v{current.version} " if current.kind == "points list" and current.version else ""
        if current.edition and d.edition and current.edition != d.edition:
            label = f"{nth(current.edition)} ed. {label}"  # a newer edition's price of an older datasheet
    else:
        costs, wargear, label = d.points or (), d.wargear_costs, ""
    out = [label + tiers_line(costs)] if costs else []
    if wargear:
        out.append("Wargear " + wargear_text(wargear))
    return out


def datasheet_content(d: Datasheet, refs: RuleRefs[Rule], points=None) -> CardContent:
    """Front: profiles, weapons, own abilities, abilities by name, keywords, wound boxes.
    Back: the operative text of the rules the card names, then composition and wargear options.
    `points` is the unit's current price (`library.prices.Price`), else its own points show."""
    meta = [m for m in (d.faction, edition_label(d.edition)) if m]
    if d.power is not None:
        meta.append(f"Power {d.power}")
    meta.extend(points_meta(d, points))
    front: list[Block] = []
    if d.profiles:
        front.append(profiles_block(d))
    melee = [w for w in d.weapons if fold(w.range or "") == "melee" or fold(w.type or "") == "melee"]
    ranged = [w for w in d.weapons if w not in melee]
    tenth = is_tenth(d)
    for title, weapons in (("Ranged weapons", ranged), ("Melee weapons", melee)):
        if weapons:
            front.append(weapons_block(title, weapons, tenth))

    by_name: dict[str, list[str]] = {"Core": [], "Faction": []}
    named: list[tuple[str, str, Rule | None]] = []  # (name, text, rule) printed on the back
    for a in d.abilities:
        rule = refs.find(a.name, d.edition, d.faction)
        own = a.category not in ("core", "faction") and (a.text.strip() or rule is None)
        if own:
            front.append(text_block(a.name, a.text, tick=bool(ONCE.search(a.text))))
            continue
        group = "Faction" if a.category == "faction" or (rule is not None and rule.faction) else "Core"
        by_name[group].append(a.name)
        named.append((a.name, a.text.strip() or (rule.text if rule else ""), rule))
    if d.damaged:
        front.append(text_block("Damaged", d.damaged))
    lines = [(k, ", ".join(v)) for k, v in by_name.items() if v]
    if d.leader is not None and d.leader.attaches_to:
        lines.append(("Leads", ", ".join(d.leader.attaches_to)))
    if d.support is not None and d.support.attaches_to:
        lines.append(("Supports", ", ".join(d.support.attaches_to)))
    if lines:
        front.append(lines_block(lines, "named"))
    kw = [("Keywords", ", ".join(d.keywords))] if d.keywords else []
    if d.faction_keywords:
        kw.append(("Faction", ", ".join(d.faction_keywords)))
    if kw:
        front.append(lines_block(kw, "keywords"))
    wounds = wound_rows(d)
    if wounds:
        front.append(Block("wounds", {"rows": tuple(wounds)}))

    # weapon keywords (and 9th edition weapon types) first, then abilities by name
    seen = {rule_key(n) for n, _, _ in named}
    weapon_rules = []
    for n in named_on_datasheet(d):
        k = rule_key(n)
        if k in seen or any(rule_key(a.name) == k for a in d.abilities) or fold(n) == "leader":
            continue
        rule = refs.find(n, d.edition, d.faction)
        if rule is None and ":" in n:  # "Lethal Hits: Non-Monster/Vehicle" is Lethal Hits, restricted
            rule = refs.find(n.split(":", 1)[0], d.edition, d.faction)
        if rule is not None and rule_key(rule.name) not in seen:
            seen.add(k)
            seen.add(rule_key(rule.name))
            weapon_rules.append((rule.name, rule.text, rule))
    rules = []  # (name, text, rules found) of every named rule with a text, each once
    printed: set[int] = set()
    for name, text, rule in (*weapon_rules, *named):
        if rule is not None and id(rule) in printed and not text:
            continue
        if rule is not None:
            printed.add(id(rule))
        if text.strip():  # named but with no text anywhere: the name on the front is all there is
            rules.append((name, text, refs.find_all(name, d.edition, d.faction)))
    named_rules = tuple((name, text, next((r.number for r in found if r.number), None)) for name, text, found in rules)
    base = CardContent(d, d.name, tuple(meta), tuple(front), (), kind="datasheet", named_rules=named_rules)
    full = in_full(base)
    # The last resort, taken only when two cards do not hold every rule in full (`fit.py`): each
    # long rule by the sentence saying what it does, pointing to the rules sheet; then the
    # longest named with their numbers, one by one; at the end every rule by name and number.
    keyed = [replace(referencing(base, k), last_resort=True) for k in range(len(rules), -1, -1)] if rules else []
    keyed = [v for v in keyed if v.back != full.back]  # short rules only: the same card as in full
    extras = _extras(d)
    if extras:
        return replace(full, back=full.back + tuple(extras), min_pt=EXTRAS_MIN_PT, fallbacks=(full, *keyed))
    return replace(full, fallbacks=tuple(keyed))


def in_full(c: CardContent) -> CardContent:
    """`c` with every named rule on the back by its whole operative text (library.operative:
    without the sentences that only name or exemplify it), never cut, with no rules sheet."""
    back: list[Block] = []
    if c.named_rules:
        back.append(Block("heading", {"text": "Rules named on this card"}, keep_with_next=True))
    back.extend(text_block(name, operative_text(text), cls="rule") for name, text, _ in c.named_rules)
    return replace(c, back=tuple(back), long_rules=(), fallbacks=(), referenced=0)


def referencing(c: CardContent, keep: int) -> CardContent:
    """`c` with the `keep` shortest of its named rules on the back (in card order), each by what it
    does (library.operative.key_text: the operative text, or for a long rule the sentence saying
    what it does, pointing to the rules sheet for the rest), and the others named with their rule
    numbers. The rules the card does not print in full are the rules sheet's (`long_rules`)."""
    order = sorted(range(len(c.named_rules)), key=lambda k: len(c.named_rules[k][1]))
    full = set(order[:keep])
    back: list[Block] = []
    sheet: list[tuple[str, str]] = []
    if full:
        back.append(Block("heading", {"text": "Rules named on this card"}, keep_with_next=True))
    for k, (name, text, number) in enumerate(c.named_rules):
        if k not in full:
            continue
        key, whole = key_text(text)
        if whole:
            back.append(text_block(name, key, cls="rule"))
        else:
            where = f"in full: rules sheet, {number}" if number else "in full: rules sheet"
            back.append(text_block(name, key, cls="rule", note=where))
            sheet.append((name, text))
    named = [(n, t, num) for k, (n, t, num) in enumerate(c.named_rules) if k not in full]
    if named:
        back.append(lines_block([("Rules (see the rules sheet)", ", ".join(
            f"{n} ({num})" if num else n for n, _, num in named))], "named"))
    return replace(c, back=tuple(back), long_rules=tuple(sheet + [(n, t) for n, t, _ in named]), fallbacks=(),
                   referenced=len(named))


def _extras(d: Datasheet) -> list[Block]:
    """Unit composition and wargear options, for the back when there is room."""
    out: list[Block] = []
    if d.composition:
        out.append(text_block("Unit composition", "\n".join(d.composition), cls="extra"))
    if d.wargear_options:
        out.append(text_block("Wargear options", "\n".join(d.wargear_options), cls="extra"))
    return out


def stratagem_content(s: Stratagem) -> CardContent:
    """A stratagem card: one front stream (cost and category, when, target, effect)."""
    meta = [m for m in (s.number and f"Rule {s.number}", s.faction, edition_label(s.edition), s.group) if m]
    head = " ".join(x for x in (f"{s.cp} CP" if s.cp is not None else "", s.category or "") if x)
    lines = [(label, text) for label, text in (("", head), ("When", s.when), ("Target", s.target),
                                                ("Effect", s.effect), ("Restrictions", s.restrictions)) if text]
    blocks = tuple(text_block(label or None, text, cls="strat") for label, text in lines)
    return CardContent(s, s.name, tuple(meta), blocks, (), kind="stratagem")


def rules_sheet_content(contents: Sequence[CardContent]) -> CardContent | None:
    """The rules reference of a set: every long rule its cards (as fitted) name, in full, once."""
    return _rules_sheet(contents)


def _rules_sheet(contents: Sequence[CardContent]) -> CardContent | None:
    seen: dict[str, tuple[str, str]] = {}
    for c in contents:
        for name, text in c.long_rules:
            seen.setdefault(rule_key(name), (name, text))
    if not seen:
        return None
    blocks = tuple(text_block(name, text, cls="rule") for name, text in sorted(seen.values(), key=lambda nt: fold(nt[0])))
    return CardContent(None, "Rules reference", ("Long rules named on these cards",), blocks, (), kind="rules")
