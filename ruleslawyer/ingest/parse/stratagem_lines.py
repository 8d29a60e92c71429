"""The line view the stratagem parsers walk: every block with its text and state.

Stratagem cards, enhancement and detachment popups are recognised by the shape of a few
consecutive lines ("NAME" / "1CP" / "Group – Category"), so the parsers look at blocks as a
flat list of lines. Claimed blocks stay in the list (as stoppers) so a record never runs
across another parser's block; furniture lines are marked so they end a record too.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from ..document import HEADING, LIST_ITEM, PARAGRAPH, TABLE, Document
from .lines import Line
from .parsing import ParseContext
from ...names import title_case
from .rule_text import is_caps, is_furniture, is_icon, text_of

CP_RE = re.compile(r"^(?P<cp>\d+)\s*CP$", re.I)
# "NAME 1CP", or "NAME (1CP)" as a Markdown rendering of a card heading prints it
NAME_CP_RE = re.compile(r"^(?P<name>.*\S)\s+(?P<open>\()?(?P<cp>\d+)\s*CP(?(open)\))$", re.I)
CP_TYPE_RE = re.compile(r"^(?P<cp>\d+)\s*CP\s+(?P<type>.+)$", re.I)
# A detachment's name may begin with a number: "1st Company Task Force – Battle Tactic".
_GROUP_START = r"(?:[A-Za-z]|\d+(?:st|nd|rd|th)\s+[A-Za-z])"
TYPE_RE = re.compile(
    rf"^(?P<group>{_GROUP_START}[\w'’ .&/-]*?)\s*(?:\s[–—-]\s|[–—])\s*"
    r"(?P<cat>[A-Za-z][A-Za-z'’]*(?: [A-Za-z][A-Za-z'’]*){0,2}?)?(?P<suffix>\s*Stratagem)?$")
DET_RE = re.compile(r"^(?P<group>(?:[A-Z]|\d+(?:st|nd|rd|th)\s+[A-Z])[\w'’ &/-]{1,60}?)\s+Detachment$")
PTS_RE = re.compile(r"^(?P<pts>\d+)\s*pts?$", re.I)
NAME_PTS_RE = re.compile(r"^(?P<name>.*?\S)\s*(?P<pts>\d+)\s*pts?$", re.I)
BULLET_RE = re.compile(r"^(?:[•▪●·]\s*|[-–]\s+)")

# Rules sets every army may use: their stratagems belong to no faction.
UNIVERSAL_GROUPS = {"core", "boarding actions"}


def build_lines(doc: Document, ctx: ParseContext) -> list[Line]:
    """Every block of `doc` as a Line (claimed and junk ones included, marked).

    The texts depend on the document alone, so the lines are made once per parse and shared
    by the parsers that ask (stratagems, then rules: one parser is done with them before the
    next starts); which lines are claimed is read afresh each time, since the parsers in
    between claim blocks."""
    claimed = ctx.claimed
    lines = ctx.memo.get("stratagem_lines")
    if lines is None:
        lines = []
        for i, block in enumerate(doc.blocks):
            text = text_of(block)
            if block.kind != TABLE:
                text = BULLET_RE.sub("", text) if block.kind == LIST_ITEM or text.startswith("•") else text
            lines.append(Line(i, text, block.kind, block, claimed=i in claimed, junk=is_furniture(text)))
        _mend_broken_words(lines, doc)
        ctx.memo["stratagem_lines"] = lines
        return lines
    for line in lines:
        line.claimed = line.index in claimed
    return lines


_CAPS_LINE = re.compile(r"^[A-Z][A-Z'’ -]*[A-Z](?: \d{1,2}\.\d{2})?$")
_FRAGMENT_END = re.compile(r"([A-Z]+)$")
_FRAGMENT_START = re.compile(r"^([A-Z]+)")


def _mend_broken_words(lines: list[Line], doc: Document) -> None:
    """A capitalised title broken inside a word over two lines ("COUNTEROFFENSI" / "VE 15.12",
    as a text dump cuts a narrow column): the second line gets the whole title and the first
    becomes furniture. The joined word must be printed whole elsewhere in the document, and
    one of the pieces must be no word of its running text, so two words are not run together."""
    words: set[str] | None = None  # every word of the document, folded
    prose: set[str] = set()  # the words printed in lower case somewhere (running text)
    for a, b in zip(lines, lines[1:]):
        if a.junk or b.junk or a.kind == TABLE or b.kind == TABLE or a.kind == LIST_ITEM:
            continue
        ta, tb = a.text.strip(), b.text.strip()
        if not (_CAPS_LINE.match(ta) and _CAPS_LINE.match(tb)) or len(ta.split()) > 6 or len(tb.split()) > 4:
            continue
        head, tail = _FRAGMENT_END.search(ta), _FRAGMENT_START.match(tb)
        if not head or not tail:
            continue
        if words is None:
            tokens = re.findall(r"[A-Za-z][A-Za-z'’]*", doc.text)
            words = {t.casefold() for t in tokens}
            prose = {t.casefold() for t in tokens if not t.isupper()}
        left, right = head.group(1), tail.group(1)
        if (left + right).casefold() in words and not (left.casefold() in prose and right.casefold() in prose):
            b.text = ta[:head.start()] + left + right + tb[tail.end():]
            a.text, a.junk = "", True


# "CORE STRATAGEM": a rules-set name with no category (core rules books print it so).
BARE_TYPE_RE = re.compile(rf"^(?P<group>{_GROUP_START}[\w'’ ]{{1,40}}?)\s+STRATAGEM$", re.I)
# A section number after a name in a rules book: "COMMAND RE-ROLL 15.02".
SECTION_NUMBER_RE = re.compile(r"\s+\d{1,2}\.\d{2}$")


def match_type(text: str):
    """(group, category, has "Stratagem" suffix) of a "Group – Category" line, else None."""
    m = BARE_TYPE_RE.match(text.strip())
    if m and not TYPE_RE.match(text.strip()):
        group = title_case(m.group("group").strip())
        return re.sub(r"\b(\d+)(St|Nd|Rd|Th)\b", lambda o: o.group(1) + o.group(2).lower(), group), None, True
    m = TYPE_RE.match(text.strip())
    if not m:
        return None
    category = (m.group("cat") or "").strip()
    if category.casefold() == "stratagem":  # "Grizzled Company – Stratagem": no category printed
        return m.group("group").strip(), None, True
    return m.group("group").strip(), category or None, bool(m.group("suffix"))


def document_faction(doc: Document) -> str | None:
    """The faction a page is about, from its title ("Necrons – Chronomancer"), its faction
    keywords line, or a faction heading; None when the page does not say."""
    blocks = doc.blocks
    # An army rule names its faction: "If your Army Faction is NECRONS, ..."
    m = re.search(r"\bArmy Faction is ([A-Z][A-Z'’\- ]{2,40}?)(?=[,.;:]|\s+[a-z])", doc.text[:200_000])
    if m:
        from .datasheet_text import faction_from_keywords  # "ADEPTUS ASTARTES" is Space Marines

        return faction_from_keywords([m.group(1).strip()]) or title_case(m.group(1).strip())
    candidates = [doc.title or ""] + [blocks[i].text for i in range(min(6, len(blocks)))]
    for text in candidates:
        m = re.match(r"^\s*([A-Z][\w' ]{2,40}?)\s+[–—-]\s+\S", text or "")
        if m:
            return title_case(m.group(1).strip())
    for i, block in enumerate(blocks):
        m = re.match(r"^\s*FACTION KEYWORDS?\s*:?\s*(.*)$", block.text, re.I)
        if m:
            value = m.group(1).strip() or (blocks[i + 1].text.strip() if i + 1 < len(blocks) else "")
            first = value.split(",")[0].strip()
            if first and is_caps(first) and len(first) < 40:
                return title_case(first)
    return None


def heading_path(lines: Sequence[Line], j: int) -> tuple[str, ...]:
    """The headings above the heading at `j` in a page that marks heading levels (HTML h2 > h3),
    outermost first, without the page's own title (level 1): "Army Rules" over "Reanimation
    Protocols". Empty for a line that is no levelled heading, or one in a popup (a tooltip).
    For many lookups in one list, build a `HeadingPaths` once instead."""
    return HeadingPaths(lines)(j)


class HeadingPaths:
    """`heading_path` for every line of one list, from a single pass over it (a page with
    thousands of headings would otherwise be walked back to its start for each one)."""

    def __init__(self, lines: Sequence[Line]):
        self._lines = lines
        self._above: dict[int, tuple[tuple[int, str], ...]] = {}
        stack: list[tuple[int, str]] = []
        for line in lines:
            if line.kind != HEADING or line.block.level < 2 or not line.text.strip():
                continue
            level = line.block.level
            # The levelled headings open above this one: each the nearest earlier heading of a
            # lower level than the one after it, as a reader walking back up the page finds them.
            self._above[line.index] = tuple(stack)
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, line.text.strip()))

    def __call__(self, j: int) -> tuple[str, ...]:
        title = self._lines[j]
        attrs = title.block.attrs or {}
        # Only a loader that read the page's own heading elements says which section a block is
        # in (`attrs["section"]`); a PDF's heading levels are guessed from font sizes.
        if title.kind != HEADING or title.block.level < 2 or "section" not in attrs \
                or attrs.get("tooltip_id") or attrs.get("region"):
            return ()
        level = title.block.level
        return tuple(text for lvl, text in self._above.get(title.index, ()) if lvl < level)


def faction_for(group: str | None, faction: str | None) -> str | None:
    """Universal rules sets (Core, Boarding Actions) have no faction; detachments have the page's."""
    if group and group.strip().casefold() in UNIVERSAL_GROUPS:
        return None
    return faction


def is_badge(line: Line) -> bool:
    """True for an icon letter ("C", "BA") standing alone as a heading or paragraph."""
    return line.kind in (HEADING, PARAGRAPH) and is_icon(line.text)
