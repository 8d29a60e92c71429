"""The datasheet parser's view of a Document: a flat run of lines and table rows.

Datasheet cards arrive in many shapes: a tab table (text), drawn cells (PDF), a stat grid
whose labels and values sit on separate lines (a flattened web page), or a table row that a
loader left as one space-separated line. The parser reads all of them as `Line`s: one per
text block, one per table row, each remembering the block it came from (for claiming) and
its cells. The helpers here recognise the header rows that give a card its structure
(characteristics, weapons) and normalise printed values.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from functools import lru_cache

from ..document import HEADING, LIST_ITEM, TABLE, Document
from .lines import Line, norm_text

# Characteristic names of unit profiles (9th and 10th edition, plus the odd older ones).
STAT_NAMES = ("M", "WS", "BS", "S", "T", "W", "A", "LD", "SV", "OC", "I")
# The usual spelling of each characteristic (cards print "SV" and "LD" in capitals).
_STAT_SPELLING = {"LD": "Ld", "SV": "Sv"}
# Column headers of weapon tables.
WEAPON_COLUMNS = ("RANGE", "TYPE", "A", "BS", "WS", "S", "AP", "D", "ABILITIES", "KEYWORDS")

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2011": "-", "\u2010": "-",
                         "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2033": '"',
                         "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u00ad": ""})
_WS = re.compile(r"\s+")
# A printed characteristic or weapon value: 6", 3+, D6, 2D3+1, -1, User, Melee, N/A, x2, *.
VALUE = re.compile(r"""^(?:\d+(?:-\d+)?\+?(?:"|''|”)?|\d+\+|\+?-?\d+|[+-]?\d*D\d+(?:\+\d+)?|-|–|User|Melee|N/A|x\d+|\*|\d+"?\*)$""",
                   re.I)


def norm_value(text: str) -> str:
    """A characteristic value as records.md wants it: plain quotes and dashes, spaces collapsed."""
    s = " ".join(text.translate(_DASHES).split())  # as norm_text: runs of spaces collapsed
    return s.replace("''", '"')


def stat_name(label: str) -> str:
    """A characteristic's name as records.md spells it: "SV" -> "Sv", "LD" -> "Ld", "m" -> "M"."""
    key = label_key(label)
    return _STAT_SPELLING.get(key, key) if key in STAT_NAMES else label.strip()


_NOT_KEY = re.compile(r"[^A-Z0-9+]")


@lru_cache(maxsize=65536)
def label_key(text: str) -> str:
    """Upper-case, punctuation-free form of a label, for comparing headers."""
    return _NOT_KEY.sub("", text.translate(_DASHES).upper())


def heading_like(line: Line) -> bool:
    """A heading block, or a short line with no lower-case letters (an ALL-CAPS title)."""
    if line.kind == "row" or not (line.kind == HEADING or is_caps(line.text)):
        return False
    return not all(is_value(w) for w in line.text.split())  # a line of values ("12\" D6+3 N/A 6 -1 2") is no title


def is_caps(text: str) -> bool:
    if len(text) > 80:  # the cheap test first
        return False
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and not any(c.islower() for c in letters)


def document_lines(doc: Document) -> list[Line]:
    """Every block of `doc` as lines, table rows one line each, in reading order."""
    out: list[Line] = []
    for i, block in enumerate(doc.blocks):
        if block.kind == TABLE:
            for row in block.rows:
                if any(map(str.strip, row)):
                    cells = tuple(map(norm_text, row))
                    # The cells are normalised already (stripped, "" when blank): joined, they
                    # are the text Line would make (norm_text leaves its own output as it is).
                    out.append(Line(i, " ".join([c for c in cells if c]), "row", block, cells=cells))
        else:
            text = block.text
            if text.strip():
                kind = block.kind if block.kind in (HEADING, LIST_ITEM) else "paragraph"
                out.append(Line(i, norm_text(text), kind, block, cells=(text,)))
    return out


# ---------------------------------------------------------------- header rows
# A word that reads "M" (or "D") once upper-cased and stripped of punctuation, as `label_key`
# folds a cell. A cell that folds to "M" is such a word of the line's text (cells are joined by
# spaces; norm_text only drops or swaps characters that `label_key` drops), and no character
# but "m" upper-cases to anything holding "M" (nor any but "d" to "D"): checked over every code
# point. Every characteristic header has an "M", every weapon header a "D"; most lines neither.
M_WORD = re.compile(r"(?<!\S)[^\sA-Za-z0-9+]*[mM][^\sA-Za-z0-9+]*(?!\S)")
_D_WORD = re.compile(r"(?<!\S)[^\sA-Za-z0-9+]*[dD][^\sA-Za-z0-9+]*(?!\S)")
# The same words' letter with what must be next to it, searched in " " + text first: these
# open on the letter, which the regex engine skips to in C, where the patterns above try their
# lookbehind at every position (a third of the cost on most lines, which hold neither).
_M_NEAR = re.compile(r"[mM](?<=[^A-Za-z0-9+][mM])[^\sA-Za-z0-9+]*(?!\S)")
_D_NEAR = re.compile(r"[dD](?<=[^A-Za-z0-9+][dD])[^\sA-Za-z0-9+]*(?!\S)")


def has_m_word(text: str) -> bool:
    """Whether a word of `text` folds to "M" (as M_WORD finds), the cheap test first."""
    return _M_NEAR.search(" " + text) is not None and M_WORD.search(text) is not None


def _has_d_word(text: str) -> bool:
    """Whether a word of `text` folds to "D" (as _D_WORD finds), the cheap test first."""
    return _D_NEAR.search(" " + text) is not None and _D_WORD.search(text) is not None


# An "m" ending a word with only punctuation after it: where a word that folds to "M" ends.
# The pattern opens on a letter, so the regex engine skips ahead to each "m" in C; `M_WORD`,
# which opens on a lookbehind, is tried at every position and costs several times more.
_M_END = re.compile(r"[mM][^\sA-Za-z0-9+]*(?!\S)")
_PUNCT = re.compile(r"[^\sA-Za-z0-9+]*")


def joined_text(lines: list[Line]) -> str:
    """The lines' text joined by newlines (no line's text holds one), for one regex pass over all."""
    return "\n".join([line.text for line in lines])


def anchor_candidates(lines: list[Line], joined: str | None = None) -> list[int]:
    """The indexes of the lines a stat header may start at, in order: those with a word that
    folds to "M" (a header row or a run-together card head: what `M_WORD` finds) and those of
    three characters at most (a flattened grid's first label). The words are found in one pass
    over the lines' text joined by newlines (a line's text holds no whitespace but single
    spaces) instead of a search per line."""
    texts = [line.text for line in lines]
    found = [k for k, t in enumerate(texts) if len(t) <= 3]
    if joined is None:
        joined = joined_text(lines)
    ends = list(accumulate([len(t) + 1 for t in texts]))  # where each line's text ends, plus one
    for m in _M_END.finditer(joined):
        at = m.start()
        before = joined[at - 1] if at else " "
        if before not in " \n":  # the word goes on before the "m": only punctuation may
            start = max(joined.rfind(" ", 0, at), joined.rfind("\n", 0, at)) + 1
            if _PUNCT.fullmatch(joined, start, at) is None:
                continue
        found.append(bisect_right(ends, at))
    return sorted(set(found))


def stat_header(line: Line) -> list[str] | None:
    """The header cells of a characteristic row ("No. NAME M WS BS ..." or "M T Sv W Ld OC").

    Returns the cells as printed (empty padding cells dropped), or None for any other line.
    """
    if not has_m_word(line.text):
        return None  # no cell folds to "M": the cheap test first (the card reader asks of every line)
    cells = line.tokens
    folded = [label_key(c) for c in cells]
    have = set(folded)
    if not {"M", "T", "W", "LD", "SV"} <= have:
        return None
    # OC (10th) or WS and BS (9th); a row of nothing but the five shared names is taken too
    # (a loader may have set the last column apart).
    if not ("OC" in have or {"WS", "BS"} <= have or all(f in STAT_NAMES for f in folded)):
        return None
    # Every cell must be a characteristic or a leading name/count label.
    extra = [f for f in folded if f not in STAT_NAMES]
    if len(extra) > 3:
        return None
    return cells


def vertical_stats(lines: list[Line], i: int) -> tuple[list[tuple[str, str]], int] | None:
    """A stat grid flattened to label, value, label, value ... lines, starting at lines[i].

    Returns the (label, value) pairs and the index after them, or None when lines[i] does not
    start such a grid (it needs at least M, T, W and Sv/Ld).
    """
    first = lines[i].text if i < len(lines) else ""
    if len(first) > 3 or label_key(first) not in STAT_NAMES:
        return None  # neither shape below can start here (both open on a characteristic's name)
    pairs: list[tuple[str, str]] = []
    j = i
    while j + 1 < len(lines):
        label, value = lines[j].text, lines[j + 1].text
        if len(label) > 3 or label_key(label) not in STAT_NAMES or not VALUE.match(norm_value(value)):
            break
        pairs.append((label, value))
        j += 2
    labels = {label_key(label) for label, _ in pairs}
    if {"M", "T", "W"} <= labels and labels & {"SV", "LD"}:
        return pairs, j
    return _stats_by_column(lines, i)


def _stats_by_column(lines: list[Line], i: int) -> tuple[list[tuple[str, str]], int] | None:
    """The grid flattened column by column instead: every label line, then every value line
    ("M" / "T" / "SV" / "W" / "LD" / "OC" / "6\"" / "4" / "3+" ..., a plain text dump)."""
    heads: list[str] = []
    j = i
    while j < len(lines) and len(lines[j].text) <= 3 and label_key(lines[j].text) in STAT_NAMES \
            and label_key(lines[j].text) not in {label_key(h) for h in heads}:
        heads.append(lines[j].text)
        j += 1
    keys = {label_key(h) for h in heads}
    if not ({"M", "T", "W"} <= keys and keys & {"SV", "LD"}) or j + len(heads) > len(lines):
        return None
    values = [lines[j + n].text for n in range(len(heads))]
    if not all(VALUE.match(norm_value(v)) for v in values):
        return None
    return list(zip(heads, values)), j + len(heads)


@dataclass(frozen=True)
class InlineStats:
    """A card head a loader ran into one line: "NAME M T SV W LD OC 10" 9 3+ 9 8+ 3 4+ INVULNERABLE SAVE"."""

    name: str
    labels: tuple[str, ...]
    values: tuple[str, ...]
    rest: str


def inline_stats(line: Line) -> InlineStats | None:
    """The name, characteristic labels, values and trailing text of a run-together card head."""
    if not has_m_word(line.text) or stat_header(line) is not None:
        return None
    cells = [c for c in line.cells if c.strip()]
    if not cells:
        return None
    words = cells[0].split()
    folded = [label_key(w) for w in words]
    for i in range(1, len(words)):
        j = i
        while j < len(words) and folded[j] in STAT_NAMES:
            j += 1
        n = j - i
        labels = set(folded[i:j])
        if n >= 5 and {"M", "T", "W"} <= labels and labels & {"SV", "LD"} and j + n <= len(words) \
                and all(is_value(w) for w in words[j:j + n]) and is_caps(" ".join(words[:i])):
            return InlineStats(" ".join(words[:i]), tuple(words[i:j]), tuple(words[j:j + n]),
                               " ".join(words[j + n:]))
        if n:
            break
    return None


def weapon_header(line: Line) -> list[str] | None:
    """The header cells of a weapon table row, or None.

    9th edition: WEAPON RANGE TYPE S AP D ABILITIES; 10th edition: [RANGED WEAPONS] RANGE A
    BS S AP D. The first cell may be a title ("WEAPON", "RANGED WEAPONS") or empty.
    """
    if not _has_d_word(line.text):
        return None  # no cell folds to "D": the cheap test first
    cells = line.tokens
    folded = [label_key(c) for c in cells]
    have = set(folded)
    if not {"RANGE", "S", "AP", "D"} <= have or not have & {"TYPE", "A"}:
        return None
    unknown = [f for f in folded if f not in WEAPON_COLUMNS and f not in ("WEAPON", "WEAPONS", "RANGEDWEAPONS",
                                                                          "MELEEWEAPONS", "RANGED", "MELEE")]
    if unknown:
        return None
    return cells


WEAPON_TITLES = {"RANGEDWEAPONS", "MELEEWEAPONS", "WEAPONS", "WEAPON"}


def vertical_weapon_header(lines: list[Line], i: int) -> tuple[list[str], int] | None:
    """A weapon header flattened to one label per line ("RANGE", "A", "BS", ...) at lines[i].

    Returns the labels and the index after them.
    """
    labels: list[str] = []
    j = i
    while j < len(lines) and label_key(lines[j].text) in WEAPON_COLUMNS and len(lines[j].cells) == 1:
        labels.append(lines[j].text)
        j += 1
    have = {label_key(label) for label in labels}
    if {"RANGE", "S", "AP", "D"} <= have and have & {"TYPE", "A"}:
        return labels, j
    return None


@lru_cache(maxsize=16384)
def is_value(text: str) -> bool:
    """Whether `text` reads as one printed value (cached: cards repeat "3+", "6\"", "D6" ...)."""
    return bool(VALUE.match(norm_value(text)))
