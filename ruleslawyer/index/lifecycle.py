"""The index's lifecycle: where it lives, when it is stale, and the atomic rebuild.

The index lives beside the store in `<db>.index/`. Each build goes into its own folder
`build-*`; a small JSON pointer file `CURRENT` names the live build and the store generation it
was made from, and is swapped with `os.replace`, so a reader sees the old index or the new
one, never a half-built one, and a failed build leaves the old one in place. Builds run under
an exclusive `fcntl` lock on `<db>.index/lock`, so two processes that find the index stale
build it once between them.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path
from typing import Callable, Iterable

from ..errors import StoreError
from . import engine

# Bump when the schema, the analyzers or documents.py change: older indexes are then rebuilt.
INDEX_VERSION = 4


def index_root(db_path: str | Path) -> Path:
    """Where the index of the store at `db_path` lives: `<db>.index/` beside it."""
    return Path(str(db_path) + ".index")


def read_current(root: Path) -> dict | None:
    """The live build's pointer (folder name, store generation, index version), or None."""
    try:
        data = json.loads((root / "CURRENT").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (root / str(data.get("dir", ""))).is_dir():
        return None
    return data


def is_fresh(current: dict | None, generation: int) -> bool:
    return bool(current) and current.get("generation") == generation and current.get("version") == INDEX_VERSION


@contextlib.contextmanager
def build_lock(root: Path):
    """Hold the exclusive build lock of the index at `root` (blocks while another build runs)."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def rebuild(root: Path, generation: int, documents: Iterable[dict]) -> Path:
    """Build a new index from `documents` beside the live one, then swap it in atomically.

    Call with the build lock held. A failure removes the half-built folder and leaves the
    live index as it was.
    """
    import shutil
    import tempfile

    previous = read_current(root)
    build = Path(tempfile.mkdtemp(prefix=f"build-{generation}-", dir=root))
    try:
        count = engine.build_index_dir(documents, build)
        pointer = {"dir": build.name, "generation": generation, "version": INDEX_VERSION, "documents": count}
        tmp = root / f"CURRENT.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(pointer), encoding="utf-8")
        os.replace(tmp, root / "CURRENT")
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    # Keep the previous build (a reader may still have it open); older ones are garbage, and
    # so are folders of builds that died half-way (builds only run under the lock).
    keep = {build.name, previous["dir"] if previous else None}
    for entry in root.glob("build-*"):
        if entry.name not in keep:
            shutil.rmtree(entry, ignore_errors=True)
    return build


def ensure_fresh(db_path: str | Path, generation: Callable[[], int],
                 documents_for: Callable[[], Iterable[dict]]) -> Path:
    """The folder of an index built from the store's current generation, building it if needed.

    `generation()` reads the store's generation counter; `documents_for()` yields the
    documents, and is called only when a build is needed, under the build lock, after checking
    again that no other process built the index meanwhile. The generation is read before the
    records, so a change made during a build makes the next search rebuild again.
    """
    root = index_root(db_path)
    current = read_current(root)
    if is_fresh(current, generation()):
        return root / current["dir"]
    try:
        with build_lock(root):
            current = read_current(root)
            seen = generation()
            if is_fresh(current, seen):
                return root / current["dir"]
            return rebuild(root, seen, documents_for())
    except OSError as exc:
        raise StoreError(f"{root}: cannot build the search index: {exc.strerror or exc}",
                         hint="check that the folder beside the store is writable") from None
