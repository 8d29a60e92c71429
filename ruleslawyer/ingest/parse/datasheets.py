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
from dataclasses import dataclass
from typing import Iterator

from ...records import Ability, Datasheet, Leader
from .datasheet_card import CardReader
from .datasheet_steps import BASE, END, FACTION_KEYWORDS, KEYWORDS, POWER, SECTIONS, base_size
from .datasheet_lines import (heading_like, Line, anchor_candidates, document_lines, joined_text, label_key, inline_stats, is_caps, norm_text, stat_header, vertical_stats, weapon_header)
from .lines import record_name
from .datasheet_sections import invulnerable_from_abilities, keyword_vocabulary
from .datasheet_text import faction_from_keywords
from ..document import Document
from .parsing import ParseContext
from .rule_chapter_titles import numbered_chapter


@dataclass
class Card:
    """Where one datasheet's lines are: its name line, its characteristic header, its end."""

    start: int  # index into the line list
    anchor: int  # the characteristic header
    end: int = 0


def parse(doc: Document, ctx: ParseContext) -> Iterator[Datasheet]:
    """Every datasheet in `doc`; claims the blocks each card is printed in."""
    lines = document_lines(doc)
    joined = joined_text(lines)
    cards = find_cards(lines, joined)
    vocabulary = keyword_vocabulary(doc.text) if cards else frozenset()
    eleventh = bool(cards) and eleventh_edition_marks(lines, joined) > 0
    # A datasheet or two printed in a numbered rules chapter are annotated examples of the
    # layout (call-out numbers run into their values): no units, and no rule text either. A
    # book of many datasheets beside numbered rules is read as usual.
    example = 0 < len(cards) <= 2 and numbered_chapter(doc)
    for card in cards:
        record, used = read_card(card, lines, doc, ctx, vocabulary, eleventh=eleventh)
        if record is None:
            if _unread_card(lines[card.start:card.end]):
                # A whole card (weapons and keywords boxes too) whose parts could not be put
                # together, as in a text dump that set every cell on a line of its own: no unit,
                # and none of its boxes is a rule either.
                ctx.claim({lines[k].index for k in range(card.start, card.end)})
                ctx.warn(f"datasheet {_name_text(lines[card.start]).strip()[:60]!r}: its card could not be read "
                         "(cells one per line, or columns interleaved?); left out", lines[card.start].block.page)
            continue
        if example:
            # The whole card, read or not: its unread boxes are no rule's text either.
            used = range(card.start, max(card.end, max(used) + 1))
        ctx.claim({lines[k].index for k in used})
        if example:
            ctx.warn(f"datasheet {record.name!r} is an example in a numbered rules chapter: not read as a unit",
                     record.source.page if record.source else None)
            continue
        yield record


# ---------------------------------------------------------------- finding cards
def _unread_card(card_lines: list[Line]) -> bool:
    """Whether lines hold a whole datasheet card: a weapons box and a keywords line besides the
    characteristics (an erratum's corrected profile or a rules example has neither)."""
    texts = [ln.text.strip().upper() for ln in card_lines]
    weapons = any(t in ("RANGED WEAPONS", "MELEE WEAPONS") for t in texts)
    keywords = any(t.startswith(("KEYWORDS", "FACTION KEYWORDS")) for t in texts)
    return weapons and keywords


def _stat_anchor(lines: list[Line], i: int) -> int | None:
    """The index after the stat header starting at lines[i], or None if none starts there."""
    line = lines[i]
    # (both tests look for a word that folds to "M" first)
    if stat_header(line) is not None or inline_stats(line) is not None:
        return i + 1
    grid = vertical_stats(lines, i)
    return grid[1] if grid else None


def find_cards(lines: list[Line], joined: str | None = None) -> list[Card]:
    """Cards: one per characteristic header that has a name line above it (`joined`: the
    lines' text as `joined_text` makes it, when the caller has it already)."""
    cards: list[Card] = []
    floor = 0
    i = 0
    for k in anchor_candidates(lines, joined):
        if k < i:
            continue  # inside the stats just read
        i = k
        after = _stat_anchor(lines, i)
        if after is None:
            continue
        start = i if inline_stats(lines[i]) is not None else _find_name(lines, i, floor)
        if start is None or (cards and _only_profile_names(lines, floor, start)):
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


def _only_profile_names(lines: list[Line], begin: int, end: int) -> bool:
    """True when lines[begin:end], after one card's stats, hold nothing but short titles:
    the next grid then profiles another model of the same unit ("Boyz", then "Boss Nob")."""
    between = lines[begin:end]
    return len(between) <= 3 and all(_is_name_line(line) and line.kind != "row" for line in between)


def _skippable_head(line: Line) -> bool:
    """Lines between a card's name and its stats: power, base size, keywords."""
    text = line.text
    return bool(POWER.match(text) and not POWER.match(text).group(1)) or bool(BASE.fullmatch(text.strip())) \
        or bool(KEYWORDS.match(text)) or bool(FACTION_KEYWORDS.match(text)) or text in ("]", "[")


def _find_name(lines: list[Line], anchor: int, floor: int) -> int | None:
    """The index of the card's name line above the stat header at `anchor`.

    Walks up past power, base size and keyword lines and past flavour text; a heading or
    bold line is taken first, a short plain line ("Chronomancer") when it is the nearest.
    """
    j = anchor - 1
    while j >= floor and anchor - j <= 12:
        line = lines[j]
        if _skippable_head(line):
            j -= 1
            continue
        # "NECRONS" under a bare "FACTION KEYWORDS:" label is the label's value, not a name,
        # unless the stats follow it at once (the label's own value was lost, and this line
        # is the next card's title).
        label = FACTION_KEYWORDS.match(lines[j - 1].text) if j > floor else None
        if label and not label.group(1) and j < anchor - 1:
            j -= 2
            continue
        if _is_name_line(line):
            return j
        if line.kind == "row" and not _row_name(line):
            return None
        j -= 1
    return None


def _row_name(line: Line) -> str | None:
    """The name in a table row's first cell ("WARBOSS" beside the card's flavour text)."""
    cells = [c for c in line.cells if c.strip()]
    if cells and is_caps(cells[0]) and len(cells[0].split()) <= 6 and not re.search(r"[.:;,!?]$", cells[0]) \
            and stat_header(line) is None and weapon_header(line) is None:
        return cells[0]
    return None


def _name_text(line: Line) -> str:
    inline = inline_stats(line)
    if inline is not None:
        return inline.name
    return (_row_name(line) or line.text) if line.kind == "row" else line.text


def _is_name_line(line: Line) -> bool:
    if line.kind == "row":
        return _row_name(line) is not None and label_key(_row_name(line)) not in SECTIONS
    text = line.text
    words = text.split()
    if not text or len(words) > 10 or re.search(r"[.:;,!?]$", text) or BASE.fullmatch(text):
        return False
    if label_key(text) in SECTIONS or stat_header(line) is not None or weapon_header(line) is not None:
        return False
    if not (heading_like(line) or line.bold) and (len(words) > 5 or not text[0].isupper()):
        return False  # a line of flavour text, not a title
    return bool(re.search(r"[A-Za-z]{2}", text))


# ---------------------------------------------------------------- editions
_INSV_LABEL = frozenset({"INSV", "INVSV"})
# The letters of "INSV", "INVSV" or "SUPPORT" in order, with only what `label_key` drops between
# them: in the upper-cased text wherever a line (or a cell) folds to one of those labels.
_MARK_LETTERS = re.compile("|".join("[^A-Z0-9+]*".join(word) for word in ("INSV", "INVSV", "SUPPORT")))


def eleventh_edition_marks(lines: list[Line], joined: str | None = None) -> int:
    """How many 11th edition card features the lines show: an "InSv" box label (the
    invulnerable save box) or a SUPPORT box (a title followed by the units it can join)."""
    if not _MARK_LETTERS.search((joined if joined is not None else joined_text(lines)).upper()):
        return 0  # no line folds to either label: one pass over the text instead of one per line
    marks = 0
    for k, line in enumerate(lines):
        key = label_key(line.text)
        if key in _INSV_LABEL or (line.kind == "row" and any(label_key(c) in _INSV_LABEL for c in line.cells)):
            marks += 1
        elif key == "SUPPORT" and (heading_like(line) or line.bold) and k + 1 < len(lines) \
                and re.search(r"\b(?:attached|support)\b", lines[k + 1].text, re.I):
            marks += 1
    return marks


def datasheet_edition(doc: Document) -> int | None:
    """11 when the document prints 11th edition datasheet cards (InSv boxes, SUPPORT boxes),
    else None. For the document-level edition guess (parsing.guess_edition) to consult."""
    lines = document_lines(doc)
    joined = joined_text(lines)
    return 11 if eleventh_edition_marks(lines, joined) and find_cards(lines, joined) else None


# ---------------------------------------------------------------- reading a card
def _edition_of(card: Card, lines: list[Line], ctx: ParseContext, eleventh: bool = False) -> int | None:
    """11 for an OC profile in a document of 11th edition cards (or one guessed 11th), 10 for
    other OC profiles, 9 for WS/BS profiles, else the document's guess."""
    labels = stat_header(lines[card.anchor])
    inline = inline_stats(lines[card.anchor])
    if inline is not None:
        labels = list(inline.labels)
    if labels is None:
        labels = [label for label, _ in (vertical_stats(lines, card.anchor) or ([], 0))[0]]
    folded = {label_key(label) for label in labels}
    if "OC" in folded:
        return 11 if eleventh or ctx.edition == 11 else 10
    if {"WS", "BS"} <= folded:
        return 9 if (ctx.edition is None or ctx.edition >= 8) else ctx.edition
    return ctx.edition


def read_card(card: Card, lines: list[Line], doc: Document, ctx: ParseContext,
              weapon_keywords: frozenset[str] = frozenset(), *, eleventh: bool = False
              ) -> tuple[Datasheet | None, list[int]]:
    """Read one card's lines into a Datasheet; return it and the line indexes it used.

    `eleventh`: the document shows 11th edition card features, so OC profiles are 11th edition.
    """
    name_line = lines[card.start]
    raw_name = _name_text(name_line)
    reader = CardReader(name="", edition=_edition_of(card, lines, ctx, eleventh), weapon_keywords=weapon_keywords)
    m = POWER.match(raw_name)
    if m and m.group(1):
        raw_name, reader.power = m.group(1), int(m.group(2))
    base = BASE.search(raw_name)
    if base:
        reader.base = base_size(base)
        raw_name = BASE.sub("", raw_name)
    reader.name = record_name(norm_text(raw_name))
    used = [card.start]
    k = card.start + 1
    inline = inline_stats(name_line)
    if inline is not None:
        reader.read_inline_stats(name_line, inline)
    while k < card.end:
        step = reader.read(lines, k, card.end)
        if step == END:
            break
        used.extend(range(k, k + step))
        k += step
    # A characteristic line alone (an erratum's corrected profile, a rules example) is not a
    # datasheet: a card also has weapons, abilities or keywords.
    if not reader.profiles or not (reader.weapons or reader.abilities.items or reader.keywords
                                   or reader.faction_keywords):
        return None, []
    return _build(reader, doc, ctx, name_line), used


def _inline_units(text: str) -> tuple[str, ...]:
    """Bodyguard units listed in the leader sentence itself: "...following units: BOYZ; NOBZ"."""
    m = re.search(r"following units?:\s*([^.:]+?)\s*(?:\.|$)", text)
    if not m:
        return ()
    items = [norm_text(i) for i in re.split(r"[;,]", m.group(1))]
    # A unit name is a few words; one printed in capitals ("VANGUARD VETERAN SQUAD WITH JUMP
    # PACKS") may be longer and still be no sentence.
    if items and all(i and len(i.split()) <= (10 if i.isupper() else 5) and not re.search(r"\b(?:you|this|the|can)\b", i, re.I) for i in items):
        return tuple(items)
    return ()


def _faction(doc: Document, st: CardReader) -> str | None:
    """The faction: from a "Faction – Unit" page title, else from the faction keywords."""
    title = doc.title or ""
    m = re.match(r"^\s*(.+?)\s+[–—-]\s+(.+?)\s*$", title)
    if m and label_key(m.group(2)) == label_key(st.name):
        return norm_text(m.group(1))
    return faction_from_keywords(st.faction_keywords)


def _untangle_keywords(st: CardReader) -> None:
    """A keyword box read out of order: "FACTION KEYWORDS: KEYWORDS: Monster, Tomb Stalker Necrons".

    When no faction keyword was read and one keyword is another plus trailing words (the
    card's back repeats the clean list), those words are the faction keyword.
    """
    if st.faction_keywords:
        return
    clean = {k.upper() for k in st.keywords}
    for k in list(st.keywords):
        for other in clean:
            if k.upper().startswith(other + " ") and k.upper() != other:
                extra = k[len(other) + 1:].strip()
                st.keywords.remove(k)
                if extra.upper() not in {f.upper() for f in st.faction_keywords}:
                    st.faction_keywords.append(extra)
                break


def _box(text_lines: list[str], units: list[str]) -> Leader | None:
    """A LEADER or SUPPORT box: its sentence and the units it names (listed, or in the sentence)."""
    if not (text_lines or units):
        return None
    text = norm_text(" ".join(text_lines))
    return Leader(text=text, attaches_to=tuple(units) or _inline_units(text))


def _damaged_ability(st: CardReader) -> list[Ability]:
    """A 10th/11th edition card's DAMAGED box ("DAMAGED: 1-9 WOUNDS REMAINING" and its text) as
    the ability it is, named by its title. (A 9th edition damage table is a table of values.)"""
    if (st.edition or 0) < 10 or not st.damaged:
        return []
    m = re.match(r"^(DAMAGED\s*:?\s*\d+\s*[-–]\s*\d+\s+WOUNDS?\s+REMAINING)\s*:?\s*(.*)$",
                 norm_text(" ".join(st.damaged)), re.I)
    if not m:
        return []
    name = record_name(re.sub(r"\s*:\s*", ": ", m.group(1)).replace("–", "-"))
    return [Ability(name=name, text=m.group(2), category="unit")]


def _build(st: CardReader, doc: Document, ctx: ParseContext, name_line: Line) -> Datasheet:
    _untangle_keywords(st)
    abilities = st.abilities.abilities()
    wargear = st.wargear.abilities()
    invuln = st.invuln or invulnerable_from_abilities(abilities)
    leader = _box(st.leader_text, st.attaches_to)
    support = _box(st.support_text, st.support_to)
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
        abilities=tuple(abilities + wargear + _damaged_ability(st)),
        wargear_options=tuple(st.options),
        composition=tuple(st.composition),
        leader=leader,
        support=support,
        damaged=norm_text(" ".join(st.damaged)) or None,
    )
