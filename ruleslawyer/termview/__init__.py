"""Plain-text views of records for the terminal: one formatter per record kind.

`format_record(record, width)` picks the kind's formatter (datasheet cards, stratagems with
WHEN/TARGET/EFFECT, rules, errata, tables) and falls back to a generic field listing.
"""
from __future__ import annotations

from ..records import Record
from .common import format_generic, format_printings, printing_lines, source_line, wrap
from .datasheet import format_datasheet
from .errata import format_erratum, format_faq, format_note, format_table
from .rules import format_enhancement, format_rule, format_stratagem

__all__ = ["format_record", "format_generic", "format_printings", "printing_lines", "source_line", "wrap"]

FORMATTERS = {
    "datasheet": format_datasheet,
    "stratagem": format_stratagem,
    "enhancement": format_enhancement,
    "detachment_rule": format_rule,
    "rule": format_rule,
    "errata": format_erratum,
    "note": format_note,
    "faq": format_faq,
    "table": format_table,
}


def format_record(record: Record, width: int = 80) -> str:
    """The terminal view of any record."""
    formatter = FORMATTERS.get(record.kind)
    return formatter(record, width) if formatter is not None else format_generic(record, width)
