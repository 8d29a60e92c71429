"""Apply errata to copies of the records (placeholder until the errata issue lands).

`apply_errata(records)` returns an ApplyResult whose `records` are the current versions and
whose `outcomes` say, for every erratum, where it applied or why it could not.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .records import Erratum, Record


@dataclass(frozen=True)
class Outcome:
    """What happened to one erratum: applied to a record, or not, with the reason."""

    erratum: Erratum
    applied: bool
    target_name: str | None = None
    reason: str | None = None


@dataclass
class ApplyResult:
    records: list[Record]
    outcomes: list[Outcome] = field(default_factory=list)


def apply_errata(records: list[Record]) -> ApplyResult:
    """Return the records unchanged and every erratum listed as not applied (not built yet)."""
    outcomes = [Outcome(r, False, reason="applying errata is not implemented yet")
                for r in records if isinstance(r, Erratum)]
    return ApplyResult(records=list(records), outcomes=outcomes)
