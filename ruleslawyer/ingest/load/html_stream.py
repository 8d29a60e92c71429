"""A page's element tree, parsed while the walk reads it and let go of once read.

The whole tree of a big page costs about 14 bytes of memory per byte of HTML. Instead, the
parser is fed a chunk at a time, only when the walk needs what comes next: the next child of
the element it is reading, or the whole of an element it must judge as one (a table, a popup,
a stat box). Each child of an element still being parsed is removed from the tree once the
walk has read it and its tail, so memory is bounded by the largest element the walk needs
whole (a table, a popup), not by the page.

Two parsers, one behaviour. libxml2's push parser (`HTMLPullParser`) builds the tree in C and
gives the same tree whatever the chunk sizes; it caps nesting at 2048 levels and silently
drops what is deeper. A page that nests that deep is read again from the start through a
parser target (`_Builder`, an `etree.TreeBuilder`), which has no cap and reports each
element's start and end. libxml2 only ever adds to the element it has open, and the elements
it has open are the chain of last children from the root down: that chain, taken after each
chunk, is what the stream treats as still open (an element on it may have ended already; it
is then taken as complete one chunk later, which costs nothing but a wait). An element's text
is known once its first child has started or it has ended, a child's tail once the next child
has started or the parent has ended.
"""
from __future__ import annotations

import re
from typing import Iterable, Iterator

from lxml import etree

from .html_tree import Element, Node, children, has_text

_NAME = re.compile(r"^[A-Za-z_][\w.-]*$")
# libxml2 stops building the tree past 2048 open elements (with `huge_tree`); a page that
# comes near is read again through the parser target.
NATIVE_DEPTH = 2040


class Restart(Exception):
    """The page must be read again through the parser target (too deep, or unparsable)."""


class _Builder:
    """A parser target: passes events to lxml's TreeBuilder, dropping what XML cannot name
    (HTML tolerates attributes such as `"` or `x:y:z`; an element tree does not), and tells
    the stream which elements start and end."""

    def __init__(self, stream: "Stream") -> None:
        self.tb = etree.TreeBuilder()
        self.data = self.tb.data
        self.stack: list[Element] = []
        self.stream = stream

    def start(self, tag: str, attrib) -> None:
        tag = tag.lower() if _NAME.match(tag) else "span"
        el = self.tb.start(tag, {k: v for k, v in attrib.items() if _NAME.match(k)})
        self.stack.append(el)
        self.stream.started(el)

    def end(self, tag: str) -> None:
        if not self.stack:
            self.tb.end(tag)
            return
        el = self.stack.pop()
        self.tb.end(el.tag)
        self.stream.ended(el)

    def close(self) -> Element | None:
        while self.stack:  # a page cut short: close what is open
            self.end("")
        try:
            return self.tb.close()
        except etree.XMLSyntaxError:
            return None


class _AttributeValues:
    """A parser target that only collects the values of one attribute (no tree is built)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.values: list[str] = []

    def start(self, tag: str, attrib) -> None:
        value = attrib.get(self.name)
        if value is not None:
            self.values.append(str(value))

    def close(self) -> list[str]:
        return self.values


def _parser(**kw) -> etree.HTMLParser:
    return etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True, encoding="utf-8", **kw)


def attribute_values(chunks: Iterable[bytes], name: str) -> list[str]:
    """Every value of attribute `name` in the page, in document order, without building a tree."""
    target = _AttributeValues(name)
    parser = _parser(target=target)
    for chunk in chunks:
        parser.feed(chunk)
    return parser.close()


class Stream:
    """The tree of a page as far as it has been parsed; `pump` parses the next chunk.

    `unlimited` parses through the parser target (any depth); otherwise libxml2 builds the
    tree and `Restart` is raised when the page nests too deep for it or does not parse.
    """

    def __init__(self, chunks: Iterable[bytes], unlimited: bool = False) -> None:
        self.chunks: Iterator[bytes] = iter(chunks)
        self.unlimited = unlimited
        self.open: dict[int, Element] = {}  # elements started and not yet ended, by id
        self.root: Element | None = None
        self.body: Element | None = None  # the first <body> child of the root
        self.title: Element | None = None  # the first <title> of the page
        self.done = False
        if unlimited:
            self.parser = _parser(target=_Builder(self))
        else:  # events for the three elements the stream looks for, not for every element
            self.parser = etree.HTMLPullParser(events=("start",), tag=("html", "body", "title"),
                                               remove_comments=True, remove_pis=True, huge_tree=True,
                                               encoding="utf-8")

    # -- events ------------------------------------------------------------------------------
    def started(self, el: Element) -> None:
        """Note an element the parser has opened (its tag and attributes are final)."""
        if self.unlimited:
            self.open[id(el)] = el
        if self.root is None:
            self.root = el.getroottree().getroot()
        tag = el.tag
        if tag == "body" and self.body is None and el.getparent() is self.root:
            self.body = el
        elif tag == "title" and self.title is None:
            self.title = el

    def ended(self, el: Element) -> None:
        """Note an element the parser has closed (it and everything inside it are final)."""
        self.open.pop(id(el), None)

    def pump(self) -> bool:
        """Parse the next chunk (or finish the parse); False once everything has been parsed."""
        if self.done:
            return False
        chunk = next(self.chunks, None)
        try:
            if chunk is None:
                self.done = True
                root = self.parser.close()
                if self.unlimited:
                    # The parser target refers back to this stream: let go of it, so the tree
                    # is freed with the stream (ingest pauses the cycle collector for the file).
                    self.parser = None
                    self.root = root if root is not None else (self.root or etree.Element("html"))
                elif root is None:
                    raise Restart("no tree")
                else:
                    self.root = root
            else:
                self.parser.feed(chunk)
        except etree.XMLSyntaxError:
            if self.unlimited:
                raise
            raise Restart("the parser gave up") from None
        if not self.unlimited:
            for _event, el in self.parser.read_events():
                self.started(el)
            if self.root is not None:  # at the end too: a short page may be read in one go
                self._open_chain()
        if self.done:
            # Let go of the open elements deepest first: lxml frees a proxy by walking up to
            # the nearest ancestor that has one, which is then its parent.
            for key in reversed(list(self.open)):
                del self.open[key]
        return True

    def _open_chain(self) -> None:
        """The chain of last children from the root: every element libxml2 may still add to."""
        chain: dict[int, Element] = {}
        node = self.root
        while True:
            chain[id(node)] = node
            try:
                node = node[-1]
            except IndexError:
                break
        if len(chain) >= NATIVE_DEPTH:
            raise Restart("nested too deep for libxml2's tree")
        self.open = chain  # the old chain is let go of after the new one holds its ancestors

    def finish(self) -> None:
        """Parse whatever is left."""
        while self.pump():
            pass

    # -- what the walk asks ------------------------------------------------------------------
    def is_open(self, el: Element) -> bool:
        """Whether the parser may still add to `el`."""
        return id(el) in self.open

    def complete(self, el: Element) -> Element:
        """`el` once it has been parsed whole (parsing on as far as needed)."""
        while id(el) in self.open and self.pump():
            pass
        return el

    def walk_root(self) -> Element:
        """The element whose children are the page's content: the body (as soon as it
        starts), else, once the whole page is parsed, a body anywhere or the root."""
        while self.body is None and self.pump():
            pass
        if self.body is not None:
            return self.body
        root = self.root if self.root is not None else etree.Element("html")
        body = root.find(".//body")
        return root if body is None else body

    def children(self, el: Element) -> Iterator[Node]:
        """`html_tree.children(el)`, waiting for each piece to be parsed; when `el` is still
        being parsed, each child is removed from the tree once it and its tail are read."""
        if id(el) not in self.open:
            return children(el)
        return self._children_parsing(el)

    def _children_parsing(self, el: Element) -> Iterator[Node]:
        key = id(el)
        while not len(el) and key in self.open and self.pump():
            pass
        if el.text:
            yield el.text
        while True:
            while not len(el) and key in self.open and self.pump():
                pass
            if not len(el):
                return
            child = el[0]
            if isinstance(child.tag, str):
                yield child
            while child.getnext() is None and key in self.open and self.pump():
                pass
            if child.tail:
                yield child.tail
            el.remove(child)

    def next_element(self, el: Element) -> Element | None:
        """The next sibling element of `el`, waiting for it to be parsed; None if there is none."""
        parent = el.getparent()
        node = el
        while True:
            nxt = node.getnext()
            while nxt is not None and not isinstance(nxt.tag, str):
                node, nxt = nxt, nxt.getnext()
            if nxt is not None or parent is None or not self.is_open(parent) or not self.pump():
                return nxt

    def has_text(self, el: Element, budget: int = 200) -> bool:
        """`html_tree.has_text`, parsing on only while the answer could still change (a yes
        stays a yes as the element grows)."""
        while True:
            found = has_text(el, budget)
            if found or not self.is_open(el) or not self.pump():
                return found
