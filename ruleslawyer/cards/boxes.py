"""Reading WeasyPrint's laid-out boxes: where each card element landed, in CSS pixels."""
from __future__ import annotations

from typing import Any

PX_PER_MM = 96 / 25.4


def boxes_by_id(document) -> dict[str, Any]:
    """The laid-out boxes of a WeasyPrint document by their element's id (the first box of each)."""
    found: dict[str, Any] = {}
    for page in document.pages:
        stack = [page._page_box]
        while stack:
            box = stack.pop()
            element = getattr(box, "element", None)
            if element is not None and getattr(box, "element_tag", None):
                ident = element.get("id")
                if ident and ident not in found:
                    found[ident] = box
            stack.extend(reversed(list(getattr(box, "children", ()))))
    return found


def descendants(box):
    """The box and every box inside it, depth first."""
    stack = [box]
    while stack:
        b = stack.pop()
        yield b
        stack.extend(reversed(list(getattr(b, "children", ()))))
