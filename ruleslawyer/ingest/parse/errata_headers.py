"""Entry headers of FAQ/errata documents as they reach the parser: the section headings
("UPDATES & ERRATA", "FAQS", "DESIGNER'S NOTES"), unpaged index-card headers ("Mortifiers –
Abilities, Anguish of the Unredeemed" in bold over an instruction, perhaps wrapped), paged headers
wrapped onto a second line, and headers a loader ran into the block before or after them.
"""
from __future__ import annotations

import re

from ..document import HEADING
from .errata_grammar import Header, is_edit, is_instruction, numbered_header, parse_header
from .lines import Line, record_name
from .errata_text import normalise_quotes

_NOTES_HEADING = re.compile(r"^designer'?s\s+notes?$|^designers'\s+notes?$", re.I)
_ERRATA_HEADING = re.compile(r"^(?:updates?\s*(?:&|and)\s*errata|errata|updates|amendments|(?:core\s+)?rules\s+updates?|"
                             r"errata\s*(?:&|and)\s*amendments)$", re.I)
_FAQ_HEADING = re.compile(r"^(?:faqs?|frequently asked questions|questions?\s*(?:&|and)\s*answers|q\s*&\s*a)$",
                          re.I)
# "Mortifiers – Abilities, Anguish of the Unredeemed": an unpaged entry header of index-card errata.
DASH_HEADER = re.compile(r"^(?P<title>[^\u2013\u2014]{2,80}?)\s+[\u2013\u2014-]\s+(?P<rest>.{2,160})$")
# "Aegis Defence Line": a dashless one (a name, not a sentence and not quoted wording).
_BARE_HEADER = re.compile(r"^[A-Z][^.:;'\"\u2018\u2019\u201c\u201d]{1,120}$")


def dash_path(text: str) -> str:
    """An unpaged header's path as the errata write it: the parts a document prints with dashes
    ("Khorne Berzerkers – Jakhals – Icon of Khorne Wargear Ability") joined with ", " (records.md:
    unpaged errata). The last part stays in the path: it is what changes, not a place inside it."""
    return re.sub(r"\s+[\u2013\u2014-]\s+", ", ", text.strip())


_INSTRUCTION_START = re.compile(r"\s(?=(?:Change|Add|Delete|Remove|Replace|Insert)\b)")


def split_run_in_headers(lines: list[Line]) -> list[Line]:
    """Split "Page 93 – Deathleaper, … Skin Change the second sentence to read:" (a header and
    its instruction joined into one block) into the header and the instruction, and a header
    run onto the end of the wording above it ("… (pg 78).' *Page 91 – Sanctus, …")."""
    out: list[Line] = []
    for n, line in enumerate(lines):
        tail = _trailing_header(line.text, lines[n + 1] if n + 1 < len(lines) else None)
        if tail is not None:
            # The break between the wording and the header was lost (a column or page turn): the
            # header goes with the instruction after it, on that instruction's page.
            out.append(line.replace(text=line.text[:tail].rstrip(), lead=""))
            page = lines[n + 1].page if n + 1 < len(lines) and lines[n + 1].page is not None else line.page
            line = line.replace(text=line.text[tail:].strip(), bold=True, lead="", kind="paragraph",
                                       page=page)
        header = parse_header(line.text)
        cut = None
        if header and header.target:
            for m in _INSTRUCTION_START.finditer(line.text):
                if is_instruction(line.text[m.end():]) and parse_header(line.text[:m.start()]):
                    cut = m
                    break
        if cut is None:
            out.append(line)
            continue
        out.append(line.replace(text=line.text[:cut.start()].strip(), bold=True, lead=""))
        out.append(line.replace(text=line.text[cut.end():].strip(), bold=False, lead=""))
    return out


# The end of quoted wording, then what may be the next entry's header run onto the same block.
_WORDING_END = re.compile(r"[.!?]?['\u201d]\.?\s+(?=\S)")


def _trailing_header(text: str, after: Line | None) -> int | None:
    """Where a header run onto the end of quoted wording starts, or None: a "Page N – Title"
    (its instruction on the same block or the next), or an unpaged "Unit – Section" followed by
    an instruction."""
    if "'" not in text and "\u201d" not in text:
        return None  # no quoted wording ends in it (most lines of most documents)
    for m in _WORDING_END.finditer(text):
        tail = text[m.end():]
        header = parse_header(tail)
        if header and header.target:
            return m.end()
        if header is None and DASH_HEADER.match(tail) and after is not None and is_instruction(after.text) \
                and not is_instruction(tail) and not re.search(r"[.:;!?]$", tail):
            return m.end()
    return None


def section_of(line: Line) -> str | None:
    """"notes", "errata" or "faq" for a section heading of an FAQ document, else None."""
    t = re.sub(r"\s+", " ", line.text.strip().strip(":")).strip()
    if len(t) > 40:
        return None
    if _NOTES_HEADING.match(t):
        return "notes"
    if _ERRATA_HEADING.match(t):
        return "errata"
    if _FAQ_HEADING.match(t):
        return "faq"
    return None


def dash_header(lines: list[Line], n: int, bare: bool = False) -> Header | None:
    """An unpaged bold entry header ("Mortifiers – Abilities, …") directly above an instruction,
    perhaps wrapped onto a second bold line; with `bare`, also one without a dash ("Astra
    Militarum Infantry Armoury Card, asterisk note")."""
    line = lines[n]
    if not line.bold or line.kind == HEADING:
        return None
    end = wrapped_end(lines, n)
    if end >= len(lines) or not is_instruction(lines[end].text):
        return None
    text = " ".join(x.text.strip() for x in lines[n:end])
    m = DASH_HEADER.match(text)
    if m:
        title = f"{m.group('title').strip()}, {m.group('rest').strip()}"
    elif bare and _BARE_HEADER.match(text) and not is_instruction(text):
        title = text
    else:
        return None
    # The whole heading is the target: with no page reference, "Unit – Section, 2nd sentence" is
    # one path into the card, and only the instruction names a place of its own (records.md).
    return Header("", title.strip().rstrip("."), None)


_WRAPS = (",", " and", " &", "–", "-")


def wrapped_end(lines: list[Line], n: int) -> int:
    """Where the bold header at `n` ends: after the bold lines it wraps onto ("… Ranged Weapons," /
    "accelerator burst cannon"), at most two."""
    end = n + 1
    while end < len(lines) and end - n <= 2 and lines[end].bold and not is_instruction(lines[end].text) \
            and lines[end - 1].text.rstrip().endswith(_WRAPS):
        end += 1
    return end


def full_header(lines: list[Line], n: int, header: Header) -> tuple[Header, int]:
    """Join a header that wraps onto the next line ("… Heroic Deeds," / "Heroic Inspiration")."""
    if not header.page:  # an unpaged header: _dash_header has read its wrapped lines already
        return header, wrapped_end(lines, n)
    text = lines[n].text.strip()
    n += 1
    while n < len(lines) and header.target:
        nxt = lines[n]
        wraps = text.rstrip().endswith(_WRAPS) or (lines[n - 1].bold and nxt.bold)
        if not wraps or is_instruction(nxt.text) or parse_header(nxt.text) or section_of(nxt) \
                or len(nxt.text) > 80:
            break
        text = f"{text.rstrip()} {nxt.text.strip()}"
        reparsed = parse_header(text)
        if reparsed is None:
            break
        header = Header(header.page or reparsed.page, reparsed.target, reparsed.location, header.starred)
        n += 1
    return header, n


def expand_entry_tables(lines: list[Line]) -> list[Line]:
    """A table whose rows are entries ("Page 79 – Canoptek Court, …" | "Change the Effect to
    read: '…'") read as a header line and an instruction line per row; other tables as they are."""
    out: list[Line] = []
    for line in lines:
        rows = [[c.strip() for c in r if c and c.strip()] for r in line.rows] if line.is_table else []
        if not rows or not all(len(r) == 2 and is_instruction(normalise_quotes(r[1])) and
                               (parse_header(r[0]) or DASH_HEADER.match(r[0]) or len(r[0].split()) <= 16)
                               for r in rows):
            out.append(line)
            continue
        for head, instruction in rows:
            out.append(line.replace(text=normalise_quotes(head), kind="paragraph", bold=True, rows=()))
            out.append(line.replace(text=normalise_quotes(instruction), kind="paragraph", rows=()))
    return out


# Page furniture a text or Markdown conversion leaves between entries: a page number alone, a
# rule ("---"), a running footer (the document's title and a page number).
_FURNITURE = re.compile(r"^(?:\d{1,3}|-{3,}|\*{3,}|_{3,})$")
_FOOTER = re.compile(r"^(?P<title>[A-Z][A-Z0-9 :,'&\u2019-]{3,60}?)\s+\d{1,3}$")


def without_furniture(lines: list[Line]) -> list[Line]:
    """The lines without page numbers, rules and running footers ("CODEX: GENESTEALER CULTS 1",
    printed in capitals at the foot of each page and matching a title line above)."""
    titles = {re.sub(r"\s+", " ", ln.text.strip()).upper() for ln in lines[:60]}
    out = []
    for line in lines:
        t = line.text.strip()
        if line.is_table or line.kind == HEADING and not _FURNITURE.match(t):
            out.append(line)
            continue
        m = _FOOTER.match(t)
        # (a PDF's loader drops its page numbers itself; a number there is a table cell)
        if (_FURNITURE.match(t) and line.page is None) or \
                (m and any(x.startswith(m.group("title")) for x in titles if x != t)):
            continue
        out.append(line)
    return out


# A title line: a name, not a sentence (no stop at its end, no quote opening it, few words); an
# apostrophe inside a word is part of a name ("Berzerker's Wrath Stratagem").
_TITLE_LINE = re.compile(r"^[A-Za-z0-9\[](?:[^:;'\"\u2018\u201c\u2019]|(?<=\w)['\u2019](?=\w)){1,150}$")


def titled_header(lines: list[Line], n: int) -> tuple[Header, int] | None:
    """(header, index after it) for a header that names its target without a page: a rule
    number ("18.01 Stratagems, 2nd paragraph") or a title ("Khorne Berzerkers, Blood Surge
    Ability"), perhaps wrapped onto a second line, directly above an edit ("Change to:")."""
    first = lines[n].text.strip()
    for end in (n + 1, n + 2):
        if end >= len(lines) or not is_edit(lines[end].text):
            continue
        parts = [x.text.strip() for x in lines[n:end]]
        if end == n + 2 and (is_edit(parts[1]) or section_of(lines[n + 1]) or lines[n + 1].is_table
                             or numbered_header(parts[1]) or HEADING in (lines[n].kind, lines[n + 1].kind)
                             or (lines[n].bold and not lines[n + 1].bold)):
            return None  # two lines of different kinds: the first is no part of the header
        text = " ".join(parts)
        if lines[n].is_table or section_of(lines[n]) or re.match(r"^[QA]\s*[:.]", first) \
                or any(is_instruction(p) or parse_header(p) or re.search(r"[.!?]$", p) for p in parts):
            return None
        header = numbered_header(text)
        if header is None:
            if not _TITLE_LINE.match(text) or re.search(r"[.!?]$", text) or len(text.split()) > 24:
                return None
            title = dash_path(text)
            header = Header("", title, None)
        target = record_name(header.target) if header.target else None
        return Header(header.page, target, header.location), end
    return None


# "Profile: Change M to 12" and OC to '-'." under a unit's name: the part, then its edit(s).
_LABELLED_EDIT = re.compile(r"^(?P<label>[A-Z][A-Za-z ]{1,30}):\s+(?P<edit>\S.*)$")
_TWO_CHANGES = re.compile(r"^(?P<first>change\s+\S+\s+to\s+\S+)\s+and\s+(?P<second>\S+\s+to\s+\S+?)\.?$", re.I)


def expand_labelled_edits(lines: list[Line]) -> list[Line]:
    """A title over bullets that each name a part and its edit ("Heldrake" / "▪ Profile: Change
    M to 12" and OC to '-'." / "▪ Keywords: Remove 'AIRCRAFT'.") read as one titled header per
    part ("Heldrake, Profile") over its edit; "Change A to x and B to y" as two edits."""
    out: list[Line] = []
    n = 0
    while n < len(lines):
        line = lines[n]
        items = []
        k = n + 1
        while k < len(lines) and lines[k].is_bullet and (m := _LABELLED_EDIT.match(lines[k].text)) \
                and is_instruction(m.group("edit")):
            items.append((lines[k], m))
            k += 1
        title = line.text.strip()
        if not items or line.is_bullet or line.is_table or not _TITLE_LINE.match(title) or section_of(line):
            out.append(line)
            n += 1
            continue
        for item, m in items:
            out.append(item.replace(text=f"{title}, {m.group('label')}", kind="paragraph", bold=True))
            edit = m.group("edit").strip()
            two = _TWO_CHANGES.match(edit)
            edits = [f"{two.group('first')}.", f"Change {two.group('second')}."] if two else [edit]
            out.extend(item.replace(text=e, kind="paragraph", bold=False) for e in edits)
        n = k
    return out
