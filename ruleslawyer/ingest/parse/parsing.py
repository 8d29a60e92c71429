"""Run the family parsers over a Document and collect their records.

Each family parser is a function `parse(doc, ctx) -> Iterable[Record]` in its own module
(`datasheets`, `errata`, `tables`, `stratagems`, `rules`). They run in the order below over the
same Document; a parser that consumes blocks marks them in `ctx.claimed`, so later parsers
(rules, the catch-all for titled text, runs last) skip them. Parsers never open files.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ... import registry
from ...records import Record, Source
from ..document import Document
from .inference import edition_from_path, infer_date, infer_edition
from .sanity import screen

__all__ = ["family_parsers", "ParseContext", "edition_from_path", "guess_edition", "parse_document"]

def family_parsers() -> list:
    """The family parsers, in order: the `ruleslawyer.parsers` registry (pyproject.toml, and any
    plugin's). Order matters: specific recognisers first, the catch-all rules parser last."""
    return registry.load_all(registry.PARSERS)


@dataclass
class ParseContext:
    """Shared state of one parse: the edition guess and which blocks are already consumed."""

    doc: Document
    edition: int | None = None
    claimed: set[int] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)  # doubts worth reporting, stored with the file
    # Views of the document that several parsers build the same way (their line lists), made
    # once per parse and keyed by the view's name; what depends on `claimed` is refreshed by
    # whoever hands the view out again.
    memo: dict[str, object] = field(default_factory=dict)

    def warn(self, message: str, page: int | None = None) -> None:
        """Record a doubt (a block skipped, a value guessed): stored with the file, shown by
        `ingest -v` and `ruleslawyer files --warnings`, fatal under `ingest --strict`."""
        self.warnings.append(f"p.{page}: {message}" if page else message)

    def claim(self, indexes: Iterable[int]) -> None:
        self.claimed.update(indexes)

    def is_claimed(self, index: int) -> bool:
        return index in self.claimed

    def source(self, page: int | None = None, locator: str | None = None) -> Source:
        """The Source of a record found on `page` of this document."""
        o = self.doc.origin
        return Source(file=o.name, page=page, format=o.format, sha256=o.sha256, locator=locator)


def guess_edition(doc: Document) -> int | None:
    """The edition a document is written for, from what it says or the rules it uses (see
    `inference.infer_edition`, which also gives the reason)."""
    found = infer_edition(doc, infer_date(doc))
    return found.value if found else None


def parse_document(doc: Document, ctx: ParseContext | None = None) -> list[Record]:
    """Every record the family parsers find in `doc`, in the order they found them.

    `ctx` may be given by a caller that also needs the edition guess (the pipeline stores it).
    """
    ctx = ctx or ParseContext(doc=doc, edition=guess_edition(doc))
    records: list[Record] = []
    for parse in family_parsers():
        records.extend(parse(doc, ctx))
    return screen(records, ctx.warn)
