"""Gather what to ingest: walk files and folders, recognise folder-shaped sources, report what
cannot be walked (one failed result per entry) and go on."""
from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Callable, Iterable

from .. import registry
from ..errors import RuleslawyerError
from ..paths import INDEX_POINTER, INDEX_SUFFIX, SITE_MANIFEST, SITE_PENDING
from ..printable import safe_text
from .formats import STRUCTURED_SUFFIXES, SUFFIXES
from .outcome import FileResult

# Folder-shaped sources (a CSV export, a BattleScribe data set) are recognised before the
# folder is walked file by file: the `ruleslawyer.sources` registry, each entry a
# detect(path) -> StructuredSource | None, tried in order.


STRUCTURED_ONLY = frozenset({"structured"})  # a walk entry read only if a structured source claims it

# What ruleslawyer itself writes is never read back as documents: a folder holding one of these
# files is a site it built (its manifest, or the marker of a build in progress) or a search index
# (the pointer file beside its segments), and is skipped with one line.
OWN_OUTPUT_MARKERS: tuple[tuple[str, str], ...] = (
    (SITE_MANIFEST, "a site ruleslawyer built"),
    (SITE_PENDING, "a site ruleslawyer is building"),
)
_SQLITE_HEADER = b"SQLite format 3\x00"


def own_output(folder: Path) -> str | None:
    """Why `folder` is ruleslawyer's own output (a built site, a search index), or None."""
    for marker, what in OWN_OUTPUT_MARKERS:
        if (folder / marker).is_file():
            return what
    if folder.name.endswith(INDEX_SUFFIX) and (folder / INDEX_POINTER).is_file():
        return "a ruleslawyer search index"
    return None


def is_store_file(path: Path) -> bool:
    """True when `path` is an SQLite database (a store, ours or another program's): never a document."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except OSError:
        return False


def gather(paths: Iterable[str | Path]) -> list[object]:
    """Expand paths into what to ingest: files (as Paths) and structured sources, in order.

    Folders are walked recursively in sorted order; inside a folder only known suffixes are
    taken (a named file is taken whatever its suffix, and sniffed). Hidden entries are skipped.
    Missing paths are returned as they are, so the reader reports them with the rest. What
    cannot be walked (a symlink loop, a folder that cannot be listed, a name too long) comes
    back as a failed FileResult, one per entry, and the walk goes on.
    """
    detectors = registry.load_all(registry.SOURCES)
    items: list[object] = []
    seen: set[str] = set()

    def add(item: object, key: str) -> None:
        if key not in seen:
            seen.add(key)
            items.append(item)

    def fail(path: Path, reason: str) -> None:
        add(FileResult(safe_text(str(path)), "failed", error=f"{safe_text(str(path))}: {reason}"), f"\0{path}")

    def skip(path: Path, reason: str) -> None:
        # Not an error: the batch's exit status stays 0. The CLI prints one "Skipped:" line.
        add(FileResult(safe_text(str(path)), "skipped", note=reason), f"\0{path}")

    def detected(path: Path) -> object | None:
        # A detector that cannot read its file reports it like any bad file, in the batch.
        for detect in detectors:
            try:
                found = detect(path)
            except RuleslawyerError as exc:
                return FileResult(safe_text(str(path)), "failed", error=safe_text(str(exc)), hint=exc.hint)
            except OSError as exc:
                return FileResult(safe_text(str(path)), "failed",
                                  error=f"{safe_text(str(path))}: cannot read: {exc.strerror or exc}")
            if found is not None:
                return found
        return None

    def visit_dir(top: Path) -> None:
        # Depth first in sorted order, with a stack rather than recursion: a tree nested
        # thousands deep is walked (its too-long paths reported one by one), not a RecursionError.
        root = Path(os.path.realpath(top))
        stack: list[tuple[Path, frozenset | None]] = [(top, frozenset())]
        while stack:
            folder, ancestors = stack.pop()
            if ancestors is None:
                handle_file(folder)
                continue
            if ancestors is STRUCTURED_ONLY:
                # .json/.yaml are read only when a source claims them (other JSON is not a rules
                # document); a .cat/.gst that no source claims is said, not read as text.
                found = detected(folder)
                if found is None and folder.suffix.lower() in (".cat", ".gst"):
                    found = FileResult(str(folder), "failed", error=f"{folder}: not BattleScribe data "
                                       "(no catalogue or gameSystem root element)")
                if found is not None:
                    add(found, real_key(folder))
                continue
            try:
                st = folder.stat()
            except (OSError, RuntimeError) as exc:
                fail(folder, walk_error(exc))
                continue
            here = (st.st_dev, st.st_ino)
            if here in ancestors:
                fail(folder, "a symlink loop (a folder inside itself); skipped")
                continue
            found = detected(folder)
            if found is not None:
                add(found, real_key(folder))
                continue
            ours = own_output(folder)
            if ours is not None:
                skip(folder, f"{ours}; not read as documents")
                continue
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except (OSError, RuntimeError) as exc:
                fail(folder, walk_error(exc, "cannot list the folder"))
                continue
            inside = ancestors | {here}
            todo: list[tuple[Path, frozenset | None]] = []
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                path = folder / entry.name
                try:
                    is_dir, is_file = entry.is_dir(), entry.is_file()
                except OSError as exc:
                    fail(path, walk_error(exc))
                    continue
                if is_dir:
                    if entry.is_symlink() and not Path(os.path.realpath(path)).is_relative_to(root):
                        # Following it would walk (and ingest) a tree the user did not name.
                        skip(path, f"a symlink to a folder outside {safe_text(str(top))}; not followed")
                        continue
                    todo.append((path, inside))
                elif path.suffix.lower() in SUFFIXES:
                    if not is_file and entry.is_symlink() and not os.path.exists(path):
                        fail(path, "a broken or looping symlink; skipped")
                    else:  # not only regular files: a FIFO or a device named .txt gets its one line from read_file
                        todo.append((path, None))
                elif is_file and _structured_file(path, detectors):
                    todo.append((path, STRUCTURED_ONLY))
            stack.extend(reversed(todo))

    def handle_file(path: Path) -> None:
        found = detected(path)
        add(found if found is not None else path, real_key(path))

    for raw in paths:
        p = Path(raw)
        try:
            is_dir, exists = p.is_dir(), os.path.lexists(p)
        except (OSError, ValueError) as exc:
            fail(p, walk_error(exc))
            continue
        if is_dir:
            visit_dir(p)
        elif exists and is_store_file(p):
            skip(p, "an SQLite database (a store), not a document")
        else:
            handle_file(p) if exists else add(p, str(p))
    return items


def real_key(path: Path) -> str:
    """The key a file is stored under: its absolute real path (symlinks resolved, loops tolerated)."""
    return os.path.realpath(path)


def walk_error(exc: BaseException, what: str = "cannot read") -> str:
    """One line for an error met while walking: a loop, a name too long, permission denied."""
    if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP:
        return "a symlink loop; skipped"
    if getattr(exc, "errno", None) == errno.ENAMETOOLONG:
        return "the path is too long; skipped"
    if isinstance(exc, PermissionError):
        return f"{what}: permission denied"
    return f"{what}: {getattr(exc, 'strerror', None) or exc}"


def _structured_file(path: Path, detectors: list[Callable]) -> bool:
    return path.suffix.lower() in STRUCTURED_SUFFIXES and bool(detectors)
