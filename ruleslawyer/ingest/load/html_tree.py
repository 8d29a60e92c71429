"""The few questions the walk asks of an lxml element tree (see `html_stream` for the parse).

The tree lives in C (libxml2), a tenth of the memory and time of a BeautifulSoup tree.
Comments and processing instructions are dropped by the parser, so every child element has a
string tag.

lxml frees an element's Python proxy by walking up to the nearest ancestor that has one, so a
loop over a deep tree that lets go of each element in turn is quadratic in the depth. Searches
over whole subtrees therefore run as XPath inside libxml2 (no proxies), or keep their results.

Text follows lxml's model: an element's `text` comes before its first child and each child's
`tail` after that child. `children(el)` gives them in document order, as bs4 did.
"""
from __future__ import annotations

from typing import Iterator, Union

from lxml import etree

Element = etree._Element
Node = Union[Element, str]


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
    if not len(el):  # text alone (most cells and spans): its one piece
        text = el.text or ""
        return text.strip() if strip else text
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
        step = next(stack[-1], None)  # (a step never yields None)
        if step is None:
            stack.pop()
        else:
            stack.append(step)
