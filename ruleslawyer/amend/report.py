"""Choosing and reporting errata outcomes (what `ruleslawyer errata` lists)."""
from __future__ import annotations

from .apply import Outcome
from ..names import fold


def select_outcomes(outcomes: list[Outcome], document: str | None = None,
                    unapplied: bool = False) -> list[Outcome]:
    """The outcomes of one FAQ document (matched by a case-insensitive part of its name), or of
    all; with `unapplied`, only the entries that did not apply. Raises NotFoundError naming the
    documents there are when `document` matches none."""
    from ..errors import NotFoundError

    chosen = outcomes
    if document:
        want = fold(document)
        chosen = [o for o in outcomes if want in fold(o.erratum.document or "")]
        if not chosen:
            documents = sorted({o.erratum.document or "?" for o in outcomes})
            raise NotFoundError(f"no errata from a document named {document!r}", suggestions=documents,
                                hint="ingest the FAQ first" if not documents else None)
    if unapplied:
        chosen = [o for o in chosen if not o.applied]
    return chosen


def outcome_dict(outcome: Outcome) -> dict:
    """JSON form of an outcome: the entry (records.md shape) and what happened to it."""
    from ..records_json import to_dict

    return {"erratum": to_dict(outcome.erratum), "applied": outcome.applied,
            "target": outcome.target_name, "target_kind": outcome.target_kind,
            "reason": outcome.reason, "detail": outcome.detail}
