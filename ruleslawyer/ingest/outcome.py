"""What ingesting one file or a batch did: a result per file and the report with its totals."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class FileResult:
    """What happened to one file or source: its status, record counts, or the error and a hint."""

    path: str
    status: str  # "ingested", "unchanged", "failed", "duplicate", "skipped" (not a rules document)
    records: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    factions: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    hint: str | None = None
    warnings: tuple[str, ...] = ()  # problems met in a file that was still read (a bad value, a truncated table)
    note: str | None = None  # why a skipped file is not a rules document ("army_list: an army-list export ...")


@dataclass
class IngestReport:
    """What one ingest run did, file by file, with totals for the summary line."""

    results: list[FileResult] = field(default_factory=list)

    @property
    def read(self) -> int:
        return sum(1 for r in self.results if r.status == "ingested")

    @property
    def unchanged(self) -> int:
        return sum(1 for r in self.results if r.status in ("unchanged", "duplicate"))

    @property
    def skipped(self) -> list[FileResult]:
        """Files left unread as not rules documents (army lists, notes)."""
        return [r for r in self.results if r.status == "skipped"]

    @property
    def failed(self) -> list[FileResult]:
        return [r for r in self.results if r.status == "failed"]

    @property
    def warnings(self) -> list[tuple[str, str]]:
        """(file, warning) for every warning recorded in this run."""
        return [(r.path, w) for r in self.results for w in r.warnings]

    @property
    def kinds(self) -> Counter:
        """Records by kind over the files read."""
        return sum((Counter(r.kinds) for r in self.results), Counter())

    @property
    def factions(self) -> Counter:
        """Records by faction over the files read (records without a faction left out)."""
        return sum((Counter(r.factions) for r in self.results), Counter())


def factions_of(records) -> dict[str, int]:
    """How many records name each faction."""
    return dict(Counter(f for f in (getattr(r, "faction", None) for r in records) if f))
