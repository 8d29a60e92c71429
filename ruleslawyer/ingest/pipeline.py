"""Ingest: files and folders -> Documents -> records -> the store, one transaction per file.

Gather first (walk the paths, find what to read), then read each file on its own: a file that
fails is reported with its name and reason and changes nothing; the rest of the batch goes on.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ..errors import LoadError, RuleslawyerError
from ..gcpause import gc_paused
from ..printable import printable, safe_text
from ..store import Store
from .formats import TEXT, load_bytes, read_file, sniff_format
from .outcome import FileResult, IngestReport, factions_of
from .parse.inference import infer_date, infer_edition, infer_faction, with_faction
from .parse.parsing import ParseContext, parse_document
from .parse.points_list import is_points_list
from .reading import NOTES_NAMES, read, structured_reading
from .walk import gather, real_key

__all__ = ["Dating", "FileResult", "IngestReport", "gather", "ingest_file", "ingest_paths", "ingest_structured",
           "corpus_dir", "ensure_corpus", "example_files", "remove_example_corpus", "reader_version", "printable"]

ProgressCallback = Callable[[int, int, str], None]


@functools.lru_cache(maxsize=None)
def reader_version() -> str:
    """A hash of the code that turns files into records (loaders, parsers, the record model).

    The store keeps it with each file, so that after an upgrade `ingest` reads unchanged files
    again instead of keeping what an older parser made of them.
    """
    here = Path(__file__).resolve().parent
    package = here.parent
    files = [*here.rglob("*.py"), package / "records.py", package / "names.py"]
    h = hashlib.sha1()
    for f in sorted(f for f in files if "__pycache__" not in f.parts):
        h.update(str(f.relative_to(package)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class Dating:
    """What the user says of the files of one ingest: their publication date and preference."""

    date: str | None = None  # ISO date (`ingest --dated`)
    preference: int | None = None  # `ingest --prefer`: ranks above files of the same date


def _no_records_warning(records) -> list[str]:
    return [] if records else ["no records found: nothing in this file was recognised as rules"]


def ingest_file(store: Store, path: Path, *, force: bool = False, dating: Dating = Dating(),
                in_folder: bool = False) -> FileResult:
    """Read, parse and store one file. Errors in the file come back as a failed FileResult.

    `in_folder`: the file was found walking a folder (not named by the user), so a notes file
    (README, SOURCES) beside the rules is skipped rather than read."""
    # Loading and parsing make several objects per block that live until the file is stored
    # (blocks, the parsers' line views, records) and no cycles worth collecting: the
    # collector's full passes over them cost a sixth of the parse of a big page.
    with gc_paused():
        return _ingest_file(store, path, force=force, dating=dating, in_folder=in_folder)


def _ingest_file(store: Store, path: Path, *, force: bool, dating: Dating, in_folder: bool) -> FileResult:
    key = safe_text(real_key(path) if os.path.lexists(path) else str(path))
    # The name records and messages carry: valid text, with no newline or escape sequence to obey.
    shown = Path(printable(str(path)))
    try:
        data = read_file(path)
        sha = hashlib.sha256(data).hexdigest()
        if not force and store.is_unchanged(key, sha, reader_version()):
            store.set_file_dating(key, date=dating.date, preference=dating.preference)
            return FileResult(key, "unchanged")
        other = store.same_content_elsewhere(key, sha)
        if other and not force:
            return FileResult(key, "duplicate", error=f"same content as {other}")
        skipped = _not_rules(data, shown, in_folder)
        if skipped:
            return _skip(store, key, *skipped)
        doc = load_bytes(data, shown, sha256=sha)
        if doc.meta.get("Creator") == "ruleslawyer":  # our own cards or list sheet, printed to PDF
            return _skip(store, key, "own_output", "made by ruleslawyer (its PDF Creator)",
                         "cards or a list sheet ruleslawyer printed, not a rules document")
        date = infer_date(doc)
        edition = infer_edition(doc, date, points_list=is_points_list(doc))
        ctx = ParseContext(doc=doc, edition=edition.value if edition else None)
        ctx.memo["date"] = date.value if date else None
        records = parse_document(doc, ctx)
        faction = infer_faction(doc)
        reading = read(doc, records, ctx.memo, {"edition": edition, "date": date, "faction": faction},
                       claimed=ctx.claimed)
        if faction and reading.read_as == "faction_pack":
            records = with_faction(records, faction)
    except RuleslawyerError as exc:
        return FileResult(key, "failed", error=str(exc) if isinstance(exc, LoadError) else f"{shown}: {exc}",
                          hint=exc.hint)
    except Exception as exc:  # a bug in a loader or parser: report it, keep the batch going
        return FileResult(key, "failed", error=f"{shown}: internal error: {type(exc).__name__}: {exc}",
                          hint="this is a bug in ruleslawyer; please report it with the file")
    kinds = Counter(r.kind for r in records)
    # Doubts of the loader (an unreadable die drawn as an image) and of the parsers, kept with the file.
    loaded = [w for w in str(doc.meta.get("warnings") or "").splitlines() if w.strip()]
    warnings = (tuple(loaded) + tuple(ctx.warnings) + tuple(_no_records_warning(records))
                + tuple(reading.warnings))
    store.replace_file(path=key, name=doc.origin.name, sha256=sha, format=doc.origin.format, size=len(data),
                       records=records, title=doc.title, edition=ctx.edition, reader=reader_version(),
                       warnings=warnings, date=dating.date or (date and date.value) or _records_date(records),
                       version=_records_version(records), preference=dating.preference, reading=reading.as_json())
    return FileResult(key, "ingested", records=len(records), kinds=dict(kinds), factions=factions_of(records),
                      warnings=warnings)


# An army list is a few KB; a rules document in text is rarely so small and never parses as one.
_MAX_LIST_BYTES = 256 * 1024


def _not_rules(data: bytes, shown: Path, in_folder: bool) -> tuple[str, str, str] | None:
    """(read_as, evidence, message) for a file that is not a rules document: an army-list export,
    or a notes file (README, SOURCES) found in a folder; None for anything else."""
    if in_folder and NOTES_NAMES.match(shown.name):
        return "notes", "a notes file by its name", "a notes file (README, SOURCES, ...), not a rules document"

    if len(data) > _MAX_LIST_BYTES or sniff_format(data, shown) != TEXT:
        return None
    from .sources.armylists import parse_list

    try:
        army = parse_list(data, name=str(shown))
    except RuleslawyerError:
        return None
    return ("army_list", f"an army-list export with {len(army.units)} units",
            "is an army list: use `ruleslawyer list check`")


def _skip(store: Store, key: str, read_as: str, evidence: str, message: str) -> FileResult:
    """A file left unread as not a rules document: what an earlier ingest stored of it goes."""
    if any(f.path == key for f in store.files()):
        store.remove_file(key)
    # Not a warning: skipping a list or a notes file is right, and `--strict` must not fail on it.
    return FileResult(key, "skipped", note=message or f"{read_as}: {evidence}")


def ingest_structured(store: Store, source, *, force: bool = False, dating: Dating = Dating()) -> FileResult:
    """Ingest a folder-shaped source (CSV export, BattleScribe data) as one unit."""
    with gc_paused():  # as ingest_file: thousands of rows and records, no cycles
        return _ingest_structured(store, source, force=force, dating=dating)


def _ingest_structured(store: Store, source, *, force: bool, dating: Dating) -> FileResult:
    key = source.key
    try:
        sha = source.sha256()
        if not force and store.is_unchanged(key, sha, reader_version()):
            store.set_file_dating(key, date=dating.date, preference=dating.preference)
            return FileResult(key, "unchanged")
        records = list(source.records())
    except RuleslawyerError as exc:
        return FileResult(key, "failed", error=str(exc), hint=exc.hint)
    except Exception as exc:
        return FileResult(key, "failed", error=f"{key}: internal error: {type(exc).__name__}: {exc}",
                          hint="this is a bug in ruleslawyer; please report it with the files")
    warnings = tuple(getattr(source, "warnings", ())) + tuple(_no_records_warning(records))
    store.replace_file(path=key, name=source.name, sha256=sha, format=source.format, size=source.size,
                       records=records, title=source.title, edition=source.edition, reader=reader_version(),
                       warnings=warnings, date=dating.date or getattr(source, "date", None) or _records_date(records),
                       version=getattr(source, "version", None) or _records_version(records),
                       preference=dating.preference, reading=structured_reading(records, source.format))
    return FileResult(key, "ingested", records=len(records), kinds=dict(Counter(r.kind for r in records)),
                      factions=factions_of(records), warnings=warnings)


def _records_date(records) -> str | None:
    """The newest publication date the records' sources give, if any."""
    dates = [r.source.date for r in records if r.source.date]
    return max(dates) if dates else None


def _records_version(records) -> str | None:
    """The document version the records give (an FAQ's version, a catalogue's revision)."""
    for r in records:
        version = r.source.version or getattr(r, "version", None)
        if version and r.kind != "points":
            return str(version)
    return None


def ingest_paths(store: Store, paths: Iterable[str | Path], *, force: bool = False,
                 progress: ProgressCallback | None = None, dating: Dating = Dating()) -> IngestReport:
    """Ingest files and folders into `store`; returns what happened to each.

    `progress(done, total, path)` is called before each item. `force` re-reads unchanged files.
    """
    paths = list(paths)
    named = {Path(p) for p in paths}
    items = gather(paths)
    report = IngestReport()
    for n, item in enumerate(items):
        label = str(item) if isinstance(item, Path) else getattr(item, "key", None) or getattr(item, "path", "")
        if progress:
            progress(n, len(items), printable(label))
        if isinstance(item, FileResult):  # failed already while gathering
            result = item
        elif isinstance(item, Path):
            if not os.path.lexists(item):
                result = FileResult(safe_text(str(item)), "failed", error=f"{item}: no such file or folder")
            else:
                result = ingest_file(store, item, force=force, dating=dating, in_folder=item not in named)
        else:
            result = ingest_structured(store, item, force=force, dating=dating)
        report.results.append(_printable_result(result))
    if progress:
        progress(len(items), len(items), "")
    return report


def _printable_result(result: FileResult) -> FileResult:
    """`result` with its error and hint safe to print on one line (names may hold newlines, escapes)."""
    if result.error is None and result.hint is None:
        return result
    return dataclasses.replace(result, error=result.error and printable(result.error),
                               hint=result.hint and printable(result.hint))


def corpus_dir() -> Path:
    """The default corpus shipped with the package."""
    return Path(__file__).resolve().parent.parent / "corpus"


def ensure_corpus(store: Store) -> IngestReport | None:
    """Ingest the shipped example corpus into a store that holds no files at all (a new user's),
    so there is something to answer at once; None when the store holds files already."""
    if store.files():
        return None
    return ingest_paths(store, [corpus_dir()])


def example_files(store: Store) -> list[str]:
    """The stored paths that are the shipped example corpus."""
    root = corpus_dir().resolve()
    return [f.path for f in store.files() if Path(f.path).is_relative_to(root)]


def remove_example_corpus(store: Store, paths: Iterable[str | Path]) -> int:
    """Drop the example corpus once the user ingests documents of their own (`paths` outside
    it); returns how many example files were removed."""
    root = corpus_dir().resolve()
    own = [p for p in paths if not Path(p).resolve().is_relative_to(root)]
    if not own:
        return 0
    removed = example_files(store)
    for path in removed:
        store.remove_file(path)
    return len(removed)

