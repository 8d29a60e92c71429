"""Rule records: the catch-all parser that runs last over the blocks nobody claimed.

Two layouts are recognised by their content:

- an *outline* (a rules summary or reference sheet): ALL-CAPS headings, numbered steps,
  "LABEL: text" run-in rules and "Name: text" glossary bullets; every titled entry becomes a
  rule with the path of headings above it (`rule_outline`);
- *popups* (a web page's rule tooltips): a short title line, an optional flavour line, the
  rules text and a closing bullet-point recap that goes in `summary`; each is a rule with an
  empty section path.

A document is read as an outline when it shows enough outline markers (run-in labels, numbered
steps, "... PHASE" headings); otherwise as popups.
"""
from __future__ import annotations

import re
from typing import Iterator, Sequence

from ...records import Record, Rule
from ..document import HEADING, LIST_ITEM, PARAGRAPH, TABLE, Document
from ...names import title_case
from .parsing import ParseContext
from .rule_text import BRACKETED, ends_sentence, gap_between, is_caps, is_title_like, is_titlecase
from .rule_layout import chapter_headings, recap_box
from .stratagem_lines import SECTION_NUMBER_RE, HeadingPaths, Line, build_lines, document_faction

STEP_RE = re.compile(r"^(?P<num>\d{1,2})\.\s+(?P<title>\S.*)$")
RUNIN_RE = re.compile(r"^(?P<label>[^:]{2,45}?)\s*:\s+(?P<rest>\S.*)$", re.S)
_NOT_LABELS = {"example", "for example", "note", "notes", "designer's note", "when", "target", "effect", "restrictions",
               "keywords", "faction keywords"}
ARMY_RULE = re.compile(r"\bArmy Faction is\b", re.I)


def parse(doc: Document, ctx: ParseContext) -> Iterator[Record]:
    """Every titled rule in the unclaimed blocks of `doc`."""
    lines = build_lines(doc, ctx)
    from .rule_chapter import parse_chapter

    chapter = parse_chapter(lines, ctx)
    if chapter is not None:
        # A printed rule number vouches for the name, even a datasheet word ("3. ABILITIES 02.03").
        return iter(dedupe([r for r in chapter if r.number or plausible_name(r.name)]))
    if outline_markers(lines) >= 5:
        from .rule_outline import parse_outline

        records = parse_outline(lines, ctx)
    else:
        records = parse_popups(lines, ctx, document_faction(doc))
    return iter(dedupe([r for r in records if plausible_name(r.name)]))


def runin(line: Line) -> tuple[str, str] | None:
    """(label, rest) of a "LABEL: text" paragraph or bullet, or None."""
    if line.kind not in (PARAGRAPH, LIST_ITEM):
        return None
    m = RUNIN_RE.match(line.text.strip())
    if not m:
        return None
    label = m.group("label").strip()
    if label.casefold().strip("*# ") in _NOT_LABELS or len(label.split()) > 6:
        return None
    if label[0].islower() or label[0] in "(\"'‘“":
        return None
    if re.search(r"[.;]\s", label) or label.endswith("."):
        return None
    rest = m.group("rest").strip()
    if rest[:1].islower():
        return None  # "Then do this: roll a die" goes on as a sentence; a titled rule restarts with a capital
    return label, m.group("rest").strip()


def outline_markers(lines: Sequence[Line]) -> int:
    """How strongly the unclaimed text reads as an outline (caps run-ins, steps, phases)."""
    count = 0
    prev = None
    for line in lines:
        if not line.usable:
            continue
        ri = runin(line)
        if ri and line.kind == LIST_ITEM and prev is not None and prev.kind == HEADING:
            count += 5  # a heading over "Name: text" bullets: a glossary list
        elif ri and is_caps(ri[0]):
            count += 1
        elif STEP_RE.match(line.text) and is_title_like(STEP_RE.match(line.text).group("title"), 8):
            count += 1
        elif line.kind == HEADING and re.search(r"\bPHASE\b", line.text):
            count += 1
        prev = line
    return count


def rule_name(text: str) -> tuple[str, int | None]:
    """Display name and step number of a title ("2. Battle-shock" -> ("Battle-shock", 2))."""
    text = SECTION_NUMBER_RE.sub("", text.strip().rstrip(":").strip())
    text = BRACKETED.sub(r"\1", text).strip()  # "[LETHAL HITS]": a weapon ability's heading
    step = None
    m = STEP_RE.match(text)
    if m:
        step, text = int(m.group("num")), m.group("title").strip()
    return title_case(text), step


# Datasheet section headings a datasheet parser may leave behind: never rule names.
_DATASHEET_SECTIONS = {"abilities", "unit composition", "wargear options", "wargear abilities", "keywords",
                       "faction keywords", "other wargear", "ranged weapons", "melee weapons", "led by"}


def plausible_name(name: str) -> bool:
    """Whether a title can name a rule: a few words with a real word in them, no garbage
    (table-of-contents dot leaders, replacement characters, whole sentences)."""
    n = name.strip()
    if not n or len(n) > 60 or len(n.split()) > 8 or "\ufffd" in n or "...." in n:
        return False
    if n.casefold() in _DATASHEET_SECTIONS:
        return False
    if re.search(r"[A-Za-z]", n):  # a Latin name needs a real word: not "A.B" or "p. 3"
        return bool(re.search(r"[A-Za-z]{3}", n))
    return sum(c.isalpha() for c in n) >= 2  # names in other scripts (Cyrillic, Greek, Japanese, ...)


def dedupe(records: list[Rule]) -> list[Rule]:
    """One record per (name, section): a repeated rule keeps its fuller text, first place."""
    out: list[Rule] = []
    where: dict[tuple, int] = {}
    for r in records:
        key = (r.name.casefold(), tuple(s.casefold() for s in r.section))
        if key in where:
            old = out[where[key]]
            if len(r.text) > len(old.text):
                out[where[key]] = r
            continue
        where[key] = len(out)
        out.append(r)
    return out


# ---------------------------------------------------------------- popups
def _is_prose(text: str) -> bool:
    t = text.strip()
    words = len(t.split())
    if words < 4 and any("\u2e80" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af" for c in t):
        # Chinese, Japanese and Korean run words together: count characters, two to a word
        words = sum(c.isalpha() for c in t) // 2
        return words >= 4 and (t[-1] in "。！？.!?" or words >= 10)
    return words >= 4 and (ends_sentence(t) or words >= 10)


def _title_at(lines: Sequence[Line], j: int, open_rule: bool) -> bool:
    """Whether line j opens a rule popup (a title with prose or a repeated title after it)."""
    line = lines[j]
    if not line.usable or line.kind == TABLE:
        return False
    text = line.text.strip()
    m = STEP_RE.match(text)
    core = m.group("title") if m else text
    # The cheap test first: a heading needs no word-by-word case check (same answer, no side effects).
    if not is_title_like(core) or not (line.kind == HEADING or is_titlecase(core) or is_caps(core)):
        return False
    nxt = lines[j + 1] if j + 1 < len(lines) else None
    if nxt is None or not nxt.usable:
        return False
    if nxt.kind == HEADING and nxt.text.strip().casefold() == text.casefold():
        return True
    if not (nxt.kind in (PARAGRAPH, LIST_ITEM) and _is_prose(nxt.text)):
        return False
    if open_rule and j > 0 and region(line) is not None and region(line) == region(lines[j - 1]):
        return False  # the loader says this line sits in the same popup as the one before
    if open_rule and j > 0 and lines[j - 1].usable and lines[j - 1].kind == HEADING:
        return False  # a caption or column header inside the popup (a table's first lines)
    if open_rule and line.kind != HEADING and not line.block.is_bold and _gap(lines, j):
        prev = lines[j - 1]
        if prev.usable and prev.kind == PARAGRAPH:
            return False  # a sub-heading inside the popup ("Desperate Escape Tests")
    return True


def _gap(lines: Sequence[Line], j: int) -> bool:
    """True when the loader says a blank line (or more) separates line j from line j-1 (on the
    line view, without copying the blocks: it runs for every candidate title)."""
    return j > 0 and gap_between(lines[j - 1].block, lines[j].block)


def region(line: Line) -> str | None:
    """The popup or page region a loader put the line in (an HTML tooltip id), if any."""
    attrs = line.block.attrs or {}
    return attrs.get("tooltip_id") or attrs.get("region")


def _passable(lines: Sequence[Line], j: int) -> int | None:
    """If a short claimed run at j (a table another parser took) sits inside a popup, the
    position after it; None when the popup ends there."""
    k = j
    while k < len(lines) and lines[k].claimed and k - j < 20:
        k += 1
    if k == j or k >= len(lines) or not lines[k].usable:
        return None
    if lines[k].kind in (PARAGRAPH, LIST_ITEM) and _is_prose(lines[k].text) and not _title_at(lines, k, True):
        return k
    return None


def parse_popups(lines: Sequence[Line], ctx: ParseContext, faction: str | None) -> list[Rule]:
    """Rules from popup-style text: title, flavour, text, summary bullets."""
    records: list[Rule] = []
    j = 0
    n = len(lines)
    roots = chapter_headings(lines)
    heading_path = HeadingPaths(lines)
    root_at = 0
    root: str | None = None
    while j < n:
        if not _title_at(lines, j, False):
            j += 1
            continue
        while root_at < len(roots) and roots[root_at] <= j:
            root = title_case(lines[roots[root_at]].text.strip())
            root_at += 1
        title = lines[j]
        body: list[Line] = []
        k = j + 1
        if k < n and lines[k].kind == HEADING and lines[k].text.strip().casefold() == title.text.strip().casefold():
            k += 1
        fluff_gap = _gap(lines, k) if k < n else False
        while k < n:
            line = lines[k]
            if line.claimed:
                after = _passable(lines, k)
                if after is None:
                    break
                body.extend(lines[k:after])
                k = after
                continue
            if line.junk or _title_at(lines, k, True):
                break
            if region(title) is not None and region(line) is not None and region(line) != region(title):
                break  # the loader marks where each popup ends
            if line.kind != LIST_ITEM and _in_summary(body):
                break  # nothing follows the closing recap inside one popup
            body.append(line)
            k += 1
        # Under the chapter heading above it, else an HTML page's heading levels (h2 "Army
        # Rules" > h3 rule).
        section = (root,) if root is not None and j not in roots else heading_path(j)
        record = _popup_record(title, body, fluff_gap, ctx, faction, section)
        if record is not None:
            records.append(record)
            ctx.claim([title.index] + [b.index for b in body if not b.claimed])
        j = k
    return records


def _in_summary(body: list[Line]) -> bool:
    """Whether the body ends in a bullet recap (bullets not announced by a ":" lead-in)."""
    end = len(body)
    while end > 0 and body[end - 1].kind == LIST_ITEM:
        end -= 1
    return end < len(body) and end > 0 and not body[end - 1].text.rstrip().endswith(":")


def _popup_record(title: Line, body: list[Line], fluff_gap: bool, ctx: ParseContext,
                  faction: str | None, section: tuple[str, ...] = ()) -> Rule | None:
    body = [b for b in body if b.text.strip()]
    if not any(b.kind in (PARAGRAPH, LIST_ITEM) and _is_prose(b.text) for b in body):
        return None
    if len(body) == 1 and body[0].text.rstrip().endswith(":"):
        return None  # only a lead-in whose list the page lost ("can be led by the following units:")
    # The closing recap: the trailing bullets, unless a colon-ended lead-in introduces them.
    end = len(body)
    while end > 0 and body[end - 1].kind == LIST_ITEM and not body[end - 1].claimed:
        end -= 1
    summary: list[str] = []
    if end < len(body) and end > 0 and not body[end - 1].text.rstrip().endswith(":"):
        summary = [b.text.strip() for b in body[end:]]
        body = body[:end]
    elif end == len(body):
        summary, body = recap_box(body)
    fluff = None
    first = body[0] if body else None
    if first is not None and len(body) > 1 and first.kind == PARAGRAPH and (
            first.block.is_italic or "fluff" in str(first.block.attrs.get("class", "")).casefold()
            or (fluff_gap and not first.claimed)):
        fluff = first.text.strip()
        body = body[1:]
    text = _join(body)
    name, step = rule_name(title.text)
    return Rule(name=name, source=ctx.source(title.block.page), edition=ctx.edition, section=section,
                text=text, faction=faction if ARMY_RULE.search(text) else None, fluff=fluff,
                summary=tuple(summary), step=step)


def _join(body: list[Line]) -> str:
    """Paragraphs separated by blank lines; bullets and table rows one per line."""
    out: list[str] = []
    prev_tight = False
    for b in body:
        text = b.text.strip()
        tight = b.kind == LIST_ITEM or b.kind == TABLE or "\t" in text or len(text.split()) <= 8 and not ends_sentence(text)
        if out:
            out.append("\n" if (tight or prev_tight) else "\n\n")
        out.append(text)
        prev_tight = tight
    return "".join(out)
