"""Parsing a page into an lxml element tree, and the few questions the walk asks of it.

lxml's own tree builder (libxml2) caps nesting at 2048 levels and silently drops what lies
deeper; fed through `etree.TreeBuilder` as a parser target it keeps every level. The tree
lives in C (libxml2), a tenth of the memory and time of a BeautifulSoup tree, which is what
lets a 60 MB page load in bounded memory. Comments and processing instructions are dropped
by the parser, so every child element has a string tag.

lxml frees an element's Python proxy by walking up to the nearest ancestor that has one, so a
loop over a deep tree that lets go of each element in turn is quadratic in the depth. Searches
over whole subtrees therefore run as XPath inside libxml2 (no proxies), or keep their results.

Text follows lxml's model: an element's `text` comes before its first child and each child's
`tail` after that child. `children(el)` gives them in document order, as bs4 did.
"""
from __future__ import annotations

import re
from typing import Iterator, Union

from lxml import etree

Element = etree._Element
Node = Union[Element, str]


_NAME = re.compile(r"^[A-Za-z_][\w.-]*$")


class _Builder:
    """A parser target: passes events to lxml's TreeBuilder, dropping what XML cannot name
    (HTML tolerates attributes such as `"` or `x:y:z`; an element tree does not)."""

    def __init__(self) -> None:
        self.tb = etree.TreeBuilder()
        self.data = self.tb.data
        self.stack: list[str] = []

    def start(self, tag: str, attrib) -> None:
        tag = tag.lower() if _NAME.match(tag) else "span"
        self.stack.append(tag)
        self.tb.start(tag, {k: v for k, v in attrib.items() if _NAME.match(k)})

    def end(self, tag: str) -> None:
        self.tb.end(self.stack.pop() if self.stack else tag)

    def close(self) -> Element | None:
        while self.stack:  # a page cut short: close what is open
            self.tb.end(self.stack.pop())
        try:
            return self.tb.close()
        except etree.XMLSyntaxError:
            return None


def parse_html(text: str | bytes) -> Element:
    """The element tree of a page (an `html` root, as browsers build it), from its text or
    its UTF-8 bytes.

    libxml2 builds the tree itself when the page nests less than its limit (2048 levels with
    `huge_tree`); a deeper page is parsed again through `_Builder`, which has no limit.
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    del text
    parser = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True, encoding="utf-8")
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        root = None
    if root is not None and not any("depth" in (e.message or "").lower() for e in parser.error_log):
        return root
    return _parse_unlimited(data)


def _parse_unlimited(data: bytes) -> Element:
    builder = _Builder()
    parser = etree.HTMLParser(target=builder, remove_comments=True, remove_pis=True, huge_tree=True,
                              encoding="utf-8")
    parser.feed(data)
    root = parser.close()
    if root is None:
        root = etree.Element("html")
    return root


def name(el: Element) -> str | None:
    """The element's tag in lower case (None for anything that is not an element)."""
    tag = el.tag
    return tag.lower() if isinstance(tag, str) else None


def classes(el: Element) -> list[str]:
    """The element's class names as written."""
    return (el.get("class") or "").split()


def children(el: Element) -> Iterator[Node]:
    """The element's text and child elements (each followed by its tail text), in order."""
    if el.text:
        yield el.text
    for child in el:
        if isinstance(child.tag, str):
            yield child
        if child.tail:
            yield child.tail


def elements(el: Element) -> list[Element]:
    """The element's child elements."""
    return [c for c in el if isinstance(c.tag, str)]


def descendants(el: Element) -> list[Element]:
    """Every element inside `el`, in document order (not `el` itself). A list, so that the
    proxies live until the caller is done (see the module doc); for small subtrees."""
    return [d for d in el.iterdescendants() if isinstance(d.tag, str)]


def has_descendant(el: Element, tags: frozenset[str]) -> bool:
    """Whether any element inside `el` has one of `tags` (searched in C)."""
    if not len(el):
        return False  # most cells hold text alone
    return bool(_XPATH_CACHE.setdefault(tags, etree.XPath(
        "boolean(.//*[" + " or ".join(f"self::{t}" for t in sorted(tags)) + "])"))(el))


_XPATH_CACHE: dict = {}
_ATTRIBUTE_VALUES: dict = {}


def attribute_values(el: Element, attribute: str) -> list[str]:
    """Every value of `attribute` in the subtree, as plain strings (searched in C)."""
    xpath = _ATTRIBUTE_VALUES.setdefault(attribute, etree.XPath(f"//@{attribute}", smart_strings=False))
    return [str(v) for v in xpath(el)]


def elements_with_tags(el: Element, tags: frozenset[str]) -> list[Element]:
    """The elements inside `el` with one of `tags`, in document order."""
    return _XPATH_CACHE.setdefault(("list",) + tuple(sorted(tags)), etree.XPath(
        ".//*[" + " or ".join(f"self::{t}" for t in sorted(tags)) + "]"))(el)


def next_element(el: Element) -> Element | None:
    """The next sibling element, or None."""
    nxt = el.getnext()
    while nxt is not None and not isinstance(nxt.tag, str):
        nxt = nxt.getnext()
    return nxt


def strings(el: Element) -> Iterator[str]:
    """The text pieces inside `el` in order (its own tail excluded)."""
    return el.itertext()


def text_of(el: Element, sep: str = "", strip: bool = False) -> str:
    """All text inside `el`, pieces joined by `sep` (stripped, blanks dropped, with `strip`)."""
    if strip:
        return sep.join(s.strip() for s in el.itertext() if s.strip())
    return sep.join(el.itertext())


def has_text(el: Element, budget: int = 200) -> bool:
    """Whether the element holds any text; gives up (saying yes) after `budget` nodes so a
    hostile page of thousands of nested empty boxes stays linear."""
    if el.text and el.text.strip():
        return True
    for i, d in enumerate(el.iterdescendants()):
        if i >= budget:
            return True
        if (d.text and d.text.strip()) or (d.tail and d.tail.strip()):
            return True
    return False


Steps = Iterator["Steps"]  # a walk step: a generator that yields the sub-walks it needs run


def run(steps: Steps) -> None:
    """Run a walk step and every sub-walk it yields, on an explicit stack instead of Python's:
    real pages can nest thousands of elements deep, so the walk must not recurse."""
    stack = [steps]
    while stack:
        try:
            stack.append(next(stack[-1]))
        except StopIteration:
            stack.pop()
