"""The search index file written kind by kind, reusing the last build's bytes for unchanged kinds.

`search_index.render_index` sorts the documents by kind, then name, then URL, so the file is a
header (kinds, factions, editions) followed by one run of documents per kind. A document's
text depends on its record alone (hence on the record's hash) plus its URL and the header's
numbering. So when the header is the same as the last build's and the hashes and URLs of a
kind's records are the same, that kind's run is the same bytes, and it is copied from the
last build's file (checked against the hash of the whole file the last build wrote) instead
of being sorted and encoded again. The result is always exactly `render_index(entries)`.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from collections import defaultdict
from typing import Any

from ..search_index import IndexEntry, entry_order, render_index

INDEX_PATH = "static/search-index.js"
_PREFIX = "window.RULESLAWYER_INDEX = "


def _safe(text: str) -> str:
    """What render_index does to the whole text, done to a part (no match spans two parts)."""
    return re.sub(r"</", r"<\\/", text).replace("<!--", "<\\!--")


def index_bytes(entries: list[IndexEntry], fps: list[str], old: tuple[bytes, dict[str, Any]] | None = None, *,
                same_kinds: frozenset[str] = frozenset()) -> tuple[bytes, dict[str, Any]]:
    """`render_index(entries)` as bytes, and its layout (for the next build's `old`).

    `fps[i]` is the hash of the record behind `entries[i]`; `old` is the last build's file and
    layout; `same_kinds` the kinds whose records' hashes and URLs the caller knows unchanged
    since that build (their state is taken from the old layout instead of hashed again).
    """
    from json.encoder import encode_basestring as enc

    kinds = sorted({e.kind for e in entries})
    factions = sorted({e.faction for e in entries} - {None, ""})
    editions = sorted({e.edition for e in entries if e.edition})
    if not all(type(e or 0) is int for e in {e.edition for e in entries}):
        data = render_index(entries).encode("utf-8")  # the general writer; nothing to reuse next time
        return data, {"header": None, "chunks": [], "sha1": hashlib.sha1(data).hexdigest()}
    header = [kinds, factions, editions]
    old_chunks: dict[str, list] = {}
    if old is not None:
        old_data, layout = old
        if layout.get("header") == header and hashlib.sha1(old_data).hexdigest() == layout.get("sha1"):
            old_chunks = {chunk[0]: chunk for chunk in layout.get("chunks", ())}
    kind_no = {k: i for i, k in enumerate(kinds)}
    faction_no = {f: i for i, f in enumerate(factions)}
    groups: dict[str, list[tuple[IndexEntry, str]]] = defaultdict(list)
    for entry, fp in zip(entries, fps):
        groups[entry.kind].append((entry, fp))

    dumps = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))
    parts = [_safe(f'{_PREFIX}{{"version":1,"kinds":{dumps(kinds)},"factions":{dumps(factions)},'
                   f'"editions":{dumps(editions)},"docs":[').encode("utf-8")]
    pos = len(parts[0])
    chunks = []
    for n, kind in enumerate(kinds):
        members = groups[kind]
        chunk = old_chunks.get(kind)
        if chunk is not None and kind in same_kinds:
            state = chunk[1]
        else:
            state = hashlib.sha1("\x1f".join([f"{fp}\x1e{e.url}" for e, fp in members]).encode("utf-8")).hexdigest()
        if chunk is not None and chunk[1] == state:
            data = old_data[chunk[2]:chunk[3]]
        else:
            members.sort(key=lambda m: entry_order(m[0]))
            data = _safe(",".join([f"[{enc(e.name)},{kind_no[e.kind]},{faction_no.get(e.faction, -1)},"
                                   f"{e.edition or 0},{enc(e.url)},{enc(e.snippet)},{enc(e.terms)}]"
                                   for e, _ in members])).encode("utf-8")
        if n:
            parts.append(b",")
            pos += 1
        chunks.append([kind, state, pos, pos + len(data)])
        parts.append(data)
        pos += len(data)
    parts.append(b"]};\n")
    data = b"".join(parts)
    return data, {"header": header, "chunks": chunks, "sha1": hashlib.sha1(data).hexdigest()}
