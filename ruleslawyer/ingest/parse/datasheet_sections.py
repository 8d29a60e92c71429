"""Readers for the parts of one datasheet card: profiles, weapons, abilities, invulnerable saves.

Each reader takes `Line`s (see datasheet_lines) that the card parser has already assigned to
a section and returns record parts. Nothing here knows the file format.
"""
from __future__ import annotations

import re

from ...records import Ability, Profile, Weapon
from .datasheet_lines import heading_like, STAT_NAMES, Line, label_key, is_caps, is_value, norm_text, norm_value, stat_name
from .lines import record_name

# ---------------------------------------------------------------- profiles
def profile_from_cells(header: list[str], cells: list[str], unit_name: str) -> Profile | None:
    """One profile from a characteristic row under `header` (cells as printed).

    The header may start with a model-count column ("No.") and a name column ("NAME"); a
    10th-edition grid has neither and the profile takes the unit's name. The values are the
    first run of value cells (a loader may shift them a column, or leave text after them);
    a row left as one space-separated line is split into words.
    """
    cells = [c for c in cells if c.strip()]
    stat_cols = [h for h in header if label_key(h) in STAT_NAMES]
    lead = [h for h in header if label_key(h) not in STAT_NAMES]
    n = len(stat_cols)
    start = _value_run(cells, n)
    if start is None and n >= 5 and len(cells) == n and sum(is_value(c) for c in cells) >= n - 2 \
            and all(len(c) <= 8 for c in cells):
        start = 0  # one cell per characteristic, a few printed oddly ("4+*", "2+/4+"): the columns say
    if start is None:
        words = " ".join(cells).split()
        start = _value_run(words, n, from_end=True)
        if start is None:
            return None
        cells = ([" ".join(words[:start])] if start else []) + words[start:]
        start = 1 if start else 0
    values = cells[start:start + n]
    leading = cells[:start]
    trailing = " ".join(cells[start + n:])
    if not leading and trailing and is_caps(trailing) and len(trailing.split()) <= 5:
        leading = [record_name(trailing)]  # the model's name printed after its values
    models = None
    name = unit_name
    count_first = bool(lead) and label_key(lead[0]) in ("NO", "MODELS", "")
    if leading:
        if count_first and re.match(r"^\d+(?:\s*[-–]\s*\d+)?$", leading[0]):
            models = norm_value(leading[0]).replace(" ", "")
            leading = leading[1:]
        if leading:
            name = norm_text(" ".join(leading))
            # "1 Skorpekh Lord" when a loader merged the count and name cells.
            m = re.match(r"^(\d+(?:-\d+)?)\s+(\S.*)$", name)
            if count_first and models is None and m:
                models, name = m.group(1), m.group(2)
    stats = {stat_name(col): norm_value(v) for col, v in zip(stat_cols, values)}
    if not _plausible(stats):
        return None
    return Profile(name=name, stats=stats, models=models)


_MOVE = re.compile(r'^(?:\d+(?:\.\d+)?\+?"|\d+-\d+"|-|\*|N/A|\d+"\*)$', re.I)


def _plausible(stats: dict[str, str]) -> bool:
    """A Move characteristic is a distance ("6\"", "20+\"") or a dash: anything else means the
    values were read out of order (a sample card drawn into a page of rules, say)."""
    move = next((v for k, v in stats.items() if label_key(k) == "M"), None)
    return move is None or bool(_MOVE.match(move))


def _value_run(cells: list[str], n: int, from_end: bool = False) -> int | None:
    """Where `n` consecutive value cells start (the first such run, or the last)."""
    if n == 0 or len(cells) < n:
        return None
    starts = range(len(cells) - n, -1, -1) if from_end else range(len(cells) - n + 1)
    for i in starts:
        if all(is_value(c) for c in cells[i:i + n]):
            # A leading count ("10-20") is a value too: the run is the last n of a longer run.
            while not from_end and i + n < len(cells) and is_value(cells[i + n]):
                i += 1
            return i
    return None


def profile_from_pairs(pairs: list[tuple[str, str]], unit_name: str) -> Profile | None:
    stats = {stat_name(label): norm_value(v) for label, v in pairs}
    return Profile(name=unit_name, stats=stats) if _plausible(stats) else None


# ---------------------------------------------------------------- weapons
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_MULTI_MARK = re.compile(r"^\s*(?:[-–—➤►•]\s*)+")


def _shape(keyword: str) -> str:
    """A weapon keyword with its numbers as "#": "RAPID FIRE 2" and "[RAPID FIRE X]" -> "rapid fire #"."""
    return re.sub(r"(?<![a-z])(?:\d+\+?|x|d\d+(?:\+\d+)?)(?![a-z0-9])", "#", norm_text(keyword).lower())


def keyword_vocabulary(text: str) -> frozenset[str]:
    """The shapes of every bracketed keyword a document prints ("[MELTA X]", "[blast]")."""
    out = set()
    for group in _BRACKETS.findall(text):
        for keyword in group.split(","):
            if 1 < len(keyword.strip()) <= 30:
                out.add(_shape(keyword))
    return frozenset(out)


def _strip_bare_keywords(name: str, known: frozenset[str]) -> tuple[str, list[str]]:
    """Trailing words of a name that are weapon keywords the document prints elsewhere in
    brackets, each taken at most once: "Bolt pistol PISTOL" -> "Bolt pistol", ["PISTOL"]."""
    found: list[str] = []
    while True:
        words = name.split()
        for size in range(min(4, len(words) - 1), 0, -1):
            tail = " ".join(words[-size:])
            if _shape(tail) in known and _shape(tail) not in {_shape(f) for f in found}:
                found.insert(0, tail)
                name = " ".join(words[:-size])
                break
        else:
            return name, found


def split_weapon_name(raw: str, known: frozenset[str] | None = None) -> tuple[str, tuple[str, ...]]:
    """Name and bracketed keywords of a 10th-edition weapon cell: "Aeonstave [blast]".

    With `known` (the document's bracketed keywords, see keyword_vocabulary), a cell whose
    brackets a loader lost has its trailing keyword words split off instead.
    """
    keywords: list[str] = []
    for group in _BRACKETS.findall(raw):
        keywords.extend(k.strip() for k in group.split(",") if k.strip())
    name = norm_text(_BRACKETS.sub(" ", raw))
    if known and not keywords:
        name, keywords = _strip_bare_keywords(name, known)
    name = _MULTI_MARK.sub("", name).strip()
    name = re.sub(r"\s+[–—]\s+", " - ", name)
    return name, tuple(keywords)


class WeaponTable:
    """Reads weapon rows under one header; keeps the name of a multi-profile weapon pending."""

    def __init__(self, header: list[str], melee: bool | None = None, known: frozenset[str] | None = None):
        self.columns = [label_key(h) for h in header if h.strip()]
        if self.columns and self.columns[0] not in ("RANGE",):
            self.columns = self.columns[1:]  # the title cell ("WEAPON", "RANGED WEAPONS")
        self.columns = ["NAME"] + self.columns
        self.melee = melee
        self.tenth = "A" in self.columns  # 10th edition: A and BS/WS, keywords in the name
        self.known = known if self.tenth else None  # the document's bracketed weapon keywords
        self.base_name: str | None = None  # "Plasma pistol" while its "- Standard" rows follow

    def rows(self, cells: list[str]) -> list[Weapon]:
        """The weapons of one table row; a 10th-edition row a loader left as one line of words
        ("Slugga [PISTOL] 12" 1 5+ 4 0 1", sometimes two weapons in a row) is split first."""
        cells = [c for c in cells if c.strip()]
        if len(cells) == 1 and "A" in self.columns:
            pieces = self._split_words(cells[0].split(), len(self.columns) - 1)
            if pieces:
                return [w for piece in pieces for w in [self.row(piece)] if w is not None]
        weapon = self.row(cells)
        return [weapon] if weapon is not None else []

    def split_cells(self, cells: list[str]) -> tuple[list[str], list[str]]:
        """A row's weapon cells (name parts, then the values) and any cells after the values."""
        n = len(self.columns) - 1
        for i in range(1, len(cells) - n + 1):
            if all(is_value(c) for c in cells[i:i + n]):
                return [" ".join(cells[:i])] + cells[i:i + n], cells[i + n:]
        if len(cells) == 1 and self._split_words(cells[0].split(), n):
            return cells, []
        return cells[:1], cells[1:]

    @staticmethod
    def _split_words(words: list[str], n: int) -> list[list[str]]:
        """Name words then `n` value words, repeated; [] when the words do not fit that shape."""
        pieces, name, i = [], [], 0
        while i < len(words):
            if name and i + n <= len(words) and all(is_value(w) for w in words[i:i + n]):
                pieces.append([" ".join(name)] + words[i:i + n])
                name, i = [], i + n
                continue
            name.append(words[i])
            i += 1
        return pieces if pieces and not name else []

    def row(self, cells: list[str]) -> Weapon | None:
        """One weapon from its row's cells (None for the title row of a multi-profile weapon)."""
        cells = [c for c in cells if c.strip()]
        if not cells:
            return None
        raw_name = cells[0]
        # A multi-profile weapon's title row: the name, then a sentence instead of a range.
        if len(cells) <= 2 and (len(cells) == 1 or not is_value(cells[1])):
            self.base_name = split_weapon_name(raw_name)[0]
            return None
        is_sub = bool(_MULTI_MARK.match(raw_name))
        name, keywords = split_weapon_name(raw_name, self.known)
        if is_sub and self.base_name:
            name = f"{self.base_name} - {name}"
        elif not is_sub:
            self.base_name = None
        values = dict(zip(self.columns[1:], cells[1:]))
        if len(cells) > len(self.columns) and "ABILITIES" in self.columns:
            # Abilities text split over extra cells: join it back.
            k = self.columns.index("ABILITIES")
            values["ABILITIES"] = " ".join(cells[k:])
        get = lambda col: norm_value(values[col]) if col in values else None
        abilities: tuple[str, ...] = keywords
        text = values.get("ABILITIES") or values.get("KEYWORDS")
        if text is not None:
            text = norm_text(text)
            if text and norm_value(text) != "-":
                if "KEYWORDS" in values and not "ABILITIES" in values:
                    abilities = abilities + tuple(k.strip() for k in text.split(",") if k.strip())
                else:
                    abilities = abilities + (text,)
        skill = get("BS") or get("WS")
        rng = get("RANGE")
        if rng is None and self.melee:
            rng = "Melee"
        return Weapon(name=name, range=rng, type=get("TYPE"), A=get("A"), skill=skill, S=get("S"),
                      AP=get("AP"), D=get("D"), abilities=abilities)


# ---------------------------------------------------------------- abilities
_CATEGORY = re.compile(r"^(CORE|FACTION|UNIT|WARGEAR)\s*:\s*(.+)$", re.I)
_SENTENCE_END = re.compile(r"[.:;!?,]$")
_LONE_LABEL = re.compile(r"^[A-Z][^.:;?]{0,60}:$")
_RUN_IN = re.compile(r"^([A-Z][^.:;?]{0,60}?)\s*:\s+(\S.*)$")


def looks_like_name(line: Line) -> bool:
    """A short title line (an ability or wargear name printed on its own line)."""
    text = line.text
    words = text.split()
    if not words or len(words) > 8 or _SENTENCE_END.search(text):
        return False
    if line.bold or heading_like(line):
        return True
    if "," in text or not (text[0].isupper() or text[0] == "<"):
        return False
    # Title-ish: most words capitalised ("Their Number is Legion", "Storm shield").
    return len(words) <= 6


class AbilityReader:
    """Collects abilities from lines: a name line then its text lines, or "Name: text" run-ins."""

    def __init__(self, category: str | None = None, run_in: bool = False):
        self.category = category
        self.run_in = run_in
        self.items: list[list] = []  # [name, [text lines], category]

    def _start(self, name: str, category: str | None, text: str | None = None) -> None:
        self.items.append([name, [text] if text else [], category])

    def add(self, line: Line) -> None:
        segments = run_in_segments(line)
        if len(segments) > 1:
            # Several "Name: text" abilities a loader ran into one block.
            for text, prefix in segments:
                self._add_text(line, text, prefix)
            return
        prefix = line.bold_prefix().rstrip(":").strip()
        self._add_text(line, line.text, prefix)

    def _add_text(self, line: Line, text: str, prefix: str) -> None:
        m = _CATEGORY.match(text)
        if m and self.run_in:
            for name in re.split(r",\s*", m.group(2)):
                if name.strip():
                    self._start(norm_text(name), m.group(1).lower())
            return
        if self.run_in and _LONE_LABEL.match(text):
            self._start(norm_text(text.rstrip(": ")), self.category or "unit")  # its text follows
            return
        m = _RUN_IN.match(text)
        # A bold lead may be long ("Da Jump (Psychic, once per turn, per army):"); an unstyled
        # one is taken only when short, so a sentence with a colon is not read as a name.
        bold_lead = bool(prefix) and m is not None and m.group(1).strip() == prefix
        if m and (self.run_in or bold_lead) and len(m.group(1).split()) <= (12 if bold_lead else 7):
            self._start(norm_text(m.group(1)), self.category or "unit", m.group(2))
            return
        complete = not self.items or not self.items[-1][1] or re.search(r"[.:!?\"”)]$", self.items[-1][1][-1])
        # A bulleted line under an ability is one of its points ("▪ [DEVASTATING WOUNDS]"),
        # however it is styled; an ability's name carries no bullet.
        bullet = self.items and (line.kind == "list_item" or text.lstrip()[:1] in "▪■•●")
        if looks_like_name(line) and (complete or line.bold or heading_like(line)) and not bullet:
            self._start(record_name(text), self.category)
            return
        if self.items:
            self.items[-1][1].append(text.lstrip("▪■•● ") if bullet else text)
        # Text with no name before it is not an ability we can name: leave it.

    def textless_names(self) -> set[str]:
        return {label_key(name) for name, lines, _ in self.items if not lines}

    def abilities(self) -> list[Ability]:
        """The abilities read; one printed with its own text is a unit ability unless labelled."""
        out = []
        for name, lines, cat in self.items:
            text = norm_text(" ".join(lines))
            out.append(Ability(name=name, text=text, category=cat or ("unit" if text else None)))
        return out


def run_in_segments(line: Line) -> list[tuple[str, str]]:
    """Split a block at bold "Name:" labels that start after a finished sentence.

    Returns (text, bold label) pairs; a block with one or no such label gives one pair.
    """
    if line.kind == "row" or line.virtual:
        return [(line.text, "")]
    segments: list[list] = [["", ""]]
    spans = line.block.spans
    for n, span in enumerate(spans):
        label = span.text.strip()
        following = spans[n + 1].text if n + 1 < len(spans) else ""
        is_label = span.bold and (label.endswith(":") or following.lstrip().startswith(":")) and 1 < len(label) < 60
        before = segments[-1][0].strip()
        if is_label and before and re.search(r"[.!?\"”)]$", before):
            segments.append(["", ""])
        if is_label and not segments[-1][0].strip():
            segments[-1][1] = label.rstrip(":").strip()
        segments[-1][0] += span.text
    return [(norm_text(t), p) for t, p in segments if norm_text(t)]


_INVULN = re.compile(r"^(?:(?:this model|this unit|every model|models in this unit) (?:has|have) an? )?(\d\+\+?) invulnerable save\.?$", re.I)


def invulnerable_from_abilities(abilities: list[Ability]) -> str | None:
    """The unconditional invulnerable save a model's own ability gives (9th-edition cards)."""
    for a in abilities:
        if a.category == "wargear":
            continue
        m = _INVULN.match(a.text.strip())
        if m:
            return m.group(1)
    return None
