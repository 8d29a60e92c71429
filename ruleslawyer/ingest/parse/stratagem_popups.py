"""Enhancements and detachment rules: the "<name>" / "[N pts]" / "<Group> Detachment" popups.

A page may also list them by name first (a DETACHMENT ABILITY list of names, an ENHANCEMENTS
list of names and points); those lists say which kind each popup is and give points the
popup leaves out. The popup body is a flavour paragraph, then the rules text, which may open
with a restriction ("CRYPTEK model only.") and may hold a table (kept as tab-separated lines).
"""
from __future__ import annotations

import re
from typing import Iterator, Sequence

from ...names import fold, title_case
from ...records import DetachmentRule, Enhancement, Record
from ..document import HEADING, LIST_ITEM, TABLE
from .parsing import ParseContext
from .rule_text import ends_sentence, is_title_like, is_titlecase, region_changed
from .datasheet_lines import weapon_header
from .stratagem_lines import DET_RE, NAME_PTS_RE, PTS_RE, Line, faction_for

# Keywords ("CRYPTEK", "BEASTBOSS/INFANTRY WARBOSS"; 10th edition packs set them in capitalised
# words: "Adeptus Astartes Terminator").
_CAPS_WORDS = r"[A-Z][A-Za-z'’\-/]*(?: [A-Z][A-Za-z'’\-/]*)*"
_RESTRICTION = re.compile(rf"^((?:{_CAPS_WORDS}(?:,? (?:or|and) {_CAPS_WORDS})* )?(?:models?|units?) only\.)\s*")
_DET_LIST = re.compile(r"^DETACHMENT (ABILITY|ABILITIES|RULES?)$", re.I)
_ENH_LIST = re.compile(r"^ENHANCEMENTS?$", re.I)
_STRAT_LIST = re.compile(r"^STRATAGEMS?$", re.I)
_UPGRADE_TAG = re.compile(r"^(.*\S)\s+UPGRADE$")  # "TALONS OF BUTCHERY UPGRADE": the tag, set apart
_GLUED_CELLS = re.compile(r"(?<=[a-z])(?=[A-Z][a-z])")


class PopupParser:
    """Finds the listings and popups of one document's lines."""

    def __init__(self, lines: Sequence[Line], ctx: ParseContext, faction: str | None,
                 known_groups: set[str] = frozenset(), card_starts: set[int] = frozenset()):
        self.lines = lines
        self.card_starts = card_starts  # line positions where a stratagem card opens
        self.known_groups = {fold(g) for g in known_groups}
        self.ctx = ctx
        self.faction = faction
        self.detachment_names: set[str] = set()
        self.enhancement_points: dict[str, int | None] = {}
        self.enhancement_order: list[str] = []

    # ------------------------------------------------------------ listings
    def read_listings(self) -> None:
        """Read (and claim) the section headers and the name lists under them."""
        lines = self.lines
        for k, line in enumerate(lines):
            if not line.usable or line.kind not in (HEADING, "paragraph"):
                continue
            text = line.text.strip()
            if _STRAT_LIST.match(text):
                self.ctx.claim([line.index])
            elif _DET_LIST.match(text):
                self.ctx.claim([line.index])
                self._read_names(k + 1, self._add_detachment)
            elif _ENH_LIST.match(text):
                self.ctx.claim([line.index])
                self._read_names(k + 1, self._add_enhancement)

    def _add_detachment(self, positions: list[int]) -> None:
        self.detachment_names.add(fold(self.lines[positions[0]].text))

    def _add_enhancement(self, positions: list[int]) -> None:
        first = self.lines[positions[0]]
        if first.kind == TABLE:
            for row in first.block.rows:
                cells = [c.strip() for c in row if c.strip()]
                if cells and not re.fullmatch(r"\d+", cells[0]):
                    pts = next((int(c) for c in cells[1:] if re.fullmatch(r"\d+", c)), None)
                    self._enh(cells[0], pts)
            return
        m = NAME_PTS_RE.match(first.text)
        if m and len(positions) == 1:
            self._enh(m.group("name"), int(m.group("pts")))
            return
        pts = None
        if len(positions) > 1:
            pts = int(re.match(r"\d+", self.lines[positions[1]].text).group())
        self._enh(first.text, pts)

    def _enh(self, name: str, pts: int | None) -> None:
        key = fold(name)
        if key not in self.enhancement_points:
            self.enhancement_order.append(key)
        self.enhancement_points[key] = pts

    def _read_names(self, k: int, add) -> None:
        """Name lines (each optionally followed by a bare number) until the list ends."""
        lines = self.lines
        while k < len(lines):
            line = lines[k]
            if not line.usable or self.starts_popup(k):
                return
            if line.kind == TABLE:
                add([k])
                self.ctx.claim([line.index])
                return
            text = line.text.strip()
            if line.kind == HEADING and _section_label(text):
                return
            if not is_title_like(text, max_words=8) or self._opens_text(k):
                return
            if k + 1 < len(lines) and PTS_RE.match(lines[k + 1].text.strip()):
                return  # "Name" / "N pts" opens an enhancement popup, not a list entry
            used = [k]
            if k + 1 < len(lines) and lines[k + 1].usable and re.fullmatch(r"\d+", lines[k + 1].text.strip()):
                used.append(k + 1)
            add(used)
            self.ctx.claim(lines[p].index for p in used)
            k = used[-1] + 1

    def _opens_text(self, k: int) -> bool:
        """Whether line k is a title followed by prose (a popup, not a list entry)."""
        nxt = self.lines[k + 1] if k + 1 < len(self.lines) else None
        return nxt is not None and nxt.usable and nxt.kind != HEADING and _is_prose(nxt.text)

    # ------------------------------------------------------------ popups
    def _groups(self) -> list[str | None]:
        """The detachment each line sits under on a page laid out by detachment.

        A heading naming a detachment the page's stratagems belong to ("Awakened Dynasty")
        opens it (when no stratagem names one, the heading before a "Detachment Rule"
        heading does); it holds until the next such heading or a heading of a higher level.
        """
        if hasattr(self, "_group_cache"):
            return self._group_cache
        known = self.known_groups
        out: list[str | None] = []
        current: str | None = None
        current_level = 0
        last: tuple[str, int] | None = None
        for line in self.lines:
            if line.kind == HEADING and not line.junk:
                text = line.text.strip()
                level = line.block.level
                if _DET_LIST.match(text):
                    if not known and last is not None:
                        current, current_level = last
                elif _ENH_LIST.match(text) or _STRAT_LIST.match(text):
                    pass
                elif fold(text) in known:
                    current, current_level = text, level
                else:
                    if current is not None and level < current_level:
                        current = None
                    last = (text, level)
            out.append(current)
        self._group_cache = out
        return out

    def _openers(self) -> set[int]:
        """The positions where a popup may open (where `_head` tests its shapes): a usable line
        with a "<Group> Detachment" line one or two lines below, or on a page laid out by
        detachment. Found in one pass; most documents have none."""
        if not hasattr(self, "_opener_cache"):
            lines = self.lines
            # (DET_RE ends in the word "Detachment": lines without it are not tried)
            dets = [line.usable and "Detachment" in line.text and DET_RE.match(line.text.strip()) is not None
                    for line in lines] + [False, False]
            groups = self._groups()
            self._opener_cache = {k for k, line in enumerate(lines)
                                  if line.usable and (dets[k + 1] or dets[k + 2] or groups[k] is not None)}
        return self._opener_cache

    def _head(self, k: int):
        """(name, points, first position, last head position, group, kind) of a popup at k."""
        lines = self.lines
        n = len(lines)
        if k not in self._openers():
            return None
        name_line = lines[k]
        text = name_line.text.strip()
        det = lambda j: j < n and lines[j].usable and DET_RE.match(lines[j].text.strip())
        pts_at = lambda j: j < n and lines[j].usable and PTS_RE.match(lines[j].text.strip())
        m = NAME_PTS_RE.match(text)
        if m and det(k + 1):
            return m.group("name").strip(), int(m.group("pts")), k, k + 1, _det_group(lines[k + 1]), None
        if pts_at(k + 1) and det(k + 2):
            return text, int(PTS_RE.match(lines[k + 1].text.strip()).group("pts")), k, k + 2, \
                _det_group(lines[k + 2]), None
        if det(k + 1) and is_title_like(text, max_words=8):
            return text, None, k, k + 1, _det_group(lines[k + 1]), None
        group = self._groups()[k]
        if group is None:
            return None
        # A page laid out by detachment: "Name" / "N pts" / prose is an enhancement, and the
        # titled rule right under a "Detachment Rule" heading is the detachment rule.
        if pts_at(k + 1) and is_title_like(text, max_words=8) and k + 2 < n and lines[k + 2].usable \
                and _is_prose(lines[k + 2].text):
            return text, int(PTS_RE.match(lines[k + 1].text.strip()).group("pts")), k, k + 1, group, "enhancement"
        if not (is_title_like(text, max_words=8) and k + 1 < n and lines[k + 1].usable
                and _is_prose(lines[k + 1].text)):
            return None
        prev = lines[k - 1] if k > 0 else None
        if prev is not None and prev.kind == HEADING and _DET_LIST.match(prev.text.strip()):
            return text, None, k, k, group, "detachment_rule"
        section = self._section(k)
        if section is not None and _ENH_LIST.match(section.text.strip()) and line_is_entry(name_line):
            return text, None, k, k, group, "enhancement"  # an enhancement printed without points
        return None

    def _section(self, k: int):
        """The heading the entry at k sits under: the nearest heading above that is not an
        earlier entry of the same list (a heading of the same level as the entry's own). A
        stratagem card, or a heading an earlier parser read (an erratum, a datasheet), ends the
        list: what follows it is no entry of the list above."""
        line = self.lines[k]
        level = line.block.level if line.kind == HEADING else None
        for j in range(k - 1, -1, -1):
            above = self.lines[j]
            if j in self.card_starts:
                return None
            if above.kind != HEADING or above.junk:
                continue
            if above.claimed:
                return None
            text = above.text.strip()
            if _section_label(text):
                return above
            if level is not None and above.block.level == level:
                continue  # the enhancement before this one
            return above
        return None

    def starts_popup(self, k: int) -> bool:
        """True when line k opens a popup (an enhancement or detachment rule entry)."""
        return self._head(k) is not None

    def parse(self, is_start) -> Iterator[Record]:
        """The enhancement and detachment rule records of every popup, in page order."""
        lines = self.lines
        openers = sorted(self._openers())
        at = 0  # the next opener to try
        k = 0
        while at < len(openers):
            if openers[at] < k:
                at += 1
                continue
            k = openers[at]
            head = self._head(k)
            if head is None:
                at += 1
                continue
            name, pts, first, last, group, kind = head
            self._claim_group_heading(first)
            body, k = self._body(last + 1, is_start)
            self.ctx.claim(lines[p].index for p in range(first, last + 1))
            # (a table in an entry stays free for the tables parser, but for a weapon's profile:
            # the weapon an enhancement gives is part of its text, no table of its own)
            self.ctx.claim(lines[p].index for p in body
                           if (lines[p].kind != TABLE and not _table_like(lines[p])) or _weapon_profile(lines[p]))
            yield self._record(name, pts, group, body, lines[first].block.page, kind)

    def _claim_group_heading(self, k: int) -> None:
        """Claim the heading that names the detachment of the entry at k, and the capitalised
        strapline under it ("BRAZEN ENGINES" / "THE ARMOURED MIGHT OF ..."): they title the
        detachment's page, and are no rule of their own."""
        group = self._groups()[k] if k < len(self._groups()) else None
        if group is None:
            return
        for j in range(k - 1, -1, -1):
            line = self.lines[j]
            if line.kind == HEADING and line.text.strip() == group:
                # (only with its strapline: a heading left alone still ends the text above it)
                nxt = self.lines[j + 1] if j + 1 < len(self.lines) else None
                if nxt is not None and nxt.kind == "paragraph" and nxt.text.isupper() and _is_prose(nxt.text):
                    self.ctx.claim([line.index, nxt.index])
                return

    def _body(self, j: int, is_start) -> tuple[list[int], int]:
        lines = self.lines
        body: list[int] = []
        first = lines[j - 1]
        while j < len(lines):
            line = lines[j]
            if not line.usable or is_start(j) or _section_label(line.text):
                break  # (a section label, "ENHANCEMENTS", opens the next list)
            if region_changed(first.block, line.block):
                break  # the loader marks where each popup or page section ends
            if body and self._rule_title(j):
                break
            body.append(j)
            j += 1
        return body, j

    def _rule_title(self, j: int) -> bool:
        """A line that opens a rule popup (a title followed by prose), ending this popup."""
        line = self.lines[j]
        if not is_title_like(line.text) or not is_titlecase(line.text):
            return False
        nxt = self.lines[j + 1] if j + 1 < len(self.lines) else None
        if nxt is None or not nxt.usable or nxt.kind == TABLE:
            return False  # (a name over a table is a weapon the entry gives: "Orksbane [CLEAVE 2]" / profile)
        if nxt.kind == HEADING and nxt.text.casefold() == line.text.casefold():
            return True
        return _is_prose(nxt.text) and (line.kind == HEADING or line.block.is_bold or not self._gap_before(j))

    def _gap_before(self, j: int) -> bool:
        from .rule_text import gap_between

        return j > 0 and gap_between(self.lines[j - 1].block, self.lines[j].block)

    def _record(self, name: str, pts: int | None, group: str, body: list[int], page,
                kind: str | None = None) -> Record:
        lines = self.lines
        paras: list[tuple[str, bool]] = []  # (text, is list item)
        for p in body:
            line = lines[p]
            text = line.text
            if line.kind != TABLE and _table_like(line):
                text = _GLUED_CELLS.sub("\t", text)
            paras.append((text, line.kind == LIST_ITEM))
        fluff = None
        prose = [t for t, _ in paras]
        italic_first = bool(body) and lines[body[0]].block.is_italic
        if prose and (italic_first or (len(prose) > 1 and not _RESTRICTION.match(prose[0]))):
            fluff = prose[0]
            paras = paras[1:]
        text = _join(paras)
        key = fold(name)
        restriction = None
        m = _RESTRICTION.match(text)
        if m:
            restriction, text = m.group(1), text[m.end():]
        is_enh = key in self.enhancement_points or pts is not None or restriction is not None
        if key in self.detachment_names and pts is None:
            is_enh = False
        if kind is not None:
            is_enh = kind == "enhancement"
        faction = faction_for(group, self.faction)
        source = self.ctx.source(page)
        upgrade = None
        tagged = _UPGRADE_TAG.match(name)
        if tagged and (is_enh or kind is None):
            # 11th edition tags an upgrade (given to a unit, not a character) after its name
            name, upgrade, is_enh = tagged.group(1), True, True
        if name.isupper():  # a card's capitals: named as the stratagems are
            name = title_case(name)
        group = title_case(group) if group and group.isupper() else group
        if is_enh:
            if pts is None:
                pts = self.enhancement_points.get(key)
            return Enhancement(name=name, source=source, edition=self.ctx.edition, faction=faction, points=pts,
                               group=group, restriction=restriction, text=text, fluff=fluff, upgrade=upgrade)
        return DetachmentRule(name=name, source=source, edition=self.ctx.edition, faction=faction,
                              group=group, text=text, fluff=fluff)


def line_is_entry(line: Line) -> bool:
    """A name line of an enhancement list (a heading or a bold/plain short title)."""
    return line.kind in (HEADING, "paragraph") and is_titlecase(line.text)


def _det_group(line: Line) -> str:
    return DET_RE.match(line.text.strip()).group("group").strip()


def _is_prose(text: str) -> bool:
    """A sentence or more of running text (not a title, number or table cell)."""
    t = text.strip()
    return len(t.split()) >= 5 and (ends_sentence(t) or len(t.split()) >= 12)


def _section_label(text: str) -> bool:
    """A faction pack's list label: DETACHMENT RULE, ENHANCEMENTS, STRATAGEMS."""
    text = text.strip()
    return bool(_ENH_LIST.match(text) or _STRAT_LIST.match(text) or _DET_LIST.match(text))


def _weapon_profile(line: Line) -> bool:
    """A table whose header row is a weapon profile's (RANGE A WS S AP D)."""
    if line.kind != TABLE:
        return False
    first = line.text.split("\n", 1)[0]
    return weapon_header(Line(line.index, first, "paragraph", line.block, cells=tuple(first.split("\t")))) is not None


def _table_like(line: Line) -> bool:
    """A short line without sentence punctuation inside a body: a table header or row."""
    if line.kind == TABLE:
        return True
    t = line.text.strip()
    return line.kind != LIST_ITEM and len(t.split()) <= 6 and not ends_sentence(t)


def _join(paras: list[tuple[str, bool]]) -> str:
    """Paragraphs with blank lines between; list items and table rows one per line."""
    out = ""
    prev_tight = False
    for text, is_item in paras:
        tight = is_item or "\t" in text
        if out:
            out += "\n" if (tight or prev_tight) and (tight and prev_tight or is_item) else "\n\n"
        out += text
        prev_tight = tight
    return out.strip()
