"""The stored files as a user sees them: dating, precedence, warnings; removing files; conflicts."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..errors import NotFoundError
from ..names import fold
from ..records import record_name
from ..store import Store
from .corpus import load_corpus, preference_of, source_ranking
from .reconcile import Difference


@dataclass(frozen=True)
class FileRow:
    """One stored file for `ruleslawyer files`."""

    path: str
    name: str
    format: str
    date: str
    dated: bool  # the date is the document's own (or the user's), not the ingest day
    version: str | None
    preference: int
    records: int
    warnings: tuple[str, ...]

    def to_json(self) -> dict:
        return {"path": self.path, "name": self.name, "format": self.format, "date": self.date,
                "dated": self.dated, "version": self.version, "preference": self.preference,
                "records": self.records, "warnings": list(self.warnings)}


def describe_files(store: Store) -> list[FileRow]:
    """Every stored file with its date, version, preference (with ruleslawyer.toml), counts, warnings."""
    ranking = source_ranking(store)
    return [FileRow(f.path, f.name, f.format, f.effective_date, bool(f.date), f.version, preference_of(f, ranking),
                    f.record_count, f.warnings) for f in store.files()]


def remove_files(store: Store, names: Iterable[str]) -> list[str]:
    """Remove the stored files named (by path, resolved path or file name); their paths.

    Every name must match a stored file before anything is removed, so a typo changes nothing.
    """
    stored = store.files()
    chosen: list[str] = []
    for name in names:
        resolved = str(Path(name).expanduser().resolve())
        matches = [f.path for f in stored if name in (f.path, f.name) or f.path == resolved]
        if not matches:
            import difflib

            close = difflib.get_close_matches(name, [f.name for f in stored], n=3, cutoff=0.5)
            raise NotFoundError(f"no stored file named {name!r}", suggestions=close,
                                hint="`ruleslawyer files` lists the stored files")
        chosen.extend(m for m in matches if m not in chosen)
    for path in chosen:
        store.remove_file(path)
    return chosen


@dataclass(frozen=True)
class Conflict:
    """A record whose printings disagree, and on what."""

    kind: str
    name: str
    faction: str | None
    edition: int | None
    chosen_file: str
    other_files: tuple[str, ...]
    differences: tuple[Difference, ...]

    def to_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "faction": self.faction, "edition": self.edition,
                "chosen_file": self.chosen_file, "other_files": list(self.other_files),
                "differences": [{"field": d.field, "values": [{"file": f, "value": v} for f, v in d.values]}
                                for d in self.differences]}


def find_conflicts(store: Store, *, kind: str | None = None, faction: str | None = None) -> list[Conflict]:
    """Records printed in several files that disagree, optionally of one kind or faction."""
    corpus = load_corpus(store, amended=False)
    want = fold(faction) if faction else None
    out = []
    for p in corpus.printings.values():
        r = p.chosen
        if not p.differences or (kind and r.kind != kind):
            continue
        if want is not None and not fold(getattr(r, "faction", None) or "").startswith(want):
            continue
        out.append(Conflict(r.kind, record_name(r), getattr(r, "faction", None), r.edition, p.chosen_file.name,
                            tuple(i.name for _, i in p.others), tuple(p.differences)))
    return sorted(out, key=lambda c: (c.kind, fold(c.faction or ""), fold(c.name)))
