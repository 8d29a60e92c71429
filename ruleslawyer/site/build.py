"""Build the static reference site: gather everything first, then write.

`get_context(corpus, files)` gathers (mkdocs-style: every page's data is known before the first
byte is written, so cross-links and lists are consistent): URLs and slugs for every record,
resolved cross-links, the original of each amended record, the rules hierarchy, faction,
keyword and kind lists, the errata outcomes and the search index. It returns a `SiteContext`
whose `pages` are (path, template, variables, fingerprint key) and whose `assets` are the
static files. `ruleslawyer.site.writer` renders the pages whose fingerprint changed and writes
the files whose bytes changed.

`build_site(store, out)` is the one call the CLI makes.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from ..library.corpus import Corpus
from .gather import gather
from .pages import SiteContext

SITE_TITLE = "Rules Lawyer"


def get_context(corpus: Corpus, files: Sequence[Any] = (), *, title: str = SITE_TITLE) -> SiteContext:
    """Gather every page of the site from `corpus` (errata applied) and the stored `files`."""
    return gather(corpus, files, title)


def build_site(store, out: str | Path, *, force: bool = False, workers: int | None = None,
               as_of: str | None = None):
    """Gather the site from `store` (errata applied) and write it to `out` (only what changed);
    `as_of` builds the reference of that date (documents published on or before it).

    Returns a writer.BuildReport. Raises SiteError when `out` is a non-empty folder that is
    not a site this command wrote.
    """
    import time

    from ..library.corpus import load_corpus
    from .writer import unchanged_site, write_site

    start = time.perf_counter()
    files = store.files()
    key = _store_key(store, files) + (f"@{as_of}" if as_of else "")
    report = None if force else unchanged_site(out, key)
    if report is None:
        ctx = get_context(load_corpus(store, as_of=as_of), files)
        report = write_site(ctx, out, force=force, workers=workers, source_key=key)
    report.seconds = time.perf_counter() - start  # the whole build: reading, gathering, writing
    return report


def _store_key(store, files) -> str:
    """What the store holds, cheaply: its change counter and every file's content hash.

    With the site code's hash, two builds with the same key produce the same site, so the
    second can stop before reading a single record.
    """
    import hashlib

    from .codehash import code_hash

    h = hashlib.sha1(f"{code_hash()}\x1f{store.generation}".encode())
    for f in files:
        h.update(f"\x1f{f.name}\x1e{f.sha256}".encode())
    return h.hexdigest()
