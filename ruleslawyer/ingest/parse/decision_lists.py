"""Decision lists: first-match conditions, each with its verdict in capitals ("Unmodified 1 |
FAILS"), printed as the rows of a box. They are rule text, not a table; a chart printed inside
one under its own header row (the wound roll's Strength-vs-Toughness rows) is a table."""
from __future__ import annotations

import re


_VERDICT = re.compile(r"^[A-Z][A-Z'’ -]*[A-Z]!?$")


def _verdict_row(row) -> bool:
    """A condition in running text and its verdict in capitals ("Unmodified … | FAILS")."""
    filled = [c.strip() for c in row if c and c.strip()]
    return len(filled) >= 2 and bool(_VERDICT.match(filled[-1])) and any(ch.islower() for ch in " ".join(filled[:-1]))


def _header_row(row) -> bool:
    filled = [c.strip() for c in row if c and c.strip()]
    return len(filled) >= 2 and all(re.search(r"[A-Z]{2}", c) and not any(ch.islower() for ch in c) for c in filled)


def decision_span(rows) -> tuple[int, int] | None:
    """For a grid that is a decision list (first-match conditions, each with its verdict in
    capitals, and no header row above them), the rows of the chart printed inside it: from
    its own header row to the next verdict row; (0, 0) when there is none. None for a grid
    that is not a decision list."""
    rows = [list(r) for r in rows]
    if len(rows) < 2 or not _verdict_row(rows[0]):
        return None
    head = next((k for k, r in enumerate(rows) if _header_row(r)), None)
    before = rows[:head] if head is not None else rows
    if sum(1 for r in before if _verdict_row(r)) < max(2, 0.5 * len(before)):
        return None
    if head is None:
        return 0, 0
    end = head + 1
    while end < len(rows) and not _verdict_row(rows[end]):
        end += 1
    return head, end


def decision_lines(rows, span: tuple[int, int]) -> list[str]:
    """The rows of a decision list as "- condition: VERDICT" lines, wrapped conditions joined,
    the chart rows in `span` left out (they are a table of their own)."""
    out: list[str] = []
    for k, row in enumerate(rows):
        if span[0] <= k < span[1]:
            continue
        # A row's arrow marker is a glyph the font did not map: not part of the condition.
        cells = [re.sub(r"^\ufffd\s*", "", c.strip()) for c in row if c and c.strip("\ufffd \t")]
        if not cells:
            continue
        if len(cells) >= 2 and cells[-1].upper() == cells[-1]:
            condition = " ".join(cells[:-1]).rstrip(":")
            out.append(f"- {condition}: {cells[-1]}")
        elif out:
            out[-1] = f"{out[-1]} {' '.join(cells)}"
        else:
            out.append(" ".join(cells))
    return out
