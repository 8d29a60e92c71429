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
    """Title Case for an ALL-CAPS, sentence-case or loosely capitalised name, small joining words
    in lower case.

    An ALL-CAPS name is rebuilt word by word (a part after a hyphen stays lower case:
    "RE-ROLL" -> "Re-roll"). Otherwise words printed all in lower case gain a capital, a small
    joining word printed with a capital inside a name loses it ("Warboss In Mega Armour" ->
    "Warboss in Mega Armour"), and other words with capitals or digits inside (CP, 2D6, McGuffin)
    keep the printed case. Game abbreviations are capitals ("Gain CP"), and a name particle
    before an apostrophe keeps the next word's capital ("Lion El'Jonson", "Aun'Va").
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
        # a small word after a colon or dash starts a part of its own ("Orks: The Waaagh!")
        starts_part = index == 0 or (len(out) >= 2 and out[-2].rstrip().endswith((":", "\u2013", "\u2014")))
        small = not starts_part and low in _LOWER_IN_NAMES
        if low in _ABBREVIATIONS and (all_caps or word in (low, low.capitalize())) and not small:
            word = low.upper()
        elif all_caps:
            word = low if small or after_hyphen else capitalise(low)
        elif small and word == low.capitalize():
            word = low
        elif word.islower() and not after_hyphen and not small:
            word = capitalise(word)
        out.append(_particle_capital(word))
        index += 1
    return "".join(out)


# Name particles joined to the next word by an apostrophe, whose next word keeps a capital:
# "El'Jonson", "O'Shovah", "Aun'Va". Other apostrophes are possessives or elisions ("Ork's",
# "T'au", "Ta'unar"), which stay as printed.
_PARTICLES = frozenset({"el", "o", "aun"})
_PARTICLE = re.compile(r"^([^\w]*)(\w+)(['\u2019])(\w)")


def _particle_capital(word: str) -> str:
    m = _PARTICLE.match(word)
    if m and m.group(2).lower() in _PARTICLES and m.group(2)[:1].isupper():
        return word[:m.start(4)] + m.group(4).upper() + word[m.end(4):]
    return word


def capitalise(word: str) -> str:
    """The word with its first letter upper case (leading quotes or brackets skipped)."""
    for i, c in enumerate(word):
        if c.isalpha():
            return word[:i] + c.upper() + word[i + 1:]
    return word


_APOSTROPHES = re.compile(r"[\u2019'`]")
_NOT_NAME = re.compile(r"[^a-z0-9+]+")
_NOT_WORD = re.compile(r"[^\w+]+|_+")


def fold(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form of a name, for matching.

    Letters and digits of every script are kept (a Cyrillic, Greek or Japanese name folds to
    itself in lower case, never to nothing); the text is NFC-normalised, so a name typed with
    combining accents folds like its precomposed twin; format characters (zero-width space,
    joiners, direction marks) are dropped; a Latin letter loses its accent ("Khârn" = "kharn"),
    since players type names without them. Letters of other scripts keep their marks: in those
    scripts a mark makes another letter (Cyrillic "й" is not "и", Japanese "が" is not "か").
    """
    if text.isascii():  # no accents to strip (most names): skip the per-character pass
        return _NOT_NAME.sub(" ", _APOSTROPHES.sub("", text.casefold())).strip()
    s = "".join(_plain_letter(c) for c in unicodedata.normalize("NFC", text)
                if unicodedata.category(c) != "Cf")
    s = unicodedata.normalize("NFC", s.casefold())
    return _NOT_WORD.sub(" ", _APOSTROPHES.sub("", s)).strip()


def _plain_letter(c: str) -> str:
    """A Latin letter without its accent ("â" -> "a"), a compatibility form as its plain
    character ("ﬁ" -> "fi", full-width "Ａ" -> "A"); any other character as it is."""
    if c.isascii():
        return c
    decomposed = unicodedata.normalize("NFKD", c)
    base = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    if base.isascii() or decomposed == base:
        return base
    return c


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


def version_label(version: str | None) -> str | None:
    """How a document's version is printed: "v1.1" for a number, a dated version as it stands
    ("June 2024", a dataslate's), None when there is none."""
    if not version:
        return None
    return f"v{version}" if version[:1].isdigit() else version


def nth(n: int | None) -> str:
    """The ordinal of an edition or a count: "11th", "2nd", "21st" ("?" for None)."""
    if n is None:
        return "?"
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def respelled(printed: str, named: str) -> bool:
    """Whether name key `named` is `printed` spelled a little differently ("blood fury" for
    "bloody fury"): as many words, each beginning with the same two characters (so "5+" is
    never "6+"), and nearly all the letters the same."""
    from difflib import SequenceMatcher

    a, b = printed.split(), named.split()
    if printed == named or len(a) != len(b) or any(x[:2] != y[:2] for x, y in zip(a, b)):
        return False
    return SequenceMatcher(None, printed, named).ratio() >= 0.9
