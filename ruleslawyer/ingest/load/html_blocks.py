"""From text to blocks: the context the HTML walk reads text in (`Ctx`), and the running
paragraph that text is added to and that becomes a Document block when it ends.

The walk (`html_walk.Walker`) adds each text of the page with the context its enclosing
elements give it; a block element or `<br>` ends the paragraph (`flush`), which merges
same-style runs into spans, strips the ends and emits a heading, list item or paragraph with
the attrs of its region (see `html_walk` for the roles and attrs).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ..document import HEADING, LIST_ITEM, PARAGRAPH, Block, Span
from .html_parts import Page, collapse_space, tidy

_PARENTHESISED = re.compile(r"^\(.*\)$")


class Ctx(NamedTuple):
    """What the enclosing elements say about the text being read."""

    bold: bool = False
    italic: bool = False
    link: str | None = None
    heading: int = 0
    list_item: bool = False
    tooltip: str | None = None
    containers: tuple[tuple[str, str], ...] = ()
    cls: str | None = None
    in_content: bool = False
    in_cell: bool = False
    pre: bool = False


# Positions of Ctx fields, for making a changed Ctx from a list of its fields (`new_ctx`),
# several times cheaper than `_replace` on the walk's hot path.
BOLD, ITALIC, LINK, HEADING_LEVEL, LIST_ITEM_FIELD, CONTAINERS, CLS, IN_CONTENT, PRE = 0, 1, 2, 3, 4, 6, 7, 8, 10
new_ctx = tuple.__new__  # new_ctx(Ctx, fields)


class Blocks:
    """The blocks of one stretch of the page and its running paragraph; popups go to the
    root's queue and follow the paragraph they were met in."""

    def __init__(self, page: Page, root: "Blocks | None" = None):
        self.page = page
        # None for the root itself: a reference to itself would be a cycle, and everything it
        # holds (the blocks, the page's parser and what is left of its tree) would wait for
        # the cycle collector, which ingest pauses for the whole file (300 MB on a 60 MB page).
        self._root = root
        self.blocks: list[Block] = []
        self.pending: list[Block] = []
        self.runs: list[tuple[str, tuple]] = []  # the running paragraph: (text, (bold, italic, link))
        self.buf_ctx: Ctx | None = None
        self.section: str | None = None  # the last h1/h2-level heading of the page body

    @property
    def root(self) -> "Blocks":
        """The blocks whose queue takes popups (the page's, or a popup's own)."""
        return self._root or self

    # -- text buffer ---------------------------------------------------------------------
    def add_text(self, text: str, ctx: Ctx) -> None:
        text = collapse_space(text)
        if not text:
            return
        if self.buf_ctx is None:
            if text == " ":  # blank (runs of white space are one space by now)
                return
            self.buf_ctx = ctx
        self.runs.append((text, (ctx.bold, ctx.italic, ctx.link)))

    def _text(self, text: str, ctx: Ctx) -> None:
        """A text node of the walk: in a `<pre>`, each line break ends the paragraph."""
        if ctx.pre and "\n" in text:
            for k, line in enumerate(text.split("\n")):
                if k:
                    self.flush()
                self.add_text(line, ctx)
        else:
            self.add_text(text, ctx)

    def flush(self) -> None:
        """End the running paragraph (if any), then emit popups queued while reading it."""
        if self.buf_ctx is not None:
            spans = tidy(self.runs)
            ctx = self.buf_ctx
            self.runs, self.buf_ctx = [], None
            if spans:
                text = spans[0].text if len(spans) == 1 else "".join([s.text for s in spans])
                if ctx.heading and not _PARENTHESISED.match(text):
                    kind, level = HEADING, ctx.heading
                else:
                    kind, level = (LIST_ITEM if ctx.list_item else PARAGRAPH), 0
                self._emit_text(ctx, kind, tuple(spans), level, text)
        if self is self.root and self.pending:
            self.blocks.extend(self.pending)
            self.pending.clear()

    def _emit_text(self, ctx: Ctx, kind: str, spans: tuple[Span, ...], level: int, text: str) -> None:
        """`emit` for a paragraph, heading or list item of `ctx` (its attrs made once per
        region, class and section, as most blocks of a section share them)."""
        if not ctx.tooltip:  # (`emit`'s test: role "tooltip" and a tooltip_id come from it alone)
            root = self.root
            if kind == HEADING and level <= 2:
                root.section = text
            section = root.section
        else:
            section = None
        key = (ctx.tooltip, ctx.containers, ctx.cls, section)
        cache = self.page.block_attrs
        attrs = cache.get(key)
        if attrs is None:
            attrs = attrs_of(ctx)
            if section:
                attrs["section"] = section
            if len(cache) >= 1024:  # kept small: neighbouring blocks share their context
                cache.clear()
            attrs = cache[key] = self.page.shared_attrs(attrs)
        self.blocks.append(Block(kind, spans=spans, level=level, role=role_of(ctx), attrs=attrs))

    def emit(self, attrs: dict[str, str], kind: str, **fields) -> None:
        """Add a block. Blocks with equal attrs share one dict (most blocks of a section carry
        the same few), which keeps a big page's blocks small."""
        root = self.root
        if fields.get("role") != "tooltip" and not attrs.get("tooltip_id"):
            if kind == HEADING and fields.get("level", 0) <= 2:
                root.section = "".join(s.text for s in fields.get("spans", ()))
            if root.section:
                attrs["section"] = root.section
        self.blocks.append(Block(kind, attrs=self.page.shared_attrs(attrs), **fields))


def role_of(ctx: Ctx) -> str | None:
    if ctx.tooltip:
        return "tooltip"
    return ctx.containers[-1][0] if ctx.containers else None


# Sub-regions that live inside a bigger one (a datasheet's profile, its weapon table...).
PARTS = frozenset({"profile", "weapons", "keywords", "stratagem-row"})


def attrs_of(ctx: Ctx) -> dict[str, str]:
    """attrs of a block: tooltip_id, container/region (outermost region), part/part_id, class."""
    attrs: dict[str, str] = {}
    if ctx.tooltip:
        attrs["tooltip_id"] = ctx.tooltip
    if ctx.containers:
        majors = [c for c in ctx.containers if c[0] not in PARTS] or list(ctx.containers[:1])
        attrs["container"], attrs["region"] = majors[0]
        inner = ctx.containers[-1]
        if inner is not majors[0]:
            attrs["part"], attrs["part_id"] = inner
    if ctx.cls:
        attrs["class"] = ctx.cls
    return attrs
