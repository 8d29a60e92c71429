"""The one line model of the family parsers (`Line`), what every parser needs of a line's text
(its normal form, `norm_text`, and the name it gives, `record_name`), and the `Step` of the
parsers' ordered tables of named rules.

`record_name` is how a parser turns a printed heading into a record's name: a name printed in
capitals is rebuilt by the package's one casing rule (`names.title_case`); one printed in mixed
case is kept as printed (FAQ titles and ability names print their own capitals: "Cannot be
Affected by …", "Their Number is Legion").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ... import names
from ..document import LIST_ITEM, TABLE


def record_name(text: str) -> str:
    """A printed heading as a record name (see the module docstring)."""
    text = text.strip()
    return names.title_case(text) if not any(c.islower() for c in text) else text


def norm_text(text: str) -> str:
    """Running text with whitespace collapsed (quotes and dashes kept as printed; a
    non-breaking hyphen, U+2011, is a hyphen: "Kombi‑rokkit" is "Kombi-rokkit")."""
    text = text.replace("\u00ad", "").replace("\u2011", "-")
    # str.split() splits on exactly the characters `\s` matches: the same as collapsing runs
    # with the regex and stripping, at a fraction of the cost (every line passes through here).
    # The text itself when nothing changed, so a line shares its block's string, not a copy.
    joined = " ".join(text.split())
    return text if joined == text else joined


def cells_text(cells: tuple[str, ...]) -> str:
    """The text a row of cells reads as: its non-blank cells joined, whitespace collapsed."""
    if len(cells) == 1:  # most lines: a text block (a blank cell gives "" either way)
        return norm_text(cells[0])
    return norm_text(" ".join(c for c in cells if c.strip()))


class Line:
    """One printed line as every family parser sees it: a block of the Document (or one row of a
    table block, or a piece of a block), with its text and role.

    - `index`: the block's index in the Document (what a parser claims);
    - `text`, `kind` (heading, paragraph, list_item, table; "row" for a table row), `block`;
    - `cells`: a row's cells (a text line is one cell), `rows`: a table block's rows;
    - `virtual`: a piece of a block (one side of a row, the rest after a label);
    - `bold`, `italic`, `color`, `page`: the block's style and page unless given (a piece made
      from text keeps what its maker says); `lead`: bold text opening a block that goes on in
      plain text (a run-in title);
    - `claimed`, `junk`: whether an earlier parser took the block, and page furniture. Only
      these two (and the text of a mended line) change after a line is made.

    A plain class with slots: a big page makes a line per block and per table row, and a
    dataclass's __init__ and a __dict__ per instance were a good part of the parsers' cost.
    Equality and hash follow every field but `claimed` and `junk`.
    """

    __slots__ = ("index", "text", "kind", "block", "cells", "virtual", "rows", "claimed", "junk", "_bold",
                 "_italic", "_color", "_page", "lead")

    def __init__(self, index: int, text: str, kind: str, block=None, *, cells: tuple[str, ...] | None = None,
                 virtual: bool = False, rows: tuple = (), claimed: bool = False, junk: bool = False,
                 bold: bool | None = None, italic: bool | None = None, color: str | None = None,
                 page: int | None = None, lead: str = ""):
        self.index = index
        self.text = text
        self.kind = kind
        self.block = block
        self.cells = cells if cells is not None else (text,)
        self.virtual = virtual
        self.rows = rows
        self.claimed = claimed
        self.junk = junk
        self._bold = bold
        self._italic = italic
        self._color = color
        self._page = page
        self.lead = lead

    def _key(self) -> tuple:
        return (self.index, self.text, self.kind, self.block, self.cells, self.virtual, self.rows, self._bold,
                self._italic, self._color, self._page, self.lead)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Line(index={self.index!r}, text={self.text!r}, kind={self.kind!r}, virtual={self.virtual!r})"

    def replace(self, **changes) -> "Line":
        """A copy with some fields changed (as dataclasses.replace)."""
        fields = {"text": self.text, "kind": self.kind, "block": self.block, "cells": None, "virtual": self.virtual,
                  "rows": self.rows, "claimed": self.claimed, "junk": self.junk, "bold": self._bold,
                  "italic": self._italic, "color": self._color, "page": self._page, "lead": self.lead}
        if "text" not in changes and "cells" not in changes:
            fields["cells"] = self.cells
        fields.update(changes)
        return Line(self.index, fields.pop("text"), fields.pop("kind"), fields.pop("block"), **fields)

    @property
    def bold(self) -> bool:
        """Bold as given, else the whole block in bold (never a row or a piece of a block)."""
        if self._bold is not None:
            return self._bold
        return self.kind != "row" and not self.virtual and self.block is not None and self.block.is_bold

    @property
    def italic(self) -> bool:
        """Italic as given, else the whole block in italics."""
        if self._italic is not None:
            return self._italic
        return self.kind != "row" and not self.virtual and self.block is not None and self.block.is_italic

    @property
    def color(self) -> str | None:
        """The colour as given, else the block's."""
        return self._color if self._color is not None or self.block is None else self.block.color

    @property
    def page(self) -> int | None:
        """The page as given, else the block's."""
        return self._page if self._page is not None or self.block is None else self.block.page

    @property
    def is_bullet(self) -> bool:
        """True for a bulleted line (printed as a list item or with a leading dash)."""
        return self.kind == LIST_ITEM

    @property
    def is_table(self) -> bool:
        """True for a table block (its cells are in `rows`)."""
        return self.kind == TABLE

    @property
    def usable(self) -> bool:
        """True when no earlier parser claimed the line and it is not page furniture."""
        return not self.claimed and not self.junk

    def bold_prefix(self) -> str:
        """The block's leading bold label ("Name:"), or "" for a row or a piece of a block."""
        if self.kind == "row" or self.virtual or self.block is None:
            return ""
        return self.block.bold_prefix()

    def piece(self, cells: tuple[str, ...] | str, kind: str | None = None) -> "Line":
        """A virtual line holding part of this one."""
        cells = (cells,) if isinstance(cells, str) else tuple(cells)
        return Line(self.index, cells_text(cells), kind or self.kind, self.block, cells=cells, virtual=True)

    @property
    def tokens(self) -> list[str]:
        """The cells, or the words of a lone cell (a table row a loader left as one line)."""
        cells = [c.strip() for c in self.cells if c.strip()]
        if len(cells) == 1:
            return cells[0].split()
        return cells


@dataclass(frozen=True)
class Step:
    """One named rule of a parser's ordered table (the card reader's, the errata walk's, the
    chapter walk's): the first step whose `matches` holds for a line will `apply` to it.
    `matches` holds any prefilter. A `passing` step only updates the walk's state, and the
    next steps see the same line; what `apply` returns is the parser's own (lines used)."""

    name: str
    matches: Callable[..., Any]
    apply: Callable[..., Any]
    passing: bool = False
