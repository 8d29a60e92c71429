"""Cues a laid-out book gives through its type sizes (PDF loaders record each block's size).

- Chapter headings are set far larger than the many entry headings under them: an entry with
  no section of its own goes under the chapter heading above it.
- A recap printed after an entry in a larger size than its text (a box whose bullet marks are
  drawings) is the entry's summary, one string per bullet.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from ...names import title_case
from ..document import HEADING, LIST_ITEM, PARAGRAPH
from .rule_text import ends_sentence
from .stratagem_lines import Line


def _size(line: Line) -> float | None:
    try:
        return float((line.block.attrs or {})["size"])
    except (KeyError, TypeError, ValueError):
        return None


def chapter_headings(lines: Sequence[Line]) -> list[int]:
    """Positions of chapter-level headings in a laid-out document: headings set far larger
    (1.7 times or more) than the entry headings, the most common heading size. Empty when
    the loader gave no sizes or the headings are of one size."""
    sizes = {i: _size(ln) for i, ln in enumerate(lines) if ln.kind == HEADING and not ln.claimed}
    sizes = {i: v for i, v in sizes.items() if v}
    if len(set(sizes.values())) < 2:
        return []
    entry = Counter(sizes.values()).most_common(1)[0][0]  # the size of the many entry headings
    return sorted(i for i, v in sizes.items() if v >= 1.7 * entry)


def recap_box(body: list[Line]) -> tuple[list[str], list[Line]]:
    """A recap printed after the rule in a larger size than its text (a boxed summary whose
    bullet marks are drawings): one string per bullet, wrapped lines joined."""
    sizes = [_size(b) for b in body]
    prose = [s for b, s in zip(body, sizes) if s and len(b.text.split()) >= 8]
    if not prose:
        return [], body
    # The text's size is the one most of the prose is set in (a larger flavour lead may open it).
    weight: Counter = Counter()
    for b, sz in zip(body, sizes):
        if sz and len(b.text.split()) >= 8 and b.kind == PARAGRAPH:  # a recap's bullets are not the text
            weight[sz] += len(b.text)
    if not weight:
        return [], body
    text_size = weight.most_common(1)[0][0]
    end = len(body)
    while end > 1 and body[end - 1].kind in (PARAGRAPH, LIST_ITEM) and (sizes[end - 1] or 0) > text_size + 0.4:
        end -= 1
    if end == len(body) or end == 0:
        return [], body
    bullets: list[str] = []
    for b in body[end:]:
        t = b.text.strip()
        # A bullet mark (drawn or printed) starts a bullet; otherwise a line that does not end
        # a sentence runs on into the next.
        if bullets and b.kind != LIST_ITEM and not ends_sentence(bullets[-1]) or (
                bullets and b.kind == PARAGRAPH and any(x.kind == LIST_ITEM for x in body[end:])):
            bullets[-1] = f"{bullets[-1]} {t}"
        else:
            bullets.append(t)
    return bullets, body[:end]


def laid_out_entry(b, lines: Sequence[Line], roots: list[int], recap: set[int]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Section and recap of an entry in a laid-out book (font sizes known): an entry with no
    section of its own goes under the chapter heading above it; the lines after its text set
    larger than that text are its recap box, moved from `parts` to the summary."""
    at = b.line.index
    section = b.section
    above = [r for r in roots if r < at]
    if above and at not in roots and len(section) <= 1:
        root = title_case(lines[above[-1]].text.strip())
        # The outline's own section stands unless a chapter heading came after it.
        own = next((k for k in range(at - 1, -1, -1) if section and lines[k].kind == HEADING
                    and title_case(lines[k].text.strip()).casefold() == section[0].casefold()), -1)
        if not section or own < above[-1]:
            section = (root,)
    end = at + 1
    while end < len(lines) and lines[end].kind != HEADING and end - at < 80:
        end += 1
    body = [ln for ln in lines[at + 1:end] if ln.text.strip() and not ln.claimed]
    bullets, rest = recap_box(body)
    if bullets:
        gone = {ln.text.strip() for ln in body[len(rest):]}
        b.parts = [p for p in b.parts if p.strip().removeprefix("- ").strip() not in gone]
        recap.update(ln.index for ln in body[len(rest):])
    if b.fluff is None and rest and rest[0].kind == PARAGRAPH and rest[0].block.is_bold and len(rest) > 1:
        lead = rest[0].text.strip()
        if b.parts and b.parts[0].strip() == lead and len(lead.split()) >= 8:
            b.fluff, b.parts = lead, b.parts[1:]  # a bold flavour lead under a chapter heading
    return section, tuple(bullets)
