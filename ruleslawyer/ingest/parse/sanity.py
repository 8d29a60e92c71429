"""Sanity checks of parsed records: a record that fails its kind's check becomes a warning, not
a record. When unsure a parser should doubt aloud, never store junk.

`CHECKS` is the ordered table: (name, kind, test). A test returns the reason the record is
junk, or None. `screen` runs them after every family parser, over every record.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable

from ...records import Points, Record, RefTable, Rule, Stratagem

# Words a name never ends on: a heading cut in the middle of a sentence ("Each time a model in").
_DANGLING = frozenset({"a", "an", "the", "of", "in", "on", "to", "and", "or", "if", "with", "by", "for", "from",
                       "that", "this", "is", "are", "at", "its", "their", "when", "each", "as", "be", "can"})
_DATE_ALONE = re.compile(r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2},?\s+)?(?:19|20)\d\d$",
                         re.I)
_PRICE = re.compile(r"\b\d+\s*(?:pts|points)\b", re.I)


def _rule_fragment(r: Rule) -> str | None:
    name = " ".join(r.name.split())
    words = name.split()
    if not words:
        return "a rule with no name"
    if name[:1].islower() and not name[:1].isdigit():
        return f"its name starts in the middle of a sentence ({name[:40]!r})"
    if _DATE_ALONE.match(name):
        return f"its name is a date ({name!r}), a title block's line, not a rule's title"
    if len(words) > 14:
        return f"its name is a sentence ({len(words)} words)"
    if len(words) >= 4 and words[-1].lower().strip(",;") in _DANGLING or name.endswith((",", ";")):
        return f"its name stops in the middle of a sentence ({name[-40:]!r})"
    return None


def _rule_price_list(r: Rule) -> str | None:
    prices = _PRICE.findall(r.text or "")
    if len(prices) >= 6 and len(prices) * 12 > len((r.text or "").split()):
        return f"its text is a list of {len(prices)} prices (a points list read as a rule)"
    return None


def _stratagem_cost(s: Stratagem) -> str | None:
    # A card whose cost badge went astray (a text dump, a badge printed in the gutter) still
    # says what it is by its type line; with neither, the "stratagem" is something else
    # (a detachment's name over a rules update).
    return "it has no CP cost and no type line" if s.cp is None and not (s.category or s.group) else None


def _points_unit(p: Points) -> str | None:
    if not (p.name or "").strip():
        return "it names no unit or detachment"
    if not (p.costs or p.wargear_costs or p.detachment_points is not None):
        return None  # a record of absence ("not in this version"), as the MFM changelog makes
    return None


def _table_shape(t: RefTable) -> str | None:
    name = " ".join((t.name or "").split())
    letters = re.sub(r"[^A-Za-z]", "", name)
    if len(letters) < 4:
        return f"its name {name!r} is not a title"
    if len(t.rows) < 2 and len(t.columns) < 2:
        return "one row and one column is no table"
    if not t.columns and len(t.rows) < 2:
        return "it has no header and fewer than two rows"
    if not t.columns and t.rows and all(not any(c.strip() for c in row.cells) for row in t.rows):
        return "it has no header and its rows are empty"
    return None


CHECKS: tuple[tuple[str, str, Callable[[Record], str | None]], ...] = (
    ("rule-name-fragment", "rule", _rule_fragment),
    ("rule-price-list", "rule", _rule_price_list),
    ("stratagem-without-cost", "stratagem", _stratagem_cost),
    ("points-without-unit", "points", _points_unit),
    ("table-without-shape", "table", _table_shape),
)


def screen(records: Iterable[Record], warn: Callable[[str, int | None], None]) -> list[Record]:
    """The records that pass their kind's checks; each one that fails is a warning instead."""
    out = []
    for r in records:
        for name, kind, test in CHECKS:
            if r.kind != kind:
                continue
            reason = test(r)
            if reason:
                label = getattr(r, "name", None) or r.kind
                warn(f"{r.kind} {' '.join(str(label).split())[:60]!r} left out: {reason} [{name}]", r.source.page)
                break
        else:
            out.append(r)
    return out
