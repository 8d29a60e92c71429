"""Record factories for tests: one made-up Source and short constructors with sensible defaults.

Every record needs a Source; tests that do not care where a record came from use `SRC`.
"""
from __future__ import annotations

from ruleslawyer.records import Datasheet, Erratum, Rule, Source, Stratagem

SRC = Source("test.txt")


def source(file: str = "test.txt", page: int | None = None, **kw) -> Source:
    """A Source for a made-up file."""
    return Source(file=file, page=page, **kw)


def rule(name: str, text: str = "", edition: int | None = 9, *, src: Source = SRC, **kw) -> Rule:
    """A Rule named `name` (9th edition unless told)."""
    return Rule(name=name, source=src, edition=edition, text=text, **kw)


def sheet(name: str = "Glimmer Skiff", edition: int | None = 10, *, src: Source = SRC, **kw) -> Datasheet:
    """A Datasheet (10th edition unless told); pass weapons, profiles, abilities... as keywords."""
    return Datasheet(name=name, source=src, edition=edition, **kw)


def stratagem(name: str, edition: int | None = 10, *, src: Source = SRC, **kw) -> Stratagem:
    """A Stratagem (10th edition unless told)."""
    return Stratagem(name=name, source=src, edition=edition, **kw)


def erratum(target: str | None, text: str, operation: str = "replace", location: str | None = None, *,
            document: str = "Core Book", version: str = "1.0", page: str | None = "12", edition: int | None = 9,
            src: Source = SRC, **kw) -> Erratum:
    """An Erratum of a made-up FAQ document."""
    return Erratum(document=document, version=version, page=page, target=target, source=src,
                   location=location, operation=operation, text=text, edition=edition, **kw)


def heading_rules(doc, ctx):
    """A stand-in family parser: one rule per heading, so store and CLI tests do not depend on
    the real parsers (see the `stand_in_parser` fixture)."""
    from ruleslawyer.records import Rule

    for block in doc.blocks:
        if block.kind == "heading":
            yield Rule(name=block.text, source=ctx.source(block.page), edition=ctx.edition, text="")
