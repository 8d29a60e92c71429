"""The index's lifecycle: where it lives, when it is stale, incremental updates, full rebuilds.

The index lives beside the store in `<db>.index/`. A small JSON pointer file `CURRENT` names
the live build folder `build-*`, the store generation the index reflects, the index version
and the Whoosh TOC generation it was left at; it is swapped with `os.replace`.

- A **full build** goes into a new folder, then the pointer is swapped: a reader sees the old
  index or the new one, and a failed build leaves the old one in place. It happens only when
  there is no index, the index version (schema, analyzers, documents.py) changed, or the live
  index is damaged (then with a one-line notice).
- An **incremental update** changes the live folder in place: every document carries the
  content hash of its record (errata applied) in the `key` column, so an update deletes the
  documents whose record is gone or changed and adds the new ones. That is the ingested
  file's records plus whatever the errata-applied view changed because of it, and nothing
  else. Whoosh commits a new TOC atomically, so readers see the index before or after.

Builds and updates run under an exclusive `fcntl` lock on `<db>.index/lock`, so two processes
that find the index stale do the work once between them.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path
from typing import Callable, Iterable

from ..errors import StoreError
from ..gcpause import gc_paused
from ..paths import INDEX_POINTER, index_root
from . import engine

# Bump when the schema, the analyzers or documents.py change: older indexes are then rebuilt.
INDEX_VERSION = 10
# An update that would replace more than this share of the documents is done as a full build.
FULL_BUILD_SHARE = 0.5

Progress = Callable[[int, int], None]
Notice = Callable[[str], None]


def read_current(root: Path) -> dict | None:
    """The live build's pointer (folder name, store generation, index version), or None."""
    try:
        data = json.loads((root / INDEX_POINTER).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not (root / str(data.get("dir", ""))).is_dir():
            return None
    except (OSError, ValueError):
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


def _write_pointer(root: Path, pointer: dict) -> None:
    tmp = root / f"{INDEX_POINTER}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(pointer), encoding="utf-8")
    os.replace(tmp, root / INDEX_POINTER)


# ---------------------------------------------------------------- what goes in
class Source:
    """The amended records of a store with the key of each: what the index must hold.

    `load()` returns (records, stored hashes by id) as `library.corpus.load_corpus` gives them,
    and optionally a third item: a function giving a record's publication date (`Corpus.date_of`);
    it is called at most once, and only when the index needs work.
    """

    def __init__(self, load: Callable[[], tuple]):
        self._load = load
        self._keyed: dict[str, object] | None = None
        self.date_of: Callable[[object], str | None] = lambda record: None

    def keyed(self) -> dict[str, object]:
        """key -> record, in corpus order. The key is the hash of the record as stored, or for
        a record errata changed (an amended copy) the hash of its amended form; a record
        repeated verbatim gets "#2", "#3" after its hash."""
        if self._keyed is None:
            import hashlib

            from ..records_json import to_dict

            records, hashes, *dated = self._load()
            if dated:
                self.date_of = dated[0]
            keyed: dict[str, object] = {}
            for record in records:
                digest = hashes.get(id(record))
                if digest is None:
                    text = json.dumps(to_dict(record, include_changes=True), ensure_ascii=False, sort_keys=True)
                    digest = "a" + hashlib.sha1(text.encode("utf-8")).hexdigest()
                key, n = digest, 1
                while key in keyed:
                    n += 1
                    key = f"{digest}#{n}"
                keyed[key] = record
            self._keyed = keyed
        return self._keyed


def _documents(items: Iterable[tuple[str, object]], source: Source) -> Iterable[dict]:
    from .documents import make_document

    for key, record in items:
        doc = make_document(record, source.date_of(record))
        doc["key"] = key
        yield doc


# ---------------------------------------------------------------- full build
def rebuild(root: Path, generation: int, documents: Iterable[dict], *, progress: Progress | None = None,
            total: int | None = None) -> Path:
    """Build a new index from `documents` beside the live one, then swap it in atomically.

    Call with the build lock held. A failure removes the half-built folder and leaves the live index as it was.
    """
    import shutil
    import tempfile

    previous = read_current(root)
    build = Path(tempfile.mkdtemp(prefix=f"build-{generation}-", dir=root))
    try:
        count = engine.build_index_dir(documents, build, progress=progress, total=total)
        toc = _toc_generation(build)
        _write_pointer(root, {"dir": build.name, "generation": generation, "version": INDEX_VERSION,
                              "documents": count, "toc": toc})
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


def _toc_generation(folder: Path) -> int:
    ix = engine.open_writable(folder)
    try:
        return ix.latest_generation()
    finally:
        ix.close()


# ---------------------------------------------------------------- incremental update
class Damaged(Exception):
    """The live index cannot be read (a truncated, garbage or missing segment or TOC)."""


def _live_keys(ix) -> dict[str, int]:
    """key -> docnum of every live (not deleted) document of the open index `ix`."""
    with ix.reader() as reader:
        column = reader.column_reader("key")
        return {column[docnum]: docnum for docnum in reader.all_doc_ids() if column[docnum]}


def update(root: Path, current: dict, generation: int, source: Source, *,
           progress: Progress | None = None) -> Path | None:
    """Bring the live index in `root` up to `generation` in place; None when a full build is
    the better choice (most documents changed). Raises Damaged when the index cannot be read.

    Documents of records that are gone or changed are deleted by their key, the new ones
    added, in one Whoosh commit (which also merges small segments). Call with the build lock held.
    """
    folder = root / current["dir"]
    try:
        ix = engine.open_writable(folder)
        if ix.latest_generation() != current.get("toc"):  # changed behind the pointer's back
            ix.close()
            return None
        have = _live_keys(ix)
    except Exception as exc:  # whatever a damaged file makes Whoosh raise
        raise Damaged(describe(exc)) from None
    want = source.keyed()
    gone = [k for k in have if k not in want]
    new = [k for k in want if k not in have]
    if len(gone) + len(new) > FULL_BUILD_SHARE * max(len(want), 1):
        ix.close()
        return None
    if gone or new:
        w = engine.writer(ix)
        try:
            for key in gone:
                w.delete_by_term("key", key)
            engine.add_documents(w, _documents(((k, want[k]) for k in new), source), progress, len(new))
        except BaseException:
            w.cancel()
            ix.close()
            raise
        w.commit()
    toc = ix.latest_generation()
    ix.close()
    _write_pointer(root, {**current, "generation": generation, "documents": len(want), "toc": toc,
                          "added": len(new), "removed": len(gone)})
    return folder


def describe(exc: BaseException) -> str:
    """One short line naming an exception (for the damaged-index notice)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:160] if text else type(exc).__name__


# ---------------------------------------------------------------- the one entry point
def ensure_fresh(db_path: str | Path, generation: Callable[[], int], source: Source, *,
                 progress: Progress | None = None, notice: Notice | None = None,
                 damaged: str | None = None) -> Path:
    """The folder of an index built from the store's current generation, updating it if needed.

    `generation()` reads the store's generation counter; `source` gives the keyed records,
    read only when there is work, under the build lock, after checking again that no other
    process did it meanwhile. The generation is read before the records, so a change made
    during an update makes the next search update again. `damaged` (a reason) says the live
    index failed to read: it is rebuilt, and `notice` gets one line saying so.
    """
    root = index_root(db_path)
    current = read_current(root)
    if damaged is None and is_fresh(current, generation()):
        return root / current["dir"]
    try:
        # Reading the store and making documents creates hundreds of thousands of objects that
        # live until the build ends (records, documents, posting lists): the collector would
        # walk them again and again for nothing.
        with build_lock(root), gc_paused():
            again = read_current(root)
            seen = generation()
            if damaged is not None and again and current and again.get("dir") != current.get("dir"):
                damaged = None  # another process rebuilt it meanwhile
            current = again
            if damaged is None and is_fresh(current, seen):
                return root / current["dir"]
            if damaged is None and current and current.get("version") == INDEX_VERSION:
                try:
                    done = update(root, current, seen, source, progress=progress)
                except Damaged as exc:
                    damaged = str(exc)
                    done = None
                if done is not None:
                    return done
            if damaged is not None and notice is not None:
                notice(f"the search index was damaged ({damaged}); rebuilding it")
            items = list(source.keyed().items())
            return rebuild(root, seen, _documents(items, source), progress=progress, total=len(items))
    except OSError as exc:
        raise StoreError(f"{root}: cannot build the search index: {exc.strerror or exc}",
                         hint="check that the folder beside the store is writable") from None
