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

from ..document import PARAGRAPH, TABLE, Span
from . import html_classes as hc
from .html_blocks import (BOLD, CLS, CONTAINERS, HEADING_LEVEL, IN_CONTENT, ITALIC, LINK, LIST_ITEM_FIELD, PRE, Blocks,
                          Ctx, attrs_of, new_ctx, role_of)
from .html_parts import (Page, cells_of, clean, image_value, is_die_image, join_die_plus, boxes_with_tokens, drop_empty_columns, drop_echo_rows, drop_link_runs, is_header_row, is_layout_table, is_points_list, is_weapon_keyword, own_rows)
from .html_tree import Element as Tag, Steps, children, run, elements, elements_with_tags, text_of

__all__ = ["Ctx", "Page", "Walker"]  # (Ctx and Page for html.load_html and the tests)

_LISTS = frozenset({"ul", "ol"})
_BADGE_JOIN = re.compile(r"\]\s*\[")
_BADGE_SPACE = re.compile(r"\[\s+")
_NO_ATTRS: dict[str, str] = {}


class Walker(Blocks):
    """Walks one stretch of the tree into blocks (see `Blocks` for how text becomes blocks)."""

    # -- the walk ------------------------------------------------------------------------
    # A walk step is a generator run by `html_tree.run` on an explicit stack (pages nest
    # thousands deep). Most elements need none: `_walk` reads an element whose content is
    # text alone, or that it drops or reads whole, at once, and returns a step only for
    # what has child elements left to walk.
    def walk_children(self, el: Tag, ctx: Ctx, depth: int = 0) -> None:
        """Read the children of `el` (the page body, a popup, a table cell) into blocks."""
        run(self._children(el, ctx, depth))

    def walk(self, el: Tag, ctx: Ctx, depth: int = 0) -> None:
        """Read one element and everything inside it into blocks."""
        steps = self._walk(el, ctx, depth)
        if steps is not None:
            run(steps)

    def _children(self, el: Tag, ctx: Ctx, depth: int, flush_after: bool = False) -> Steps:
        prev_hidden: Tag | None = None  # the hidden inline sibling just read (or skipped)
        shown_variant = False
        tree = self.page.tree
        block_tags = hc.BLOCK_TAGS
        for child in tree.children(el):
            if isinstance(child, str):
                if child.strip():
                    prev_hidden, shown_variant = None, False
                if ctx.pre and "\n" in child:
                    self._text(child, ctx)
                else:
                    self.add_text(child, ctx)
                continue
            tag = child.tag
            items = child.items()
            attrs = dict(items) if items else _NO_ATTRS
            if tag not in block_tags:
                style = attrs.get("style")
                if style and hc.style_facts(style)[0] and not self.is_tooltip(child):
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
            steps = self._walk_element(child, tag, attrs, ctx, depth + 1)
            if steps is not None:
                yield steps
        if flush_after:
            self.flush()

    def _walk(self, el: Tag, ctx: Ctx, depth: int) -> Steps | None:
        """Read one element: what is left to walk inside it as a step, or None when done."""
        items = el.items()
        return self._walk_element(el, el.tag, dict(items) if items else _NO_ATTRS, ctx, depth)

    def _walk_element(self, el: Tag, tag: str, attrs: dict[str, str], ctx: Ctx, depth: int) -> Steps | None:
        """`_walk` of an element whose tag and attributes the caller has read."""
        if tag == "img" and ctx.in_cell:
            self.cell_image(el, ctx)
            return None
        page = self.page
        kind = page.kinds.get((tag, attrs.get("class"))) or page.kind(tag, attrs.get("class"))
        if kind.drop or (kind.page_chrome and not ctx.in_content):
            return None  # code, media, ads and page chrome (by tag and class)
        if attrs:
            el_id, role, style = attrs.get("id"), attrs.get("role"), attrs.get("style")
            if (el_id and hc.id_drops(el_id)) or (role and role.lower() in hc.CHROME_ROLES):
                return None  # ads and page chrome (by id or role)
        else:
            el_id = role = style = None
        if tag == "br":
            self.flush()
            return None
        block = kind.block
        if (block or tag == "dialog") and (kind.popup or (el_id and hc.popup_id(el_id))) \
                and hc.is_ad_popup(page.tree.complete(el)):
            return None
        if (el_id and (el_id in page.tooltip_ids or el_id.startswith("tooltip_content"))) \
                or role == "tooltip" or kind.tooltip:
            return self._tooltip(el, ctx, depth)
        if style and not block and hc.style_facts(style)[0]:
            return None  # hidden inline
        if kind.maybe_empty_list and not page.tree.has_text(el):
            return None  # a list with no items does not break the running line (a rule box does)
        if attrs or not kind.plain:  # (else nothing about the element changes the context)
            ctx = self._enter(tag, attrs, kind, style, ctx)
        if ctx.in_cell and not block and kind.badge and is_weapon_keyword(el):
            return self._badge(el, ctx, depth)
        if block:
            if self.buf_ctx is not None or self.pending:  # (else `flush` has nothing to do)
                self.flush()
            cls = kind.block_class or ctx.cls
            if cls != ctx.cls:
                fields = list(ctx)
                fields[CLS] = cls
                ctx = new_ctx(Ctx, fields)
            if tag == "table":
                return self._flushed(self._table(el, ctx, depth))
            if (kind.stat and self.stat_grid(el, ctx)) or (kind.invul and self.invulnerable_save(el, ctx)):
                self.flush()
                return None
            if kind.points:
                return self._flushed(self._points_list(el, ctx, depth))
        level = kind.heading
        if level or tag == "li" or tag == "pre":
            fields = list(ctx)
            if level and not block:
                # A header-styled span inside a line is a bold run-in label, not a heading.
                fields[BOLD] = True
            elif level:
                fields[HEADING_LEVEL], fields[BOLD], fields[LIST_ITEM_FIELD] = level, True, False
            elif tag == "li":
                fields[LIST_ITEM_FIELD], fields[HEADING_LEVEL] = True, 0
            else:
                fields[PRE] = True
            ctx = new_ctx(Ctx, fields)
        if not len(el) and id(el) not in page.tree.open:  # text alone, parsed whole: read it now
            text = el.text
            if text:
                if ctx.pre:
                    self._text(text, ctx)
                else:
                    self.add_text(text, ctx)
            if block:
                self.flush()
            return None
        return self._children(el, ctx, depth, flush_after=block)

    def _flushed(self, steps: Steps) -> Steps:
        """A step, then the end of the running paragraph (after a block element)."""
        yield steps
        self.flush()

    def _badge(self, el: Tag, ctx: Ctx, depth: int) -> Steps:
        """Wahapedia sets a weapon's abilities as badges; print them the way rules text
        does: "Flamer [ignores cover, torrent]"."""
        self.add_text(" [", ctx)
        yield self._children(el, ctx, depth)
        self.add_text("]", ctx)

    def enter(self, el: Tag, ctx: Ctx) -> Ctx:
        """The context inside `el`: its style, link target and the region it opens."""
        attrs = dict(el.items())
        return self._enter(el.tag, attrs, self.page.kind(el.tag, attrs.get("class")), attrs.get("style"), ctx)

    def _enter(self, tag: str, attrs: dict[str, str], kind: hc.ElementKind, style: str | None, ctx: Ctx) -> Ctx:
        bold, italic = kind.bold, kind.italic
        if style:
            _hidden, by_style_bold, by_style_italic = hc.style_facts(style)
            bold, italic = bold or by_style_bold, italic or by_style_italic
        target = attrs.get("data-tooltip-content") if attrs else None
        if not target and tag == "a":
            href = attrs.get("href") or ""
            if href and href != "#" and not href.lower().startswith("javascript:"):
                target = href
        container = kind.container
        opens = kind.opens_content and not ctx.in_content
        if not ((bold and not ctx.bold) or (italic and not ctx.italic) or target or opens or container):
            return ctx
        fields = list(ctx)
        if bold:
            fields[BOLD] = True
        if italic:
            fields[ITALIC] = True
        if target:
            fields[LINK] = target
        if opens:
            fields[IN_CONTENT] = True
        if container:
            fields[CONTAINERS] = ctx.containers + ((container, self.page.next_id(container)),)
        return new_ctx(Ctx, fields)

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
        row_cells = [cells_of(tr) for tr in rows]
        if is_layout_table(el, rows, row_cells):
            if not hc.container_of(el) and any(is_points_list(d) for d in elements_with_tags(el, _LISTS)):
                # A card laid out as a table around a "name / N pts" header: an enhancement.
                ctx = ctx._replace(containers=ctx.containers + (("enhancement", self.page.next_id("enhancement")),))
            yield self._children(el, ctx, depth)
            return
        out: list[list[str]] = []
        header_rows: list[int] = []
        cell_ctx = None
        for cells in row_cells:
            texts = []
            for cell in cells:
                if not len(cell) and not ctx.pre:
                    text = clean(cell.text or "")  # text alone: what the walk below would read
                else:
                    if cell_ctx is None:
                        cell_ctx = ctx._replace(heading=0, list_item=False, in_cell=True)
                    sub = Walker(self.page, root=self.root)
                    yield sub._children(cell, cell_ctx, depth + 1)
                    sub.flush()
                    text = join_die_plus(" ".join(b.text for b in sub.blocks if b.text))
                if "[" in text:
                    text = _BADGE_JOIN.sub(", ", _BADGE_SPACE.sub("[", text))
                texts.append(text.strip())
            if any(texts):
                # (a cell without text does not count: tested last, as it is the dearest)
                if cells and is_header_row(cells):
                    header_rows.append(len(out))
                out.append(texts)
        out, header_rows = drop_echo_rows(out, header_rows)
        out = drop_empty_columns(out)
        if not out:
            return
        attrs = attrs_of(ctx)
        caption = next((c for c in el if c.tag == "caption"), None)
        if caption is not None and text_of(caption, strip=True):
            attrs["caption"] = clean(text_of(caption, " "))
        if header_rows:
            attrs["header_rows"] = ",".join(str(i) for i in header_rows)
        self.emit(attrs, TABLE, rows=tuple(map(tuple, out)), role=role_of(ctx))

    def stat_grid(self, el: Tag, ctx: Ctx) -> bool:
        """A row of name/value boxes (M T Sv W Ld OC) as one table block, role "stat-grid"."""
        attr = el.get("class")
        if not attr or hc.class_tokens(attr).isdisjoint(hc.STAT_TOKENS):
            return False
        if len(self.page.tree.complete(el)) < 3:
            return False  # fewer than three child elements, let alone three boxes with text
        boxes = boxes_with_tokens(el, ("name", "value"))  # the child elements with text
        if len(boxes) < 3:
            return False
        names, values = [], []
        for name_els, value_els in boxes:
            if len(name_els) != 1 or len(value_els) != 1:
                return False
            names.append(clean(text_of(name_els[0], " ")))
            values.append(clean(text_of(value_els[0], " ")))
        self.emit(attrs_of(ctx), TABLE, rows=(tuple(names), tuple(values)), role="stat-grid")
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
        attrs = attrs_of(ctx)
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
                    steps = self._walk(k, ctx, depth + 2)
                    if steps is not None:
                        yield steps
                else:
                    self.add_text(str(k), ctx)
            self.flush()
