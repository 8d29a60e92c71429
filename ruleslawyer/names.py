"""Names: the one place that folds, keys and title-cases names for the whole package.

`fold` is how names are compared everywhere (case, accents, apostrophes and punctuation
ignored); `name_key` also drops a leading rule number and plural endings, for matching an
erratum's target to a rule; `title_case` is how records spell names.

Documents print names in capitals ("PROTOCOL OF THE HUNGRY VOID"), in Title Case, or in
sentence case. Records store Title Case with the small joining words in lower case
("Protocol of the Hungry Void"), so the same name from a PDF, a web page and a text file
compares equal. Every parser that turns a printed name into a record name should use
`title_case` from here rather than its own copy.
"""
from __future__ import annotations

import re
import unicodedata

# Joining words written in lower case inside a name (never as its first word).
SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "is", "of", "on",
                         "or", "the", "to", "vs", "via", "with"})
# "is" is a small word when checking whether a line reads as Title Case, but a name printed in
# capitals keeps it capitalised ("What Is Dead").
_LOWER_IN_NAMES = SMALL_WORDS - {"is"}


# Game abbreviations stay in capitals when an ALL-CAPS heading is rebuilt: "GAIN CORE CP" is
# "Gain Core CP", never "Gain Core Cp".
_ABBREVIATIONS = frozenset({"cp", "vp", "oc", "ap", "bs", "ws", "hq", "insv", "dp"})


def title_case(name: str) -> str:
    """Title Case for an ALL-CAPS or sentence-case name, small joining words in lower case.

    An ALL-CAPS name is rebuilt word by word (a part after a hyphen stays lower case:
    "RE-ROLL" -> "Re-roll"). Otherwise only words printed all in lower case gain a capital;
    words with capitals or digits inside (CP, 2D6, McGuffin) keep the printed case.
    """
    letters = [c for c in name if c.isalpha()]
    all_caps = bool(letters) and not any(c.islower() for c in letters)
    out: list[str] = []
    index = 0
    for word in re.split(r"(\s+|-)", name):
        if not word or word.isspace() or word == "-":
            out.append(word)
            continue
        low = word.lower()
        after_hyphen = bool(out) and out[-1] == "-"
        small = index > 0 and low in _LOWER_IN_NAMES
        if all_caps and low in _ABBREVIATIONS:
            word = low.upper()
        elif all_caps:
            word = low if small or after_hyphen else capitalise(low)
        elif word.islower() and not after_hyphen and not small:
            word = capitalise(word)
        out.append(word)
        index += 1
    return "".join(out)


def capitalise(word: str) -> str:
    """The word with its first letter upper case (leading quotes or brackets skipped)."""
    for i, c in enumerate(word):
        if c.isalpha():
            return word[:i] + c.upper() + word[i + 1:]
    return word


_APOSTROPHES = re.compile(r"[\u2019'`]")
_NOT_NAME = re.compile(r"[^a-z0-9+]+")


def fold(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form of a name, for matching."""
    if text.isascii():  # no accents to strip (most names): skip the per-character pass
        s = text.casefold()
    else:
        s = unicodedata.normalize("NFKD", text)
        s = "".join(c for c in s if not unicodedata.combining(c)).casefold()
    return _NOT_NAME.sub(" ", _APOSTROPHES.sub("", s)).strip()


_RULE_NUMBER = re.compile(r"^\s*\d+\s*[.)]\s*")


def name_key(name: str) -> str:
    """Case-, punctuation- and plural-insensitive key of a rule name ("8. Place Objective Markers"
    = "place objective marker")."""
    name = name or ""
    if name[:1].isdigit() or name[:1].isspace():  # only then can a number lead (every record is keyed)
        name = _RULE_NUMBER.sub("", name)
    folded = fold(name)
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                    for w in folded.split())
