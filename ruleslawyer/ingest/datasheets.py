"""Unit datasheets from any Document: the one datasheet parser for PDF, HTML and text.

A datasheet is recognised by its content: a characteristic header (`M WS BS S T W A Ld Sv` or
`M T Sv W Ld OC`, as a table row, a flattened grid of label/value lines, or one line of
words). Around each such header the parser finds the card: its name (the title line above,
past keyword lines, "POWER n" and a base size), and everything down to the next card or to
a heading that is not part of a card. The card's lines are then read section by section
(stats, weapons, abilities, wargear, composition, leader, keywords) into a `Datasheet`.

Loader roles and attrs are hints only; nothing here depends on them. Blocks the card uses are
claimed; a shared rule printed after a card (its name listed on the card without text, then
printed in full under a heading of the same name) is left for the rules parser.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ..records import Ability, Datasheet, Leader, Profile, UnitCost, Weapon
from .datasheet_lines import (Line, WEAPON_TITLES, document_lines, fold, norm_text, stat_header,
                              vertical_stats, vertical_weapon_header, weapon_header)
from .datasheet_sections import (AbilityReader, WeaponTable, cost_from, faction_from_keywords,
                                 invulnerable_from_abilities, profile_from_cells, profile_from_pairs,
                                 split_keywords, title_case)
from .document import Document
from .parsing import ParseContext

_POWER = re.compile(r"^(.*?)\s*\bPOWER(?:\s+RATING)?\s*:?\s*(\d+)\s*$", re.I)
# A base size: "(⌀40mm)", "(⌀28.5mm)", "(⌀60x35mm)", "(⌀Use model)", or "(32mm)" without the sign.
_BASE = re.compile(r"\(\s*(?:[⌀Ø∅]\s*([^()]{1,30}?)|(\d+(?:\.\d+)?(?:\s*[x×]\s*\d+(?:\.\d+)?)?\s*mm))\s*\)", re.I)
_KEYWORDS = re.compile(r"^KEYWORDS(?:\s*\[([^\]]*)\])?\s*[:\-–]?\s*(.*)$", re.I)
_FACTION_KEYWORDS = re.compile(r"^FACTION\s+KEYWORDS\s*[:\-–]?\s*(.*)$", re.I)
_INVULN_LABEL = re.compile(r"^INVULNERABLE\s+SAVE\s*:?\s*(\S*)", re.I)
# Where a second keyword label starts inside a line (lookahead keeps the label in the part).
_LABEL_SPLIT = re.compile(r"(?<!FACTION)\s+(?=(?:FACTION\s+)?KEYWORDS\s*(?:\[[^\]]*\])?\s*:)")
_DAMAGED = re.compile(r"^DAMAGED\s*:?\s*(.*)$", re.I)
_PR_NOTE = re.compile(r"\b(?:its\s+PR\s+is|Power\s+Rating\s+(?:is|of))\b", re.I)

# Section titles a card uses (folded) -> section name.
SECTIONS = {
    "ABILITIES": "abilities", "WARGEARABILITIES": "other_wargear", "OTHERWARGEAR": "other_wargear",
    "WARGEAROPTIONS": "wargear_options", "UNITCOMPOSITION": "composition", "LEADER": "leader",
    "WARGEAR": "other_wargear", "TRANSPORT": "loose",
}


@dataclass
class Card:
    """The lines of one datasheet, found but not yet read."""

    start: int  # index into the line list
    anchor: int  # the characteristic header
    end: int = 0
    lines: list[Line] = field(default_factory=list)


def parse(doc: Document, ctx: ParseContext) -> Iterator[Datasheet]:
    """Every datasheet in `doc`; claims the blocks each card is printed in."""
    lines = document_lines(doc)
    for card in find_cards(lines):
        record, used = read_card(card, lines, doc, ctx)
        if record is None:
            continue
        ctx.claim({lines[k].index for k in used})
        yield record


# ---------------------------------------------------------------- finding cards
def _stat_anchor(lines: list[Line], i: int) -> int | None:
    """The index after the stat header starting at lines[i], or None if none starts there."""
    if stat_header(lines[i]) is not None:
        return i + 1
    grid = vertical_stats(lines, i)
    return grid[1] if grid else None


def find_cards(lines: list[Line]) -> list[Card]:
    """Cards: one per characteristic header that has a name line above it."""
    cards: list[Card] = []
    floor = 0
    i = 0
    while i < len(lines):
        after = _stat_anchor(lines, i)
        if after is None:
            i += 1
            continue
        start = _find_name(lines, i, floor)
        if start is None:
            i = after
            continue  # a second profile grid of the card above, or a stray table
        if cards:
            cards[-1].end = start
        cards.append(Card(start=start, anchor=i))
        floor = after
        i = after
    if cards:
        cards[-1].end = len(lines)
    return cards


def _skippable_head(line: Line) -> bool:
    """Lines between a card's name and its stats: power, base size, keywords, model counts."""
    text = line.text
    return bool(_POWER.match(text) and not _POWER.match(text).group(1)) or bool(_BASE.fullmatch(text.strip())) \
        or bool(_KEYWORDS.match(text)) or bool(_FACTION_KEYWORDS.match(text)) or text in ("]", "[")


def _find_name(lines: list[Line], anchor: int, floor: int) -> int | None:
    """The index of the card's name line above the stat header at `anchor`."""
    j = anchor - 1
    seen_faction_label = False
    while j >= floor and anchor - j <= 12:
        line = lines[j]
        text = line.text
        if _skippable_head(line):
            seen_faction_label |= bool(_FACTION_KEYWORDS.match(text))
            j -= 1
            continue
        if _is_name_line(line):
            # "NECRONS" under a bare "FACTION KEYWORDS:" label is the label's value, not a name.
            if j > floor and _FACTION_KEYWORDS.match(lines[j - 1].text) and not _FACTION_KEYWORDS.match(lines[j - 1].text).group(1):
                j -= 2
                continue
            if len(line.cells) > 1 and line.kind == "row":
                return None
            return j
        if line.kind == "row" or len(text.split()) > 12:
            return None
        j -= 1
    return None


def _base_size(m: re.Match) -> str:
    """"40mm" from "(⌀40 mm)"; a base given in words ("Use model") is kept as printed."""
    size = norm_text(m.group(1) or m.group(2))
    if re.fullmatch(r"[\d.\sx×]+mm", size, re.I):
        size = re.sub(r"\s+", "", size).replace("×", "x")
    return size


def _is_name_line(line: Line) -> bool:
    text = line.text
    if not text or len(text.split()) > 10 or re.search(r"[.:;,!?]$", text) or _BASE.fullmatch(text):
        return False
    if fold(text) in SECTIONS or stat_header(line) is not None or weapon_header(line) is not None:
        return False
    return bool(re.search(r"[A-Za-z]{2}", text))


# ---------------------------------------------------------------- reading a card
class _State:
    def __init__(self, name: str, edition: int | None):
        self.name = name
        self.edition = edition
        self.power: int | None = None
        self.base: str | None = None
        self.points: list[UnitCost] = []
        self.faction_keywords: list[str] = []
        self.keywords: list[str] = []
        self.profiles: list[Profile] = []
        self.stat_header: list[str] | None = None
        self.invuln: str | None = None
        self.weapons: list[Weapon] = []
        self.table: WeaponTable | None = None
        self.vertical_names: list[str] = []
        self.vertical_values: list[str] = []
        self.abilities = AbilityReader(run_in=edition == 10)
        self.wargear = AbilityReader(category="wargear", run_in=edition == 10)
        self.options: list[str] = []
        self.options_open = False  # the last option ends "one of the following:"
        self.composition: list[str] = []
        self.leader_text: list[str] = []
        self.attaches_to: list[str] = []
        self.damaged: list[str] = []
        self.section = "head"
        self.seen_stats = False

    def add_keywords(self, target: list[str], text: str) -> None:
        for k in split_keywords(text):
            if k.upper() not in {t.upper() for t in target}:
                target.append(k)


def _edition_of(card: Card, lines: list[Line], ctx: ParseContext) -> int | None:
    anchor = lines[card.anchor]
    labels = stat_header(anchor)
    if labels is None:
        labels = [label for label, _ in (vertical_stats(lines, card.anchor) or ([], 0))[0]]
    folded = {fold(label) for label in labels}
    if "OC" in folded:
        return 10
    if {"WS", "BS"} <= folded:
        return 9 if (ctx.edition is None or ctx.edition >= 8) else ctx.edition
    return ctx.edition


def read_card(card: Card, lines: list[Line], doc: Document, ctx: ParseContext) -> tuple[Datasheet | None, list[int]]:
    """Read one card's lines into a Datasheet; return it and the line indexes it used."""
    name_line = lines[card.start]
    raw_name = name_line.text
    st = _State(name="", edition=_edition_of(card, lines, ctx))
    m = _POWER.match(raw_name)
    if m and m.group(1):
        raw_name, st.power = m.group(1), int(m.group(2))
    base = _BASE.search(raw_name)
    if base:
        st.base = _base_size(base)
        raw_name = _BASE.sub("", raw_name)
    st.name = title_case(norm_text(raw_name))
    used = [card.start]
    k = card.start + 1
    while k < card.end:
        line = lines[k]
        step = _read_line(st, lines, k, card.end)
        if step == 0:
            break  # the card ends here
        used.extend(range(k, k + step))
        k += step
    if not st.profiles:
        return None, []
    return _build(st, doc, ctx, name_line), used


def _read_line(st: _State, lines: list[Line], k: int, end: int) -> int:
    """Read lines[k] into the card state; return how many lines it used (0: the card ended)."""
    line = lines[k]
    text = line.text
    folded = fold(text)
    nxt = lines[k + 1] if k + 1 < end else None

    # Labels that switch section, wherever they appear. A loader may have run several keyword
    # lines into one ("FACTION KEYWORDS: ... KEYWORDS: ..."): read each part.
    parts = _LABEL_SPLIT.split(text)
    if len(parts) > 1 and (_FACTION_KEYWORDS.match(text) or _KEYWORDS.match(text)):
        for part in [p for p in parts if p.strip()][:-1]:
            _read_keyword_label(st, part)
        text = [p for p in parts if p.strip()][-1]
    m = _FACTION_KEYWORDS.match(text)
    if m:
        st.section = "faction_keywords"
        st.add_keywords(st.faction_keywords, m.group(1))
        return 1
    m = _KEYWORDS.match(text)
    if m and (m.group(2) or m.group(1) or line.heading_like):
        st.section = "keywords"
        st.add_keywords(st.keywords, m.group(2))
        return 1
    m = _POWER.match(text)
    if m and not m.group(1):
        st.power = int(m.group(2))
        return 1
    if _BASE.fullmatch(text.strip()):
        st.base = _base_size(_BASE.match(text.strip()))
        return 1
    header = stat_header(line)
    if header is not None:
        st.stat_header, st.section, st.seen_stats = header, "stats", True
        return 1
    grid = vertical_stats(lines, k)
    if grid is not None:
        st.profiles.append(profile_from_pairs(grid[0], st.name))
        st.seen_stats, st.section = True, "after_stats"
        return grid[1] - k
    m = _INVULN_LABEL.match(text)
    if m:
        value = m.group(1) or (nxt.text if nxt is not None else "")
        st.invuln = value.strip().rstrip("*") or None
        st.section = "after_stats"
        return 1 if m.group(1) else 2
    wh = weapon_header(line)
    if wh is not None:
        melee = "MELEE" in fold(wh[0]) if wh else None
        st.table, st.section = WeaponTable(wh, melee=melee or None), "weapons"
        return 1
    if folded in WEAPON_TITLES and line.kind != "row":
        vh = vertical_weapon_header(lines, k + 1)
        melee = folded.startswith("MELEE")
        if vh is not None:
            st.table = WeaponTable(["WEAPON"] + vh[0], melee=melee)
            st.section, st.vertical_names, st.vertical_values = "vertical_weapons", [], []
            return vh[1] - k
        st.section = "weapons"
        return 1
    m = _DAMAGED.match(text)
    if m and line.heading_like or (m and "WOUNDS REMAINING" in text.upper()):
        st.section = "damaged"
        st.damaged.append(text)
        return 1
    if folded in SECTIONS and (line.heading_like or line.bold or len(text.split()) <= 3):
        st.section = SECTIONS[folded]
        return 1

    # A heading that is no part of a card ends it (after the stats have been read).
    if st.seen_stats and line.heading_like and st.section not in ("abilities", "other_wargear", "faction_keywords",
                                                                   "keywords", "vertical_weapons"):
        return 0
    if st.section in ("abilities", "other_wargear") and line.heading_like:
        named = st.abilities.textless_names() | st.wargear.textless_names()
        if folded in named:
            return 0  # the full text of a shared rule the card only names

    return _read_in_section(st, lines, k, end)


def _read_keyword_label(st: _State, text: str) -> None:
    m = _FACTION_KEYWORDS.match(text)
    if m:
        st.add_keywords(st.faction_keywords, m.group(1))
        return
    m = _KEYWORDS.match(text)
    if m:
        st.add_keywords(st.keywords, m.group(2))


def _read_in_section(st: _State, lines: list[Line], k: int, end: int) -> int:
    line = lines[k]
    text = line.text
    nxt = lines[k + 1] if k + 1 < end else None
    section = st.section
    if section == "stats":
        if line.kind == "row" or len(line.tokens) >= len(st.stat_header or []) - 2:
            profile = profile_from_cells(st.stat_header or [], list(line.cells), st.name)
            if profile is not None:
                st.profiles.append(profile)
                return 1
        st.section = section = "loose"
    if section == "weapons" and st.table is not None:
        if line.kind == "row" or len(line.cells) > 1:
            weapon = st.table.row(list(line.cells))
            if weapon is not None:
                st.weapons.append(weapon)
            return 1
        st.section = section = "loose"
    if section == "vertical_weapons":
        return _vertical_weapon(st, line)
    if section == "abilities":
        st.abilities.add(line)
        return 1
    if section == "other_wargear":
        st.wargear.add(line)
        return 1
    if section == "wargear_options":
        _add_option(st, line)
        return 1
    if section == "leader":
        if line.kind == "list_item":
            st.attaches_to.append(text.strip(" ■•-"))
        else:
            st.leader_text.append(text)
        return 1
    if section == "keywords":
        st.add_keywords(st.keywords, text)
        return 1
    if section == "faction_keywords":
        st.add_keywords(st.faction_keywords, text)
        st.section = "after_keywords"
        return 1
    if section == "damaged":
        st.damaged.append(text)
        return 1
    cost = cost_from(line, nxt)
    if cost is not None:
        st.points.append(cost[0])
        return 2 if cost[1] else 1
    if section == "composition":
        _add_sentence_line(st.composition, line, split=False)
        return 1
    if section in ("loose", "after_stats", "weapons") and st.seen_stats:
        for sentence in _sentences(text):
            if _PR_NOTE.search(sentence):
                continue
            if re.search(r"\bequipped with\b", sentence, re.I) and sentence not in st.composition:
                st.composition.append(sentence)
        return 1
    if section == "after_keywords":
        return 0
    return 1  # head lines before the stats (a subtitle, a stray bracket)


def _vertical_weapon(st: _State, line: Line) -> int:
    """One line of a weapon table flattened to a name line (or two) then one line per value."""
    from .datasheet_lines import is_value

    text = line.text
    n_values = len(st.table.columns) - 1
    if is_value(text) and st.vertical_names:
        st.vertical_values.append(text)
        if len(st.vertical_values) == n_values:
            name = max(st.vertical_names, key=lambda s: ("[" in s, len(s)))
            weapon = st.table.row([name] + st.vertical_values)
            if weapon is not None:
                st.weapons.append(weapon)
            st.vertical_names, st.vertical_values = [], []
        return 1
    if st.vertical_values:  # a name after a partial row: start over
        st.vertical_names, st.vertical_values = [], []
    st.vertical_names.append(text)
    return 1


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", norm_text(text))
    return [p for p in parts if p]


def _add_sentence_line(target: list[str], line: Line, split: bool = False) -> None:
    """A line of an option or composition list; a wrapped line joins the one before it."""
    text = line.text.lstrip("•■▪●- ").strip()
    if not text:
        return
    if target and line.kind != "list_item" and text[0].islower() and not re.search(r"[.:!?]$", target[-1]):
        target[-1] = f"{target[-1]} {text}"
        return
    target.append(text)


_VERB = re.compile(r"\b(?:can|is|are|may|must|has|have|cannot)\b", re.I)


def _add_option(st: _State, line: Line) -> None:
    """A wargear option; the choices listed under "... one of the following:" join their lead.

    "This model's X can be replaced with one of the following:" + "1 A", "1 B" gives one
    option "...following: 1 A; 1 B".
    """
    text = line.text.lstrip("•■▪●- ").strip()
    if st.options_open and text and not _VERB.search(text) and len(text.split()) <= 10:
        lead = st.options[-1]
        joiner = " " if lead.endswith((":", ":*")) else "; "
        st.options[-1] = f"{lead}{joiner}{text.rstrip('.')}"
        return
    _add_sentence_line(st.options, line)
    st.options_open = bool(st.options) and st.options[-1].endswith((":", ":*"))


def _faction(doc: Document, st: _State) -> str | None:
    """The faction: from a "Faction – Unit" page title, else from the faction keywords."""
    title = doc.title or ""
    m = re.match(r"^\s*(.+?)\s+[–—-]\s+(.+?)\s*$", title)
    if m and fold(m.group(2)) == fold(st.name):
        return norm_text(m.group(1))
    return faction_from_keywords(st.faction_keywords)


def _build(st: _State, doc: Document, ctx: ParseContext, name_line: Line) -> Datasheet:
    abilities = st.abilities.abilities()
    wargear = st.wargear.abilities()
    invuln = st.invuln or invulnerable_from_abilities(abilities)
    leader = None
    if st.leader_text or st.attaches_to:
        leader = Leader(text=norm_text(" ".join(st.leader_text)), attaches_to=tuple(st.attaches_to))
    return Datasheet(
        name=st.name,
        source=ctx.source(name_line.block.page),
        edition=st.edition,
        faction=_faction(doc, st),
        power=st.power,
        points=tuple(st.points) if st.points else None,
        base=st.base,
        faction_keywords=tuple(st.faction_keywords),
        keywords=tuple(st.keywords),
        profiles=tuple(st.profiles),
        invulnerable_save=invuln,
        weapons=tuple(st.weapons),
        abilities=tuple(abilities + wargear),
        wargear_options=tuple(st.options),
        composition=tuple(st.composition),
        leader=leader,
        damaged=norm_text(" ".join(st.damaged)) or None,
    )
