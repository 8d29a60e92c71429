"""Tables printed as lists: "label: value" list items whose labels, or values, are dice results
("Light cover: 5+", "6+: Slain").

A table may start at any item of a list, so the list is read once for every position in it:
which items read "label: value", where that stops, and from each position on whether every
label (or value) carries a dice result. A list of thousands of items costs one pass, not one
pass per item.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..document import LIST_ITEM

# A dice result in a cell: "2+", "a 4+ roll", a lone "+" (a die drawn as an image, lost).
DICE = re.compile(r"(?:^|\s)\d\+(?:\s|$)|^[2-6]\+$|^\+$")
_LABEL_VALUE = re.compile(r"^\s*([^:|\t]{1,48}?)\s*(?::|\||\t)\s+(.+?)\s*$")


def label_value(text: str) -> tuple[str, str] | None:
    """(label, value) of a "label: value" (or "label | value", tab-separated) item, else None."""
    m = _LABEL_VALUE.match(text)
    return (m.group(1).strip(), m.group(2).strip()) if m else None


@dataclass
class ListRun:
    """A run of "label: value" list items: the pairs, where the run stops, whether the list ends
    there, and whether every label (or value) from each position on carries a dice result."""

    start: int
    pairs: list[tuple[str, str]]
    stop: int
    ends_list: bool
    dice_labels: list[bool]
    dice_values: list[bool]


def list_run(blocks, i: int, is_claimed: Callable[[int], bool], runs: dict[int, ListRun]) -> ListRun:
    """The run of unclaimed "label: value" list items from block `i`; `runs` caches it for every
    position in it (an earlier position's run is handed back)."""
    run = runs.get(i)
    if run is not None:
        return run
    j = i
    pairs: list[tuple[str, str]] = []
    while j < len(blocks) and not is_claimed(j) and blocks[j].kind == LIST_ITEM:
        pair = label_value(blocks[j].text)
        if pair is None:
            break
        pairs.append(pair)
        j += 1
    labels, values = [True] * (len(pairs) + 1), [True] * (len(pairs) + 1)
    for k in range(len(pairs) - 1, -1, -1):
        labels[k] = labels[k + 1] and bool(DICE.search(pairs[k][0]))
        values[k] = values[k + 1] and bool(DICE.search(pairs[k][1]))
    run = ListRun(i, pairs, j, j >= len(blocks) or blocks[j].kind != LIST_ITEM, labels, values)
    for k in range(i, j):
        runs[k] = run
    return run
