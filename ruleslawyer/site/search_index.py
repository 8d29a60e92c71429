"""The client-side search index, written as a JavaScript file.

`window.RULESLAWYER_INDEX = {...};` loads with a plain `<script src>`, which browsers allow from
file:// (fetch() and Pagefind's module scripts are blocked there for origin 'null'), so search
works both opened from disk and served. The shape is compact: kinds, factions and editions are
listed once and referenced by position; each document is
`[name, kind#, faction# or -1, edition or 0, url, snippet, terms, number, source# or -1]` where `terms` are
the folded words of its text (deduplicated, stop words out, capped) for matching beyond the
name, `number` is a printed rule number ("24.12") or "", and `source#` points into `sources`, the
files the records were read from with their publication dates ("core11_03_Moving.pdf, 2026-06-08"). `synonyms` holds the groups of
player words from the CLI's `index/synonyms.txt` (folded), so "fnp" finds Feel No Pain here too.
"""
from __future__ import annotations

import functools
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from ..index.analysis import SYNONYMS_FILE  # the CLI's synonym table: the site reads the same file
from ..names import fold as fold_name

INDEX_PATH = "static/search-index.js"


def fold(text: str) -> str:
    """`names.fold`, remembered for short texts: the site folds the same names over and over."""
    if len(text) < 200:
        return _fold_short(text)
    return fold_name(text)


@lru_cache(maxsize=1 << 17)
def _fold_short(text: str) -> str:
    return fold_name(text)

SNIPPET_CHARS = 140
MAX_TERMS = 48
_STOP = frozenset("""a an and any are as at be by can each for from has have if in into is it its
its may of on one or that the their then there this to until was when which while will with your you
not no all than so do does been within""".split())


class IndexEntry(NamedTuple):  # a tuple: 50,000 are made per build, a frozen dataclass is several times slower
    name: str
    kind: str
    faction: str | None
    edition: int | None
    url: str  # root-relative
    snippet: str  # as shown: one line, at most SNIPPET_CHARS (see `index_fields`)
    terms: str  # the folded words to match beyond the name (see `index_fields`)
    number: str = ""  # the printed rule number ("24.12"), if any
    source: str = ""  # the file it was read from, with its publication date when known


_TERM = re.compile(r"(?<![a-z0-9+])(?=[a-z0-9+]*[a-z+])[a-z0-9+]{3,}")


def terms_of(text: str, name: str) -> str:
    """The distinct folded words of `text` not already in `name`, in order, capped.

    Words of fewer than 3 characters, numbers and stop words are left out.
    """
    # Words past the first ~1,000 characters rarely add a term the cap would keep.
    words = dict.fromkeys(_TERM.findall(fold(text[:1000])))
    for w in (*_STOP, *fold(name).split()):
        words.pop(w, None)
    return " ".join(list(words)[:MAX_TERMS])


def index_fields(name: str, snippet: str, text: str) -> tuple[str, str]:
    """(snippet as shown, terms) of one document: what depends on the record alone."""
    return " ".join(snippet.split())[:SNIPPET_CHARS], terms_of(text, name)


def entry_order(e: IndexEntry) -> tuple[str, str, str]:
    name = e.name  # fold(), without its own call: this runs for every document of every build
    return e.kind, _fold_short(name) if len(name) < 200 else fold_name(name), e.url


def synonym_groups(path: Path = SYNONYMS_FILE) -> list[list[str]]:
    """The groups of equivalent player words of `path`, each entry folded ("FNP" -> "fnp"); [] when unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []
    groups = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        entries = list(dict.fromkeys(e for e in (fold_name(part) for part in line.split("|")) if e))
        if len(entries) > 1:
            groups.append(entries)
    return groups


def render_index(entries: list[IndexEntry]) -> str:
    """The index as the text of a .js file (deterministic: sorted, compact, no timestamps)."""
    entries = sorted(entries, key=entry_order)
    kinds = sorted({e.kind for e in entries})
    factions = sorted({e.faction for e in entries} - {None, ""})
    editions = sorted({e.edition for e in entries if isinstance(e.edition, int)})
    sources = sorted({e.source for e in entries} - {""})
    source_no = {s: i for i, s in enumerate(sources)}
    kind_no = {k: i for i, k in enumerate(kinds)}
    faction_no = {f: i for i, f in enumerate(factions)}
    dumps = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))
    # The documents are written with json's own C string encoder (50,000 documents: 0.2 s -> 0.07 s).
    from json.encoder import encode_basestring as enc

    docs = ",".join([f"[{enc(e.name)},{kind_no[e.kind]},{faction_no.get(e.faction, -1) if e.faction else -1},"
                     f"{e.edition if isinstance(e.edition, int) else 0},{enc(e.url)},{enc(e.snippet)},"
                     f"{enc(e.terms)},{enc(e.number or '')},{source_no.get(e.source, -1)}]" for e in entries])
    body = (f'{{"version":2,"kinds":{dumps(kinds)},"factions":{dumps(factions)},"editions":{dumps(editions)},'
            f'"sources":{dumps(sources)},"synonyms":{dumps(synonym_groups())},"stop":{dumps(sorted(_STOP))},'
            f'"docs":[{docs}]}}')
    # Never let record text close a script element or open a comment if inlined somewhere.
    body = re.sub(r"</", r"<\\/", body).replace("<!--", "<\\!--")
    return f"window.RULESLAWYER_INDEX = {body};\n"
