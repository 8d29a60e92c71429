"""Rules-book chapters laid out as numbered rules (11th edition core rules and the like).

A chapter prints its title down the page edge, a short intro, then rule headings in one large
size, each with its number ("MOVING UNITS 03.01"; a heading may wrap over two lines with the
number on the last). Around the rules sit:

- sub-headings (bold, larger than the body, smaller than a rule heading) inside a rule: they
  stay in its text as lines of their own;
- sidebars: a narrow column of small print level with the rules it explains; a sidebar goes to
  the rule whose heading is nearest above it in the other column of its page;
- diagram pages with no rule heading: each captioned panel goes to the rule whose words its
  title shares most (the rule open at that point when none does);
- navigation boxes ("SEE ALSO" lists of cross-references "Frame 17.02"), figure labels (3", A,
  ½"), page numbers, the chapter tab number and running "++ … ++" lines: none is rule text.

A chapter without numbers (a rules appendix) is read the same way when its headings of one size,
repeated, stand over the text and the loader found a sideways chapter title.

Only the structure is relied on (sizes, columns, numbering, positions), never one book's words.
Blocks that cannot be placed are left out with a warning.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from ...names import title_case
from ...records import Rule
from ..document import HEADING, LIST_ITEM, PARAGRAPH, TABLE
from .decision_lists import decision_lines, decision_span
from .parsing import ParseContext
from .rule_chapter_titles import (FOOTER as _FOOTER, NUMBER_END, NUMBER_START, chapter_title, claimed_numbered,
                                  claimed_numbers, heading_above, other_part_pages, rule_name)
from .rule_text import BRACKETED, ends_sentence, flavour_of
from .stratagem_lines import Line

_XREF = re.compile(r"\s\d{2}\.\d{2}$")
_STEP = re.compile(r"^\d{1,2}[.)]\s")
_LABEL = re.compile(r'^(?:[-+]?\d*\s?[½¼¾]?\s?["”]|[A-Z]|\d{1,3}|[-+]?\d+ TO \w+ ROLL|>+|[►▶→]+)$')
_WORD = re.compile(r"[a-z]{3,}")
_STOP = {"the", "and", "for", "that", "this", "with", "its", "are", "can", "any", "from", "unit", "model",
         "models", "units", "each", "one", "other", "not"}


def _size(line: Line) -> float:
    try:
        return float((line.block.attrs or {}).get("size", 0) or 0)
    except ValueError:
        return 0.0


def _top(line: Line) -> float:
    try:
        return float((line.block.attrs or {}).get("top", 0) or 0)
    except ValueError:
        return 0.0


@dataclass
class _Rule:
    name: str
    number: str | None
    page: int | None
    column: int | None
    top: float
    heads: list[int]
    body: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)  # sidebars and diagram captions, after the body
    echo: bool = False  # repeats the number of a card another parser read: an illustration of it
    fluff: str | None = None  # the italic flavour line under the heading


def _heading_runs(lines: Sequence[Line]) -> list[list[int]]:
    """Consecutive heading lines of one size, page and column (a wrapped heading)."""
    runs: list[list[int]] = []
    for i, line in enumerate(lines):
        # A running "++ … ++" line is no part of the title below it (a text dump sets the page's
        # footer straight above the next page's first heading).
        if line.claimed or line.junk or line.kind != HEADING or _FOOTER.match(line.text.strip()):
            continue
        if runs:
            prev = lines[runs[-1][-1]]
            # A line opening with a step number ("2. MOVE UNITS") starts a heading of its own.
            if runs[-1][-1] == i - 1 and _size(prev) == _size(line) and prev.block.page == line.block.page \
                    and prev.block.column == line.block.column and not NUMBER_END.match(prev.text.strip()) \
                    and not _STEP.match(line.text.strip()):
                runs[-1].append(i)
                continue
        runs.append([i])
    return runs


def find_rule_heads(lines: Sequence[Line], has_title: bool, eleventh: bool = False) -> list[_Rule]:
    """The rule headings: numbered ones when two or more are printed (or one, "NN.01", in an
    11th edition document: a one-rule chapter); else, in a chapter with a sideways title, the
    largest heading size used at least three times."""
    runs = _heading_runs(lines)
    numbered = []
    for run in runs:
        text = " ".join(lines[k].text.strip() for k in run)
        m = NUMBER_END.match(text) or NUMBER_START.match(text)
        if m:
            numbered.append((run, rule_name(m.group("name")), m.group("num")))
    # A numbered heading over a cost ("1CP") heads a stratagem card, not a rule; a card left
    # unclaimed by the stratagem parser is an illustration.
    cards = {r[0] for r, _, _ in numbered if _card_head(lines, r[-1])}
    numbered = [x for x in numbered if x[0][0] not in cards]
    # The rules of one chapter share the chapter's number ("19.01", "19.02"); a heading with
    # another chapter's number ("LEADER 24.22 / SUPPORT 24.34") is a box pointing there.
    chapters = Counter(num.split(".")[0] for _, _, num in numbered)
    if chapters and chapters.most_common(1)[0][1] >= 2:
        own = chapters.most_common(1)[0][0]
        numbered = [x for x in numbered if x[2].split(".")[0] == own]
    # One numbered heading is enough under a sideways chapter title (a one-rule chapter).
    one_rule = eleventh and len(numbered) == 1 and numbered[0][2].endswith(".01")
    if numbered and (len(numbered) >= 2 or cards or claimed_numbered(lines) or has_title or one_rule):
        chosen = numbered
        # A bracketed weapon-ability heading ("[LETHAL HITS]") set at least half the size of the
        # numbered headings is a rule of its own even where the book prints no number beside it.
        big = max(_size(lines[r[0]]) for r, _, _ in numbered)
        taken = {k for r, _, _ in numbered for k in r}
        for run in runs:
            text = " ".join(lines[k].text.strip() for k in run)
            if run[0] not in taken and BRACKETED.match(text) and _size(lines[run[0]]) >= 0.5 * big:
                chosen.append((run, rule_name(text), None))
        chosen.sort(key=lambda x: x[0][0])
    elif has_title:
        sizes = Counter(_size(lines[r[0]]) for r in runs if len(lines[r[0]].text.split()) <= 10)
        big = [s for s, c in sizes.items() if c >= 3]
        if not big:
            return []
        size = max(big)
        chosen = [(r, title_case(" ".join(lines[k].text.strip() for k in r)), None) for r in runs
                  if _size(lines[r[0]]) == size and _has_body(lines, r[-1])]
        # A heading in another colour than the entries' (white on a dark intro box) heads a box
        # about the chapter, not an entry.
        usual = Counter(lines[r[0]].block.color for r, _, _ in chosen).most_common(1)
        if usual and len(chosen) >= 3:
            chosen = [c for c in chosen if lines[c[0][0]].block.color == usual[0][0]]
    else:
        return []
    taken_numbers = claimed_numbers(lines)
    out = []
    for run, name, num in chosen:
        head = lines[run[0]]
        out.append(_Rule(name, num, head.block.page, head.block.column, _top(head), list(run),
                         echo=num is not None and num in taken_numbers))
    return out



_CP = re.compile(r"^\+?\d\s*CP$", re.I)


def card_heads(lines: Sequence[Line]) -> list[int]:
    """Unclaimed numbered headings over a CP cost: stratagem cards another parser left."""
    out = []
    for run in _heading_runs(lines):
        text = " ".join(lines[k].text.strip() for k in run)
        if (NUMBER_END.match(text) or NUMBER_START.match(text)) and _card_head(lines, run[-1]):
            out.extend(run)
    return out


def _card_head(lines: Sequence[Line], k: int) -> bool:
    return any(_CP.match(ln.text.strip()) for ln in lines[k + 1:k + 3])




def _has_body(lines: Sequence[Line], k: int) -> bool:
    nxt = lines[k + 1] if k + 1 < len(lines) else None
    return nxt is not None and nxt.kind in (PARAGRAPH, LIST_ITEM) and len(nxt.text.split()) >= 4


def _is_furniture(line: Line, body_size: float) -> bool:
    t = line.text.strip()
    if not t or _FOOTER.match(t):
        return True
    if line.kind == TABLE:
        cells = [c.strip() for row in line.block.rows for c in row if c.strip()]
        return all(_LABEL.match(c) for c in cells)
    if _LABEL.match(t) or _CP.match(t):
        return True
    return re.fullmatch(r"\d{1,3}", t) is not None and _size(line) >= body_size


def _nav_box(lines: Sequence[Line], i: int) -> bool:
    """A heading over a list of cross-references ("Frame 17.02", "► Revived")."""
    if lines[i].kind != HEADING:
        return False
    items = []
    k = i + 1
    while k < len(lines) and len(items) < 6:
        ln = lines[k]
        if ln.kind == HEADING and not items:
            k += 1
            continue
        if ln.kind != LIST_ITEM:
            break
        items.append(ln)
        k += 1
    refs = [x for x in items if _XREF.search(x.text.strip()) or (x.block.attrs or {}).get("marker") in ("►", "▶")]
    return len(items) >= 2 and len(refs) >= 0.6 * len(items)


def _line_text(line: Line, body_size: float) -> str:
    t = line.text.strip()
    if line.kind == LIST_ITEM:
        return "- " + t
    if line.kind == HEADING and _size(line) > body_size and t.upper() == t:
        return title_case(t)
    if line.kind == TABLE:
        rows = [list(r) for r in line.block.rows]
        span = decision_span(rows)
        if span is None:
            return "\n".join("\t".join(c for c in row) for row in rows)
        # A decision list: one "- condition: VERDICT" line per row; the chart printed inside
        # it is a table record of its own.
        return "\n".join(decision_lines(rows, span))
    return t


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.casefold()) if w not in _STOP}


def parse_chapter(lines: Sequence[Line], ctx: ParseContext) -> list[Rule] | None:
    """The rules of a numbered rules chapter, or None when the document is not laid out so."""
    section = chapter_title(ctx.doc)
    # Unnumbered entries are read this way only in a book whose other chapters are numbered
    # (11th edition): elsewhere a sideways title alone says too little.
    eleventh = ctx.edition is not None and ctx.edition >= 11
    rules = find_rule_heads(lines, section is not None and eleventh, eleventh)
    if not rules:
        return None
    if section is None and len(rules) == 1 and ctx.doc.title:
        # One rule under the document's own title (a text dump of a one-rule chapter): the
        # heading just above it is more likely a sidebar's.
        section = title_case(ctx.doc.title)
    if section is None:
        section = heading_above(lines, min(k for r in rules for k in r.heads))
    sizes: Counter = Counter()
    for ln in lines:
        if ln.kind in (PARAGRAPH, LIST_ITEM) and _size(ln):
            sizes[_size(ln)] += len(ln.text)
    body_size = sizes.most_common(1)[0][0] if sizes else 9.0
    head_at = {r.heads[0]: r for r in rules}
    in_head = {k for r in rules for k in r.heads}
    pages_with_rules: dict[int | None, list[_Rule]] = {}
    for r in rules:
        pages_with_rules.setdefault(r.page, []).append(r)
    rule_columns = {(r.page, r.column) for r in rules}
    first = min(head_at)
    first_page = lines[first].block.page
    # Text in another column level with or below the first heading is a sidebar, not the intro.
    first_top = _top(lines[first])
    skipped = 0
    used: list[int] = []
    current: _Rule | None = None
    group: list[Line] = []
    group_kind = ""  # "sidebar" or "panel"
    skip_column: tuple | None = None
    illustration = False
    cards = {k for k in card_heads(lines)}
    # A part under another sideways title with no rule of its own (worked examples, the next
    # chapter's divider) illustrates or introduces; it is no rule's text.
    apart = other_part_pages(ctx.doc, section) - set(pages_with_rules)
    left_out: set[int] = set()

    def flush() -> None:
        nonlocal group
        if not group:
            return
        text = "\n".join(_line_text(g, body_size) for g in group)
        if group_kind == "sidebar":
            target = _sidebar_rule(group[0], pages_with_rules.get(group[0].block.page, []), current)
        else:
            target = _panel_rule(group, rules, current)
        if target is not None:
            target.extra.append(text)
        else:
            ctx.warn(f"chapter text not placed: {group[0].text.strip()[:60]!r}", group[0].block.page)
        group = []

    for i, line in enumerate(lines):
        if line.claimed:
            continue
        page, col = line.block.page, line.block.column
        if i in head_at:
            flush()
            current = head_at[i]
            illustration = False
            used.append(i)
            continue
        if page in apart:
            flush()
            if page not in left_out and line.text.strip():
                left_out.add(page)
                ctx.warn(f"page {page} is under another sideways title and holds no numbered rule: not read as rule text", page)
            used.append(i)
            continue
        if i in cards:
            flush()
            illustration = True  # a stratagem card drawn as an example: no rule text
            used.append(i)
            continue
        if illustration and (line.kind != HEADING or _CP.match(line.text.strip())):
            used.append(i)
            continue
        illustration = False
        if _top(line) < 0:
            used.append(i)  # text bleeding off the top of the page: part of a picture
            continue
        if i in in_head:
            used.append(i)
            continue
        if i < first and page == first_page and (col == lines[first].block.column or _top(line) < first_top - 15):
            used.append(i)  # the chapter intro: not a rule of its own
            continue
        if skip_column == (page, col):
            if line.kind == HEADING and skipped and not _nav_box(lines, i):
                skip_column = None  # the next box down the column (a sidebar) is text again
            else:
                skipped += line.kind != HEADING
                used.append(i)
                continue
        if _nav_box(lines, i) or line.text.strip().casefold() == "see also":
            flush()
            skip_column = (page, col)
            skipped = 0
            used.append(i)
            continue
        if _is_furniture(line, body_size):
            used.append(i)
            continue
        if line.text.strip() == "\ufffd":
            used.append(i)  # a list-marker glyph the font did not map: the item follows it
            continue
        used.append(i)
        if page in pages_with_rules and (page, col) not in rule_columns:
            kind = "sidebar"
        elif page not in pages_with_rules:
            kind = "panel"
        else:
            kind = ""
        if kind:
            if group and (kind != group_kind or line.kind == HEADING or group[-1].block.page != page):
                flush()
            group_kind = kind
            group.append(line)
            continue
        flush()
        if current is not None and not current.body and line.kind == PARAGRAPH and \
                (flavour := _flavour(current, line)) is not None:
            current.body.extend([flavour] if flavour else [])
        elif current is not None:
            current.body.append(_line_text(line, body_size))
    flush()
    ctx.claim(used)
    out = []
    for r in rules:
        if r.echo:
            ctx.warn(f"heading {r.name!r} repeats card number {r.number} read as a stratagem: an example of the "
                     "card, not read as a rule", r.page)
            continue
        text = "\n".join(r.body + r.extra)
        text = _marker_glyphs(text, r, ctx)
        out.append(Rule(name=r.name, source=ctx.source(r.page), edition=ctx.edition,
                        section=(section,) if section else (), text=text, number=r.number, fluff=r.fluff))
    return out


def _flavour(rule: _Rule, line: Line) -> str | None:
    """Before any rules text: an italic flavour line goes to the rule's `fluff` (a line that
    wraps onto a second italic block too). Returns the rules text left in the block ("" for
    none), or None when the block is rules text."""
    found = flavour_of(line.block)
    if found is None:
        return None
    lead, rest = found
    if rule.fluff is None:
        rule.fluff = lead
    elif not ends_sentence(rule.fluff) and not rest:
        rule.fluff = f"{rule.fluff} {lead}"
    else:
        return None
    return rest


def _marker_glyphs(text: str, rule: _Rule, ctx: ParseContext) -> str:
    """A "\ufffd" at the start of a line is a bullet the font did not map; elsewhere it is a
    glyph we cannot read (a dice face), kept and warned about."""
    text = re.sub(r"(?m)^\ufffd\s*", "- ", text)
    if "\ufffd" in text:
        ctx.warn(f"unreadable glyph (\\ufffd) in rule {rule.name!r}", rule.page)
    return text


def _sidebar_rule(first: Line, on_page: list[_Rule], current: _Rule | None) -> _Rule | None:
    """The rule a sidebar sits level with: the nearest heading above it on its page (the first
    rule of the page when the sidebar starts higher than every heading)."""
    if not on_page:
        return current
    top = _top(first)
    above = [r for r in on_page if r.top <= top + 15]
    return max(above, key=lambda r: r.top) if above else min(on_page, key=lambda r: r.top)


def _panel_rule(group: list[Line], rules: list[_Rule], current: _Rule | None) -> _Rule | None:
    """The rule a diagram panel illustrates: the one whose name (first) and text share most
    words with the panel's title; the rule open at that point on a tie."""
    if group[0].kind != HEADING:
        return current
    title = _words(group[0].text)
    best, best_score = current, 0.0
    for r in rules:
        score = 3 * len(title & _words(r.name)) + len(title & _words(" ".join(r.body)))
        if score > best_score or (score == best_score and r is current):
            best, best_score = r, score
    return best
