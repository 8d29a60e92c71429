"""Reference tables (to-hit and to-wound charts, weapon profiles, battle-size tables) -> `table`.

A table reaches this parser in one of three shapes, whatever the file format was:
- a table block (rows of cells), possibly with a spanned caption row ("TOUGHNESS") and the
  row caption spelled one letter per row down the first column ("S", "T", "R", ... : a
  header, not data; PDFs and converted text often use Greek or Cyrillic look-alike letters);
- a run of paragraphs that each hold the same number of tab-separated cells (a two-column
  chart the text loader did not recognise as a table);
- a list whose items read as "label: value" with a dice roll on one side ("6+ Minor Cover: …");
- a faction's base-size list, read first (base_sizes.py: "UNIT | BASE SIZE" and its layouts).

The table is named after the heading just above it (step numbers dropped), or after its only
row for a one-row profile ("Close combat weapon"). Tables whose rows a document also prints
in rule text (HTML rule popups) are read but not claimed; others are claimed so the rules
parser does not repeat their rows as text. A repeated copy of a table (play-reference pages)
gives no second record.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterator

from ...records import RefTable, TableRow
from ..document import HEADING, LIST_ITEM, PARAGRAPH, TABLE, Block, Document
from ...names import title_case
from .parsing import ParseContext
from . import base_sizes
from .decision_lists import decision_span
from .tables_glued import glued_grid_at, vocabulary
from .tables_lists import DICE, ListRun, list_run

_STEP = re.compile(r"^\s*\d+\s*[.)]\s*")
_RULE_NUMBER = re.compile(r"\s+\d{2}\.\d{2}$")
_LOOKBACK = 4
# Roles a loader gives to rule popups whose tables the rule text also keeps.
_INLINE_ROLES = {"tooltip", "popup", "rule-popup"}
_LOOKALIKES = str.maketrans({
    "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H", "\u0399": "I", "\u039a": "K",
    "\u039c": "M", "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T", "\u03a5": "Y", "\u03a7": "X",
    "\u0410": "A", "\u0412": "B", "\u0415": "E", "\u041a": "K", "\u041c": "M", "\u041d": "H",
    "\u041e": "O", "\u0420": "P", "\u0421": "C", "\u0422": "T", "\u0425": "X", "\u0406": "I",
})


@dataclass
class _Grid:
    rows: list[list[str]]
    indexes: list[int]  # blocks the grid came from
    has_header: bool = True  # list tables print no header row
    glued: bool = False  # cells that ran together in text: read, left in the text
    ruled: bool = False  # drawn with rules: its cells are cells even when they hold sentences


def parse(doc: Document, ctx: ParseContext) -> Iterator[RefTable]:
    """The reference tables of `doc` that earlier parsers left unclaimed."""
    yield from base_sizes.parse(doc, ctx)  # claims its lists: not read again as grids below
    blocks = doc.blocks
    seen: dict[str, list[frozenset]] = {}  # a table's name -> the row-label sets printed under it
    words = functools.cache(lambda: vocabulary(doc))
    list_runs: dict[int, ListRun] = {}
    i = 0
    while i < len(blocks):
        if ctx.is_claimed(i) and not (blocks[i].kind == TABLE and _keeps_in_text(blocks[i])):
            # A rule popup's table stays readable when the popup's parser took the popup.
            i += 1
            continue
        grid, end = _grid_at(blocks, i, ctx, list_runs)
        if grid is None and blocks[i].kind in (HEADING, PARAGRAPH) and not ctx.is_claimed(i):
            found = glued_grid_at(doc, i, ctx.is_claimed, words)
            if found:
                grid, end = _Grid(found[0], found[1], glued=True), found[2]
        if grid is None:
            i += 1
            continue
        span = decision_span(grid.rows) if blocks[grid.indexes[0]].kind == TABLE else None
        if span is not None:
            # A decision list (conditions and their verdicts) stays in the rule's text; only a
            # chart printed inside it is a table, and the block is left for the text.
            grid = _Grid(grid.rows[span[0]:span[1]], grid.indexes, glued=True) if span[1] - span[0] >= 3 else None
        table, claim = _build(doc, ctx, grid) if grid is not None else (None, [])
        if table is not None:
            name, labels = table.name.casefold(), frozenset(r.label for r in table.rows)
            # Only tables of one name are compared: a long document prints thousands of tables.
            duplicate = any(_same_labels(labels, other) for other in seen.get(name, ()))
            if not grid.glued and not _keeps_in_text(blocks[grid.indexes[0]]):
                ctx.claim(claim)
            if not duplicate:
                seen.setdefault(name, []).append(labels)
                yield table
        i = end


def _same_labels(a: frozenset, b: frozenset) -> bool:
    """Two tables of one name repeat each other when their row labels are the same or one lists
    a subset of the other's."""
    return a <= b or b <= a


def _keeps_in_text(block: Block) -> bool:
    return (block.role or "") in _INLINE_ROLES or block.attrs.get("in_rule") == "true"


def _grid_at(blocks, i: int, ctx: ParseContext, list_runs: dict[int, ListRun]) -> tuple[_Grid | None, int]:
    """A table grid starting at block `i` (table block, tab paragraphs or a list table)."""
    b = blocks[i]
    if b.kind == TABLE and len(b.rows) >= 2:
        # Cells drawn apart by rules, or wrapped over several lines each: cells even when they
        # hold sentences.
        attrs = b.attrs or {}
        return _Grid([list(r) for r in b.rows], [i], ruled="yes" in (attrs.get("ruled"), attrs.get("wrapped"))), i + 1
    if b.kind in (PARAGRAPH, HEADING) and "\t" in b.text:
        # Lines of tab-separated cells; an ALL-CAPS header line may have become a heading.
        n = b.text.count("\t")
        j = i
        while j < len(blocks) and not ctx.is_claimed(j) and blocks[j].kind in (PARAGRAPH, HEADING) \
                and blocks[j].text.count("\t") == n:
            j += 1
        if j - i >= 2:
            rows = [[c.strip() for c in blocks[k].text.split("\t")] for k in range(i, j)]
            return _Grid(rows, list(range(i, j))), j
    if b.kind == LIST_ITEM:
        # The items from i on that read "label: value", up to the first that does not: a
        # table when the list ends there and every label, or every value, carries a dice
        # result ("6+ Minor Cover", "2+").
        run = list_run(blocks, i, ctx.is_claimed, list_runs)
        k = i - run.start
        if run.stop - i >= 2 and run.ends_list and (run.dice_labels[k] or run.dice_values[k]):
            return _Grid([list(p) for p in run.pairs[k:]], list(range(i, run.stop)), has_header=False), run.stop
    return None, i + 1


def _build(doc: Document, ctx: ParseContext, grid: _Grid) -> tuple[RefTable | None, list[int]]:
    rows = [[_clean(c) for c in r] for r in grid.rows]
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    rows = _drop_empty_columns(rows)
    row_caption, rows = _take_letter_column(rows)
    col_caption, rows = _take_caption_rows(rows)
    if len(rows) < 2 or len(rows[0]) < 2:
        return None, []
    if grid.has_header and not _looks_like_data(rows[0]):
        header, data = rows[0], rows[1:]
    else:
        header, data = [""] * len(rows[0]), rows
    # A column with a header but no data (a stray glyph closing a header row) is dropped.
    keep = [c for c in range(len(header)) if c == 0 or any(r[c] for r in data)]
    header = [header[c] for c in keep]
    data = [[r[c] for c in keep] for r in data]
    if not data or all(not any(r[1:]) for r in data):
        return None, []
    if not _reference_like(header, data, grid):
        return None, []

    first = grid.indexes[0]
    name, name_index, heading_captions = _name_above(doc, ctx, first)
    for cap in heading_captions:
        if col_caption is None and cap.casefold() not in {h.casefold() for h in header}:
            col_caption = _caption(cap)
    if col_caption and name and _title(col_caption).casefold() == _title(name).casefold():
        col_caption = None  # the table's own title printed over it ("WOUND ROLL")
    elif col_caption and name is None and len(header) == 2:
        name, col_caption = col_caption, None
    corner = header[0]
    numeric = all(re.fullmatch(r"\d+", h) for h in header[1:] if h)
    if numeric and col_caption and corner and not row_caption:
        # "TOUGHNESS" over the columns and "STRENGTH" in the corner: the corner names the rows.
        column_header, row_header = col_caption, _caption(corner)
    elif numeric:
        column_header = _join(col_caption, corner)
        row_header = _join(row_caption, corner) if row_caption else None
    else:
        row_header = corner or row_caption
        column_header = col_caption
    body = [TableRow(label=r[0] or None, cells=tuple(r[1:])) for r in data]
    if len(body) == 1 and not numeric and body[0].label and (name is None or corner):
        name = body[0].label
    if name is None:
        name = row_header or header[0] or "Table"
    claim = list(grid.indexes)
    claim.extend(i for i, _ in heading_captions_indexes(doc, ctx, first, name_index))
    table = RefTable(name=_title(name), source=ctx.source(doc.blocks[first].page), edition=ctx.edition,
                     columns=tuple(h for h in header[1:]) if any(header[1:]) else (), rows=tuple(body), row_header=row_header,
                     column_header=column_header)
    return table, claim


def heading_captions_indexes(doc: Document, ctx: ParseContext, first: int, name_index: int | None):
    """The heading blocks between the table's name heading and the table (captions), plus the
    name heading itself when nothing else separates it from the table."""
    if name_index is None:
        return []
    between = range(name_index + 1, first)
    if all(doc.blocks[k].kind == HEADING for k in between):
        return [(k, doc.blocks[k]) for k in range(name_index, first) if not ctx.is_claimed(k)]
    return []


def _name_above(doc: Document, ctx: ParseContext, first: int) -> tuple[str | None, int | None, list[str]]:
    """The nearest heading above the table (within a few blocks) and the caption headings
    between it and the table ("ASSAULT TO HIT" then "DEFENDER")."""
    headings: list[tuple[int, str]] = []
    region = doc.blocks[first].attrs.get("region")
    k = first - 1
    while k >= 0 and (first - k <= _LOOKBACK or region):
        b = doc.blocks[k]
        if region and b.attrs.get("region") != region:
            break
        if ctx.is_claimed(k) and b.kind != HEADING and not region:
            break
        if b.kind == HEADING:
            headings.append((k, b.text.strip()))
        elif headings:
            break
        elif b.kind == TABLE:
            break
        k -= 1
    if not headings:
        title = _title_line_above(doc, first)
        return (title, None, []) if title else (None, None, [])
    # Nearest first: short ALL-CAPS axis captions ("DEFENDER", "TOUGHNESS") sit between the
    # table and its name; the first other heading is the name, and anything above it (a
    # chapter heading) is not the table's.
    n = 0
    while n < len(headings) - 1 and _is_axis_caption(headings[n][1]):
        n += 1
    name_index, name = headings[n]
    captions = [t for _, t in reversed(headings[:n])]
    # "2. WOUND ROLLS 05.02": the step number and the rule number are not the name.
    return _RULE_NUMBER.sub("", _STEP.sub("", name)), name_index, captions


def _is_axis_caption(text: str) -> bool:
    return len(text.split()) <= 2 and not any(c.islower() for c in text) and not _STEP.match(text)


def _title_line_above(doc: Document, first: int) -> str | None:
    """With no heading above, the first of the short title-like lines nearest above the table
    ("Hyperphasing" / "Hypercrypt Legion Detachment" / fluff / text / table)."""
    run: list[str] = []
    for k in range(first - 1, max(first - 1 - _LOOKBACK - 2, -1), -1):
        t = doc.blocks[k].text.strip()
        titled = (doc.blocks[k].kind == PARAGRAPH and 0 < len(t.split()) <= 6 and t[:1].isupper()
                  and not re.search(r"[.:;,!?]$", t))
        if titled:
            run.append(t)
        elif run:
            break
    return run[-1] if run else None


def _clean(cell: str) -> str:
    s = cell or ""
    if not s.isascii():  # NFKC and the replacements below leave ASCII as it is
        s = unicodedata.normalize("NFKC", s)
        s = s.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").replace("\u2014", "-")
        s = s.replace("\u2212", "-")
    return " ".join(s.split())  # runs of whitespace collapsed, ends stripped (as `\s+` and strip)


_PROFILE_HEADS = {"M", "T", "SV", "W", "LD", "OC", "WS", "BS"}


def _reference_like(header: list[str], data: list[list[str]], grid: _Grid) -> bool:
    """False for grids that are not reference tables: prose a PDF laid out in columns (long
    cells), a unit's characteristic profile (M, T, Sv, W ... headers: a datasheet part), or
    weapon/stat rows whose name column was lost (every row label a distance or a roll)."""
    cells = [c for r in data for c in r if c]
    # A drawn grid with short row labels and column heads is a chart even when its cells hold
    # whole sentences (a definition per row and column).
    # A label's note in brackets under it ("Bodyguard unit (e.g. from a datasheet ability)")
    # does not make it a sentence.
    keyed = grid.ruled and all(len(_NOTE.sub(" ", r[0]).split()) <= 4 for r in data) \
        and all(len(h.split()) <= 6 for h in header) and all(c[:1].isupper() or not c[:1].isalpha() for c in cells)
    if grid.has_header and cells and not keyed and (max(len(c) for c in cells) > 120 or
                                      sum(len(c) for c in cells) / len(cells) > 40):
        return False
    if grid.has_header and not keyed and all(_wordy(col) for col in zip(header, *data)):
        return False  # every column holds sentence fragments: running text, not a chart
    if (len(data) <= 3 or not grid.ruled) and _mostly_fragments(header + [c for r in data for c in r]):
        return False  # two columns of prose side by side, cut into a grid
    if len(data) == 1 and sum(1 for h in header[1:] if not h) * 2 > len(header) - 1:
        return False  # one row under a mostly blank header: labels scattered over a picture
    if any(_DOUBLED_WORD.search(c) for c in cells + header):
        return False  # "Melee Melee", "Pistol Pistol": text of several layers printed over each other
    if len({h.upper() for h in header} & _PROFILE_HEADS) >= 3:
        return False
    every = [c for c in cells + header if c]
    if every and not any(_WORDISH.search(c) for c in every) and any(_LETTER.search(c) for c in every):
        return False  # letter codes and numbers over a picture (BP, X5, 1.): a diagram's labels
    if every and all(_DISTANCE.fullmatch(c) for c in every) \
            and any(c.endswith(('"', "\u201d")) for c in every):
        return False  # distances marked on a diagram (1", 1 1/2", 9")
    labels = [r[0] for r in data]
    if labels and all(_ROLL_OR_DISTANCE.fullmatch(lab) for lab in labels):
        return False
    # "1. START OF PHASE" / "2. MOVE UNITS" / "3. END OF PHASE": a numbered list of steps whose
    # numbers a text dump set off with a tab; a chart has more than one column of values.
    steps = ([header[0]] if grid.has_header else []) + labels
    numbers = [_STEP_NUMBER.fullmatch(lab.strip()) for lab in steps]
    if len(steps) >= 2 and all(numbers) and [int(m.group(1)) for m in numbers] == list(range(1, len(steps) + 1)) \
            and all(sum(1 for c in row[1:] if c) <= 1 for row in ([header] if grid.has_header else []) + data):
        return False
    return True


# The per-cell tests of _reference_like (compiled once: it runs for every candidate table).
_NOTE = re.compile(r"\([^()]*\)")
_WORDISH = re.compile(r"[A-Za-z]{3}|\d\+")
_LETTER = re.compile(r"[A-Za-z]")
_DISTANCE = re.compile(r'[\d\s.\u2044\u00bd\u00bc\u00be/]+["\u201d]?')
_ROLL_OR_DISTANCE = re.compile(r'\d+(?:"|\+)')
_STEP_NUMBER = re.compile(r"(\d{1,2})[.)]")
_DOUBLED_WORD = re.compile(r"\b([A-Za-z]{3,})\s+\1\b")
# Words a line of running text can stop on mid-sentence; a table cell does not end on them.
_DANGLING = frozenset("a an the of to in on at by for from with than that and or if before after against "
                      "more not has have is are be".split())


def _mostly_fragments(cells: list[str]) -> bool:
    """True when at least half the filled cells are pieces of sentences: starting in lower case,
    ending on a word like "the" or "than", or on a broken full stop (U+FFFD)."""
    filled = [c for c in cells if c]

    def fragment(cell: str) -> bool:
        words = cell.split()
        return (len(words) >= 2 and cell[0].islower()) or cell.endswith("\ufffd") or (
            len(words) >= 4 and words[-1].lower() in _DANGLING)

    return bool(filled) and sum(map(fragment, filled)) * 2 >= len(filled)


def _wordy(column: tuple[str, ...]) -> bool:
    filled = [c for c in column if c]
    return bool(filled) and sum(1 for c in filled if len(c.split()) >= 5) * 2 > len(filled)


def _looks_like_data(row: list[str]) -> bool:
    """A first row whose value cells are dice results is data, not a header."""
    values = [c for c in row[1:] if c]
    return bool(values) and all(DICE.search(c) for c in values)


def _drop_empty_columns(rows: list[list[str]]) -> list[list[str]]:
    keep = [c for c in range(len(rows[0])) if any(r[c] for r in rows)]
    return [[r[c] for c in keep] for r in rows]


def _take_letter_column(rows: list[list[str]]) -> tuple[str | None, list[list[str]]]:
    """Remove a first column that spells a word one letter per row ("ATTACKER" down the side)."""
    col = [r[0] for r in rows]
    letters = [c for c in col if c]
    if len(letters) >= 3 and all(len(c) == 1 and c.isalpha() for c in letters) and len(rows[0]) > 2:
        word = "".join(letters).translate(_LOOKALIKES)
        return _caption(word), [r[1:] for r in rows]
    return None, rows


def _take_caption_rows(rows: list[list[str]]) -> tuple[str | None, list[list[str]]]:
    """Remove leading rows that hold one word-like cell over many columns (a spanned caption)."""
    caption = None
    while len(rows) > 2:
        filled = [c for c in rows[0] if c]
        # Over a two-column table a caption is told from a row with an empty cell by its
        # ALL-CAPS words and a full row under it.
        spans = len(rows[0]) > 2 or (not any(ch.islower() for ch in filled[0] if filled)
                                     and all(rows[1])) if filled else False
        if len(filled) == 1 and spans and re.search(r"[A-Za-z]{2}", filled[0]) \
                and not DICE.search(filled[0]):
            caption = _caption(filled[0]) if caption is None else f"{caption} {_caption(filled[0])}"
            rows = rows[1:]
            continue
        break
    return caption, rows


def _caption(text: str) -> str:
    """ "DEFENDER" -> "Defender"; short all-caps abbreviations ("WS", "BS") stay."""
    words = []
    for w in text.split():
        if w.isupper() and len(w) > 2:
            w = w.capitalize()
        words.append(w)
    return " ".join(words)


def _join(*parts: str | None) -> str | None:
    out = " ".join(p for p in parts if p)
    return out or None


def _title(text: str) -> str:
    """Headings in ALL CAPS become Title Case ("SHOOTING TO HIT" -> "Shooting to Hit")."""
    text = _clean(text).strip(" :")
    if any(c.islower() for c in text):
        return text[:1].upper() + text[1:]
    return title_case(text)
