"""Small text helpers shared by the FAQ/errata parsers: quotes, colours, lines of an entry.

An FAQ entry reaches the parser as a run of blocks. `Line` is one of them reduced to what
the entry grammar needs: its text, whether it was a bullet or heading, and its colour and page.
"""
from __future__ import annotations

import re

from ..document import HEADING, LIST_ITEM, TABLE, Block
from .lines import Line

# Opening and closing single quotes as printed (straight or curly) and their double forms.
QUOTES = "'\u2018\u2019\u201a\u201b`"
OPENING = "'\u2018\u201b`\u201c\""
CLOSING = "'\u2019\u201d\""

_BULLET = re.compile(r"^\s*(?:[-\u2013\u2014•▪●■]\s+)")


def entry_line(index: int, block: Block, text: str | None = None) -> Line:
    """An Line for block `index`; `text` overrides the block text (a split block)."""
    raw = block.text if text is None else text
    kind = block.kind
    body = normalise_quotes(raw).strip()
    if kind != TABLE and _BULLET.match(body):
        body, kind = _BULLET.sub("", body, count=1), LIST_ITEM
    bold = block.is_bold
    # (a block with no bold span has no bold prefix: its spans are not walked for one)
    lead = "" if bold or text is not None or not any(s.bold for s in block.spans) \
        else normalise_quotes(block.bold_prefix()).strip()
    return Line(index, body, kind, block, bold=bold, italic=block.is_italic,
                color=block.color, page=block.page, rows=block.rows, lead=lead)


def normalise_quotes(text: str) -> str:
    """Curly single quotes and primes become the straight quote; whitespace is collapsed."""
    if "\u2018" in text or "\u2019" in text or "\u201a" in text or "\u201b" in text:
        text = text.translate(_CURLY_SINGLES)
    if "  " in text or "\t" in text or "\u00a0" in text:  # else the substitution changes nothing
        text = _BLANKS.sub(" ", text)
    return text


_CURLY_SINGLES = str.maketrans(dict.fromkeys("\u2018\u2019\u201a\u201b", "'"))
_BLANKS = re.compile(r"[ \t\u00a0]+")


def starts_quoted(text: str) -> bool:
    """True when `text` opens with a quote mark (the start of quoted new wording)."""
    return bool(text) and text[0] in OPENING


def strip_opening(text: str) -> str:
    """`text` without the quote mark that opens quoted wording."""
    return text[1:].lstrip() if starts_quoted(text) else text


def ends_quoted(text: str) -> bool:
    """True when `text` closes quoted wording: a quote mark after the last word or punctuation
    (a full stop printed after the closing quote belongs to the instruction)."""
    t = _outside_stop(text.rstrip())
    return len(t) > 1 and t[-1] in CLOSING and not t[-2].isspace() and not _is_inner_quote(t)


def _is_inner_quote(text: str) -> bool:
    """A trailing quote that closes a quotation opened inside the same line ("... 'move normally'")."""
    body = text[:-1]
    opens = len(re.findall(r"(?:^|[\s(\[])['\u2018\"\u201c]", body))
    closes = len(re.findall(r"['\u2019\"\u201d](?=[\s.,;:!?)\]]|$)", body))
    return opens > closes and not text[-2] in ".!?:;)"


def strip_closing(text: str) -> str:
    """`text` without the quote mark (and any stop after it) that closes quoted wording."""
    t = text.rstrip()
    return _outside_stop(t)[:-1].rstrip() if ends_quoted(t) else t


def _outside_stop(text: str) -> str:
    """ "… weapon'." -> "… weapon'" (the stop after a closing quote)."""
    if len(text) > 2 and text[-1] in ".,;" and text[-2] in CLOSING:
        return text[:-1]
    return text


def highlight_of(color: str | None) -> str | None:
    """The FAQ colour convention: magenta marks new entries, blue revised ones."""
    if not color:
        return None
    c = color.lower()
    rgb = _rgb(c)
    if rgb is None:
        return None
    r, g, b = rgb
    if r > 150 and g < 80 and b > 90:
        return "new"
    if r < 60 and b > 140:  # blue or cyan
        return "revised"
    if r > 170 and g < 80 and b < 80:  # red text marks new entries in some FAQs
        return "new"
    return None


def _rgb(color: str) -> tuple[int, int, int] | None:
    m = re.fullmatch(r"#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})", color)
    if not m:
        return None
    return tuple(int(x, 16) for x in m.groups())  # type: ignore[return-value]


def join_broken(paragraphs: list[str]) -> list[str]:
    """Rejoin a paragraph split mid-sentence (a page or column break): the first part has no
    closing punctuation and the next starts in lower case."""
    out: list[str] = []
    for p in paragraphs:
        if out and p[:1].islower() and not re.search(r"[.:;!?'\")]$", out[-1]) \
                and not out[-1].startswith("- "):
            out[-1] = out[-1].rstrip() + " " + p.lstrip()
        else:
            out.append(p)
    return out


def is_heading_like(line: Line) -> bool:
    """A short line that names something: a heading block, or a bold/ALL-CAPS short line."""
    if line.kind == HEADING:
        return True
    t = line.text.strip()
    if not t or len(t) > 110 or re.search(r"[.:;]$", t):
        return False
    letters = [c for c in t if c.isalpha()]
    return bool(letters) and (line.bold or not any(c.islower() for c in letters))


# "… used during a phase. Breakout Stratagem.": a short sentence-like tail after a full stop.
_TRAILING_FRAGMENT = re.compile(r"(?<=[.!?])\s+(?P<frag>[A-Z][\w'\u2019-]*(?:\s+[\w'\u2019-]+){0,3}[.!?])$")


def drop_stray_endings(bullets: list[str]) -> list[str]:
    """The bullets with a stray tail removed: a short fragment after the last full stop that is
    the end of a longer sentence in another bullet.

    A wrapped line printed twice leaves one ("… used during a phase. Breakout Stratagem." next
    to "… precedence over the Desperate Breakout Stratagem."). A tail that is a sentence of its
    own in the other bullet too ("… phase. See page 12." twice) is kept.
    """
    out = []
    for n, bullet in enumerate(bullets):
        m = _TRAILING_FRAGMENT.search(bullet)
        if m:
            inside = re.compile(rf"[\w,;]\s+{re.escape(m.group('frag'))}$")
            if any(k != n and inside.search(other) for k, other in enumerate(bullets)):
                bullet = bullet[:m.start()]
        out.append(bullet)
    return out


# A Markdown heading a conversion ran onto the end of the wording above it ("… re-roll a Hit
# roll of 1.'# ORKS"): its line break was lost, not its "#".
_GLUED_HEADING = re.compile(r"^(?P<text>.*?[.!?'\"\u2019\u201d])#{1,6}\s+(?P<heading>\S.{0,100})$")


def split_glued_headings(lines: list[Line]) -> list[Line]:
    """The lines with a heading run onto the end of a paragraph split off as a heading line."""
    out: list[Line] = []
    for line in lines:
        m = None if line.is_table or line.kind == HEADING else _GLUED_HEADING.match(line.text)
        if m is None:
            out.append(line)
            continue
        out.append(line.replace(text=m.group("text").strip()))
        out.append(line.replace(text=m.group("heading").strip(), kind=HEADING, bold=True, lead=""))
    return out
