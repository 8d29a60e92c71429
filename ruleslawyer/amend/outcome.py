"""What applying an erratum gives: an Outcome per entry, the Change an amended copy carries."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..records import Change, Erratum, Record


@dataclass(frozen=True)
class Outcome:
    """What happened to one erratum: applied to a record, or not, with the reason."""

    erratum: Erratum
    applied: bool
    target_name: str | None = None
    reason: str | None = None
    target_kind: str | None = None
    detail: str | None = None  # e.g. "new rule", "found by its wording in …"


def joined(outcomes: list[Outcome]) -> Outcome:
    """One entry's outcomes on several records (a keywords change naming five units) as one:
    applied when it applied to any, naming each; the first unapplied reason otherwise."""
    if len(outcomes) == 1:
        return outcomes[0]
    done = [o for o in outcomes if o.applied]
    names = ", ".join(o.target_name or "?" for o in (done or outcomes))
    left = [f"{o.target_name}: {o.reason}" for o in outcomes if not o.applied]
    notes = [done[0].detail if done else None, f"not applied to {'; '.join(left)}" if done and left else None]
    detail = "; ".join(n for n in notes if n) or None
    return Outcome(outcomes[0].erratum, bool(done), names, None if done else outcomes[0].reason,
                   outcomes[0].target_kind, detail)


@dataclass
class ApplyResult:
    """The current records (amended copies in place of originals) and one Outcome per erratum."""

    records: list[Record]
    outcomes: list[Outcome] = field(default_factory=list)
    # errata, FAQ answers and notes of a document version a newer stored version supersedes
    superseded: list[Record] = field(default_factory=list)

    @property
    def applied(self) -> list[Outcome]:
        """The outcomes of entries that changed or added a record."""
        return [o for o in self.outcomes if o.applied]

    @property
    def unapplied(self) -> list[Outcome]:
        """The outcomes of entries that did not apply (superseded, duplicate, target not found)."""
        return [o for o in self.outcomes if not o.applied]


def erratum_id(e: Erratum) -> str:
    """A stable id of one entry: its document, version, page, target and a digest of its wording."""
    digest = hashlib.sha1(f"{e.operation}|{e.location}|{e.title}|{e.text}".encode()).hexdigest()[:10]
    return f"{e.document or '?'} v{e.version or '?'} p{e.page or '?'} {e.target or e.title or ''} #{digest}"


def change_for(e: Erratum, old: str, new: str, location: str | None = None) -> Change:
    """The Change that records `e` on an amended copy (the erratum's place unless `location` is given)."""
    return Change(document=e.document, version=e.version, page=e.page, operation=e.operation,
                  location=location if location is not None else e.location, old_text=old,
                  new_text=new, erratum_id=erratum_id(e))


def already_applied(record: Record, e: Erratum) -> bool:
    """Whether `record` already carries `e`'s Change (the same entry ingested twice)."""
    return any(c.erratum_id == erratum_id(e) for c in getattr(record, "changes", ()))
