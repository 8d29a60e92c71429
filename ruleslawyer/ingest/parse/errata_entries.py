"""The grammar of one errata entry: a page-reference header, an instruction, the new wording.

    Page 42 – Banner Bearer                       header: page "42", target "Banner Bearer"
    Change this rule to read: 'While a unit …'    instruction -> operation replace, location null
    - Adds 1 to Leadership …                      after the closing quote: the bullet summary

`parse_header(text)` reads the header; `parse_entry(header, lines)` reads the rest and returns
the fields of an `Erratum` (operation, location, text, title, bullets, designer's note).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errata_text import (EntryLine, ends_quoted, join_broken, starts_quoted, strip_closing, strip_opening, title_case)

# "Page 219 – Look Out, Sir", "*Pages 333-335 – …", "Page 363, Rare Rules", "Page 247",
# "Pages 91 and 103 – Sanctus and Ranged Weapons list, …"
_PAGE_REF = r"\d+(?:\s*(?:[-\u2013\u2014]|and|&|,)\s*\d+)*"
HEADER = re.compile(
    rf"^\s*(?P<star>\*)?\s*Pages?\s+(?P<page>{_PAGE_REF})\s*(?:(?:[-\u2013\u2014:]|,)\s*(?P<title>.*?))?\s*$",
    re.I)
_ORDINAL = (r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final|"
            r"penultimate|\d+(?:st|nd|rd|th))")
# A comma part of a header that names a place inside the target, not a rule.
_LOCATION_PART = re.compile(rf"^(?:the\s+)?{_ORDINAL}\s+(?:paragraph|sentence|bullet(?: point)?|line)s?$", re.I)
_VERB = re.compile(r"^(?:change|add|delete|remove|replace|insert|substitute|amend|in the\b|the\b.*\bshould)",
                   re.I)
_DESIGNERS_NOTE = re.compile(r"^designer'?s note\s*:\s*", re.I)

# "Change the third sentence of the first paragraph to read:", "Change to read:",
# "Change third sentence to read:", "Change the fourth bullet point of … to:"
_CHANGE = re.compile(r"^(?:change|amend|replace)\s*(?P<what>.*?)\s*(?:to\s+read|to\s+say|with)\s*(?::|\.|$)",
                     re.I)
_CHANGE_TO = re.compile(r"^(?:change|amend)\s+(?:(?P<what>.+?)\s+)?to\s*:\s*", re.I)
_ADD = re.compile(r"^(?:add|insert)\s+the\s+followings?(?P<unit>(?:\s+(?!to\b)[\w'-]+){0,3}?)"
                  r"(?:\s+(?:to|at|after|before)\s+(?P<where>.+?))?\s*:", re.I)
# Index-card errata: "Change to 'text'", "Add '[PISTOL]'.", "Add close combat weapon profile:",
# "Add additional sub-bullet to read:".
_CHANGE_TO_QUOTE = re.compile(r"^(?:change|amend)\s+to\s*(?=['\"\u201c])", re.I)
_ADD_QUOTE = re.compile(r"^(?:add|insert)\s+(?=['\"\u201c])", re.I)
_ADD_UNIT = re.compile(r"^(?:add|insert)\s+(?:an?\s+)?(?P<unit>[A-Za-z][\w\[\]' -]{0,50}?),?(?:\s+to\s+read)?\s*:\s*",
                       re.I)
_QUOTE_THEN_PLACE = re.compile(r"^['\"\u201c](?P<quoted>.+?)['\"\u201d]\s+to\s+(?P<where>the\s+(?:start|end|beginning)"
                               r"\s+of\s+.+?)\.?$", re.I)
_DELETE = re.compile(r"^(?:delete|remove)\s+(?P<what>.+?)\s*[.:]?$", re.I)
_RENUMBER_VALUE = re.compile(r"^(?:add|subtract)\s+\w+\s+(?:to|from)\s+the\s+(?:numerical\s+)?values?\s+of\s+"
                             r"(?P<what>.+?)(?:,\s*e\.g\..*)?\.?$", re.I)
_CHANGE_MECH = re.compile(r"^change\s+(?P<what>.+?)\s+to\s+(?!read\b)(?:each\s+)?(?:be\s+)?.+$", re.I)
_APPEND_UNITS = {"sentence", "sentences", "paragraph", "paragraphs", "words", "text", "line", "lines",
                 "bullet", "bullets", "bullet point", "bullet points"}


@dataclass(frozen=True)
class Header:
    """A parsed "Page N – Title" line."""

    page: str
    target: str | None
    location: str | None
    starred: bool = False


def parse_header(text: str) -> Header | None:
    """The page, target and location of an entry header, or None when `text` is not one."""
    m = HEADER.match(text.replace("\u00a0", " "))
    if not m:
        return None
    title = (m.group("title") or "").strip().rstrip(".").strip()
    if title and _VERB.match(title):  # "Page 12: Change …" would be prose, not a header
        return None
    page = re.sub(r"\s*[\u2013\u2014-]\s*", "-", m.group("page").strip())
    if not title:
        return Header(page, None, None, bool(m.group("star")))
    parts = [p.strip() for p in title.split(",")]
    loc_parts: list[str] = []
    while len(parts) > 1 and _LOCATION_PART.match(parts[-1]):
        loc_parts.insert(0, parts.pop())
    target = ", ".join(p for p in parts if p) or None
    location = ", ".join(re.sub(r"^the\s+", "", p, flags=re.I) for p in loc_parts) or None
    return Header(page, target, location, bool(m.group("star")))


def is_instruction(text: str) -> bool:
    """True for an editing instruction ("Change …", "Add the following …", "Delete …")."""
    t = text.strip()
    return bool(_CHANGE.match(t) or _CHANGE_TO.match(t) or _ADD.match(t) or _DELETE.match(t)
                or _RENUMBER_VALUE.match(t) or _CHANGE_MECH.match(t) or _CHANGE_TO_QUOTE.match(t)
                or _ADD_QUOTE.match(t) or _ADD_UNIT.match(t))


@dataclass
class EntryFields:
    """What `parse_entry` found; the fields of an Erratum besides document and source."""

    operation: str
    location: str | None
    text: str
    title: str | None = None
    bullets: list[str] = field(default_factory=list)
    designers_note: str | None = None


@dataclass
class _Instruction:
    operation: str
    location: str | None
    needs_body: bool
    unit: str = ""
    rest: str = ""  # text after the instruction's colon on the same line


def _place(phrase: str | None) -> str | None:
    """The location named by an instruction phrase: "the end of the third paragraph" ->
    "end of the third paragraph"; "this rule" / "this box out" (the whole target) -> None."""
    if not phrase:
        return None
    p = re.sub(r"\s+", " ", phrase.strip().rstrip(":,."))
    p = re.sub(r"^the\s+", "", p, flags=re.I)
    if not p or re.match(r"^(?:this|that|it)\b", p, re.I):
        return None
    return p


def read_instruction(text: str, header: Header) -> _Instruction:
    """Operation and location of an instruction line, and any wording after its colon."""
    t = text.strip()
    m = _ADD.match(t)
    if m:
        unit = re.sub(r"\s+", " ", (m.group("unit") or "").strip().lower())
        where = m.group("where")
        rest = t[m.end():].strip()
        appends = bool(where) or unit in _APPEND_UNITS
        location = _place(where) if where else header.location
        return _Instruction("append" if appends else "add", location, True, unit, rest)
    m = _CHANGE_TO_QUOTE.match(t)
    if m:
        return _Instruction("replace", header.location, True, "", t[m.end():].strip())
    m = _ADD_QUOTE.match(t)
    if m:
        return _Instruction("append", header.location, True, "", t[m.end():].strip())
    m = _CHANGE.match(t) or _CHANGE_TO.match(t)
    if m:
        rest = t[m.end():].strip()
        what = m.group("what")
        location = _place(what) if what and not re.match(r"^(?:this|it)\b", what.strip(), re.I) \
            else header.location
        return _Instruction("replace", location, True, "", rest)
    m = _ADD_UNIT.match(t)
    if m and not _RENUMBER_VALUE.match(t):
        unit = re.sub(r"^(?:additional|new)\s+", "", m.group("unit").strip().lower())
        last = unit.split()[-1] if unit.split() else ""
        appends = last.replace("sub-", "") in _APPEND_UNITS or last.rstrip("s") in ("sentence", "bullet", "sub-bullet")
        return _Instruction("append" if appends else "add", header.location, True, unit, t[m.end():].strip())
    m = _DELETE.match(t)
    if m:
        return _Instruction("delete", _place(m.group("what")) or header.location, False)
    m = _RENUMBER_VALUE.match(t)
    if m:
        return _Instruction("renumber", _place(m.group("what")), False)
    m = _CHANGE_MECH.match(t)
    if m:
        return _Instruction("renumber", _place(m.group("what")), False)
    return _Instruction("replace", header.location, True, "", "")


def _split_inline(text: str) -> tuple[str, str]:
    """Split "Change this rule to read: 'While a unit …" at the colon before the wording."""
    m = re.search(r":\s*(?=['\u2018\"\u201c])", text)
    if m:
        return text[:m.start() + 1].strip(), text[m.end():].strip()
    m = _CHANGE_TO_QUOTE.match(text) or _ADD_QUOTE.match(text)
    if m:
        return text[:m.end()].strip(), text[m.end():].strip()
    return text, ""


def parse_entry(header: Header, lines: list[EntryLine]) -> EntryFields:
    """Read the instruction and wording of one entry (the blocks after its header)."""
    if not lines:
        return EntryFields("replace", header.location, "")
    first, rest_lines = lines[0], list(lines[1:])
    instruction_text, inline = _split_inline(first.text)
    instr = read_instruction(first.text if inline else instruction_text, header)
    m = _QUOTE_THEN_PLACE.match(inline)
    if m:  # "Add 'Once per phase,' to the start of this paragraph."
        inline = m.group("quoted")
        where = _place(m.group("where"))
        # "to the start of this paragraph" under a header naming the paragraph ("4th paragraph")
        if where and header.location and re.search(r"\bthis paragraph$", where):
            where = re.sub(r"this paragraph$", f"the {header.location}", where)
        instr.location = where or instr.location
    if not inline and instr.rest:
        inline = instr.rest
    body: list[EntryLine] = []
    if inline:
        body.append(EntryLine(first.index, inline, first.kind if first.is_bullet else "paragraph",
                              color=first.color, page=first.page))
    body.extend(rest_lines)

    designers_note = None
    extra_bullets: list[str] = []
    main: list[EntryLine] = []
    i = 0
    while i < len(body):
        line = body[i]
        m = _DESIGNERS_NOTE.match(line.text)
        if m:
            designers_note = line.text[m.end():].strip()
            i += 1
            continue
        if is_instruction(line.text) and main:
            # A second instruction under the same header: "Add this bullet point to the
            # … summary:" brings bullets; other wording joins the entry's text.
            sub = read_instruction(_split_inline(line.text)[0], header)
            tail = _split_inline(line.text)[1]
            group = ([EntryLine(line.index, tail, "paragraph")] if tail else [])
            i += 1
            while i < len(body) and not is_instruction(body[i].text) \
                    and not _DESIGNERS_NOTE.match(body[i].text):
                group.append(body[i])
                i += 1
            if "bullet" in sub.unit or "summary" in line.text.lower():
                extra_bullets.extend(_unquote(g.text) for g in group)
            else:
                main.extend(group)
            continue
        main.append(line)
        i += 1

    if not main and not instr.needs_body:
        return EntryFields(instr.operation, instr.location, instruction_text.strip(),
                           designers_note=designers_note)
    if not main:
        # An instruction with nothing after it is a mechanical change: keep its words.
        return EntryFields("renumber" if instr.operation == "replace" else instr.operation,
                           instr.location, instruction_text.strip(), designers_note=designers_note)

    title = None
    if instr.operation == "add":
        title, main = _take_title(main)
    text_lines, bullets = _split_wording(main)
    text = "\n".join(join_broken(text_lines))
    return EntryFields(instr.operation, instr.location, text, title, bullets + extra_bullets,
                       designers_note)


def _unquote(text: str) -> str:
    return strip_closing(strip_opening(text.strip()))


def _take_title(lines: list[EntryLine]) -> tuple[str | None, list[EntryLine]]:
    """The title of an added rule: a short first line ("Charging Aircraft"), or the term of a
    glossary line ("Charge Distance: The result of …")."""
    first = lines[0]
    t = first.text.strip()
    if starts_quoted(t) or first.is_table:
        return None, lines
    lead = first.lead.strip()
    if lead and not lead.endswith(":") and len(lead.split()) <= 16 and t.startswith(lead):
        # A bold title run into its first paragraph (a PDF line join).
        rest = EntryLine(first.index, t[len(lead):].strip(), first.kind, color=first.color, page=first.page)
        return title_case(lead), [rest] + lines[1:]
    words = t.split()
    if 0 < len(words) <= 16 and not re.search(r"[.;:,]$", t) and not first.is_bullet and len(lines) > 1:
        return title_case(t), lines[1:]
    m = re.match(r"^([^:.]{2,70}?):\s+(\S.*)$", t)
    if m and not first.is_bullet:
        rest = EntryLine(first.index, m.group(2), first.kind, color=first.color, page=first.page)
        return title_case(m.group(1).strip()), [rest] + lines[1:]
    return None, lines


def _split_wording(lines: list[EntryLine]) -> tuple[list[str], list[str]]:
    """Split entry lines into the new wording and the bullet summary printed after it.

    Quoted wording runs to its closing quote; bullets after it are the summary, other
    paragraphs continue the wording (a stray closing quote mid-way). Unquoted wording takes
    everything except the trailing bullets, which are the summary.
    """
    texts: list[str] = []
    bullets: list[str] = []
    quoted = starts_quoted(lines[0].text)
    if quoted:
        closed = False
        for n, line in enumerate(lines):
            t = line.text.strip()
            if n == 0:
                t = strip_opening(t)
            if closed and line.is_bullet:
                bullets.append(_unquote(t))
                continue
            if ends_quoted(t):
                t = strip_closing(t)
                closed = True
            elif closed and starts_quoted(t):
                t = strip_opening(t)
            if not line.is_bullet and re.match(r"^[\u25a0\u2022\u25aa\u25cf]\s*", t):
                t = "- " + re.sub(r"^[\u25a0\u2022\u25aa\u25cf]\s*", "", t)  # a bullet glyph inside the quote
            # "- 'They control …'": the marker sits outside the quote, so it is not wording.
            texts.append(t if n == 0 else _as_text(line, t))
        return [t for t in texts if t], bullets
    last_text = max((n for n, line in enumerate(lines) if not line.is_bullet), default=-1)
    for n, line in enumerate(lines):
        t = line.text.strip()
        if line.is_bullet and n > last_text >= 0:
            bullets.append(_unquote(t))
        else:
            texts.append(_as_text(line, strip_closing(t) if n == last_text else t))
    return [t for t in texts if t], bullets


def _as_text(line: EntryLine, text: str) -> str:
    if line.is_table:
        return "\n".join("\t".join(r) for r in line.rows)
    return f"- {text}" if line.is_bullet else text
