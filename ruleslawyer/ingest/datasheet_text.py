"""Sentence-level helpers for datasheet lists: wargear options, unit composition, loose notes."""
from __future__ import annotations

import re

from .datasheet_lines import Line, fold, norm_text

_BULLETS = "•■▪●◦- "
_VERB = re.compile(r"\b(?:can|is|are|may|must|has|have|cannot)\b", re.I)
# Where a composition line holds several items: bullets, or an equipment sentence run on.
_COMPOSITION_ITEM = re.compile(r"\s*[▪■•]\s*|(?<=[a-z])\s+(?=(?:This|Every|Each|The)\b[^.:]*\bequipped with\b)")


def sentences(text: str) -> list[str]:
    """The sentences of a paragraph."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", norm_text(text))
    return [p for p in parts if p]


def split_composition(text: str) -> list[str]:
    """"▪ 1 Warboss This model is equipped with: ..." -> ["1 Warboss", "This model is equipped with: ..."]."""
    return [item for item in _COMPOSITION_ITEM.split(text) if item and item.strip()]


def add_sentence_line(target: list[str], line: Line) -> None:
    """A line of an option or composition list; a wrapped line joins the one before it."""
    text = line.text.lstrip(_BULLETS).strip()
    if not text:
        return
    if target and line.kind != "list_item" and text[0].islower() and not re.search(r"[.:!?]$", target[-1]):
        target[-1] = f"{target[-1]} {text}"
        return
    target.append(text)


def add_option(options: list[str], line: Line, list_open: bool) -> bool:
    """Add a wargear option line; return whether the last option now lists choices after it.

    The choices under "... one of the following:" join their lead: "This model's X can be
    replaced with one of the following:" + "1 A" + "1 B" is one option "...following: 1 A; 1 B".
    """
    text = line.text.lstrip(_BULLETS).strip()
    if fold(text) == "NONE":
        return list_open
    if list_open and text and not _VERB.search(text) and len(text.split()) <= 10:
        lead = options[-1]
        joiner = " " if lead.endswith((":", ":*")) else "; "
        options[-1] = f"{lead}{joiner}{text.rstrip('.')}"
        return True
    add_sentence_line(options, line)
    return bool(options) and options[-1].endswith((":", ":*"))
