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
from .datasheet_lines import heading_like, Line, label_key, is_caps, is_value, stat_header, vertical_stats
from .datasheet_steps import CARD_STEPS, END, FACTION_KEYWORDS, KEYWORDS, At
from .lines import record_name
from .datasheet_sections import AbilityReader, WeaponTable, profile_from_cells
from .datasheet_text import (add_option, add_sentence_line, cost_from, sentences, split_composition, split_keywords)
from .datasheet_weapons import PANEL_LINE, WeaponReading

# A LEADER/SUPPORT sentence whose unit list is complete: "...following units: BOYZ; NOBZ".
_UNITS_DONE = re.compile(r"following units?:\s*[^a-z]*[A-Z][^a-z;,]*$")
_PR_NOTE = re.compile(r"\b(?:its\s+PR\s+is|Power\s+Rating\s+(?:is|of))\b", re.I)
_GLYPH_ITEM = re.compile(r"^\s*[■•▪◦]\s+\S")


def _starts_stats(lines: list[Line], k: int) -> bool:
    return stat_header(lines[k]) is not None or vertical_stats(lines, k) is not None


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
        """Read lines[k]; return how many lines it used, or END when the card ended before it.
        The first step of `CARD_STEPS` that matches the line takes it (datasheet_steps.py)."""
        line = lines[k]
        at = At(lines, k, end, line, line.text, lines[k + 1] if k + 1 < end else None)
        for step in CARD_STEPS:
            if step.matches(self, at):
                used = step.apply(self, at)
                if not step.passing and used is not None:
                    return used
        raise AssertionError("the last step takes every line")  # pragma: no cover

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
        if self.pending_stats or (self.loose_values and not heading_like(line)):
            return 1  # flavour text between loose values
        return 0
