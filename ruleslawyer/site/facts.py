"""What the site derives from each record alone, kept between builds keyed by the record's content.

Gathering the site for 50,000 records spends most of its time on work that depends on one
record and nothing else: the names its page may link (`links.link_requests`: a regex over its
text) and its search-index fields (`search_index.index_fields`: folding and tokenising its
text). A build keeps these per record in `.ruleslawyer-site-cache.json` beside the manifest,
keyed by a hash of the record's full content (`record_fingerprint`); the next build recomputes
them only for records whose content changed and reuses the rest. The cache is split into 16
files by the hash's first digit, so a rebuild after a small change rewrites only the one or
two files holding the changed records, not all of it. Everything that depends on
the whole corpus (URLs, which names resolve to which page, lists, errata) is still computed
every build from the current records, so an incremental build gives exactly the bytes of a
full one. The cache is plain JSON (never executed), ignored when the site code changed, and
written sorted, so the same records give the same file.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..records import Record, record_name
from .links import link_deps, link_requests
from .pages import list_projection, search_text, snippet
from .search_index import index_fields

CACHE = ".ruleslawyer-site-cache"  # a folder of SHARDS files beside the manifest
SHARDS = "0123456789abcdef"
CACHE_VERSION = 2
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # one encoder for 50,000 calls
DEPS_SEP = "\x1f"


def record_fingerprint(record: Record) -> str:
    """A hash of everything in `record` (kind, fields, source, changes): equal records, equal hashes."""
    return hashlib.sha1(f"{type(record).__name__}\x1f{record!r}".encode("utf-8")).hexdigest()


class RecordFacts:
    """Per-record products for one build: reused from the last build's cache where the record is unchanged."""

    def __init__(self, code: str, known: dict[str, list] | None = None, previous: dict | None = None) -> None:
        self.code = code
        self.known = known or {}
        self.previous = previous  # what the last build kept of its corpus-wide products (memory.py)
        self.used: dict[str, list] = {}
        self.computed: set[str] = set()
        self._requests: dict[str, tuple] = {}  # link requests of records derived this build, not yet encoded

    def requests(self, fp: str, encoded: str) -> Any:
        """The link requests of the record with hash `fp`, whose facts hold them `encoded`."""
        found = self._requests.get(fp)
        return found if found is not None else json.loads(encoded)

    def get(self, record: Record, fp: str | None = None) -> list:
        """[link requests (JSON), index snippet, index terms, list projection, link deps] of `record`.

        Link deps are one string joined with DEPS_SEP (see `deps_of`).
        """
        fp = fp or record_fingerprint(record)
        facts = self.used.get(fp) or self.known.get(fp)
        if facts is None:
            self.computed.add(fp)
            requests = link_requests(record)
            deps = link_deps(requests)
            # Kept as strings: parsing hundreds of thousands of small JSON lists was most of
            # the loading; requests are decoded only for pages whose links are resolved.
            self._requests[fp] = requests
            facts = [_ENCODE(requests),
                     *index_fields(record_name(record), snippet(record), search_text(record)),
                     list_projection(record), DEPS_SEP.join(deps) if not any(DEPS_SEP in d for d in deps) else deps]
        self.used[fp] = facts
        return facts

    def changed_shards(self) -> set[str]:
        """The cache files that would differ from the ones loaded (new or dropped records)."""
        dropped = (fp for fp in self.known if fp not in self.used) if len(self.known) != len(self.used) - len(
            self.computed) else ()
        return {fp[0] for fp in (*self.computed, *dropped)}

    def shard_bytes(self, shard: str) -> bytes:
        records = {fp: v for fp, v in self.used.items() if fp[0] == shard}
        data: dict[str, Any] = {"version": CACHE_VERSION, "code": self.code, "records": records}
        return (json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")

    def save(self, out: Path, write) -> None:
        """Write the shards that changed (all when `out` holds none) with `write(path, bytes)`."""
        folder = out / CACHE
        missing = [s for s in SHARDS if not (folder / f"{s}.json").is_file()]
        for shard in sorted(self.changed_shards().union(missing)):
            write(folder / f"{shard}.json", self.shard_bytes(shard))


def load_facts(out: str | Path) -> RecordFacts:
    """The per-record facts cached by the last build into `out` (empty when none, stale or unreadable)."""
    from .build import gc_paused

    # json.loads makes a few hundred thousand small lists; with the collector running, its full
    # passes over the corpus's heap took 90% of the loading (50,000 records: about 1 s).
    with gc_paused():
        return _load_facts(Path(out))


def _load_facts(out: Path) -> RecordFacts:
    from .writer import code_hash

    code = code_hash()
    known: dict[str, list] = {}
    for shard in SHARDS:
        try:
            data = json.loads((out / CACHE / f"{shard}.json").read_text("utf-8"))
        except (OSError, ValueError):
            return RecordFacts(code)
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION or data.get("code") != code:
            return RecordFacts(code)
        records = data.get("records")
        if not isinstance(records, dict) or not all(_well_formed(v) and fp[:1] == shard for fp, v in records.items()):
            return RecordFacts(code)
        known.update(records)
    from .memory import load_memory

    return RecordFacts(code, known, load_memory(out, code))


def _well_formed(facts: Any) -> bool:
    # Checked for every cached record on every rebuild: plain type tests, no generator.
    return (type(facts) is list and len(facts) == 5 and type(facts[0]) is str and type(facts[1]) is str
            and type(facts[2]) is str and type(facts[3]) is str and type(facts[4]) in (str, list))


def deps_of(deps: str | list[str]) -> list[str]:
    """The link deps of a record's facts as a list (kept joined, unless a dep holds the separator)."""
    return deps.split(DEPS_SEP) if isinstance(deps, str) else deps
