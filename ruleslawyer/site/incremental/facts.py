"""What the site derives from each record alone, kept between builds keyed by the record's content.

Gathering the site for 50,000 records spends most of its time on work that depends on one
record and nothing else: the names its page may link (`links.link_requests`: a regex over its
text) and its search-index fields (`search_index.index_fields`: folding and tokenising its
text). A build keeps these per record in `.ruleslawyer-site-cache.json` beside the manifest,
keyed by a hash of the record's full content (`record_fingerprint`); the next build recomputes
them only for records whose content changed and reuses the rest. The cache is split into 256
files by the hash's first two digits, so a rebuild after a small change rewrites only the one or
two files holding the changed records, not all of it. Everything that depends on
the whole corpus (URLs, which names resolve to which page, lists, errata) is still computed
every build from the current records, so an incremental build gives exactly the bytes of a
full one. The cache is plain JSON (never executed), ignored when the site code changed, and
written sorted, so the same records give the same file.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import marshal
import typing
from pathlib import Path
from typing import Any, Callable

from ...records import Record, record_name
from ..links import link_deps, link_requests
from ..pages import list_projection, search_text, snippet
from ..search_index import index_fields

CACHE = ".ruleslawyer-site-cache"  # a folder of SHARDS files beside the manifest
SHARDS = tuple(f"{n:02x}" for n in range(256))  # by the first two digits of the record hash
CACHE_VERSION = 2
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # one encoder for 50,000 calls
DEPS_SEP = "\x1f"


def record_fingerprint(record: Record) -> str:
    """A hash of everything in `record` (kind, fields, source, changes): equal records, equal hashes.

    The record is turned into nested tuples (class name first, then every field) and hashed
    in marshal's format 2, which writes each value with its type and no references to shared
    objects, so equal values give equal bytes. That is twice as fast as hashing the repr
    (50,000 records: 0.48 -> 0.26 s, on every rebuild); a record holding a value marshal
    cannot write is hashed through its repr instead.
    """
    try:
        data = marshal.dumps(_as_tuples(record), 2)
    except ValueError:
        data = f"{type(record).__name__}\x1f{record!r}".encode("utf-8")
    return hashlib.sha1(data).hexdigest()


def record_fingerprints(records, stored_hashes: dict[int, str]) -> list[str]:
    """`record_fingerprint` of each record, or the hash of its stored form when the store gave one
    (`Corpus.stored_hashes`): as good a content key, already made (50,000 records: 0.26 s saved)."""
    known = stored_hashes.get
    return [known(id(r)) or record_fingerprint(r) for r in records]


_TO_TUPLES: dict[type, Callable[[Any], tuple]] = {}


def _as_tuples(value: Any) -> Any:
    """`value` with every dataclass in it (nested in tuples too) as (class name, *fields)."""
    convert = _TO_TUPLES.get(type(value))
    if convert is not None:
        return convert(value)
    if type(value) is tuple:
        return tuple(map(_as_tuples, value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _converter(type(value))(value)
    return value


def _converter(cls: type) -> Callable[[Any], tuple]:
    """A function (cls instance) -> (class name, *field values), compiled once per class.

    Generated source, like dataclasses' own __repr__: one tuple display reading every field
    directly. A field annotated with one dataclass (or a tuple of one) calls that class's
    converter directly when the value has that type; anything else goes through `_as_tuples`,
    which gives the same result more slowly. Other values are left for marshal (which refuses
    what it cannot write, see record_fingerprint).
    """
    hints = typing.get_type_hints(cls)
    namespace: dict[str, Any] = {"_as_tuples": _as_tuples}
    lines, parts = [], []
    for n, f in enumerate(dataclasses.fields(cls)):
        hint = hints.get(f.name)
        if not _names_dataclass(hint):
            parts.append(f"o.{f.name}")
            continue
        lines.append(f"    v{n} = o.{f.name}")
        inner = _one_dataclass(hint)
        if inner is None:
            parts.append(f"_as_tuples(v{n})")
            continue
        namespace[f"C{n}"], namespace[f"T{n}"] = _TO_TUPLES.get(inner) or _converter(inner), inner
        one = f"(C{n}(x) if type(x) is T{n} else _as_tuples(x))"
        if typing.get_origin(hint) is tuple or tuple in map(typing.get_origin, typing.get_args(hint)):
            parts.append(f"(((tuple([{one} for x in v{n}]) if v{n} else v{n}) if type(v{n}) is tuple "
                         f"else _as_tuples(v{n})))")
        else:
            parts.append(f"(C{n}(v{n}) if type(v{n}) is T{n} else _as_tuples(v{n}))")
    body = "\n".join([*lines, f"    return ({cls.__qualname__!r}, {', '.join(parts)})"])
    exec(f"def convert(o):\n{body}\n", namespace)
    _TO_TUPLES[cls] = namespace["convert"]
    return namespace["convert"]


def _one_dataclass(tp: Any) -> type | None:
    """The one dataclass `tp` names (X, X | None, tuple[X, ...], tuple[X, ...] | None), else None."""
    found = [a for a in _flat_args(tp) if dataclasses.is_dataclass(a)]
    return found[0] if len(found) == 1 else None


def _flat_args(tp: Any) -> list:
    args = typing.get_args(tp)
    return [tp] if not args else [x for a in args for x in _flat_args(a)]


def _names_dataclass(tp: Any) -> bool:
    return dataclasses.is_dataclass(tp) or any(_names_dataclass(a) for a in typing.get_args(tp))


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
        return {fp[:2] for fp in (*self.computed, *dropped)}

    def shard_bytes(self, shard: str, records: dict[str, list] | None = None) -> bytes:
        """One cache file: the facts of the records whose hash starts with `shard` (or `records`)."""
        if records is None:
            records = {fp: v for fp, v in self.used.items() if fp[:2] == shard}
        data: dict[str, Any] = {"version": CACHE_VERSION, "code": self.code, "records": records}
        return (json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")

    def save(self, out: Path, write) -> None:
        """Write the shards that changed (all when none were loaded) with `write(path, bytes)`."""
        folder = out / CACHE
        # Without a loaded cache a shard on disk may be unreadable, even one holding no record now.
        missing = [s for s in SHARDS if not self.known or not (folder / f"{s}.json").is_file()]
        groups: dict[str, dict[str, list]] = {s: {} for s in SHARDS}
        for fp, v in self.used.items():
            groups[fp[:2]][fp] = v
        for shard in sorted(self.changed_shards().union(missing)):
            write(folder / f"{shard}.json", self.shard_bytes(shard, groups[shard]))


def load_facts(out: str | Path) -> RecordFacts:
    """The per-record facts cached by the last build into `out` (empty when none, stale or unreadable)."""
    from ...gcpause import gc_paused

    # json.loads makes a few hundred thousand small lists; with the collector running, its full
    # passes over the corpus's heap took 90% of the loading (50,000 records: about 1 s).
    with gc_paused(freeze_after=True):
        return _load_facts(Path(out))


def _load_facts(out: Path) -> RecordFacts:
    from .codehash import code_hash

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
        if not isinstance(records, dict) or not _shard_well_formed(shard, records):
            return RecordFacts(code)
        known.update(records)
    from .memory import load_memory

    return RecordFacts(code, known, load_memory(out, code))


def _shard_well_formed(shard: str, records: dict) -> bool:
    """Every record hash in `records` starts with `shard` and its facts have the shape `get` returns.

    Checked for every cached record on every rebuild, so column by column with C-level passes
    (map, zip, set) instead of a Python test per record (50,000 records: 0.05 -> 0.01 s).
    """
    if not records:
        return True
    if {fp[:2] for fp in records} != {shard}:
        return False
    facts = list(records.values())
    if set(map(type, facts)) != {list} or set(map(len, facts)) != {5}:
        return False
    columns = list(zip(*facts))
    return (all(set(map(type, column)) == {str} for column in columns[:4])
            and set(map(type, columns[4])) <= {str, list})


def deps_of(deps: str | list[str]) -> list[str]:
    """The link deps of a record's facts as a list (kept joined, unless a dep holds the separator)."""
    return deps.split(DEPS_SEP) if isinstance(deps, str) else deps
