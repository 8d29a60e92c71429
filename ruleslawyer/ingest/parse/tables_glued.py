"""Tables whose cells ran together when a web page was saved as text.

    BATTLE SIZENUMBER OF UNITS          <- header cells glued ("SIZE" + "NUMBER")
    IncursionUp to 2 units              <- row cells glued at a lower/upper case change
or
    HIT ROLL MODIFIERSD6 RESULT          <- header cells glued ("MODIFIERS" + "D6")
    The target is in the open.
    +                                   <- label and result on alternate lines

A glued header is split where one of its words is two words the document uses elsewhere
("modifiers" + "d6"). The lines stay where they are (the document printed them as text), so
these grids are read, never claimed.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Callable
from ..document import HEADING, PARAGRAPH, Document

_RESULT = re.compile(r"^(?:[1-6]\+|\+|-|\d{1,2})$")
_CASE_BREAK = re.compile(r"(?<=[a-z)])(?=[A-Z])")
_WORD = re.compile(r"[a-z0-9']+")
_ASCII_LOWER = re.compile(r"[a-z]")
_TWO_CAPS = re.compile(r"[A-Z]{2}")


def vocabulary(doc: Document) -> Counter:
    """How often the document uses each word (case-folded), for splitting glued header words."""
    # One pass over the joined text (no word spans two blocks), counted as the matches come:
    # a list of every word of a big document at once would cost more than the text itself.
    return Counter(map(re.Match.group, _WORD.finditer(doc.text.casefold().replace("\u2019", "'"))))


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold().replace("\u2019", "'"))


def split_glued_header(text: str, vocabulary: Counter) -> list[str] | None:
    """Two header cells from an ALL-CAPS line with one glued word, or None.

    A word is known when the document uses it outside this line. Only the line's own words are
    counted here and the vocabulary is looked up per candidate, so the cost is the line's length,
    not the document's vocabulary (it runs for every ALL-CAPS line)."""
    own = Counter(_words(text))

    def known(w: str) -> bool:
        return vocabulary.get(w, 0) > own.get(w, 0)

    words = text.split()
    for n, word in enumerate(words):
        low = word.casefold().replace("\u2019", "'")
        if known(low) and len(words) > 1:
            continue
        for cut in range(2, len(word) - 1):
            left, right = low[:cut], low[cut:]
            if len(left) > 1 and len(right) > 1 and known(left) and known(right):
                return [" ".join(words[:n] + [word[:cut]]), " ".join([word[cut:]] + words[n + 1:])]
    return None


def glued_grid_at(doc: Document, i: int, is_claimed, words: Callable[[], Counter]
                  ) -> tuple[list[list[str]], list[int], int] | None:
    """(rows, block indexes, end index) of a glued table whose header is block `i`, or None.

    `words` gives the document's vocabulary; it is asked for only when a header line passes
    the cheap tests (most documents have none, and counting every word costs a pass)."""
    blocks = doc.blocks
    head = blocks[i]
    if head.kind not in (HEADING, PARAGRAPH):
        return None
    text = head.text.strip()
    # Cheap refusals first (most blocks are prose with lower-case ASCII letters).
    if len(text) > 90 or "\t" in text or _ASCII_LOWER.search(text) \
            or (not text.isascii() and any(c.islower() for c in text)) or not _TWO_CAPS.search(text):
        return None
    header = split_glued_header(text, words())
    if header is None:
        return None
    rows: list[list[str]] = []
    j = i + 1
    # Label and result on alternate lines.
    while j + 1 < len(blocks) and not is_claimed(j) and blocks[j].kind == PARAGRAPH \
            and _RESULT.match(blocks[j + 1].text.strip()) and not _RESULT.match(blocks[j].text.strip()):
        rows.append([blocks[j].text.strip(), blocks[j + 1].text.strip()])
        j += 2
    if len(rows) < 2:
        rows, j = [], i + 1
        while j < len(blocks) and not is_claimed(j) and blocks[j].kind == PARAGRAPH:
            parts = _CASE_BREAK.split(blocks[j].text.strip())
            if len(parts) != 2 or len(parts[0]) > 40:
                break
            rows.append(parts)
            j += 1
    if len(rows) < 2:
        return None
    return [header] + rows, list(range(i, j)), j
