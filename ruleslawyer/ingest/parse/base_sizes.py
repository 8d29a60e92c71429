"""Base-size lists (a tournament companion's) -> one `table` per faction, "Base Sizes: Orks".

A faction heading ("ORKS"), a "UNIT | BASE SIZE" header, then one row per unit: its name and
its base ("60mm", "28.5mm", "120x92mm Oval Base", "Hull", "Large Flying Base", "Unique").
Text extractions print the same list in several layouts, all read here:

    Castigator | Hull               the cells set apart by a pipe, a tab or a run of spaces,
    Abaddon the Despoiler 60mm      or only by the size that ends the line;
    Aleya                           the unit on one line and its size on the next (the unit
    32mm                            may be a heading: "## Deff Dread").

The header may be split over two lines ("UNIT" / "BASE SIZE") or printed twice; a heading
that is not a unit ("IMPERIAL ARMOUR", "DAEMONS") starts a part of the same faction's list.
Printed page numbers and "---" page breaks are skipped. A page that starts with the header
alone continues the previous page's faction, unless the page numbers show a page missing in
between: then its faction is unknown and its rows are left out with a warning. A line in a
list that is not a unit and a size is left out with a warning, never kept as a junk row.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterator

from ...names import SMALL_WORDS, title_case
from ...records import RefTable, TableRow
from ..document import HEADING, TABLE, Document
from .parsing import ParseContext

__all__ = ["COLUMNS", "MIN_ROWS", "ROW_HEADER", "parse", "split_row"]

MIN_ROWS = 3  # fewer good rows under a header: not taken for a list (a warning says so)
# The printed header: the unit names are the row labels (as in every two-column table this
# project reads, so `table "Base Sizes: Orks" --row "Deff Dread"` gives the size), the size the cell.
ROW_HEADER, COLUMNS = "Unit", ("Base Size",)
_NUMBER = r"\d{1,3}(?:\.\d{1,2})?"
# A size cell: "60mm", "28.5mm", "120x92mm Oval Base", "Hull", "Small Flying Base", "Unique".
_SIZE = (rf"(?:(?:{_NUMBER}\s?(?:mm)?\s?[x\u00d7]\s?)?{_NUMBER}\s?mm(?:\s+(?:oval|round|flying)\s+base"
         rf"|\s+base)?|hull|unique|(?:large|small)\s+flying\s+base|flying\s+base)")
_SIZE_CELL = re.compile(_SIZE, re.I)
_SIZE_INSIDE = re.compile(rf"\b{_NUMBER}\s?mm\b", re.I)
_ENDS_IN_SIZE = re.compile(rf"(.+?)\s+({_SIZE})", re.I)
_HEADER = re.compile(r"units?\s*(?:[|/\t]\s*)?base\s+sizes?", re.I)
_HEADER_START = re.compile(r"\s*units?\b", re.I)
_UNIT_WORD = re.compile(r"units?", re.I)
_BASE_WORDS = re.compile(r"base\s+sizes?", re.I)
_PAGE_NUMBER = re.compile(r"\d{1,3}")
_PAGE_BREAK = re.compile(r"-{3,}|\*{3,}|_{3,}")
_CELL_SPLIT = re.compile(r"\s*[|\t]\s*")


@dataclass(frozen=True)
class _Line:
    """One line of the document as this reader sees it: a block's text, or one row of a table
    block (`cells`). A claimed block is a barrier (`barrier`): no list runs across it."""

    index: int  # the block's index
    text: str
    heading: bool = False
    cells: tuple[str, ...] | None = None
    page: int | None = None
    line: str | None = None  # the source line number, for warnings
    barrier: bool = False


@dataclass
class _Segment:
    """The rows of one page of a list (or of the list's first pages), with the page numbers
    that tell whether a continuation follows on from the page before."""

    continued: bool
    rows: list[tuple[str, str]] = field(default_factory=list)
    used: list[int] = field(default_factory=list)
    first_page: int | None = None  # the loader's page where it starts and where it ends
    last_page: int | None = None
    first_printed: int | None = None  # the page numbers printed at the foot of its pages
    last_printed: int | None = None


def parse(doc: Document, ctx: ParseContext) -> Iterator[RefTable]:
    """One `table` per faction's base-size list in `doc`; its blocks are claimed."""
    if not any(_may_start_header(b) for b in doc.blocks):
        return  # most documents: no header at all, and no line view is built
    lines = _lines(doc, ctx)
    seen: dict[str, list[frozenset]] = {}
    i = 0
    while i < len(lines):
        end = _header_end(lines, i)
        if end is None:
            i += 1
            continue
        faction = _faction_above(lines, i)
        if faction is None:
            ctx.warn(f"{_where(lines[i])}a base-size list with no faction heading above it: left out",
                     lines[i].page)
            i = end
            continue
        table, used, i = _read_list(ctx, lines, i, end, faction)
        if table is None:
            continue
        rows = frozenset(table.rows)
        if any(rows <= other or other <= rows for other in seen.get(table.name, ())):
            ctx.claim(used)  # the same list printed again
            continue
        seen.setdefault(table.name, []).append(rows)
        ctx.claim(used)
        yield table


def split_row(text: str) -> tuple[str, str] | None:
    """(unit, size) of a one-line row ("Castigator | Hull", "Falcon    Large Flying Base",
    "Abaddon the Despoiler 60mm"), or None when the line is not a unit and a size."""
    text = _clean(text)
    if "|" in text or "\t" in text:
        cells = [c for c in _CELL_SPLIT.split(text.strip(" |\t")) if c]
        if len(cells) != 2:
            return None
        unit, size = cells
    else:
        m = _ENDS_IN_SIZE.fullmatch(" ".join(text.split()))
        if not m:
            return None
        unit, size = m.group(1), m.group(2)
    unit, size = " ".join(unit.split()), " ".join(size.split())
    return (unit, size) if _SIZE_CELL.fullmatch(size) and _is_unit(unit) else None


def _clean(text: str) -> str:
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    return text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").replace("\u2014", "-")


def _is_unit(text: str) -> bool:
    """A unit's name: a few words, starting with a letter, digit or quote, no size in it, not a
    sentence (no closing full stop, no last word like "the" or "of") and not the header."""
    words = text.split()
    return (0 < len(words) <= 12 and len(text) <= 90 and (text[:1].isalnum() or text[:1] in "'\"")
            and text[-1] not in ".!?;:," and words[-1].casefold() not in SMALL_WORDS
            and not _SIZE_INSIDE.search(text) and not _HEADER.fullmatch(text)
            and not _PAGE_NUMBER.fullmatch(text) and any(c.isalpha() for c in text))


def _may_start_header(block) -> bool:
    if block.kind == TABLE:
        return bool(block.rows) and bool(block.rows[0]) and bool(_HEADER_START.match(block.rows[0][0]))
    return bool(_HEADER_START.match(block.text))  # anchored: cheap on a long line too


def _lines(doc: Document, ctx: ParseContext) -> list[_Line]:
    out: list[_Line] = []
    for i, b in enumerate(doc.blocks):
        line = (b.attrs or {}).get("line")
        if ctx.is_claimed(i):
            out.append(_Line(i, "", page=b.page, barrier=True))
        elif b.kind == TABLE:
            out.extend(_Line(i, "\t".join(r), cells=tuple(_clean(c).strip() for c in r), page=b.page, line=line)
                       for r in b.rows)
        else:
            out.append(_Line(i, b.text.strip(), heading=b.kind == HEADING, page=b.page, line=line))
    return out


def _header_end(lines: list[_Line], i: int) -> int | None:
    """The position after a header starting at `i` ("UNIT | BASE SIZE", or "UNIT" then
    "BASE SIZE" on the next line), or None."""
    line = lines[i]
    if line.barrier:
        return None
    if line.cells is not None:
        cells = [c for c in line.cells if c]
        return i + 1 if len(cells) == 2 and _UNIT_WORD.fullmatch(cells[0]) and _BASE_WORDS.fullmatch(cells[1]) else None
    text = " ".join(line.text.split())
    if _HEADER.fullmatch(text):
        return i + 1
    if _UNIT_WORD.fullmatch(text) and i + 1 < len(lines) and not lines[i + 1].barrier \
            and _BASE_WORDS.fullmatch(" ".join(lines[i + 1].text.split())):
        return i + 2
    return None


def _faction_above(lines: list[_Line], i: int) -> str | None:
    """The faction a list belongs to: the heading just above its header."""
    if i == 0:
        return None
    above = lines[i - 1]
    if above.barrier or not above.heading or _is_furniture(above.text) or _HEADER_START.match(above.text) \
            or _SIZE_INSIDE.search(above.text) or not any(c.isalpha() for c in above.text):
        return None
    return title_case(" ".join(_clean(above.text).split()))


def _is_furniture(text: str) -> bool:
    return bool(_PAGE_NUMBER.fullmatch(text) or _PAGE_BREAK.fullmatch(text))


def _row_at(lines: list[_Line], j: int) -> tuple[str, str, int] | None:
    """(unit, size, position after the row) of a row starting at `j`, in any layout."""
    line = lines[j]
    if line.barrier:
        return None
    if line.cells is not None:
        cells = [" ".join(c.split()) for c in line.cells if c]
        if len(cells) == 2 and _SIZE_CELL.fullmatch(cells[1]) and _is_unit(cells[0]):
            return cells[0], cells[1], j + 1
        return None
    row = split_row(line.text)
    if row:
        return row[0], row[1], j + 1
    if j + 1 < len(lines) and not lines[j + 1].barrier and lines[j + 1].cells is None:
        unit, size = " ".join(_clean(line.text).split()), " ".join(lines[j + 1].text.split())
        if _SIZE_CELL.fullmatch(size) and _is_unit(unit):
            return unit, size, j + 2
    return None


def _part_heading_at(lines: list[_Line], j: int) -> int | None:
    """The position after a part heading ("IMPERIAL ARMOUR", perhaps printed twice) that rows
    follow, or None."""
    k = j
    while k < len(lines) and k - j < 2 and lines[k].heading and not lines[k].barrier \
            and len(lines[k].text.split()) <= 6 and not _SIZE_INSIDE.search(lines[k].text) \
            and _row_at(lines, k) is None and _header_end(lines, k) is None:
        k += 1
    return k if k > j and k < len(lines) and _row_at(lines, k) is not None else None


def _read_list(ctx: ParseContext, lines: list[_Line], head: int, start: int, faction: str
               ) -> tuple[RefTable | None, list[int], int]:
    """Read one faction's list from its first row (`start`) over its pages: the table (None
    when too few rows were read), the blocks to claim and where reading stopped."""
    name = f"Base Sizes: {faction}"
    used = [lines[head - 1].index] + [lines[k].index for k in range(head, start)]
    segments = [_Segment(continued=False, first_page=lines[head].page, last_page=lines[head].page)]
    broke = False  # a page break or page number since the last row
    j = start
    while j < len(lines):
        line = lines[j]
        if line.barrier:
            break
        if line.cells is None and _is_furniture(line.text):
            if _PAGE_NUMBER.fullmatch(line.text):
                seg = segments[-1]
                seg.first_printed = seg.first_printed or int(line.text)
                seg.last_printed = int(line.text)
            used.append(line.index)
            broke, j = True, j + 1
            continue
        end = _header_end(lines, j)
        if end is not None:
            if broke:  # a page that starts with the header alone: the list goes on
                segments.append(_Segment(continued=True, first_page=line.page, last_page=line.page))
            segments[-1].used.extend(lines[k].index for k in range(j, end))
            broke, j = False, end
            continue
        row = _row_at(lines, j)
        if row is not None:
            segments[-1].rows.append(row[:2])
            segments[-1].last_page = line.page if line.page is not None else segments[-1].last_page
            segments[-1].used.extend(lines[k].index for k in range(j, row[2]))
            broke, j = False, row[2]
            continue
        after = _part_heading_at(lines, j)
        if after is not None:
            segments[-1].used.extend(lines[k].index for k in range(j, after))
            j = after
            continue
        if _header_follows(lines, j + 1) or j + 1 >= len(lines) or _row_at(lines, j + 1) is None:
            break  # the next faction's heading, or the end of the list
        ctx.warn(f"{_where(line)}{name}: {line.text!r} is not a unit and a base size; left out", line.page)
        j += 1
    rows: list[tuple[str, str]] = []
    lost = False  # a page missing before: the faction of every page after it is unknown
    for before, seg in zip([None, *segments], segments):
        gap = seg.continued and _page_missing(before, seg)
        if gap or (lost and seg.continued):
            why = "a page between is missing" if gap else "the page before it was left out"
            ctx.warn(f"{name}: a base-size list goes on on page {seg.first_printed or seg.first_page} after "
                     f"page {before.last_printed or before.last_page}: {why}, so its faction is unknown; "
                     f"{len(seg.rows)} rows left out", seg.first_page)
            lost = True
            continue
        lost = False
        rows.extend(seg.rows)
        used.extend(seg.used)
    if len(rows) < MIN_ROWS:
        ctx.warn(f"{_where(lines[head])}{name}: a base-size header with {len(rows)} readable rows: no table",
                 lines[head].page)
        return None, [], j
    table = RefTable(name=name, source=ctx.source(lines[head].page), edition=ctx.edition, columns=COLUMNS,
                     rows=tuple(TableRow(label=unit, cells=(size,)) for unit, size in rows), row_header=ROW_HEADER,
                     faction=faction)
    return table, used, j


def _header_follows(lines: list[_Line], j: int) -> bool:
    return j < len(lines) and _header_end(lines, j) is not None


def _page_missing(before: _Segment | None, seg: _Segment) -> bool:
    """True when the page numbers show a page missing between two pages of a list (both
    pages' numbers known and not one after the other); unknown numbers leave it continued."""
    if before is None:
        return False
    for a, b in ((before.last_printed, seg.first_printed), (before.last_page, seg.first_page)):
        if a is not None and b is not None and b - a not in (0, 1):
            return True
    return False


def _where(line: _Line) -> str:
    return f"line {line.line}: " if line.line else ""
