"""Where a sentence ends: the one list of abbreviations after which a full stop does not.

Errata count sentences ("the second sentence") and search cuts snippets at sentences; both
must agree that "(e.g. Stealth)" is inside a sentence. Kept apart from both (and cheap to
import) because a cold search loads it.
"""
from __future__ import annotations

ABBREVIATIONS = frozenset({"e.g.", "i.e.", "etc.", "vs.", "pg.", "cf.", "no.", "approx.", "incl."})
_OPENING = "([\"'\u2018\u201c"


def ends_with_abbreviation(text: str) -> bool:
    """Whether `text` ends with an abbreviation such as "e.g." or "(i.e.", after which a full
    stop does not end the sentence."""
    words = text.split()
    return bool(words) and words[-1].lstrip(_OPENING).lower() in ABBREVIATIONS
