"""The errata of a newer edition that name a record but could not be applied to it.

A 10th edition dataslate may change the CP of a stratagem whose only printing in the store is
the 9th edition's: the erratum cannot edit a printing of another edition, and the record shown
is not the current rule. `show` says so, with the erratum's words, rather than let the older
printing pass for current.
"""
from __future__ import annotations

import re

from ..names import fold
from ..records import Record, record_name
from .corpus import Corpus

# A target names its record, sometimes followed by the record's kind ("Trophy Claim Stratagem").
_KIND_AFTER_NAME = re.compile(r"\s+(?:stratagem|detachment rule|ability|enhancement|datasheet)$", re.I)


def erratum_names(target: str | None) -> str:
    """The folded record name an erratum's target starts with ("Trophy Claim Stratagem, CP Cost"
    -> "trophy claim")."""
    first = (target or "").split(",")[0].strip()
    return fold(_KIND_AFTER_NAME.sub("", first))


def newer_errata(corpus: Corpus, record: Record) -> list[tuple]:
    """(outcome, publication date) of each erratum that was not applied, names `record` and is
    of a newer edition than it (of its faction, when the erratum says its faction); the outcome
    is an amend.Outcome."""
    if record.edition is None:
        return []
    name = fold(record_name(record))
    faction = fold(getattr(record, "faction", None) or "")
    out = []
    for outcome in corpus.outcomes:
        erratum = outcome.erratum
        if outcome.applied or erratum.edition is None or erratum.edition <= record.edition:
            continue
        if erratum_names(erratum.target) != name:
            continue
        if erratum.faction and faction and fold(erratum.faction) != faction:
            continue
        out.append((outcome, corpus.date_of(erratum)))
    return out
