"""Versions of FAQ and errata documents: the newest stored version of a document supersedes the
older ones as a whole (its errata apply, its answers and notes are current)."""
from __future__ import annotations

import re

from ..names import fold
from ..records import Erratum, Faq, Note, Record


def version_key(version: str | None) -> tuple[tuple[int, str], ...]:
    """Sortable form of "1.7", "1.10", "1.1a", "1.7.1" (numbers compared as numbers).

    Every part is an (int, str) pair, digits as (n, "") and letters as (-1, text), so any two
    keys compare without mixing ints and strings: "1.7a" sorts before "1.7.1" and after "1.7".
    """
    if not version:
        return ()
    return tuple((int(p), "") if p.isdigit() else (-1, p) for p in re.findall(r"\d+|[a-z]+", version.lower()))


def drop_superseded_and_repeated(current: list[Record | None], newest: dict[tuple, tuple]) -> list[Record]:
    """Keep the errata, designer's notes and FAQ answers of the newest version of each document,
    and one copy of a note or answer that several files carry.

    A newer version of an FAQ document supersedes the older one as a whole (apply.py applies
    only its errata): an entry the newer version no longer prints is withdrawn, not current, and
    the older version's entries are not current either (the originals keep them).
    The same FAQ is often ingested twice (its PDF and a text copy, or a re-download under a
    new name); its errata are deduplicated when applied, and its notes and answers are here.
    Returns the superseded entries (what a reference of an earlier date still has).
    """
    seen: set[tuple] = set()
    withdrawn = []
    for i, r in enumerate(current):
        if isinstance(r, (Erratum, Note, Faq)) and superseded(r, newest):
            withdrawn.append(r)
            current[i] = None
        elif isinstance(r, (Note, Faq)):
            key = (r.kind, fold(r.document or ""), r.version, fold(getattr(r, "name", None) or r.question),
                   fold(r.text if isinstance(r, Note) else r.answer))
            if key in seen:
                current[i] = None
            seen.add(key)
    return withdrawn


def document_of(entry: Erratum | Faq | Note) -> tuple:
    """The document an FAQ entry belongs to, across its versions: its title and edition (an
    untitled entry is its own file's)."""
    return fold(entry.document or entry.source.file), entry.edition


def newest_versions(records: list[Record]) -> dict[tuple, tuple]:
    """The newest stored version of each FAQ/errata document (`document_of` -> `version_key`)."""
    newest: dict[tuple, tuple] = {}
    for r in records:
        if isinstance(r, (Erratum, Faq, Note)):
            doc = document_of(r)
            newest[doc] = max(newest.get(doc, ()), version_key(r.version))
    return newest


def superseded(entry: Erratum | Faq | Note, newest: dict[tuple, tuple]) -> bool:
    """Whether a newer version of `entry`'s document is stored."""
    return version_key(entry.version) != newest[document_of(entry)]
