"""What the terminal views share: the source line, printings and editions, wrapping, and the
generic view of a record of any kind."""
from __future__ import annotations

import textwrap

from ..records import Record, record_name
from ..records_json import to_dict


def format_generic(record: Record, width: int = 80) -> str:
    """Every non-empty field, wrapped: the fallback view."""
    data = to_dict(record)
    lines = [f"{record_name(record)}  [{record.kind}]"]
    for key, value in data.items():
        if key in ("kind", "name", "source") or value in (None, "", [], {}):
            continue
        text = value if isinstance(value, str) else str(value)
        lines.extend(textwrap.wrap(f"{key}: {text}", width, subsequent_indent="  ") or [f"{key}:"])
    lines.append(source_line(record))
    return "\n".join(lines)


def source_line(record: Record) -> str:
    src = record.source
    page = f", page {src.page}" if src.page else ""
    return f"Source: {src.file}{page}"


def format_printings(printings, other_editions: list[int], record: Record, points=None) -> list[str]:
    """Lines naming a record's current points (from a points list), its other printings (and
    where they differ) and its other editions."""
    lines = []
    if points is not None:
        from ..library.points import points_text

        text = points_text(points)
        version = f" v{points.version}" if points.version else ""
        if text:
            lines.append(f"Current points ({points.source.file}{version}): {text}")
    lines.extend(printing_lines(printings))
    if other_editions:
        editions = ", ".join(f"{e}th" for e in other_editions)
        lines.append(f"Other editions: {editions} (show one with --edition N)")
    return lines


def printing_lines(printings) -> list[str]:
    """The other files that print a record, and the fields on which they differ from it."""
    if not printings or not printings.others:
        return []
    files = ", ".join(info.name for _, info in printings.others)
    lines = [f"Also printed in: {files} (choose one with --source FILE)"]
    for d in printings.differences[:8]:
        chosen_value = d.values[0][1]
        others = [(f, v) for f, v in d.values[1:] if v != chosen_value]
        lines.append(f"  differs on {d.field}: {chosen_value} here; " + "; ".join(f"{v} in {f}" for f, v in others))
    return lines


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """Wrap text paragraph by paragraph, keeping its line breaks."""
    out: list[str] = []
    for para in (text or "").split("\n"):
        out.extend(textwrap.wrap(para, width, initial_indent=indent, subsequent_indent=indent) or [""])
    return out
