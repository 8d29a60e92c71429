"""Terminal views of FAQ records (errata, notes, Q&A), errata outcomes and reference tables.

`format_table` aligns a chart in columns: the row labels down the left under the row header,
the column labels across the top under the column header, long cells wrapped to `width`.
"""
from __future__ import annotations

import textwrap

from ..records import Erratum, Faq, Note, RefTable
from .common import source_line, wrap

_HIGHLIGHT = {"new": "new in this version", "revised": "revised in this version"}


def _document(document: str | None, version: str | None) -> str:
    doc = document or "FAQ"
    return f"{doc} (version {version})" if version else doc


def format_erratum(record: Erratum, width: int = 80) -> str:
    """An errata entry: where it applies, what it does, the new wording and its bullets."""
    where = f"Page {record.page}" if record.page else "Unpaged entry"
    target = record.target or "(no title)"
    lines = [f"{where} - {target}  [errata: {record.operation}]",
             f"{_document(record.document, record.version)}"
             + (f", {_HIGHLIGHT[record.highlight]}" if record.highlight in _HIGHLIGHT else "")]
    if record.location:
        lines.append(f"Location: {record.location}")
    if record.title:
        lines.append(f"Adds: {record.title}")
    lines.append("")
    lines.extend(wrap(record.text, width))
    for bullet in record.bullets:
        lines.extend(textwrap.wrap(f"- {bullet}", width, subsequent_indent="  "))
    if record.designers_note:
        lines.append("")
        lines.extend(wrap(f"Designer's note: {record.designers_note}", width))
    lines.append(source_line(record))
    return "\n".join(lines)


def format_note(record: Note, width: int = 80) -> str:
    """A designer's note or clarification."""
    head = f"{record.name}  [designer's note, {_document(record.document, record.version)}]"
    lines = [head, ""]
    lines.extend(wrap(record.text, width))
    lines.append(source_line(record))
    return "\n".join(lines)


def format_faq(record: Faq, width: int = 80) -> str:
    """A question and its answer."""
    lines = [f"[FAQ, {_document(record.document, record.version)}"
             + (f", page {record.page}" if record.page else "") + "]", ""]
    lines.extend(wrap(f"Q: {record.question}", width))
    lines.extend(wrap(f"A: {record.answer}", width))
    lines.append(source_line(record))
    return "\n".join(lines)


def format_outcome(outcome) -> str:
    """One line per erratum: the entry, then where it applied or why it did not."""
    e = outcome.erratum
    entry = f"p{e.page}" if e.page else "(no page)"
    name = e.target or ""
    if e.title:
        name = f"{name}: {e.title}" if name else e.title
    head = f"{entry} {name} [{e.operation}]"
    if outcome.applied:
        tail = f"applied to {outcome.target_name}"
        if outcome.detail:
            tail += f" ({outcome.detail})"
    else:
        tail = f"NOT applied: {outcome.reason}"
    return f"{head} -> {tail}"


def format_table(record: RefTable, width: int = 80) -> str:
    """The table as an aligned grid, with its headers and edition."""
    edition = f" ({record.edition}th edition)" if record.edition else ""
    lines = [f"{record.name}{edition}"]
    if record.column_header and record.row_header:
        lines.append(f"{record.row_header} (rows) vs {record.column_header} (columns)")
    elif record.column_header:
        lines.append(f"{record.column_header} (columns)")
    header = [record.row_header or ""] + list(record.columns)
    ncols = max([len(header)] + [1 + len(r.cells) for r in record.rows])
    rows = [[r.label or ""] + list(r.cells) for r in record.rows]
    rows = [r + [""] * (ncols - len(r)) for r in rows]
    has_header = any(header[1:]) or bool(record.row_header)
    header = header + [""] * (ncols - len(header))
    body = ([header] if has_header else []) + rows
    widths = [max(len(r[c]) for r in body) for c in range(ncols)]
    widths = _fit(widths, width)
    lines.append("")
    for n, row in enumerate(body):
        lines.extend(_render_row(row, widths))
        if n == 0 and has_header:
            lines.append("  ".join("-" * w for w in widths).rstrip())
    lines.append(source_line(record))
    return "\n".join(lines)


def _fit(widths: list[int], width: int) -> list[int]:
    """Shrink the widest column until the row fits `width` (its cells then wrap)."""
    widths = list(widths)
    while sum(widths) + 2 * (len(widths) - 1) > width:
        widest = max(range(len(widths)), key=lambda i: widths[i])
        if widths[widest] <= 12:
            break
        widths[widest] -= 1
    return widths


def _render_row(row: list[str], widths: list[int]) -> list[str]:
    cells = [textwrap.wrap(c, w) or [""] for c, w in zip(row, widths)]
    height = max(len(c) for c in cells)
    out = []
    for k in range(height):
        parts = []
        for c, (cell, w) in enumerate(zip(cells, widths)):
            text = cell[k] if k < len(cell) else ""
            # Labels align left; short values (dice results, numbers) align right under their heading.
            parts.append(text.ljust(w) if c == 0 or len(text) > 6 else text.rjust(w))
        out.append("  ".join(parts).rstrip())
    return out
