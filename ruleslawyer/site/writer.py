"""Render a gathered site and write it to a folder, incrementally and deterministically.

Each page has a fingerprint: a hash of the templates, the site code and the page's key (the
data it shows, including the links it resolves). A manifest in the output folder remembers the
fingerprints; a rebuild renders only pages whose fingerprint changed (or whose file is missing)
and writes a file only when its bytes differ, so an unchanged page keeps its mtime. Pages that
disappeared are removed. Nothing written depends on time or machine: same store, same bytes.

Large builds render in worker processes (fork, where the platform has it): the gathered
context is inherited, each worker renders and writes its own share of pages.
"""
from __future__ import annotations

import contextlib

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..paths import SITE_MANIFEST, SITE_PENDING
from .codehash import code_hash
from .outfiles import SiteError, clear_way, die_with_parent, entry_for, entry_of_file, matches, write_atomic
from .pages import Page, SiteContext
from ..render.templating import STATIC, make_env

MANIFEST = SITE_MANIFEST
PENDING = SITE_PENDING  # exists only while a build writes (or after one was killed)
OURS = ".ruleslawyer-site"  # the manifest, the pending list and their temporary files all start so
LOCK = ".ruleslawyer-site.lock"  # held (flock) while a build writes: a second build says so and stops
MANIFEST_VERSION = 1
# What builds before the one way to build kept beside the site: removed by the next build.
FORMER_CACHES = (".ruleslawyer-site-cache", ".ruleslawyer-site-memory")
PARALLEL_MIN_PAGES = 1500
# SiteError lives in outfiles (which raises it too) and is imported here for the callers of write_site.


@dataclass
class BuildReport:
    """What a build did: pages in the site, rendered, written (changed), removed, seconds."""

    out: Path
    pages: int = 0
    rendered: int = 0
    written: int = 0
    removed: int = 0
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)


def fingerprint(page: Page, salt: str) -> str:
    """A hash of the site code (`salt`), the page's template, path and key: equal hashes, equal pages."""
    return hashlib.sha1(f"{salt}\x1f{page.template}\x1f{page.path}\x1f{page.key!r}".encode("utf-8")).hexdigest()


def render_all(ctx: SiteContext, env=None) -> Iterator[tuple[str, bytes]]:
    """Every page rendered to bytes, nothing written (what the benchmark compares against)."""
    env = env or make_env()
    for page in ctx.pages:
        yield page.path, render_page(env, page)


def render_page(env, page: Page) -> bytes:
    return env.get_template(page.template).render(page.variables()).encode("utf-8")


def read_manifest(out: Path) -> dict | None:
    """The manifest of the site in `out` (a dict with a "pages" dict), or None when missing or unreadable."""
    try:
        data = json.loads((out / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and data.get("version") == MANIFEST_VERSION and isinstance(data.get("pages"), dict):
        return data
    return None


def _check_out(out: Path, force: bool = False) -> dict:
    """The previous manifest, or {}; refuse a non-empty folder that is not a site of ours
    (with `force`, adopt it: a site whose manifest was deleted is built over again).

    The files a killed build was writing are under "pending" (from its PENDING list). A folder
    holding only what a build writes before its first page (its own temporary and cache
    files) is a build killed at its start: accepted.
    """
    pending = _read_pending(out)
    if (out / MANIFEST).is_file():
        previous = read_manifest(out) or {}
    elif pending is not None:
        previous = {}  # a first build, killed: its pending list names everything it wrote
    else:
        if out.exists() and not out.is_dir():
            raise SiteError(f"{out}: exists and is not a folder")
        if not force and out.is_dir() and any(not name.startswith(OURS) for name in os.listdir(out)):
            raise SiteError(f"{out}: folder is not empty and holds no ruleslawyer site",
                            hint="choose an empty or new folder (the build removes pages it no longer makes), "
                                 "or add --force to build into it anyway (a site whose manifest was lost)")
        return {}
    if pending:
        previous = {**previous, "pending": sorted(set(pending) | set(previous.get("pending") or ()))}
    return previous


def _read_pending(out: Path) -> list[str] | None:
    """The paths a build was writing when it stopped (PENDING), or None when no build stopped there."""
    try:
        data = json.loads((out / PENDING).read_text("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return []  # there, but unreadable: the build stopped while writing it, before any page
    paths = data.get("pending") if isinstance(data, dict) else None
    return [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []


def write_bytes_if_changed(path: Path, data: bytes) -> bool:
    """Write `data` to `path` unless it already holds exactly that; True when written."""
    try:
        try:
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                return False
        except FileNotFoundError:
            # A new file: nobody can be reading a half-written version of it, write in place.
            try:
                path.write_bytes(data)
            except FileNotFoundError:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            return True
        write_atomic(path, data)
    except (NotADirectoryError, IsADirectoryError):
        clear_way(path)  # a file where a folder must be (or the reverse: a one-line error)
        write_atomic(path, data)
    return True


def unchanged_site(out: str | Path, source_key: str) -> BuildReport | None:
    """A report for `out` when it was built from exactly `source_key` and is intact, else None.

    Lets `site build` skip reading the store at all when nothing changed since the last build.
    Intact means every file the manifest lists still holds the bytes written there.
    """
    out = Path(out)
    data = read_manifest(out)
    if data is None or data.get("source") != source_key or (out / PENDING).exists():
        return None
    written = data.get("files")
    if not isinstance(written, dict) or set(written) != set(data["pages"]):
        return None
    since = _manifest_time(out)
    if not all(matches(out / path, entry, since) for path, entry in written.items()):
        return None
    return BuildReport(out=out, pages=data.get("page_count", 0), counts=data.get("counts", {}))


def interrupted(out: str | Path) -> bool:
    """True when the last build into `out` stopped before its end (it left its PENDING list):
    what it kept beside the site may be half old, half new, and is not to be trusted."""
    return (Path(out) / PENDING).exists()


def write_site(ctx: SiteContext, out: str | Path, *, force: bool = False, workers: int | None = None,
               source_key: str | None = None) -> BuildReport:
    """Write the gathered site to `out`; with `force`, re-render every page.

    `source_key` names what the site was built from (see `unchanged_site`); it goes into the
    manifest. Killed at any moment, the build leaves a folder the next build accepts and
    completes: before the first page is written, the files about to change are listed in a
    pending file beside the manifest (see `_mark_pending`). A folder that cannot be written is one SiteError.
    """
    try:
        with _build_lock(Path(out)):
            return _write_site(ctx, Path(out), force, workers, source_key)
    except OSError as exc:
        where = exc.filename or out
        raise SiteError(f"{where}: cannot write the site: {exc.strerror or exc}",
                        hint="check the permissions of the folder, or build into another one") from None


@contextlib.contextmanager
def _build_lock(out: Path):
    """Hold the folder's build lock for one build; a second build into the same folder at the
    same time is told so at once (not a misleading error half-way through both)."""
    import fcntl

    if out.exists() and not out.is_dir():
        raise SiteError(f"{out}: exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    with open(out / LOCK, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SiteError(f"{out}: another ruleslawyer build is writing this folder",
                            hint="wait for it to finish, then build again") from None
        yield


def _write_site(ctx: SiteContext, out: Path, force: bool, workers: int | None, source_key: str | None) -> BuildReport:
    start = time.perf_counter()
    previous = _check_out(out, force)
    out.mkdir(parents=True, exist_ok=True)
    _sweep_leftovers(out, previous)
    known = _known_pages(previous)
    files = _known_files(previous)
    since = _manifest_time(out) if previous else 0
    fingerprints, todo = _plan(ctx, out, known if not force else {}, files, since)
    _mark_pending(out, previous, [p.path for p in todo] + _asset_paths(ctx))
    report = BuildReport(out=out, pages=len(ctx.pages), counts=ctx.counts, rendered=len(todo))
    report.written, entries = _render_and_write(todo, out, workers)
    for path in fingerprints:
        if path not in entries and path in files:
            entries[path] = files[path]
    _finish(ctx, out, previous, fingerprints, report, source_key, entries)
    report.seconds = time.perf_counter() - start
    return report


def _sweep_leftovers(out: Path, previous: dict) -> None:
    """Remove the temporary files a killed build left (a page half replaced) and the caches
    that earlier versions kept beside the site (FORMER_CACHES)."""
    import shutil

    for name in FORMER_CACHES:
        former = out / name
        if former.is_dir() and not former.is_symlink():
            shutil.rmtree(former, ignore_errors=True)
        elif former.is_file() or former.is_symlink():
            former.unlink(missing_ok=True)
    leftovers = [out / (MANIFEST + ".tmp"), out / (PENDING + ".tmp")]
    if previous.get("pending"):
        leftovers += [out / f"{p}.tmp" for p in previous["pending"]]
    for f in leftovers:
        try:
            if f.is_file():
                f.unlink()
        except OSError:
            pass


def _manifest_time(out: Path) -> int:
    """When the manifest in `out` was written (ns), or 0: files newer than it are hashed."""
    try:
        return os.stat(out / MANIFEST).st_mtime_ns
    except OSError:
        return 0


def _known_pages(previous: dict) -> dict[str, str]:
    """The pages of the last build whose fingerprint can be trusted (not pending when it stopped)."""
    pending = set(previous.get("pending") or ())
    return {p: fp for p, fp in previous.get("pages", {}).items() if p not in pending}


def _known_files(previous: dict) -> dict[str, str]:
    files = previous.get("files")
    pending = set(previous.get("pending") or ())
    return {p: e for p, e in files.items() if p not in pending and isinstance(e, str)} if isinstance(files, dict) else {}


def _asset_paths(ctx: SiteContext) -> list[str]:
    return [*ctx.assets, *(f"static/{f.relative_to(STATIC).as_posix()}" for f in STATIC.rglob("*") if f.is_file())]


def _mark_pending(out: Path, previous: dict, pending: list[str]) -> None:
    """List, before writing any of them, the files this build is about to write (with those a
    killed build left pending): if it dies, the next build re-renders them and removes those it
    no longer makes. The manifest stays the last complete build's until the end."""
    pending_set = set(pending) | set(previous.get("pending") or ())
    text = json.dumps({"version": MANIFEST_VERSION, "pending": sorted(pending_set)}, separators=(",", ":"))
    try:
        write_atomic(out / PENDING, (text + "\n").encode())
    except (NotADirectoryError, IsADirectoryError):
        clear_way(out / PENDING)
        write_atomic(out / PENDING, (text + "\n").encode())


def _plan(ctx: SiteContext, out: Path, old_pages: dict[str, str], files: dict[str, str],
          since: int) -> tuple[dict[str, str], list[Page]]:
    """Every page's fingerprint, and the pages to render: changed since the last build, missing,
    or whose file no longer holds the bytes the last build wrote (see outfiles.matches)."""
    salt = code_hash()
    fingerprints: dict[str, str] = {}
    todo: list[Page] = []
    for page in ctx.pages:
        fp = fingerprint(page, salt)
        fingerprints[page.path] = fp
        if old_pages.get(page.path) != fp:
            todo.append(page)
            continue
        entry = files.get(page.path)
        if entry is None:  # a site written before files were recorded: record it as it is
            entry = entry_of_file(out / page.path)
            if entry is None:
                todo.append(page)
            else:
                files[page.path] = entry
        elif not matches(out / page.path, entry, since):
            todo.append(page)
    return fingerprints, todo


def _finish(ctx: SiteContext, out: Path, previous: dict, fingerprints: dict[str, str], report: BuildReport,
            source_key: str | None, entries: dict[str, str]) -> None:
    """Write the assets, remove stale pages, write the manifest."""
    assets = dict(ctx.assets)
    for f in sorted(STATIC.rglob("*")):
        if f.is_file():
            assets[f"static/{f.relative_to(STATIC).as_posix()}"] = f.read_bytes()
    for path, data in sorted(assets.items()):
        report.written += write_bytes_if_changed(out / path, data)
        fingerprints[path] = hashlib.sha1(data).hexdigest()
        entries[path] = entry_for(data)

    listed = set(previous.get("pages", {})) | set(previous.get("pending") or ())
    for stale in sorted(listed - set(fingerprints)):
        target = (out / stale).resolve()
        if out.resolve() in target.parents and target.is_file():
            target.unlink()
            report.removed += 1
    manifest = {"version": MANIFEST_VERSION, "source": source_key, "page_count": len(ctx.pages),
                "counts": dict(sorted(ctx.counts.items())), "pages": fingerprints,  # sort_keys sorts them
                "files": {p: entries[p] for p in fingerprints if p in entries}}
    # No indent: json's fast C encoder is used only without one (59,618 pages: 0.35 s -> 0.05 s).
    text = json.dumps(manifest, sort_keys=True, separators=(",", ":"))
    write_atomic(out / MANIFEST, (text + "\n").encode())
    (out / PENDING).unlink(missing_ok=True)  # the build is complete


# ---------------------------------------------------------------- rendering, maybe in parallel
_JOB: tuple[list[Page], Path] | None = None


def _render_range(bounds: tuple[int, int]) -> tuple[int, dict[str, str]]:
    """Render and write pages[bounds]: (files written, manifest entry of each page)."""
    pages, out = _JOB
    env = make_env()
    written = 0
    entries: dict[str, str] = {}
    for page in pages[bounds[0]:bounds[1]]:
        path = out / page.path
        data = render_page(env, page)
        written += write_bytes_if_changed(path, data)
        entries[page.path] = entry_for(data)
    return written, entries


def _render_and_write(pages: list[Page], out: Path, workers: int | None) -> tuple[int, dict[str, str]]:
    global _JOB
    workers = workers if workers is not None else (os.cpu_count() or 1)
    _JOB = (pages, out)
    try:
        if workers <= 1 or len(pages) < PARALLEL_MIN_PAGES or not hasattr(os, "fork"):
            return _render_range((0, len(pages)))
        import multiprocessing

        # Create the folders first, so workers do not race on mkdir.
        for d in sorted({(out / p.path).parent for p in pages}):
            if not d.is_dir():
                clear_way(d / "x")
        chunk = max(200, len(pages) // (workers * 8))
        bounds = [(i, min(i + chunk, len(pages))) for i in range(0, len(pages), chunk)]
        written, entries = 0, {}
        # Workers die with this process (die_with_parent): a killed build leaves no orphans.
        with multiprocessing.get_context("fork").Pool(workers, die_with_parent, (os.getpid(),)) as pool:
            for n, part in pool.imap_unordered(_render_range, bounds):
                written += n
                entries.update(part)
        return written, entries
    finally:
        _JOB = None
