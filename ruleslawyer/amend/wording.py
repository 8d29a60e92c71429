"""An erratum whose target is no rule's name, applied where the wording it changes is printed."""
from __future__ import annotations

import dataclasses

from .outcome import Outcome, change_for
from .targets import TargetIndex
from .text import Place, best_sentence, edit, parse_location, tokens
from ..records import Erratum, Record, record_name


def by_wording(e: Erratum, current: list[Record | None], index: TargetIndex, location: str | None) -> Outcome | None:
    """A sentence change whose target is not a rule name, applied where its old wording is
    printed: the rule must mention the target's words and hold a sentence the new wording keeps."""
    place = parse_location(location)
    if e.operation != "replace" or place is None or place.sentence is None or not e.text:
        return None
    target_words = [w[:5] for w in tokens(e.target or "") if len(w) > 3]
    if not target_words:
        return None
    best = None
    for i in index.mentioning(target_words, e.edition):
        record = current[i]
        found = best_sentence(record.text, e.text)
        if found and found[2] >= 0.7 and (best is None or found[2] > best[1][2]):
            best = (i, found)
    if best is None:
        return None
    i, (pi, si, _score) = best
    record = current[i]
    result = edit(record.text, "replace", Place(paragraph=pi + 1, sentence=si + 1), e.text)
    location = f"{ordinal_word(si + 1)} sentence of the {ordinal_word(pi + 1)} paragraph"
    change = change_for(e, result.old, result.new, location)
    current[i] = dataclasses.replace(record, text=result.text, changes=record.changes + (change,))
    return Outcome(e, True, record_name(record), None, record.kind,
                   f"{e.target!r} is not a rule here; its wording was found in {record_name(record)!r}, "
                   f"{location}")


def ordinal_word(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}.get(n, f"{n}th")
