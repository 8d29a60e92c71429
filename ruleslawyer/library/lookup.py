"""Look things up in reference tables, and compute the 9th/10th edition wound roll from its rule.

- `find_table(records, name, edition)`: the table record a name refers to.
- `lookup(table, row=…, col=…)`: one cell, rows and columns matched by their printed labels
  ("4" or "To-Hit"); `lookup(table, s=4, t=5)` reads a Strength-vs-Toughness chart either way
  round, or evaluates the rows of a rule-based chart ("S GREATER than T").
- `wound_roll(s, t)`: the D6 result a wound roll needs, from the S-vs-T rule (9th and 10th
  edition: twice or more 2+, greater 3+, equal 4+, lower 5+, half or less 6+).
Nothing here imports click; bad input raises QueryError, unknown tables NotFoundError.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..errors import QueryError
from ..names import fold
from ..records import RefTable, Record


@dataclass(frozen=True)
class WoundRoll:
    """The result a wound roll needs and the S-vs-T case that gives it."""

    strength: int
    toughness: int
    needed: int
    case: str
    key: str = ""

    @property
    def roll(self) -> str:
        """The needed result as printed on charts ("4+")."""
        return f"{self.needed}+"


# (key, case in our words, test, result), the more specific case first: "at least double"
# before "greater", "at most half" before "lower". Each case reads back to its own key through
# _condition_key, like a printed chart's row would.
_WOUND_CASES = (
    ("twice", "S is at least double T", lambda s, t: s >= 2 * t, 2),
    ("greater", "S is greater than T", lambda s, t: s > t, 3),
    ("equal", "S equals T", lambda s, t: s == t, 4),
    ("half", "S is at most half of T", lambda s, t: 2 * s <= t, 6),
    ("lower", "S is lower than T", lambda s, t: s < t, 5),
)


def wound_roll(strength: int, toughness: int) -> WoundRoll:
    """The D6 result needed to wound, from the 9th/10th edition S-vs-T rule."""
    if strength < 1 or toughness < 1:
        raise QueryError(f"Strength and Toughness must be 1 or more (got S {strength}, T {toughness})")
    for key, case, test, needed in _WOUND_CASES:
        if test(strength, toughness):
            return WoundRoll(strength, toughness, needed, case, key)
    raise AssertionError("the five cases cover every S and T")  # pragma: no cover


def find_table(records: Sequence[Record], name: str, edition: int | None = None) -> RefTable:
    """The table `name` refers to (tolerant of case, punctuation and typos).

    When several editions have a table of that name and no edition is given, the newest
    edition's table is used.
    """
    from .find import find_by_name
    from ..names import fold

    found = find_by_name(records, name, kinds=["table"], edition=edition)
    if len(found) > 1:
        exact = [t for t in found if fold(t.name) == fold(name)] or found
        names = {fold(t.name) for t in exact}
        if len(names) == 1:
            return max(exact, key=lambda t: t.edition or 0)
        from ..errors import AmbiguousNameError

        raise AmbiguousNameError(f"{len(found)} tables match {name!r}", candidates=found,
                                 hint="give the full name or --edition")
    return found[0]


def lookup(table: RefTable, row: str | None = None, col: str | None = None,
           s: int | None = None, t: int | None = None) -> str:
    """The cell of `table` at row `row` and column `col` (labels as printed).

    With `s` and `t` (Strength and Toughness), the row and column are chosen from the table's
    headers, or a rule-based chart's conditions are evaluated.
    """
    if (s is None) != (t is None):
        raise QueryError("give both --s and --t")
    if s is not None:
        return _lookup_s_t(table, s, t)
    if row is None:
        raise QueryError(f"give a row of {table.name!r}: {_labels(table)}")
    r = _row_index(table, row)
    cells = table.rows[r].cells
    if col is None:
        if len(cells) == 1:
            return cells[0]
        raise QueryError(f"give a column of {table.name!r}: {', '.join(table.columns)}")
    c = _col_index(table, col)
    if c >= len(cells):
        raise QueryError(f"row {row} of {table.name!r} has no cell in column {col}")
    return cells[c]


def _lookup_s_t(table: RefTable, s: int, t: int) -> str:
    row_h = (table.row_header or "").casefold()
    col_h = (table.column_header or "").casefold()
    if table.columns and all(re.fullmatch(r"\d+", c) for c in table.columns):
        if "tough" in row_h and "str" in col_h:
            return lookup(table, str(t), str(s))
        if "str" in row_h or "tough" in col_h:
            return lookup(table, str(s), str(t))
        raise QueryError(f"{table.name!r} is not a Strength-vs-Toughness chart (rows: {table.row_header}, "
                         f"columns: {table.column_header})")
    roll = wound_roll(s, t)
    for row in table.rows:
        if _condition_key(row.label or "") == roll.key:
            cell = row.cells[0] if row.cells else ""
            # A chart whose digits were lost in conversion ("+") still names the case.
            return cell if re.search(r"\d", cell) else roll.roll
    raise QueryError(f"{table.name!r} has no row for S {s} vs T {t}")


def _condition_key(label: str) -> str | None:
    """Which S-vs-T case a printed row label states, read by meaning: a label speaking of
    twice/double -> "twice", half -> "half", greater/higher/more than -> "greater",
    equal/same -> "equal", lower/less/below -> "lower" (double and half are tested first
    because their labels may also say "more" or "less")."""
    low = label.casefold()
    for key, pattern in (("twice", r"\btwice\b|\bdouble\b|\b2 ?x\b"), ("half", r"\bhalf\b"),
                         ("greater", r"\bgreater\b|\bhigher\b|\bmore than\b|\bexceeds?\b"),
                         ("equal", r"\bequals?\b|\bsame as\b"), ("lower", r"\blower\b|\bless\b|\bbelow\b")):
        if re.search(pattern, low):
            return key
    return None


def _norm(label: str) -> str:
    return fold(label).replace(" ", "")


def _row_index(table: RefTable, row: str) -> int:
    want = _norm(str(row))
    for i, r in enumerate(table.rows):
        if _norm(r.label or "") == want:
            return i
    if re.fullmatch(r"\d+", str(row)) and not any(re.fullmatch(r"\d+", r.label or "") for r in table.rows):
        n = int(row)
        if 1 <= n <= len(table.rows):  # "row 2" of a table whose rows are not numbered
            return n - 1
    raise QueryError(f"{table.name!r} has no row {row!r}; rows: {_labels(table)}")


def _col_index(table: RefTable, col: str) -> int:
    want = _norm(str(col))
    for i, c in enumerate(table.columns):
        if _norm(c) == want:
            return i
    raise QueryError(f"{table.name!r} has no column {col!r}; columns: {', '.join(table.columns) or '(none)'}")


def _labels(table: RefTable) -> str:
    labels = [r.label for r in table.rows if r.label]
    return ", ".join(labels) if labels else f"1-{len(table.rows)}"
