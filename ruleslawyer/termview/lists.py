"""Plain-text tables for list commands (one row per record, columns fitted to the width)."""
from __future__ import annotations

from typing import Sequence

from ..records import Stratagem


def _cut(text: str, width: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def format_stratagem_table(records: Sequence[Stratagem], width: int = 120) -> str:
    """NAME / CP / CATEGORY / GROUP / WHEN, the WHEN column cut to what the width leaves."""
    head = ("NAME", "CP", "CATEGORY", "GROUP", "WHEN")
    rows = [(r.name, "" if r.cp is None else str(r.cp), r.category or "", r.group or "", r.when or "-")
            for r in records]
    widths = [max(len(head[i]), *(len(row[i]) for row in rows)) for i in range(4)]
    widths = [min(w, cap) for w, cap in zip(widths, (34, 3, 16, 24))]
    when_width = max(width - sum(widths) - 2 * 4, 20)
    lines = []
    for row in [head, *rows]:
        cells = [_cut(row[i], widths[i]).ljust(widths[i]) for i in range(4)]
        lines.append("  ".join(cells + [_cut(row[4], when_width)]).rstrip())
    lines.append(f"{len(rows)} stratagem{'s' if len(rows) != 1 else ''}")
    return "\n".join(lines)
