"""Reading one datasheet card, line by line, into the parts of a Datasheet record.

`CardReader` walks the card's lines once. Labels (KEYWORDS:, ABILITIES, WARGEAR OPTIONS,
UNIT COMPOSITION, LEADER, a characteristic or weapon header, ...) switch the section wherever
they appear; other lines go to the section they are in. Weapon tables and the ability panel
a PDF prints beside them are read by the `WeaponReading` part (datasheet_weapons.py). A
label run into the text after it ("UNIT COMPOSITION ▪ 1 Warboss ...") is split off first.
"""
from __future__ import annotations

import re

from ...records import Profile, UnitCost, Weapon
from .datasheet_columns import weapon_columns
from .datasheet_lines import (Line, WEAPON_TITLES, label_key, is_caps, is_value, norm_text, norm_value, stat_header, vertical_stats, vertical_weapon_header, weapon_header)
from .lines import record_name
from .datasheet_sections import AbilityReader, WeaponTable, profile_from_cells, profile_from_pairs
from .datasheet_text import (add_option, add_sentence_line, cost_from, sentences, split_composition, split_keywords)
from .datasheet_weapons import PANEL_LINE, WeaponReading

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
# A LEADER/SUPPORT sentence whose unit list is complete: "...following units: BOYZ; NOBZ".
_UNITS_DONE = re.compile(r"following units?:\s*[^a-z]*[A-Z][^a-z;,]*$")
_DAMAGED = re.compile(r"^DAMAGED\s*:?\s*(.*)$", re.I)
_PR_NOTE = re.compile(r"\b(?:its\s+PR\s+is|Power\s+Rating\s+(?:is|of))\b", re.I)
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
_GLYPH_ITEM = re.compile(r"^\s*[■•▪◦]\s+\S")
_HEADINGS_INSIDE = ("abilities", "other_wargear", "faction_keywords", "keywords", "vertical_weapons")
END = 0  # what `read` returns when a line ends the card
# What the keyword labels' patterns (`re.I`, anchored) can match first: "F", "K", either case,
# and the Kelvin sign, which `re.I` takes for a "k" (all code points checked in the tests).
_KEYWORD_FIRST = "fFkK\u212a"


def _starts_stats(lines: list[Line], k: int) -> bool:
    return stat_header(lines[k]) is not None or vertical_stats(lines, k) is not None


def base_size(m: re.Match) -> str:
    """"40mm" from "(⌀40 mm)"; a base given in words ("Use model") is kept as printed."""
    size = norm_text(m.group(1) or m.group(2))
    if re.fullmatch(r"[\d.\sx×]+mm", size, re.I):
        size = re.sub(r"\s+", "", size).replace("×", "x")
    return size


class CardReader(WeaponReading):
    """The state of one card being read: every part found so far, and the current section."""

    def __init__(self, name: str, edition: int | None, weapon_keywords: frozenset[str] = frozenset()):
        self.name = name
        self.weapon_keywords = weapon_keywords  # bracketed keywords printed in the document
        self.edition = edition
        self.power: int | None = None
        self.base: str | None = None
        self.points: list[UnitCost] = []
        self.faction_keywords: list[str] = []
        self.keywords: list[str] = []
        self.profiles: list[Profile] = []
        self.stat_header: list[str] | None = None
        self.pending_stats: list[str] = []  # values printed one per line under a header row
        self.name_next_profile = False  # a profile just read from loose values may be named next
        self.next_profile_name: str | None = None  # a model name printed above its stat grid
        self.loose_values = False  # the profiles came as one value per line, amid flavour text
        self.invuln: str | None = None
        self.weapons: list[Weapon] = []
        self.table: WeaponTable | None = None
        self.panel: tuple[int, int] | None = None  # (block, column) of an ability panel beside weapons
        self.pending_name: str | None = None  # the first line of a weapon name wrapped over rows
        self.word_buffer: list[str] = []  # words of a weapon row a loader left as loose lines
        self.vertical_names: list[str] = []
        self.vertical_values: list[str] = []
        self.abilities = AbilityReader(run_in=(edition or 0) >= 10)
        self.wargear = AbilityReader(category="wargear", run_in=(edition or 0) >= 10)
        self.options: list[str] = []
        self.options_open = False  # the last option ends "one of the following:"
        self.composition: list[str] = []
        self.leader_text: list[str] = []
        self.attaches_to: list[str] = []
        self.support_text: list[str] = []  # an 11th edition SUPPORT box, read like LEADER
        self.support_to: list[str] = []
        self.damaged: list[str] = []
        self.keywords_open = False  # the keyword line ended with a separator: it goes on
        self.section = "head"
        self.panel_section = "abilities"
        self.seen_stats = False

    def add_keywords(self, target: list[str], text: str) -> None:
        seen = {t.upper() for t in target}  # kept up to date, not made again for each keyword
        for k in split_keywords(text):
            if k.upper() not in seen:
                target.append(k)
                seen.add(k.upper())

    # ------------------------------------------------------------ one line
    def read(self, lines: list[Line], k: int, end: int) -> int:
        """Read lines[k]; return how many lines it used, or END when the card ended before it."""
        line = lines[k]
        if self.panel and line.kind == "row" and not line.virtual and line.index == self.panel[0]:
            self._split_row(line)
            return 1
        text = line.text
        folded = label_key(text)
        nxt = lines[k + 1] if k + 1 < end else None
        naming, self.name_next_profile = self.name_next_profile, False

        # Labels that switch section, wherever they appear. A loader may have run several
        # keyword lines into one ("FACTION KEYWORDS: ... KEYWORDS: ..."): read each part.
        label = text[:1] in _KEYWORD_FIRST
        parts = [p for p in _LABEL_SPLIT.split(text) if p.strip()] \
            if label and (FACTION_KEYWORDS.match(text) or KEYWORDS.match(text)) else []
        if len(parts) > 1:
            for part in parts[:-1]:
                self._keyword_label(part)
            text = parts[-1]
            label = text[:1] in _KEYWORD_FIRST
        # A label with its value on the line: what follows may be more of the list, but a
        # heading after it is the next part of the page. A bare label: its value follows.
        m = FACTION_KEYWORDS.match(text) if label else None
        if m:
            self.section = "faction_keywords_more" if m.group(1).strip() else "faction_keywords"
            self.add_keywords(self.faction_keywords, m.group(1))
            return 1
        m = KEYWORDS.match(text) if label else None
        if m and (m.group(2) or m.group(1) or line.heading_like):
            self.section = "keywords_more" if m.group(2).strip() else "keywords"
            self.add_keywords(self.keywords, m.group(2))
            self.keywords_open = bool(re.search(r"[;,]$", m.group(2).strip()))
            return 1
        m = POWER.match(text) if "POWER" in text.upper() else None  # the pattern scans the whole line
        if m and not m.group(1):
            self.power = int(m.group(2))
            return 1
        if "(" in text and BASE.fullmatch(text.strip()):
            self.base = base_size(BASE.match(text.strip()))
            return 1
        header = stat_header(line)
        if header is not None:
            self.stat_header, self.section, self.seen_stats = header, "stats", True
            self.pending_stats = []
            return 1
        grid = vertical_stats(lines, k)
        if grid is not None:
            profile = profile_from_pairs(grid[0], self._profile_name())
            if profile is not None:
                self.profiles.append(profile)
            self.seen_stats, self.section = True, "after_stats"
            return grid[1] - k
        if self._invulnerable(lines, k, nxt):
            return 2 if _INVULN_LABEL.match(text) and not _INVULN_LABEL.match(text).group(1) else 1
        wh = weapon_header(line)
        if wh is not None:
            return self._weapon_header(line, wh)
        if folded in WEAPON_TITLES and line.kind != "row":
            columns = weapon_columns(lines, k, end)
            if columns is not None:  # a text dump's table, printed column by column
                for cells in columns[0]:
                    self.read([line.piece(cells, "row")], 0, 1)
                self.section = "weapons"
                return columns[1] - k
            vh = vertical_weapon_header(lines, k + 1)
            melee = folded.startswith("MELEE")
            if vh is not None:
                self.table = WeaponTable(["WEAPON"] + vh[0], melee=melee, known=self.weapon_keywords)
                self.section, self.vertical_names, self.vertical_values = "vertical_weapons", [], []
                return vh[1] - k
            self.section = "weapons"
            return 1
        m = _DAMAGED.match(text) if text[:1] in "dD" else None
        if m and (line.heading_like or "WOUNDS REMAINING" in text.upper()):
            self.section = "damaged"
            self.damaged.append(text)
            return 1
        if folded in SECTIONS and (line.heading_like or line.bold or len(text.split()) <= 3):
            self.section = SECTIONS[folded]
            return 1
        m = _LABEL_PREFIX.match(text)
        if m and label_key(m.group(1)) in SECTIONS:
            self.section = SECTIONS[label_key(m.group(1))]
            self.read([line.piece(m.group(2), "paragraph")], 0, 1)
            return 1
        heading = line.heading_like  # asked below up to four times
        if naming and heading and len(text.split()) <= 5 and self.profiles:
            # A model name printed under the values it names (a flattened stat grid).
            last = self.profiles[-1]
            self.profiles[-1] = Profile(name=record_name(text), stats=last.stats, models=last.models)
            self.name_next_profile = False
            return 1

        if self.section == "keywords_more" and self.keywords_open and is_caps(text):
            self.add_keywords(self.keywords, text)  # a keyword list wrapped after a ";"
            self.keywords_open = bool(re.search(r"[;,]$", text))
            return 1
        if heading and self.seen_stats and label_key(text) == label_key(self.name):
            self.section = "back"  # the card's back: its name again, flavour text, then its labels
            return 1
        if self.section == "back" and not heading:
            return 1
        if self.section in ("stats", "after_stats") and nxt is not None and self._model_title(line, lines, k):
            self.next_profile_name = record_name(text)
            return 1
        if self.section == "stats" and self.pending_stats and self._stats_line(line):
            return 1  # the last loose value, printed with the model's name as a heading
        box_text = self.support_text if self.section == "support" else self.leader_text
        if self.section in ("leader", "support") and box_text and re.search(r"[;,]$", box_text[-1]):
            box_text.append(text)  # the unit list goes on ("...; NOBZ;" / "TANKBUSTAS")
            return 1
        # A heading that is no part of a card ends it (after the stats have been read).
        if self.seen_stats and heading and self.section not in _HEADINGS_INSIDE \
                and not (self.section == "weapons" and re.fullmatch(r"\[[^\]]*\]", text)):
            return END  # (a weapon's "[BLAST]" keywords set on a line of their own are not a heading)
        if self.section in ("abilities", "other_wargear") and heading:
            if folded in self.abilities.textless_names() | self.wargear.textless_names():
                return END  # the full text of a shared rule the card only names
        return self._in_section(lines, k, nxt)

    def read_inline_stats(self, line: Line, inline) -> None:
        """The profile (and an invulnerable save after it) from a run-together card head."""
        self.stat_header, self.seen_stats, self.section = list(inline.labels), True, "after_stats"
        profile = profile_from_cells(list(inline.labels), list(inline.values), self.name)
        if profile is not None:
            self.profiles.append(profile)
        if inline.rest:
            self.read([line.piece(inline.rest, "paragraph")], 0, 1)
        rest_cells = [c for c in line.cells if c.strip()][1:]
        if rest_cells:
            self.read([line.piece(tuple(rest_cells), "row")], 0, 1)

    def _keyword_label(self, text: str) -> None:
        m = FACTION_KEYWORDS.match(text)
        if m:
            self.add_keywords(self.faction_keywords, m.group(1))
            return
        m = KEYWORDS.match(text)
        if m:
            self.add_keywords(self.keywords, m.group(2))

    def _invulnerable(self, lines: list[Line], k: int, nxt: Line | None) -> bool:
        """An invulnerable save: "INVULNERABLE SAVE 4+", "4+ INVULNERABLE SAVE", or "5+" over "INSV"."""
        text = lines[k].text
        m = _INVULN_LABEL.match(text)
        if m:
            value = m.group(1) or (nxt.text if nxt is not None else "")
            self.invuln = value.strip().rstrip("*") or None
        elif _INVULN_AFTER.match(text):
            self.invuln = _INVULN_AFTER.match(text).group(1)
        elif label_key(text) in _INVULN_ABBREV and k > 0 and is_value(lines[k - 1].text):
            self.invuln = norm_value(lines[k - 1].text)
            if self.pending_stats and self.pending_stats[-1] == lines[k - 1].text:
                self.pending_stats.pop()
        else:
            return False
        self.section = "after_stats"
        return True

    # ------------------------------------------------------------ sections
    def _in_section(self, lines: list[Line], k: int, nxt: Line | None) -> int:
        line = lines[k]
        text = line.text
        section = self.section
        if section == "stats":
            used = self._stats_line(line)
            if used:
                return used
            self.section = section = "loose"
        if section == "weapons" and self.table is not None:
            if line.kind == "row" or len(line.cells) > 1 or (line.virtual and not PANEL_LINE.match(text)):
                self._weapon_row(line)
                return 1
            if self.panel is not None and (PANEL_LINE.match(text) or self._panel_unfinished()):
                self._panel_text(line, text)  # a line of the panel that a loader set apart
                return 1
            if self.table.tenth and self._weapon_words(line):
                return 1
            self.section = section = "loose"
        if section == "vertical_weapons":
            return self._vertical_weapon(line)
        if section == "abilities":
            self.abilities.add(line)
            return 1
        if section == "other_wargear":
            self.wargear.add(line)
            return 1
        if section == "wargear_options":
            self.options_open = add_option(self.options, line, self.options_open)
            return 1
        if section in ("leader", "support"):
            units, box_text = ((self.support_to, self.support_text) if section == "support"
                               else (self.attaches_to, self.leader_text))
            if box_text and not units and line.kind != "list_item" and any(c.islower() for c in text) \
                    and _UNITS_DONE.search(" ".join(box_text)):
                # The box's sentence named its units and ended: this line is the next part
                # of the card (a weapon's note, a composition line) set after it.
                self.section = "loose"
                return self._in_section(lines, k, nxt)
            if line.kind == "list_item" or (_GLYPH_ITEM.match(text) and box_text):
                units.append(text.strip(" ■•▪◦-"))  # (a text dump keeps the bullet glyph in the line)
            else:
                box_text.append(text)
            return 1
        if section == "keywords" or (section == "keywords_more" and (is_caps(text) or (
                self.keywords_open and len(text.split()) <= 6 and not re.search(r"[.:;!?]$", text)))):
            self.add_keywords(self.keywords, text)
            self.keywords_open = bool(re.search(r"[;,]$", text.strip()))
            return 1
        if section == "keywords_more":
            self.section = section = "loose"  # prose after the keyword line (flavour text)
        if section == "faction_keywords_more":
            if not is_caps(text):
                return END
            self.add_keywords(self.faction_keywords, text)
            return 1
        if section == "faction_keywords":
            if k + 1 < len(lines) and _starts_stats(lines, k + 1):
                return END  # not this label's value: the next card's title, right above its stats
            self.add_keywords(self.faction_keywords, text)
            self.section = "after_keywords"
            return 1
        if section == "damaged":
            self.damaged.append(text)
            return 1
        cost = cost_from(line, nxt)
        if cost is not None:
            self.points.append(cost[0])
            return 2 if cost[1] else 1
        if section == "composition":
            for item in split_composition(text):
                add_sentence_line(self.composition, line.piece(item) if item != text else line)
            return 1
        if section in ("loose", "after_stats", "weapons") and self.seen_stats:
            for sentence in sentences(text):
                if not _PR_NOTE.search(sentence) and re.search(r"\bequipped with\b", sentence, re.I) \
                        and sentence not in self.composition:
                    self.composition.append(sentence)
            return 1
        if section == "after_keywords":
            return END
        return 1  # head lines before the stats (a subtitle, a stray bracket)

    def _profile_name(self) -> str:
        name, self.next_profile_name = self.next_profile_name or self.name, None
        return name

    @staticmethod
    def _model_title(line: Line, lines: list[Line], k: int) -> bool:
        """A short title right above another stat grid of the same card: that model's name."""
        text = line.text
        if line.kind == "row" or len(text.split()) > 5 or re.search(r"[.:;,!?]$", text) or is_value(text):
            return False
        return stat_header(lines[k + 1]) is not None or vertical_stats(lines, k + 1) is not None

    def _stats_line(self, line: Line) -> int:
        """A profile row, or one value of a row printed one value per line; 0 if neither."""
        header = self.stat_header or []
        n = sum(1 for h in header if label_key(h) in ("M", "WS", "BS", "S", "T", "W", "A", "LD", "SV", "OC", "I"))
        words = line.text.split()
        last_value_then_name = (len(self.pending_stats) == n - 1 and len(words) > 1 and is_value(words[0])
                                and is_caps(" ".join(words[1:])))
        if line.kind != "row" and (len(line.tokens) == 1 and is_value(line.text) or last_value_then_name):
            # One value per line; the last may share its line with the model's name ("2 BOSS NOB").
            self.pending_stats.append(words[0])
            if len(self.pending_stats) == n:
                profile = profile_from_cells(header, self.pending_stats, self.name)
                if profile is not None:
                    if last_value_then_name:
                        profile = Profile(record_name(" ".join(words[1:])), profile.stats, profile.models)
                    self.profiles.append(profile)
                    self.name_next_profile = not last_value_then_name
                    self.loose_values = True
                self.pending_stats = []
            return 1
        if line.kind == "row" or len(line.tokens) >= len(header) - 2:
            profile = profile_from_cells(header, list(line.cells), self.next_profile_name or self.name)
            if profile is not None:
                self.profiles.append(profile)
                self.next_profile_name = None
                return 1
        if line.kind != "row" and not self.profiles and not self.pending_stats:
            return 1  # flavour text beside the header, before the values
        if self.pending_stats or (self.loose_values and not line.heading_like):
            return 1  # flavour text between loose values
        return 0
