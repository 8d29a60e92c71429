"""Small text helpers shared by the stratagem and rule parsers.

They work on the plain text of blocks: recognising page furniture (ads, subscription popups,
icon letters), title-like lines, "LABEL: text" run-ins, and joining block texts back into
record text. Nothing here knows a file format.
"""
from __future__ import annotations

import re
from typing import Iterable

from ..document import HEADING, TABLE, Block, clean_text
from ...names import SMALL_WORDS

# Page furniture, described by what it is rather than by any one page's wording. Matched
# against a whole block's text; any hit makes the block junk. HTML pages lose most of it in the
# loader (class tokens); text and PDF copies of the same pages need these cues.
_FURNITURE = re.compile(
    "|".join((
        r"\bads\b|adsbygoogle|boosty|patreon|\bsupport me\b",            # ads and donations
        r"newsletter|\bsign up\b|\blog-?in\b|pin code|\be-?mail\b",     # accounts, mailing lists
        r"combo-?box|settings tab|\bbutton\b",                          # the site's own controls
        r"\bdatasheets\s*:\s*$",                                        # a site index: "... datasheets:"
        r"©|\bcopyright\b|all rights reserved",                        # legal lines
        r"https?://|www\.|(?<=[\w-])\.(?:com|net|org)\b",               # addresses
    )),
    re.I | re.M,
)
# Every alternative of _FURNITURE contains one of these (case-folded) substrings.
_FURNITURE_TRIGGERS = ("ads", "boosty", "patreon", "support me", "newsletter", "sign", "log", "pin code",
                       "mail", "combo", "settings tab", "button", "datasheets", "©", "copyright",
                       "all rights reserved", "http", "www.", ".com", ".net", ".org")
# Icon badges printed as letters beside a stratagem ("BA" Boarding Actions, "C" Core) and
# stray punctuation left by icons.
_ICON = re.compile(r"^(?:[A-Z]{1,2}|[\]\[|()•·*#]+|\s*)$")

LABELS = ("WHEN", "TARGET", "EFFECT", "RESTRICTIONS", "RESTRICTION")
_LABEL_RE = re.compile(r"\b(WHEN|TARGET|EFFECT|RESTRICTIONS?)\s*:\s*")


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def text_of(block: Block) -> str:
    """A block's text with spaces collapsed (table rows tab-separated, one per line).

    Stray control characters some PDFs use as word spaces ("USING\\x08STRATAGEMS") become
    spaces.
    """
    if block.kind == TABLE:
        if _CONTROL.search(block.text) is None:  # most tables: no cell needs the substitution
            return "\n".join(["\t".join([clean_text(c) for c in row]) for row in block.rows])
        return "\n".join("\t".join(clean_text(_CONTROL.sub(" ", c)) for c in row) for row in block.rows)
    text = _CONTROL.sub(" ", block.text)
    return clean_text(text.replace("\n", " ")) if block.kind == HEADING else clean_text(text)


def _literal_trie(words: Iterable[str]) -> str:
    """A regex matching exactly the given literals, factored on shared prefixes ("co(?:mbo|pyright)"),
    so a search tries at most a few branches at each position instead of every literal."""
    words = sorted(set(words))
    if "" in words:
        rest = [w for w in words if w]
        return f"(?:{_literal_trie(rest)})?" if rest else ""
    by_first: dict[str, list[str]] = {}
    for w in words:
        by_first.setdefault(w[0], []).append(w[1:])
    alts = [re.escape(first) + _literal_trie(tails) for first, tails in by_first.items()]
    return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"


# "Some trigger is a substring of the case-folded text" as one scan (the same set of literals).
_FURNITURE_TRIGGER = re.compile(_literal_trie(_FURNITURE_TRIGGERS))


def is_furniture(text: str) -> bool:
    """True for ad, subscription and site-chrome text that must never become a record."""
    # A cheap substring test first: the pattern has many alternatives and runs on every line.
    if _FURNITURE_TRIGGER.search(text.casefold()) is None:
        return False
    return bool(_FURNITURE.search(text))


def is_icon(text: str) -> bool:
    """A lone icon letter or two ("C", "BA") or stray bracket left by an icon."""
    return bool(_ICON.match(text.strip()))


BRACKETED = re.compile(r"^\[([^\[\]]{2,60})\]$")


def is_title_like(text: str, max_words: int = 7) -> bool:
    """A short line that reads as a title: no sentence ending, no "label: text" shape. A
    bracketed heading ("[LETHAL HITS]", a weapon ability) is read without its brackets."""
    t = text.strip()
    m = BRACKETED.match(t)
    if m:
        t = m.group(1).strip()
    if not t or len(t) > 70 or is_furniture(t):
        return False
    words = t.split()
    if len(words) > max_words:
        return False
    if t[-1] in ".:;,?" or t[0].islower() or t[0] in "([-–•*\"'‘“":
        return False
    if re.search(r":\s*\S", t):
        return False
    if not any(c.isalpha() for c in t):
        return False
    if re.fullmatch(r"\d+\s*(CP|pts?)", t, re.I):
        return False
    return True


def is_titlecase(text: str) -> bool:
    """Every word but small joining words starts with a capital (a leading "2." is allowed)."""
    words = re.sub(r"^\d+[.)]\s*", "", text.strip()).split()
    if not words:
        return False
    for i, w in enumerate(words):
        w = w.strip("()[]\"'‘’“”")
        if not any(c.isalpha() for c in w) or w[0].isdigit():
            continue
        if i > 0 and w.lower() in SMALL_WORDS and w.islower():
            continue
        if not w[0].isupper():
            return False
    return True


def is_caps(text: str) -> bool:
    """True when every letter is upper case (and there are at least two)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and not any(c.islower() for c in letters)


def split_labels(text: str) -> list[tuple[str | None, str]]:
    """Split stratagem text on WHEN:/TARGET:/EFFECT:/RESTRICTIONS: labels.

    Returns (label or None, text) pieces in order; the piece before the first label has None.
    """
    pieces: list[tuple[str | None, str]] = []
    pos = 0
    label: str | None = None
    for m in _LABEL_RE.finditer(text):
        pieces.append((label, text[pos:m.start()]))
        label = m.group(1).upper()
        if label == "RESTRICTION":
            label = "RESTRICTIONS"
        pos = m.end()
    pieces.append((label, text[pos:]))
    return [(lab, t.strip()) for lab, t in pieces if lab is not None or t.strip()]


def starts_with_label(text: str) -> bool:
    """True when the text opens with a stratagem label such as "WHEN:"."""
    return bool(_LABEL_RE.match(text.strip()))


def ends_sentence(text: str) -> bool:
    """True when the text ends like a sentence or a lead-in (".", "!", "?", ":"), quotes aside."""
    t = text.rstrip().rstrip("\"'’”)]*")
    return bool(t) and t[-1] in ".!?:"


def line_number(block: Block) -> int | None:
    """The source line a text-format block came from (a loader hint; None elsewhere)."""
    value = block.attrs.get("line") if block.attrs else None
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def gap_between(before: Block, after: Block) -> bool:
    """True when the loader says a blank line (or more) separates two consecutive blocks."""
    a, b = line_number(before), line_number(after)
    return a is not None and b is not None and b - a > 1


_REGION_KEYS = ("tooltip_id", "region", "section")


def region_changed(a: Block, b: Block) -> bool:
    """Whether a loader put blocks a and b in different popups or page sections (a hint
    HTML gives; formats without such attrs never differ)."""
    for key in _REGION_KEYS:
        va, vb = (a.attrs or {}).get(key), (b.attrs or {}).get(key)
        if va is not None and vb is not None:
            return va != vb
    return False


def flavour_of(block: Block) -> tuple[str, str] | None:
    """(flavour line, rules text) of the first paragraph under a rule's heading when it opens
    with italic flavour: the whole block in italics, or italic sentences the loader joined to
    the upright rules text after them ("Exposed terrain offers … Examples: Craters, …"). None
    when it opens in upright type, or its italic words are no sentence of their own (a term)."""
    text = block.text.strip()
    if block.is_italic:
        return (text, "") if len(text.split()) <= 80 else None
    lead = block.italic_prefix()
    if len(lead.split()) < 4 or not re.search(r"[.!?]['\u2019\"\u201d]?$", lead):
        return None
    at = text.find(lead)
    rest = text[at + len(lead):].strip() if at >= 0 else ""
    return (lead, rest) if rest else None
