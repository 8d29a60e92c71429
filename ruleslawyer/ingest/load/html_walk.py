"""Walk a parsed HTML tree in document order and turn it into Document blocks.

Block-level elements and `<br>` end the running paragraph; inline elements add styled spans
(bold from b/strong/th, `kwb`-style classes, font-weight in the page's CSS or inline style;
italic likewise). Text order is document order, which on Wahapedia is the reading order.

What parsers can rely on (all hints; the block texts alone still read like the page):

- role "tooltip": every block of a hidden popup (`div.tooltip_content`, or any element a
  `data-tooltip-content="#id"` trigger points at), with `attrs["tooltip_id"]` = the element
  id. The popup's title is a heading block (level 3). A trigger keeps the target on its span:
  `Span.link == "#" + tooltip_id`; ordinary links keep their href. A popup met inside a
  paragraph is emitted right after that paragraph; Wahapedia's popups come after the page.
- role "stat-grid": a table block `((names...), (values...))` per characteristics profile.
- role "invulnerable-save": a paragraph "INVULNERABLE SAVE 4+", `attrs["value"] == "4+"`.
- otherwise the role is the innermost region's name, or None outside regions. Regions:
  "datasheet", "stratagem-list", "stratagem-card", "detachment-abilities",
  "detachment-ability", "enhancements", "enhancement", "rule", "keyword", and the parts
  "profile", "weapons" (the weapon table), "keywords", "stratagem-row".
- `attrs["container"]`/`attrs["region"]`: the outermost region and its id ("datasheet:1",
  "stratagem-card:7"; inside a popup the popup's own region); `attrs["part"]`/`"part_id"`: the
  innermost part when it differs. `attrs["class"]`: the HTML class of the block's element
  (Cyrillic look-alike letters folded to Latin).
  `attrs["section"]`: the last h1/h2-level heading of the page body (not on popup blocks).
- tables: rows of cell texts; weapon abilities read "Flamer [ignores cover, torrent]";
  `attrs["header_rows"]` ("0,14": rows of th/header cells such as RANGED/MELEE WEAPONS) and
  `attrs["caption"]`.
- heading levels: h1-h6 as written; page title 1, datasheet name 2, section bars
  (`dsHeader`), popup titles and stratagem names 3, other header-classed elements 4 or 5.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ..document import HEADING, LIST_ITEM, PARAGRAPH, TABLE, Block, Span
from . import html_classes as hc
from .html_parts import (Page, cells_of, clean, image_value, is_die_image, join_die_plus, descendants_with_token, drop_empty_columns, drop_echo_rows, drop_link_runs, is_header_cell, is_layout_table, is_points_list, is_weapon_keyword, own_rows, tidy)
from .html_tree import Element as Tag, Steps, children, run, elements, elements_with_tags, text_of

_LISTS = frozenset({"ul", "ol"})
_STAT_TOKENS = frozenset({"profile", "stats", "stat", "characteristics", "chars", "statline"})

_WS = re.compile(r"[\s\u00a0\u2009\u202f\u200b]+")
_PARENTHESISED = re.compile(r"^\(.*\)$")
_BADGE_JOIN = re.compile(r"\]\s*\[")
_BADGE_SPACE = re.compile(r"\[\s+")


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


class Walker:
    """Collects blocks for one stretch of the tree; popups go to the root walker's queue."""

    def __init__(self, page: Page, root: "Walker | None" = None):
        self.page = page
        self.root = root or self
        self.blocks: list[Block] = []
        self.pending: list[Block] = []
        self.spans: list[Span] = []
        self.buf_ctx: Ctx | None = None
        self.section: str | None = None  # the last h1/h2-level heading of the page body

    # -- text buffer ---------------------------------------------------------------------
    def add_text(self, text: str, ctx: Ctx) -> None:
        text = _WS.sub(" ", text)
        if not text:
            return
        if self.buf_ctx is None:
            if not text.strip():
                return
            self.buf_ctx = ctx
        self.spans.append(Span(text, bold=ctx.bold, italic=ctx.italic, link=ctx.link))

    def flush(self) -> None:
        """End the running paragraph (if any), then emit popups queued while reading it."""
        if self.buf_ctx is not None:
            spans = tidy(self.spans)
            ctx = self.buf_ctx
            self.spans, self.buf_ctx = [], None
            if spans:
                text = "".join(s.text for s in spans)
                if ctx.heading and not _PARENTHESISED.match(text):
                    kind, level = HEADING, ctx.heading
                else:
                    kind, level = (LIST_ITEM if ctx.list_item else PARAGRAPH), 0
                self.emit(_attrs(ctx), kind, spans=tuple(spans), level=level, role=_role(ctx))
        if self is self.root and self.pending:
            self.blocks.extend(self.pending)
            self.pending.clear()

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

    # -- the walk ------------------------------------------------------------------------
    def walk_children(self, el: Tag, ctx: Ctx, depth: int = 0) -> None:
        """Read the children of `el` (the page body, a popup, a table cell) into blocks."""
        run(self._children(el, ctx, depth))

    def walk(self, el: Tag, ctx: Ctx, depth: int = 0) -> None:
        """Read one element and everything inside it into blocks."""
        run(self._walk(el, ctx, depth))

    def _children(self, el: Tag, ctx: Ctx, depth: int) -> Steps:
        prev_hidden: Tag | None = None  # the hidden inline sibling just read (or skipped)
        shown_variant = False
        tree = self.page.tree
        for child in tree.children(el):
            if not isinstance(child, str):
                if hc.is_hidden_inline(child) and not self.is_tooltip(child):
                    # Filter variants: Wahapedia prints a keyword once per detachment filter,
                    # all hidden, and its script shows one. Show the first of such a run; a
                    # lone hidden span is hidden for good.
                    nxt = tree.next_element(child)
                    is_run = prev_hidden is not None or (nxt is not None and hc.is_hidden_inline(nxt))
                    if is_run and not shown_variant:
                        shown_variant = True
                        yield self._children(child, self.enter(child, ctx), depth + 1)
                    prev_hidden = child
                    continue
                prev_hidden, shown_variant = None, False
                yield self._walk(child, ctx, depth + 1)
            else:
                if child.strip():
                    prev_hidden, shown_variant = None, False
                if ctx.pre and "\n" in child:
                    for k, line in enumerate(str(child).split("\n")):
                        if k:
                            self.flush()
                        self.add_text(line, ctx)
                else:
                    self.add_text(str(child), ctx)

    def _walk(self, el: Tag, ctx: Ctx, depth: int) -> Steps:
        name = el.tag
        if name == "img" and ctx.in_cell:
            self.cell_image(el, ctx)
            return
        if name in hc.DROP_TAGS or hc.is_ad(el) or hc.is_chrome(el, ctx.in_content):
            return
        if name == "br":
            self.flush()
            return
        if (name in hc.BLOCK_TAGS or name == "dialog") and hc.is_popup_box(el) \
                and hc.is_ad_popup(self.page.tree.complete(el)):
            return
        if self.is_tooltip(el):
            yield self._tooltip(el, ctx, depth)
            return
        if hc.is_hidden_inline(el):
            return
        block = name in hc.BLOCK_TAGS
        if name in ("ul", "ol", "dl", "menu") and not self.page.tree.has_text(el):
            return  # a list with no items does not break the running line (a rule box does)
        ctx = self.enter(el, ctx)
        if ctx.in_cell and not block and is_weapon_keyword(el):
            # Wahapedia sets a weapon's abilities as badges; print them the way rules text
            # does: "Flamer [ignores cover, torrent]".
            self.add_text(" [", ctx)
            yield self._children(el, ctx, depth)
            self.add_text("]", ctx)
            return
        if block:
            self.flush()
            ctx = ctx._replace(cls=hc.block_class(el.get("class") or "") or ctx.cls)
        if name == "table":
            yield self._table(el, ctx, depth)
        elif block and self.stat_grid(el, ctx):
            pass
        elif block and self.invulnerable_save(el, ctx):
            pass
        elif name in ("ul", "ol") and is_points_list(el):
            yield self._points_list(el, ctx, depth)
        else:
            level = hc.heading_level(el)
            if level and not block:
                # A header-styled span inside a line is a bold run-in label, not a heading.
                level = 0
                ctx = ctx._replace(bold=True)
            if level:
                ctx = ctx._replace(heading=level, bold=True, list_item=False)
            elif name == "li":
                ctx = ctx._replace(list_item=True, heading=0)
            elif name == "pre":
                ctx = ctx._replace(pre=True)
            yield self._children(el, ctx, depth)
        if block:
            self.flush()

    def enter(self, el: Tag, ctx: Ctx) -> Ctx:
        """The context inside `el`: its style, link target and the region it opens."""
        bold, italic = hc.style_flags(el, self.page.css_bold, self.page.css_italic)
        changes = {}
        if bold and not ctx.bold:
            changes["bold"] = True
        if italic and not ctx.italic:
            changes["italic"] = True
        target = el.get("data-tooltip-content")
        if not target and el.tag == "a":
            href = el.get("href") or ""
            if href and href != "#" and not href.lower().startswith("javascript:"):
                target = href
        if target:
            changes["link"] = target
        if el.tag in ("article", "main", "section") and not ctx.in_content:
            changes["in_content"] = True
        container = hc.container_of(el)
        if container:
            changes["containers"] = ctx.containers + ((container, self.page.next_id(container)),)
        return ctx._replace(**changes) if changes else ctx

    def cell_image(self, el: Tag, ctx: Ctx) -> None:
        """A value drawn as an image in a table cell (Wahapedia's dice in the Wound Roll table):
        read from its alt text, title or file name; a die image that says nothing is noted in
        the page's warnings, since the cell's value is then incomplete (other images in cells,
        such as logos and icons, are decoration)."""
        value = image_value(el)
        if value:
            self.add_text(value, ctx)
        elif is_die_image(el):  # a die we cannot read
            self.page.warn(f"an image in a table cell has no alt text, title or telling file name "
                           f"({(el.get('src') or '?')[-60:]}); that cell's value may be incomplete")

    # -- popups --------------------------------------------------------------------------
    def is_tooltip(self, el: Tag) -> bool:
        el_id = el.get("id")
        if el_id and (el_id in self.page.tooltip_ids or el_id.startswith("tooltip_content")):
            return True
        return el.get("role") == "tooltip" or "tooltip_content" in hc.class_names(el)

    def _tooltip(self, el: Tag, ctx: Ctx, depth: int) -> Steps:
        """Read a popup into its own blocks and queue them after the running paragraph."""
        text = text_of(self.page.tree.complete(el), " ", strip=True)
        if not text or (len(text) < 2000 and hc.AD_TEXT.search(text)):
            return
        tip_id = el.get("id") or self.page.next_id("tooltip")
        tip_ctx = Ctx(tooltip=tip_id, in_content=True,
                      containers=ctx.containers[:0])
        sub = Walker(self.page)  # its own root: a popup inside it follows its paragraph there
        yield sub._children(el, sub.enter(el, tip_ctx), depth)
        sub.flush()
        self.root.pending.extend(drop_link_runs(sub.blocks))  # a menu popup leaves nothing

    # -- tables --------------------------------------------------------------------------
    def _table(self, el: Tag, ctx: Ctx, depth: int) -> Steps:
        rows = own_rows(self.page.tree.complete(el))
        if is_layout_table(el, rows):
            if not hc.container_of(el) and any(is_points_list(d) for d in elements_with_tags(el, _LISTS)):
                # A card laid out as a table around a "name / N pts" header: an enhancement.
                ctx = ctx._replace(containers=ctx.containers + (("enhancement", self.page.next_id("enhancement")),))
            yield self._children(el, ctx, depth)
            return
        out: list[list[str]] = []
        header_rows: list[int] = []
        for tr in rows:
            cells = cells_of(tr)
            texts = []
            for cell in cells:
                if not len(cell) and not ctx.pre:
                    text = clean(cell.text or "")  # text alone: what the walk below would read
                else:
                    sub = Walker(self.page, root=self.root)
                    yield sub._children(cell, ctx._replace(heading=0, list_item=False, in_cell=True), depth + 1)
                    sub.flush()
                    text = join_die_plus(" ".join(b.text for b in sub.blocks if b.text))
                texts.append(_BADGE_JOIN.sub(", ", _BADGE_SPACE.sub("[", text)).strip())
            if any(texts):
                # (a cell without text does not count: tested last, as it is the dearest)
                if cells and all(c.tag == "th" or is_header_cell(c) or not text_of(c, strip=True) for c in cells):
                    header_rows.append(len(out))
                out.append(texts)
        out, header_rows = drop_echo_rows(out, header_rows)
        out = drop_empty_columns(out)
        if not out:
            return
        attrs = _attrs(ctx)
        caption = next((c for c in elements(el) if c.tag == "caption"), None)
        if caption is not None and text_of(caption, strip=True):
            attrs["caption"] = clean(text_of(caption, " "))
        if header_rows:
            attrs["header_rows"] = ",".join(str(i) for i in header_rows)
        self.emit(attrs, TABLE, rows=tuple(tuple(r) for r in out), role=_role(ctx))

    def stat_grid(self, el: Tag, ctx: Ctx) -> bool:
        """A row of name/value boxes (M T Sv W Ld OC) as one table block, role "stat-grid"."""
        attr = el.get("class")
        if not attr or hc.class_tokens(attr).isdisjoint(_STAT_TOKENS):
            return False
        if len(self.page.tree.complete(el)) < 3:
            return False  # fewer than three child elements, let alone three boxes with text
        cells = [c for c in elements(el) if text_of(c, strip=True)]
        if len(cells) < 3:
            return False
        names, values = [], []
        for cell in cells:
            name_els = descendants_with_token(cell, "name")
            value_els = descendants_with_token(cell, "value")
            if len(name_els) != 1 or len(value_els) != 1:
                return False
            names.append(clean(text_of(name_els[0], " ")))
            values.append(clean(text_of(value_els[0], " ")))
        self.emit(_attrs(ctx), TABLE, rows=(tuple(names), tuple(values)), role="stat-grid")
        return True

    def invulnerable_save(self, el: Tag, ctx: Ctx) -> bool:
        """The invulnerable save box as one paragraph "INVULNERABLE SAVE 4+" (role says so)."""
        classes = (el.get("class") or "").split()
        if not classes or not any("invul" in t for c in classes for t in hc.tokens(c)):
            return False
        self.page.tree.complete(el)
        parts = [clean(s) for s in el.itertext() if s.strip()]
        parts = [p for p in parts if p]
        if not parts or len(" ".join(parts)) > 120:
            return False
        value = next((p for p in reversed(parts) if re.match(r"^\d\+", p)), "")
        attrs = _attrs(ctx)
        if value:
            attrs["value"] = value
        self.emit(attrs, PARAGRAPH, spans=(Span(" ".join(parts), bold=True),), role="invulnerable-save")
        return True

    def _points_list(self, el: Tag, ctx: Ctx, depth: int) -> Steps:
        """An enhancement's "name / N pts" header list: the name as a heading, points after."""
        self.page.tree.complete(el)
        for li in (e for e in elements(el) if e.tag == "li"):
            kids = [k for k in children(li) if not (isinstance(k, str) and not k.strip())]
            if not kids:
                continue
            head, rest = kids[0], kids[1:]
            self.add_text(text_of(head, " ") if not isinstance(head, str) else head,
                          ctx._replace(heading=3, bold=True))
            self.flush()
            for k in rest:
                if not isinstance(k, str):
                    yield self._walk(k, ctx, depth + 2)
                else:
                    self.add_text(str(k), ctx)
            self.flush()


def _role(ctx: Ctx) -> str | None:
    if ctx.tooltip:
        return "tooltip"
    return ctx.containers[-1][0] if ctx.containers else None


# Sub-regions that live inside a bigger one (a datasheet's profile, its weapon table...).
PARTS = frozenset({"profile", "weapons", "keywords", "stratagem-row"})


def _attrs(ctx: Ctx) -> dict[str, str]:
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
