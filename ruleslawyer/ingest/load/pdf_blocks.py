"""Lines in reading order -> Document blocks: headings, paragraphs, list items and tables.

A paragraph goes on while the next line has the same size, follows at the usual line pitch and
the previous line was full (the next line's first word would not have fitted after it). A line
that is shorter than that ends a paragraph, because the author broke it there. Across a column
or page break a full last line carries the paragraph on unless a sentence ended there and the
next line opens a new one.
"""
from __future__ import annotations

import re
from collections import Counter

from ..document import HEADING, LIST_ITEM, PARAGRAPH, TABLE, Block, Span
from .pdf_layout import BULLETS, Line, styled_runs
from .pdf_grid import wrapped_grid
from .pdf_tables import unruled_rows
from .text import is_caps_heading

_TEXT_BULLET = re.compile(r"^([•▪●■◆◦‣∙➢►])\s*(?=\S)")
_DASH_BULLET = re.compile(r"^([-–])\s+(?=\S)")
_WORD = re.compile(r"[A-Za-z]+")


class Stats:
    """Document-wide measures: body text size, line pitch per size, heading levels."""

    def __init__(self, lines: list[Line]):
        sizes: Counter = Counter()
        for line in lines:
            for f in line.frags:
                sizes[round(f.size, 1)] += len(f.chars)
        self.body = sizes.most_common(1)[0][0] if sizes else 10.0
        deltas: dict[float, Counter] = {}
        prev = None
        for line in lines:
            if prev is not None and prev.page == line.page and prev.column == line.column:
                s = round(line.size, 1)
                if round(prev.size, 1) == s:
                    d = line.bottom - prev.bottom
                    if 0.9 * s <= d <= 2.2 * s:
                        deltas.setdefault(s, Counter())[round(d * 2) / 2] += 1
            prev = line
        self.pitches = {s: c.most_common(1)[0][0] for s, c in deltas.items()}
        self.levels: dict[float, int] = {}
        self.slack = self._measure_slack(lines)

    def _measure_slack(self, lines: list[Line]) -> float:
        """How much room a typesetter leaves at the end of lines that do continue a paragraph.

        Measured on pairs whose second line starts in lower case (surely a continuation): a
        line-by-line filler leaves less room than the next word needs; a paragraph balancer
        (InDesign) leaves more, and the fullness test must allow for it.
        """
        excess = []
        for prev, line in zip(lines, lines[1:]):
            if (prev.page, prev.column) != (line.page, line.column) or len(prev.frags) != 1 or len(line.frags) != 1:
                continue
            if prev.frags[0].table is not None or line.frags[0].table is not None:
                continue
            if not 0 < line.bottom - prev.bottom <= 1.22 * self.pitch(line.size):
                continue
            if not line.text[:1].islower():
                continue
            need = _first_word_width(line) + 0.35 * line.size + 1.0
            excess.append(max(0.0, prev.col_x1 - prev.x1 - need))
        if len(excess) < 5:
            return 0.0
        positive = sorted(e for e in excess if e > 0.5)
        if len(positive) < max(3, 0.05 * len(excess)):
            return 0.0  # a line-by-line filler: the strict test holds
        return min(positive[int(0.9 * (len(positive) - 1))] + 1.0, 1.5 * self.body)

    def pitch(self, size: float) -> float:
        """The usual baseline-to-baseline distance of lines set at `size`."""
        s = round(size, 1)
        if s in self.pitches:
            return self.pitches[s]
        body_pitch = self.pitches.get(self.body)
        return body_pitch * size / self.body if body_pitch else 1.2 * size


def _bold_share(line: Line) -> float:
    ink = [c for c in line.chars if not c.text.isspace()]
    return sum(1 for c in ink if c.bold) / len(ink) if ink else 0.0


def is_heading(line: Line, stats: Stats) -> bool:
    """Larger bold or capitalised text, or a whole bold ALL-CAPS line at any size."""
    if line.marker or len(line.frags) != 1:
        return False
    text = line.text.strip()
    if not text or len(text) > 100:
        return False
    bold = _bold_share(line)
    if line.size >= stats.body + 0.8 and (bold > 0.6 or is_caps_heading(text)):
        return bool(re.search(r"[A-Za-z]", text))
    # At body size a capitalised bold line that ends a sentence is a wrapped keyword, not a title.
    return bold > 0.9 and is_caps_heading(text) and not text.endswith((".", ",", ";"))


def _first_word_width(line: Line) -> float:
    chars = line.chars
    first = chars[0]
    end = first.x1
    for c in chars[1:]:
        if c.text.isspace() or c.x0 - end > 0.2 * c.size:
            break
        end = c.x1
    return end - first.x0


def is_full(prev: Line, line: Line, slack: float = 0.0) -> bool:
    """True when the next line's first word would not have fitted at the end of `prev`."""
    # A line of a narrow frame (a sidebar) is measured against the frame's edge.
    room = (prev.col_x1 if prev.frame_x1 is None else prev.frame_x1) - prev.x1
    # Typesetters that balance a whole paragraph (not just fill each line) leave a little more room.
    return room < _first_word_width(line) + 0.35 * line.size + 1.0 + slack


_LABEL = re.compile(r"^[A-Z][A-Z0-9 ,'’&/()<>\[\]-]*:")


def _starts_with_label(line: Line) -> bool:
    """A line opening with a bold capitalised run-in label ("KEYWORDS:") starts a paragraph."""
    for text, bold, _italic, _color in styled_runs(line.chars):
        return bold and bool(_LABEL.match(text.strip()))
    return False


def _text_marker(line: Line) -> str | None:
    text = line.text
    m = _TEXT_BULLET.match(text) or _DASH_BULLET.match(text)
    return m.group(1) if m else None


class _Builder:
    def __init__(self, stats: Stats):
        self.stats = stats
        self.blocks: list[dict] = []

    def start(self, kind: str, line: Line, **extra) -> None:
        self.blocks.append({"kind": kind, "lines": [line], **extra})

    def add_table(self, rows, line: Line, ruled: bool, wrapped: bool = False) -> None:
        self.blocks.append({"kind": TABLE, "rows": rows, "lines": [line], "ruled": ruled, "wrapped": wrapped})


def _continues(block: dict, prev: Line, line: Line, stats: Stats, heading: bool) -> bool:
    kind = block["kind"]
    if kind == TABLE:
        return False
    # A run set in its own size inside a paragraph (small capitals for keywords) that wraps onto
    # a line of its own keeps that size there: it continues the paragraph.
    run_wraps = kind != HEADING and abs(line.size - _tail_size(prev)) <= 0.3 < abs(line.size - prev.size) \
        and not prev.text.rstrip().endswith((".", "!", "?", ":"))
    # A large line is a heading unless it carries on the sentence of the full line above it
    # (an intro set large, wrapped: "... as armies advance across the" / "battlefield and ...").
    lower = line.text.lstrip()[:1].islower()
    if heading and kind != HEADING and (_level_key(line, stats) == 0.0 or lower) and is_full(prev, line, stats.slack) \
            and (abs(line.size - prev.size) <= 0.3 or run_wraps) and line.page == prev.page \
            and line.column == prev.column:
        heading = False  # a bold capitalised word wrapped onto its own line, not a heading
    if heading != (kind == HEADING) or (abs(line.size - prev.size) > 0.6 and not run_wraps):
        return False
    if kind != HEADING and _starts_with_label(line):
        return False
    if line.marker:
        return False
    marker = _text_marker(line)
    if marker and (marker not in "-–" or not is_full(prev, line, stats.slack)):
        return False
    if not is_full(prev, line, stats.slack):
        return False
    if prev.text.rstrip().endswith(":") and line.text.lstrip()[:1] in "'\"‘“":
        return False  # "... to read:" and then the quoted wording
    if _all_bold(block) and not _starts_bold(line):
        return False  # a bold title line, then its text
    same_column = prev.page == line.page and prev.column == line.column
    if same_column:
        delta = line.bottom - prev.bottom
        if delta > 1.22 * stats.pitch(line.size) or delta < 0:
            return False
        if kind == HEADING and abs(line.x0 - prev.x0) > 3 and line.x0 > prev.x0:
            return False
        return True
    if kind == HEADING:
        return False
    # A new column or page: carry on unless a sentence ended and a new one starts.
    # A closing quote or bracket after the full stop still ends the sentence ("... of up to D6".').
    end = prev.text.rstrip().rstrip("'\"’”)]").rstrip()
    start = line.text.lstrip()
    # A sentence that ends with a full line at the foot of a column more often ends its paragraph.
    if end.endswith((".", "!", "?", ":")) and start[:1].isupper():
        return False
    return True


def _tail_size(line: Line) -> float:
    """The size of a line's last glyph (the size its last words are set in)."""
    for c in reversed(line.chars):
        if not c.text.isspace():
            return c.size
    return line.size


def _all_bold(block: dict) -> bool:
    return all(_bold_share(line) > 0.95 for line in block["lines"])


def _starts_bold(line: Line) -> bool:
    for c in line.chars:
        if not c.text.isspace():
            return c.bold
    return False


def build_blocks(lines: list[Line], stats: Stats) -> list[Block]:
    """Turn the document's lines (reading order) into blocks."""
    b = _Builder(stats)
    heading_flags = [is_heading(line, stats) if line.frags[0].table is None else False for line in lines]
    for k in range(len(lines) - 1):
        if heading_flags[k] and _runs_on(lines[k], lines[k + 1], stats):
            heading_flags[k] = False
    _assign_levels(lines, heading_flags, stats)
    i = 0
    prev: Line | None = None
    while i < len(lines):
        line = lines[i]
        frag0 = line.frags[0]
        if frag0.table is not None:
            rows = [list(r) for r in frag0.table.rows]
            i += 1
            # A profile line printed just under a ruled header row belongs to the table.
            last = frag0
            while i < len(lines) and len(lines[i].frags) >= 2 and lines[i].frags[0].table is None \
                    and (lines[i].page, lines[i].column) == (line.page, line.column) \
                    and lines[i].top - last.bottom < 2.0 * stats.pitch(lines[i].size):
                row = frag0.table.row_from(lines[i].frags)
                if row is None:
                    break
                rows.append(row)
                last = lines[i].frags[0]
                i += 1
            width = max(len(r) for r in rows)
            rows = [[""] * (width - len(r)) + r for r in rows]
            b.add_table(rows, line, True)
            prev = None
            continue
        if len(line.frags) >= 2 and not heading_flags[i]:
            wrapped = wrapped_grid(lines, i, stats.pitch)
            if wrapped is not None:
                b.add_table(wrapped[0], line, False, wrapped=True)
                prev = None
                i = wrapped[1]
                continue
            j = i
            while (j + 1 < len(lines) and len(lines[j + 1].frags) >= 2 and lines[j + 1].frags[0].table is None
                   and lines[j + 1].page == line.page and lines[j + 1].column == line.column
                   and lines[j + 1].bottom - lines[j].bottom < 2.6 * stats.pitch(lines[j + 1].size)):
                j += 1
            if j > i:
                b.add_table(unruled_rows(lines[i:j + 1]), line, False)
                prev = None
                i = j + 1
                continue
            # One line with a wide gap (a name with its points value): each part is a line.
            parts = [Line([f], line.page, line.column, line.col_x0, line.col_x1) for f in line.frags]
            parts[0].marker = line.marker
            lines[i:i + 1] = parts
            heading_flags[i:i + 1] = [is_heading(p, stats) for p in parts]
            _assign_levels(parts, heading_flags[i:i + len(parts)], stats)
            continue
        heading = heading_flags[i]
        if prev is not None and b.blocks and _continues(b.blocks[-1], prev, line, stats, heading):
            b.blocks[-1]["lines"].append(line)
        elif heading:
            b.start(HEADING, line, level=stats.levels.get(_level_key(line, stats), 2))
        else:
            marker = line.marker or _text_marker(line)
            b.start(LIST_ITEM if marker else PARAGRAPH, line, marker=marker, strip=marker if not line.marker else None)
        prev = line
        i += 1
    words = _word_set(lines)
    return [_to_block(blk, words) for blk in b.blocks]


def _runs_on(line: Line, nxt: Line, stats: Stats) -> bool:
    """A line of bold keywords among plain words ("Adeptus Astartes Terminator model only. Each")
    whose sentence runs on into the next line ("time an enemy unit ...") is text, not a title."""
    if _bold_share(line) >= 0.9 or is_caps_heading(line.text.strip()) or len(nxt.frags) != 1:
        return False
    if (nxt.page, nxt.column) != (line.page, line.column) or abs(nxt.size - line.size) > 0.3:
        return False
    return 0 < nxt.bottom - line.bottom <= 1.22 * stats.pitch(line.size) and nxt.text.lstrip()[:1].islower()


def _level_key(line: Line, stats: Stats) -> float:
    return round(line.size * 2) / 2 if line.size >= stats.body + 0.8 else 0.0


def _assign_levels(lines, flags, stats: Stats) -> None:
    for line, flag in zip(lines, flags):
        if flag:
            stats.levels.setdefault(_level_key(line, stats), 0)
    keys = sorted(stats.levels, reverse=True)
    for n, k in enumerate(keys):
        stats.levels[k] = min(6, n + 1)


def _word_set(lines: list[Line]) -> set[str]:
    words: set[str] = set()
    for line in lines:
        if line.frags[0].table is None:
            words.update(w.lower() for w in _WORD.findall(line.text))
    return words


def _to_block(blk: dict, words: set[str]) -> Block:
    first: Line = blk["lines"][0]
    attrs = {"size": f"{first.size:.1f}", "top": f"{first.top:.1f}"}
    if blk["kind"] == TABLE:
        attrs["ruled"] = "yes" if blk["ruled"] else "no"
        if blk.get("wrapped"):
            attrs["wrapped"] = "yes"  # cells of several lines, set apart by position alone
        rows = tuple(tuple(c for c in r) for r in blk["rows"])
        return Block(TABLE, rows=rows, page=first.page, column=first.column, attrs=attrs)
    spans: list[Span] = []
    for n, line in enumerate(blk["lines"]):
        runs = [list(r) for r in styled_runs(line.chars)]
        if n == 0 and blk.get("strip") and runs:
            runs[0][0] = re.sub(r"^\s*[%s]\s*" % re.escape(BULLETS), "", runs[0][0], count=1)
        if n > 0 and spans:
            prev_text = spans[-1].text
            nxt = runs[0][0] if runs else ""
            m = re.search(r"([A-Za-z]+)-$", prev_text)
            m2 = re.match(r"([a-z]+)", nxt)
            if m and m2:
                joined = (m.group(1) + m2.group(1)).lower()
                if joined in words:
                    spans[-1] = Span(prev_text[:-1], spans[-1].bold, spans[-1].italic, spans[-1].color)
            elif prev_text.endswith("\u00ad"):
                spans[-1] = Span(prev_text[:-1], spans[-1].bold, spans[-1].italic, spans[-1].color)
            elif not prev_text.endswith((" ", "-", "\u2010", "/")):
                spans[-1] = Span(prev_text + " ", spans[-1].bold, spans[-1].italic, spans[-1].color)
            elif prev_text.endswith("-") and not re.search(r"[A-Za-z]-$", prev_text):
                spans[-1] = Span(prev_text + " ", spans[-1].bold, spans[-1].italic, spans[-1].color)
        for text, bold, italic, color in runs:
            if not text:
                continue
            if spans and (spans[-1].bold, spans[-1].italic, spans[-1].color) == (bold, italic, color):
                last = spans[-1]
                spans[-1] = Span(last.text + text, bold, italic, color)
            else:
                spans.append(Span(text, bold, italic, color))
    # Trim the outer spaces without losing styled spans.
    if spans:
        spans[0] = Span(spans[0].text.lstrip(), spans[0].bold, spans[0].italic, spans[0].color)
        spans[-1] = Span(spans[-1].text.rstrip(), spans[-1].bold, spans[-1].italic, spans[-1].color)
    spans = [s for s in spans if s.text] or [Span("")]
    kind = blk["kind"]
    if kind == LIST_ITEM:
        attrs["marker"] = blk.get("marker") or ""
    level = blk.get("level", 0) if kind == HEADING else 0
    return Block(kind, spans=tuple(spans), level=level, page=first.page, column=first.column, attrs=attrs)
