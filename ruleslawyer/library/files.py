"""The stored files as a user sees them: dating, precedence, warnings; removing files; conflicts."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..errors import NotFoundError, RuleslawyerError
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
    shown: str = ""  # the name with as many of its folders as tell it from other stored files
    edition: int | None = None
    reading: dict | None = None  # how the file was read (see StoredFile.reading)

    def to_json(self) -> dict:
        return {"path": self.path, "name": self.name, "shown": self.shown or self.name, "format": self.format,
                "date": self.date, "dated": self.dated, "version": self.version, "preference": self.preference,
                "records": self.records, "edition": self.edition, "reading": dict(self.reading or {}),
                "warnings": list(self.warnings)}


def describe_files(store: Store) -> list[FileRow]:
    """Every stored file with its date, version, preference (with ruleslawyer.toml), counts,
    warnings, how it was read, and a name that tells it apart from the other stored files."""
    ranking = source_ranking(store)
    stored = store.files()
    shown = distinct_names([f.path for f in stored])
    return [FileRow(f.path, f.name, f.format, f.effective_date, bool(f.date), f.version, preference_of(f, ranking),
                    f.record_count, f.warnings, shown=shown[f.path], edition=f.edition, reading=f.reading)
            for f in stored]


def distinct_names(paths: Iterable[str]) -> dict[str, str]:
    """For each path, its file name with as many parent folders as tell it apart from the other
    paths of the same file name ("a/rules.txt" and "b/rules.txt"); a unique name stays bare."""
    paths = list(paths)
    parts = {p: Path(p).parts for p in paths}
    out: dict[str, str] = {}
    by_name: dict[str, list[str]] = {}
    for p in paths:
        by_name.setdefault(Path(p).name, []).append(p)
    for group in by_name.values():
        depth = 1
        while depth < max(len(parts[p]) for p in group):
            tails = [parts[p][-depth:] for p in group]
            if len(set(tails)) == len(tails):
                break
            depth += 1
        for p in group:
            out[p] = str(Path(*parts[p][-depth:])) if len(group) > 1 else Path(p).name
    return out


def _matches(name: str, stored) -> list[str]:
    """The stored paths a user's NAME means: the exact path, the path it resolves to, or the
    paths whose last parts are NAME ("rules.txt", "house/rules.txt")."""
    resolved = str(Path(name).expanduser().resolve())
    exact = [f.path for f in stored if f.path in (name, resolved)]
    if exact:
        return exact
    tail = Path(name).parts
    return [f.path for f in stored if tail and Path(f.path).parts[-len(tail):] == tail]


def remove_files(store: Store, names: Iterable[str]) -> list[str]:
    """Remove the stored files named (by path, resolved path, file name or the end of a path);
    their paths.

    Every name must match exactly one stored file before anything is removed, so a typo or a
    name shared by files in two folders changes nothing.
    """
    stored = store.files()
    chosen: list[str] = []
    for name in names:
        matches = _matches(name, stored)
        if len(matches) > 1:
            shown = distinct_names([f.path for f in stored])
            listed = ", ".join(shown[m] for m in matches)
            raise RuleslawyerError(f"{name!r} names {len(matches)} stored files: {listed}; nothing was removed",
                                   hint="name one by its folder too, as `ruleslawyer files` shows it")
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
