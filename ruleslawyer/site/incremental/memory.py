"""What the last build derived from the whole corpus, kept to prove pages unchanged without remaking them.

A rebuild after one changed file would otherwise resolve every page's links and rebuild every
list page just to find that their fingerprints did not move. Two products depend on the whole
corpus but, page by page, on a small and known part of it:

- A record page's links depend on its record (its link requests, edition and faction) and on
  the linker entries those requests look up (`links.link_deps`). The build keeps a hash of
  each page's links (its "links token", which stands for the links in the page's key) per
  record content hash, and a digest of every linker entry (`Linker.digests`). A record whose
  content is unchanged and whose looked-up entries all have the digests they had keeps its
  token: its links are the ones the last build resolved, so they are not resolved again
  unless the page is rendered.
- The list, faction and keyword pages depend on each record's list projection
  (`pages.list_projection`: every field a list shows or sorts by), the records' URLs and
  order, the rule each keyword page links and the site title. When a hash of all of that
  ("list state") equals the last build's, every list page is the page the last build wrote,
  with the fingerprint it had: the pages are listed with those fingerprints and their
  variables are made only if one of them must be rendered (its file was deleted).

Everything kept here is a function of the current build's inputs alone (never merged with older
builds), so an incremental build writes the same file as a full one. The file is plain JSON,
ignored when the site code changed or when any of it is unreadable.
"""
from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Sequence

from .facts import deps_of, record_fingerprint
from ..links import Linker, PageLinks
from ..pages import Entry, Page, list_pages

MEMORY = ".ruleslawyer-site-memory"  # a folder beside the manifest
MEMORY_VERSION = 1
SHARDS = "0123456789abcdef"


def links_token(links: PageLinks) -> str:
    """A hash of a page's resolved links (hrefs and hover texts): stands for them in the page key."""
    return hashlib.sha1(repr(links.resolved).encode("utf-8")).hexdigest()


class GatherMemory:
    """The corpus-wide products of one build, and what the previous build kept of its own."""

    def __init__(self, code: str, previous: dict[str, Any] | None = None) -> None:
        self.code = code
        previous = previous or {}
        self._old_tokens: dict[str, str] = previous.get("tokens", {})
        self._old_lists: dict[str, Any] | None = previous.get("lists")
        self._old_files: dict[str, Any] = previous.get("files", {})
        self._old_index: dict[str, Any] | None = previous.get("index")
        self._out: Path | None = previous.get("out")
        self.index_layout: dict[str, Any] = {}  # index_parts layout of this build's search index
        self.changed: set[str] = set()
        self.reused = 0  # records whose links token held, so their links were not resolved
        # This build's linker digests and links tokens (record content hash -> token), already
        # split as the files keep them: unchanged files are then found by comparing dicts.
        self.digests: dict[str, dict[str, str]] = {s: {} for s in SHARDS}
        self.tokens: dict[str, dict[str, str]] = {s: {} for s in SHARDS}
        self.list_state: str | None = None
        self.list_templates: dict[str, str] = {}  # list page path -> template, this build
        self.shape: dict[str, Any] | None = None  # this build's, for the next one (see patch.shape_of)
        self.patched = False  # True when patch.patch_gather made this build's context
        self.refused: str | None = None  # else why it could not (None: nothing to patch)

    def start(self, linker: Linker) -> None:
        """Note the linker entries whose digest differs from the last build's."""
        for key, digest in linker.digests().items():
            self.digests[_key_shard(key)][key] = digest
        if self._old_tokens:
            for shard, new in self.digests.items():
                old = self._old_files.get(f"linker-{shard}.json", {})
                if old != new:
                    self.changed.update(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))

    def links_token(self, fp: str, deps: str | list[str]) -> str | None:
        """The last build's links token for a record with content hash `fp`, if it still holds, else None.

        `deps` are the record's link deps as its facts keep them (`facts.deps_of`).
        """
        token = self._old_tokens.get(fp)
        if token is not None and (not self.changed or self.changed.isdisjoint(deps_of(deps))):
            self.reused += 1
            self.tokens[fp[0]][fp] = token
            return token
        return None

    def keep_token(self, fp: str, token: str) -> str:
        self.tokens[fp[0]][fp] = token
        return token

    # ------------------------------------------------------------ for patch.patch_gather
    @property
    def old_tokens(self) -> dict[str, str]:
        """The last build's links tokens by record hash."""
        return self._old_tokens

    def old_digests(self) -> dict[str, str]:
        """The last build's linker digests, all shards in one dict."""
        out: dict[str, str] = {}
        for s in SHARDS:
            out.update(self._old_files.get(f"linker-{s}.json", {}))
        return out

    def keep_digests(self, digests: dict[str, str]) -> None:
        """This build's linker digests (all of them), split as the files keep them."""
        for key, digest in digests.items():
            self.digests[_key_shard(key)][key] = digest

    def old_list_state(self) -> str | None:
        return (self._old_lists or {}).get("state")

    def old_index(self, path: str) -> tuple[bytes, dict[str, Any]] | None:
        """The last build's search index file (at `path` in the site) and its layout, if both are known."""
        if not self._old_index or self._out is None:
            return None
        try:
            return (self._out / path).read_bytes(), self._old_index
        except OSError:
            return None

    def list_pages(self, state: str, make: Callable[[], list[Page]]) -> list[Page]:
        """The list pages for list state `state`: the last build's (fingerprints known, variables
        made on demand) when its state was the same, else `make()`."""
        self.list_state = state
        old = self._old_lists
        if old and old.get("state") == state:
            made: dict[str, dict[str, Any]] = {}
            pages = [Page(path, template, functools.partial(_list_vars, made, make, path), None, fingerprint=fp)
                     for path, (template, fp) in old["pages"].items()]
        else:
            pages = make()
        self.list_templates = {p.path: p.template for p in pages}
        return pages

    def save(self, out: Path, write, fingerprints: dict[str, str]) -> None:
        """Write what this build derived with `write(path, bytes)`, only the files whose content changed.

        Tokens and linker digests are split over 16 files each, so that a small change rewrites
        a few small files, not megabytes.
        """
        lists = {"state": self.list_state,
                 "pages": {p: [t, fingerprints[p]] for p, t in sorted(self.list_templates.items())}}
        files: dict[str, Any] = {"lists.json": lists, "index.json": self.index_layout, "shape.json": self.shape}
        for section, shards in (("tokens", self.tokens), ("linker", self.digests)):
            files.update((f"{section}-{s}.json", shard) for s, shard in shards.items())
        folder = out / MEMORY
        for name, data in sorted(files.items()):
            if self._old_files.get(name) == data and (folder / name).is_file():
                continue
            text = json.dumps({"version": MEMORY_VERSION, "code": self.code, "data": data}, ensure_ascii=False,
                              sort_keys=True, separators=(",", ":"))
            write(folder / name, (text + "\n").encode("utf-8"))


def _key_shard(key: str) -> str:
    return SHARDS[len(key) % 16]  # stable across processes, unlike hash()


def _list_vars(made: dict[str, dict[str, Any]], make: Callable[[], list[Page]], path: str) -> dict[str, Any]:
    """One list page's variables: all list pages are made on the first call (they are made together)."""
    if not made:
        made.update((p.path, p.variables()) for p in make())
    return made[path]


def list_state(title: str, listed: list[str], keywords: dict[str, tuple[str, list]], linker: Linker) -> str:
    """A hash of every input of `pages.list_pages`: `listed` holds each entry's list projection
    and URL in entry order; the keyword pages also show the rule of their keyword."""
    rules = []
    for kw in keywords:
        t = linker.rule(kw, None, None)
        rules.append((kw, t.url, t.title) if t else (kw,))
    h = hashlib.sha1(repr((title, rules)).encode("utf-8"))
    h.update("\x1f".join(listed).encode("utf-8"))
    return h.hexdigest()


def make_list_pages(entries, keywords, linker, common, furls) -> Callable[[], list[Page]]:
    """`pages.list_pages` with these arguments, to call later (or never)."""
    return functools.partial(list_pages, entries, keywords, linker, common, furls)


def load_memory(out: Path, code: str) -> dict[str, Any] | None:
    """What the last build into `out` kept (None when missing, unreadable or from other site code)."""
    folder = out / MEMORY
    files: dict[str, Any] = {}
    names = [f"{section}-{s}.json" for section in ("tokens", "linker") for s in SHARDS]
    for name in ("lists.json", "index.json", *names):
        data = _read(folder / name, code)
        if not isinstance(data, dict):
            return None
        files[name] = data
    lists = files["lists.json"]
    if not (isinstance(lists.get("pages"), dict)
            and all(isinstance(v, list) and len(v) == 2 for v in lists["pages"].values())):
        return None
    tokens: dict[str, str] = {}
    for s in SHARDS:
        tokens.update(files[f"tokens-{s}.json"])
    # The shape only enables a patched rebuild (patch.py): without it the build gathers everything.
    shape = _read(folder / "shape.json", code)
    files["shape.json"] = shape
    return {"tokens": tokens, "lists": lists, "index": files["index.json"], "files": files, "out": out,
            "shape": shape if isinstance(shape, dict) else None}


def _read(path: Path, code: str) -> Any:
    """The data of one memory file, or None when missing, unreadable or from other site code."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != MEMORY_VERSION or data.get("code") != code:
        return None
    return data.get("data")


COLUMN_SEP = "\0"  # joins a shape's column values (never in a hash, URL or file name)


def shape_of(title: str, entries: Sequence[Entry], fps: Sequence[str], outcomes, keywords,
             printings: str = "") -> dict[str, Any]:
    """What a build keeps so that the next one can patch it (see the module docstring).

    `fps` are the record hashes of `entries` (in entry order); `keywords` the keyword pages.
    """
    # The three per-entry columns are kept as single strings (NUL never occurs in a hash, a URL
    # slug or a file name): a few long strings read and write several times faster than 150,000 short ones.
    return {"title": title, "fps": column(fps), "urls": column(e.url for e in entries),
            "files": column(e.record.source.file for e in entries), "outcomes": outcomes_digest(outcomes),
            "amended": {e.url: e.original and record_fingerprint(e.original)
                        for e in entries if getattr(e.record, "changes", ())},
            "keywords": {kw: [url, len(units)] for kw, (url, units) in keywords.items()}, "printings": printings}


def outcomes_digest(outcomes) -> str:
    """A hash of the errata outcomes (the errata page, the change anchors and badges show them)."""
    return hashlib.sha1(repr(list(outcomes)).encode("utf-8")).hexdigest()


def column(values) -> str:
    """A list of strings as one string, each value after a NUL (so [] and [""] differ)."""
    return "".join([COLUMN_SEP + v for v in values])
