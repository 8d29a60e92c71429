"""The one document model every loader produces and every family parser reads.

A `Document` is an ordered tuple of `Block`s in reading order. A block is a heading (with a
level), a paragraph or list item made of styled `Span`s, or a table given as rows of cell
strings. Each block knows its page (1-based, None for formats without pages) and may carry a
`role`: a semantic hint a loader found in the layout or markup ("tooltip", "stat-grid",
"keywords", "stratagem-card", ...). Nothing downstream knows which format the file was.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Mapping

HEADING, PARAGRAPH, LIST_ITEM, TABLE = "heading", "paragraph", "list_item", "table"
BLOCK_KINDS = (HEADING, PARAGRAPH, LIST_ITEM, TABLE)


# Span and Block use __slots__: a large page makes hundreds of thousands of them, and a slotted
# instance has no per-object __dict__ (about a third of its memory).
@dataclass(frozen=True, slots=True)
class Span:
    """A run of text with one style. `color` is a hex string like "#c0008f" when not black."""

    text: str
    bold: bool = False
    italic: bool = False
    color: str | None = None
    link: str | None = None


@dataclass(frozen=True, slots=True)
class Block:
    """One unit of reading order: heading, paragraph, list item or table.

    `spans` hold the text of headings, paragraphs and list items; `rows` the cells of a table.
    `attrs` keeps loader details a parser may want (a tooltip id, an HTML class, a font size).
    """

    kind: str
    spans: tuple[Span, ...] = ()
    level: int = 0
    rows: tuple[tuple[str, ...], ...] = ()
    page: int | None = None
    column: int | None = None
    role: str | None = None
    attrs: Mapping[str, str] = field(default_factory=dict)
    # `text`, computed on first read and kept: every family parser reads it, about a dozen
    # times per block. Not an argument, and left out of equality, hashing and repr, so a block
    # with its text read equals one without.
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The plain text of the block (table cells joined by tabs, rows by newlines)."""
        text = self._text
        if text is None:
            if self.kind == TABLE:
                text = "\n".join("\t".join(row) for row in self.rows)
            else:
                text = "".join(s.text for s in self.spans)
            object.__setattr__(self, "_text", text)  # a cache, not a change: the fields stay frozen
        return text

    @property
    def is_bold(self) -> bool:
        """True when every non-blank span is bold (a run-in label or a bold heading line)."""
        return self._every_span_with_text("bold")

    @property
    def is_italic(self) -> bool:
        return self._every_span_with_text("italic")

    def _every_span_with_text(self, style: str) -> bool:
        """Whether there is text and every non-blank span has `style` ("bold", "italic")."""
        if len(self.spans) == 1:  # most blocks (the parsers ask of every block): no list made
            span = self.spans[0]
            return bool(getattr(span, style)) and bool(span.text.strip())
        spans = [s for s in self.spans if s.text.strip()]
        return bool(spans) and all(getattr(s, style) for s in spans)

    @property
    def color(self) -> str | None:
        """The colour shared by most of the block's text, or None for black."""
        if len(self.spans) == 1:
            return self.spans[0].color
        weights: dict[str | None, int] = {}
        for s in self.spans:
            weights[s.color] = weights.get(s.color, 0) + len(s.text.strip())
        return max(weights, key=weights.get) if weights else None

    def bold_prefix(self) -> str:
        """The leading bold text of a paragraph (a run-in heading such as "LOOK OUT, SIR:")."""
        return self._leading("bold")

    def italic_prefix(self) -> str:
        """The leading italic text of a paragraph (a flavour line the loader joined to the rules
        text after it), or "" when the block opens in upright type."""
        return self._leading("italic")

    def _leading(self, style: str) -> str:
        """The text of the spans in `style` ("bold", "italic") that open the block (blank
        spans between them included)."""
        out = []
        for s in self.spans:
            if getattr(s, style):
                out.append(s.text)
            elif s.text.strip():
                break
            else:
                out.append(s.text)
        return "".join(out).strip()


@dataclass(frozen=True)
class DocumentOrigin:
    """What file a Document came from: path, bare file name, format and content hash."""

    path: str
    name: str
    format: str
    sha256: str
    size: int = 0


@dataclass(frozen=True)
class Document:
    """A loaded file: its origin, its blocks in reading order, and loader metadata."""

    origin: DocumentOrigin
    blocks: tuple[Block, ...]
    title: str | None = None
    meta: Mapping[str, str] = field(default_factory=dict)
    # `text`, joined on first read and kept (several parsers read it); as Block._text.
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def __iter__(self) -> Iterator[Block]:
        return iter(self.blocks)

    def __len__(self) -> int:
        return len(self.blocks)

    @property
    def text(self) -> str:
        """All block texts joined by newlines (for sniffing, edition guesses and tests)."""
        text = self._text
        if text is None:
            text = "\n".join(b.text for b in self.blocks)
            object.__setattr__(self, "_text", text)
        return text


# The same characters as the fast test in clean_text: keep the two in step.
_WS = re.compile(r"[ \t\u00a0\u2009\u202f]+")


def clean_text(text: str) -> str:
    """Collapse runs of spaces (not newlines) and strip the ends."""
    # Most lines hold only single plain spaces, which the substitution would leave as they are:
    # a few substring tests find them far faster than the regex rebuilds the string.
    if ("  " not in text and "\t" not in text and "\u00a0" not in text and "\u2009" not in text
            and "\u202f" not in text):
        return text.strip()
    return _WS.sub(" ", text).strip()


def paragraph(text: str, **kw) -> Block:
    """A paragraph block of one plain span (a convenience for loaders and tests)."""
    return Block(PARAGRAPH, spans=(Span(text),), **kw)


def heading(text: str, level: int = 1, **kw) -> Block:
    return Block(HEADING, spans=(Span(text, bold=True),), level=level, **kw)
