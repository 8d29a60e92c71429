"""How a card reader takes one line: an ordered table of named steps.

`CardReader.read` (datasheet_card.py) asks each `Step` in `CARD_STEPS` in turn whether it
`matches` the line (any prefilter lives inside that test) and lets the first that does
`apply`, which returns how many lines it used (or END: the card ended before this line). A
`passing` step only prepares the line for the next steps; an `apply` that returns None
declines the line after a closer look, and the next steps see it.

The reader is passed to every step as `st`; the steps read and set its state (its sections,
the parts found so far) and call its own readers for weapon rows and section text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .datasheet_columns import weapon_columns
from .datasheet_lines import (heading_like, Line, WEAPON_TITLES, is_caps, is_value, label_key, norm_text, norm_value, stat_header,
                              vertical_stats, vertical_weapon_header, weapon_header)
from .datasheet_sections import WeaponTable, profile_from_pairs
from .lines import record_name, Step
from ...records import Profile

POWER = re.compile(r"^(.*?)\s*\bPOWER(?:\s+RATING)?\s*:?\s*(\d+)\s*$", re.I)
# A base size: "(⌀40mm)", "(⌀28.5mm)", "(⌀60x35mm)", "(⌀Use model)", or "(32mm)" without the sign.
BASE = re.compile(r"\(\s*(?:[⌀Ø∅]\s*([^()]{1,30}?)|(\d+(?:\.\d+)?(?:\s*[x×]\s*\d+(?:\.\d+)?)?\s*mm))\s*\)", re.I)
KEYWORDS = re.compile(r"^KEYWORDS(?:\s*\[([^\]]*)\])?\s*[:\-–]?\s*(.*)$", re.I)
FACTION_KEYWORDS = re.compile(r"^FACTION\s*KEYWORDS\s*[:\-–]?\s*(.*)$", re.I)
_INVULN_LABEL = re.compile(r"^INVULNERABLE\s*SAVE\s*:?\s*(\S*)", re.I)
_INVULN_AFTER = re.compile(r"^(\d\+\+?)\s*\*?\s*(?:INVULNERABLE\s*SAVE|INSV|INV\.?\s*SV)\*?$", re.I)  # "4+ INSV"
_INVULN_ABBREV = {"INSV", "INVSV", "INVSAVE", "INVULN", "INVULNSAVE"}  # a label printed under its value
# Where a second keyword label starts inside a line (lookahead keeps the label in the part).
_LABEL_SPLIT = re.compile(r"(?<!FACTION)\s+(?=(?:FACTION\s*)?KEYWORDS\s*(?:\[[^\]]*\])?\s*:)")
_DAMAGED = re.compile(r"^DAMAGED\s*:?\s*(.*)$", re.I)
# A section label run into the text after it (upper case, so ordinary sentences never match).
_LABEL_PREFIX = re.compile(r"^(ABILITIES|WARGEAR\s*ABILITIES|OTHER\s*WARGEAR|WARGEAR\s*OPTIONS|UNIT\s*COMPOSITION|"
                           r"LEADER|SUPPORT)\s*[:]?\s+([^a-z\s].*)$")

# Section titles a card uses (folded) -> section name.
SECTIONS = {
    "ABILITIES": "abilities", "WARGEARABILITIES": "other_wargear", "OTHERWARGEAR": "other_wargear",
    "WARGEAROPTIONS": "wargear_options", "UNITCOMPOSITION": "composition", "LEADER": "leader",
    "WARGEAR": "other_wargear", "TRANSPORT": "loose", "SUPPORT": "support",
}
# Sections in which a heading is content (an ability name, a keyword) rather than the card's end.
HEADINGS_INSIDE = ("abilities", "other_wargear", "faction_keywords", "keywords", "vertical_weapons")
END = 0  # what a step returns when the line ends the card
# What the keyword labels' patterns (`re.I`, anchored) can match first: "F", "K", either case,
# and the Kelvin sign, which `re.I` takes for a "k" (all code points checked in the tests).
KEYWORD_FIRST = "fFkK\u212a"


def base_size(m: re.Match) -> str:
    """"40mm" from "(⌀40 mm)"; a base given in words ("Use model") is kept as printed."""
    size = norm_text(m.group(1) or m.group(2))
    if re.fullmatch(r"[\d.\sx×]+mm", size, re.I):
        size = re.sub(r"\s+", "", size).replace("×", "x")
    return size



@dataclass
class At:
    """The line being read and what the steps found out about it."""

    lines: list[Line]
    k: int
    end: int
    line: Line
    text: str
    nxt: Line | None
    naming: bool = False  # the line before was a profile that the name under it may name
    found: Any = field(default=None)  # what a step's test found, for its apply

    @property
    def folded(self) -> str:
        """The line's own text folded as labels are (the text before any keyword split)."""
        return label_key(self.line.text)

    @property
    def heading(self) -> bool:
        """True when the line reads as a heading."""
        return heading_like(self.line)


def _split_row(st, at: At) -> int:
    st._split_row(at.line)
    return 1


def _take_naming(st, at: At) -> None:
    at.naming, st.name_next_profile = st.name_next_profile, False


def _keyword_parts(st, at: At) -> bool:
    """A loader may have run several keyword lines into one ("FACTION KEYWORDS: … KEYWORDS: …")."""
    text = at.text
    if text[:1] not in KEYWORD_FIRST or not (FACTION_KEYWORDS.match(text) or KEYWORDS.match(text)):
        return False
    at.found = [p for p in _LABEL_SPLIT.split(text) if p.strip()]
    return len(at.found) > 1


def _read_keyword_parts(st, at: At) -> None:
    for part in at.found[:-1]:
        st._keyword_label(part)
    at.text = at.found[-1]


def _faction_keywords(st, at: At) -> int:
    m = FACTION_KEYWORDS.match(at.text)
    # A label with its value on the line: what follows may be more of the list, but a heading
    # after it is the next part of the page. A bare label: its value follows.
    st.section = "faction_keywords_more" if m.group(1).strip() else "faction_keywords"
    st.add_keywords(st.faction_keywords, m.group(1))
    return 1


def _is_keywords(st, at: At) -> bool:
    m = KEYWORDS.match(at.text) if at.text[:1] in KEYWORD_FIRST else None
    return bool(m and (m.group(2) or m.group(1) or at.heading))


def _keywords(st, at: At) -> int:
    m = KEYWORDS.match(at.text)
    st.section = "keywords_more" if m.group(2).strip() else "keywords"
    st.add_keywords(st.keywords, m.group(2))
    st.keywords_open = bool(re.search(r"[;,]$", m.group(2).strip()))
    return 1


def _is_power(st, at: At) -> bool:
    m = POWER.match(at.text)
    return bool(m and not m.group(1))


def _power(st, at: At) -> int:
    st.power = int(POWER.match(at.text).group(2))
    return 1


def _base(st, at: At) -> int:
    st.base = base_size(BASE.match(at.text.strip()))
    return 1


def _stat_header(st, at: At) -> int:
    st.stat_header, st.section, st.seen_stats = stat_header(at.line), "stats", True
    st.pending_stats = []
    return 1


def _is_grid(st, at: At) -> bool:
    at.found = vertical_stats(at.lines, at.k)
    return at.found is not None


def _grid(st, at: At) -> int:
    profile = profile_from_pairs(at.found[0], st._profile_name())
    if profile is not None:
        st.profiles.append(profile)
    st.seen_stats, st.section = True, "after_stats"
    return at.found[1] - at.k


def _is_invulnerable(st, at: At) -> bool:
    """An invulnerable save: "INVULNERABLE SAVE 4+", "4+ INVULNERABLE SAVE", or "5+" over "INSV"."""
    text, lines, k = at.lines[at.k].text, at.lines, at.k
    m = _INVULN_LABEL.match(text)
    if m:
        value = m.group(1) or (at.nxt.text if at.nxt is not None else "")
        at.found = (value.strip().rstrip("*") or None, False, 1 if m.group(1) else 2)
    elif _INVULN_AFTER.match(text):
        at.found = (_INVULN_AFTER.match(text).group(1), False, 1)
    elif label_key(text) in _INVULN_ABBREV and k > 0 and is_value(lines[k - 1].text):
        above = lines[k - 1].text
        at.found = (norm_value(above), bool(st.pending_stats and st.pending_stats[-1] == above), 1)
    else:
        return False
    return True


def _invulnerable(st, at: At) -> int:
    st.invuln, pop, used = at.found
    if pop:
        st.pending_stats.pop()  # the value was taken for a characteristic: it is the save's
    st.section = "after_stats"
    return used


def _is_weapon_header(st, at: At) -> bool:
    at.found = weapon_header(at.line)
    return at.found is not None


def _weapon_title(st, at: At) -> int:
    line, melee = at.line, at.folded.startswith("MELEE")
    columns = weapon_columns(at.lines, at.k, at.end)
    if columns is not None:  # a text dump's table, printed column by column
        for cells in columns[0]:
            st.read([line.piece(cells, "row")], 0, 1)
        st.section = "weapons"
        return columns[1] - at.k
    vh = vertical_weapon_header(at.lines, at.k + 1)
    if vh is not None:
        st.table = WeaponTable(["WEAPON"] + vh[0], melee=melee, known=st.weapon_keywords)
        st.section, st.vertical_names, st.vertical_values = "vertical_weapons", [], []
        return vh[1] - at.k
    st.section = "weapons"
    return 1


def _is_damaged(st, at: At) -> bool:
    return at.text[:1] in "dD" and bool(_DAMAGED.match(at.text)) and (at.heading or "WOUNDS REMAINING" in at.text.upper())


def _damaged(st, at: At) -> int:
    st.section = "damaged"
    st.damaged.append(at.text)
    return 1


def _section_title(st, at: At) -> int:
    st.section = SECTIONS[at.folded]
    return 1


def _is_run_in_title(st, at: At) -> bool:
    m = _LABEL_PREFIX.match(at.text)
    at.found = m
    return bool(m and label_key(m.group(1)) in SECTIONS)


def _run_in_title(st, at: At) -> int:
    st.section = SECTIONS[label_key(at.found.group(1))]
    st.read([at.line.piece(at.found.group(2), "paragraph")], 0, 1)
    return 1


def _model_name_under(st, at: At) -> int:
    # A model name printed under the values it names (a flattened stat grid).
    last = st.profiles[-1]
    st.profiles[-1] = Profile(name=record_name(at.text), stats=last.stats, models=last.models)
    st.name_next_profile = False
    return 1


def _wrapped_keyword(st, at: At) -> int:
    st.add_keywords(st.keywords, at.text)  # a keyword list wrapped after a ";"
    st.keywords_open = bool(re.search(r"[;,]$", at.text))
    return 1


def _back(st, at: At) -> int:
    st.section = "back"  # the card's back: its name again, flavour text, then its labels
    return 1


def _model_title(st, at: At) -> int:
    st.next_profile_name = record_name(at.text)
    return 1


def _last_loose_value(st, at: At) -> int | None:
    # the last loose value, printed with the model's name as a heading
    return 1 if st._stats_line(at.line) else None


def _box_text(st) -> list[str]:
    return st.support_text if st.section == "support" else st.leader_text


def _box_goes_on(st, at: At) -> bool:
    box = _box_text(st)
    return st.section in ("leader", "support") and bool(box) and bool(re.search(r"[;,]$", box[-1]))


def _box_more(st, at: At) -> int:
    _box_text(st).append(at.text)  # the unit list goes on ("...; NOBZ;" / "TANKBUSTAS")
    return 1


def _ends_card(st, at: At) -> bool:
    # A heading that is no part of a card ends it (after the stats have been read); a weapon's
    # "[BLAST]" keywords set on a line of their own are not a heading.
    return st.seen_stats and at.heading and st.section not in HEADINGS_INSIDE \
        and not (st.section == "weapons" and re.fullmatch(r"\[[^\]]*\]", at.text))


def _end(st, at: At) -> int:
    return END


def _one(st, at: At) -> int:
    return 1


CARD_STEPS: tuple[Step, ...] = (
    Step("ability panel row", lambda st, at: bool(st.panel) and at.line.kind == "row" and not at.line.virtual
         and at.line.index == st.panel[0], _split_row),
    Step("name flag", lambda st, at: True, _take_naming, passing=True),
    Step("keyword labels run together", _keyword_parts, _read_keyword_parts, passing=True),
    Step("faction keywords", lambda st, at: at.text[:1] in KEYWORD_FIRST and bool(FACTION_KEYWORDS.match(at.text)),
         _faction_keywords),
    Step("keywords", _is_keywords, _keywords),
    Step("power", lambda st, at: "POWER" in at.text.upper() and _is_power(st, at), _power),
    Step("base size", lambda st, at: "(" in at.text and bool(BASE.fullmatch(at.text.strip())), _base),
    Step("characteristic header", lambda st, at: stat_header(at.line) is not None, _stat_header),
    Step("characteristic grid", _is_grid, _grid),
    Step("invulnerable save", _is_invulnerable, _invulnerable),
    Step("weapon header", _is_weapon_header, lambda st, at: st._weapon_header(at.line, at.found)),
    Step("weapon title", lambda st, at: at.folded in WEAPON_TITLES and at.line.kind != "row", _weapon_title),
    Step("damaged box", _is_damaged, _damaged),
    Step("section title", lambda st, at: at.folded in SECTIONS and (at.heading or at.line.bold
                                                                    or len(at.text.split()) <= 3), _section_title),
    Step("section title run into its text", _is_run_in_title, _run_in_title),
    Step("model name under its values", lambda st, at: at.naming and at.heading and len(at.text.split()) <= 5
         and bool(st.profiles), _model_name_under),
    Step("keyword list wrapped", lambda st, at: st.section == "keywords_more" and st.keywords_open
         and is_caps(at.text), _wrapped_keyword),
    Step("card's back", lambda st, at: at.heading and st.seen_stats and label_key(at.text) == label_key(st.name),
         _back),
    Step("card's back text", lambda st, at: st.section == "back" and not at.heading, _one),
    Step("model title over its grid", lambda st, at: st.section in ("stats", "after_stats") and at.nxt is not None
         and st._model_title(at.line, at.lines, at.k), _model_title),
    Step("last loose value", lambda st, at: st.section == "stats" and bool(st.pending_stats), _last_loose_value),
    Step("unit list goes on", _box_goes_on, _box_more),
    Step("heading after the card", _ends_card, _end),
    Step("shared rule's full text", lambda st, at: st.section in ("abilities", "other_wargear") and at.heading
         and at.folded in st.abilities.textless_names() | st.wargear.textless_names(), _end),
    Step("section text", lambda st, at: True, lambda st, at: st._in_section(at.lines, at.k, at.nxt)),
)
