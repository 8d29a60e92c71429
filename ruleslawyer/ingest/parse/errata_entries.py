"""The grammar of one errata entry: a page-reference header, an instruction, the new wording.

    Page 42 – Banner Bearer                       header: page "42", target "Banner Bearer"
    Change this rule to read: 'While a unit …'    instruction -> operation replace, location null
    - Adds 1 to Leadership …                      after the closing quote: the bullet summary

`parse_header(text)` reads the header and `read_instruction` an instruction line (both in
errata_grammar.py); `parse_entries(header, lines)` reads the rest and returns the fields of one
`Erratum` per instruction (operation, location, text, title, bullets, designer's note).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errata_grammar import (Header, adds_the_following, is_instruction, parse_header, quote_then_place, quoted_list,
                             read_instruction, split_inline, value_change)
from .lines import Line, record_name
from .errata_text import ends_quoted, join_broken, starts_quoted, strip_closing, strip_opening

__all__ = ["EntryFields", "Header", "is_instruction", "parse_entries", "parse_entry", "parse_header",
           "read_instruction"]

DESIGNERS_NOTE = re.compile(r"^designer'?s note\s*:\s*", re.I)


@dataclass
class EntryFields:
    """What `parse_entry` found; the fields of an Erratum besides document and source."""

    operation: str
    location: str | None
    text: str
    title: str | None = None
    bullets: list[str] = field(default_factory=list)
    designers_note: str | None = None
    old_text: str | None = None  # the quoted wording a "Change '…' to '…'" replaces
    page: int | None = None  # the page the instruction is printed on


def parse_entries(header: Header, lines: list[Line]) -> list[EntryFields]:
    """Read the instructions under one header: one EntryFields per instruction.

    A header can carry several instructions ("Change 2nd bullet to: '…'" then "Add the following
    bullet: '…'"): each is an amendment of its own. An instruction inside quoted wording is
    wording, and one that adds bullets to a rule's summary belongs to the instruction above it.
    """
    groups: list[list[Line]] = []
    open_quote = False
    for line in lines:
        t = line.text.strip()
        if groups and not open_quote and is_instruction(t) and "summary" not in t.lower():
            groups.append([line])
        elif groups:
            groups[-1].append(line)
        else:
            groups.append([line])
        wording = split_inline(t)[1] if len(groups[-1]) == 1 else t
        if not open_quote and starts_quoted(wording) and not ends_quoted(wording):
            open_quote = True
        elif open_quote and ends_quoted(t):
            open_quote = False
    fields = [parse_entry(header, group) for group in groups] if groups else [parse_entry(header, [])]
    for f, group in zip(fields, groups):
        f.page = group[0].page
    return fields


def _joined_instruction(lines: list[Line]) -> list[Line]:
    """An instruction wrapped onto the next line ("Add '…' to the end of each of" / "these
    sub-bullets.") read as one line."""
    first = lines[0]
    while len(lines) > 1 and not re.search(r"[.:;'\"\u201d]$", first.text.strip()) \
            and lines[1].text[:1].islower() and not lines[1].is_table and not lines[1].is_bullet:
        first = Line(first.index, f"{first.text.rstrip()} {lines[1].text.strip()}", first.kind, bold=first.bold,
                     italic=first.italic, color=first.color, page=first.page, rows=first.rows, lead=first.lead)
        lines = [first] + lines[2:]
    return lines


def parse_entry(header: Header, lines: list[Line]) -> EntryFields:
    """Read one instruction and its wording (the blocks after its header)."""
    if not lines:
        return EntryFields("replace", header.location, "")
    lines = _joined_instruction(lines) if is_instruction(lines[0].text) else lines
    first, rest_lines = lines[0], list(lines[1:])
    value = value_change(first.text)
    if value and not rest_lines:
        # "Change AP to '-2'.": the value is the new wording, the thing named its place.
        where, new, old = value
        return EntryFields("replace", where or header.location, new, old_text=old)
    instruction_text, inline = split_inline(first.text)
    instr = read_instruction(first.text if inline else instruction_text, header)
    placed = quote_then_place(inline)
    if placed:  # "Add 'Once per phase,' to the start of this paragraph."
        inline, where = placed
        # "to the start of this paragraph" under a header naming the paragraph ("4th paragraph")
        if where and header.location and re.search(r"\bthis paragraph$", where):
            where = re.sub(r"this paragraph$", f"the {header.location}", where)
        instr.location = where or instr.location
    if not inline and instr.rest:
        inline = instr.rest
    body: list[Line] = []
    if inline:
        body.append(Line(first.index, inline, first.kind if first.is_bullet else "paragraph",
                         color=first.color, page=first.page))
    body.extend(rest_lines)

    designers_note = None
    extra_bullets: list[str] = []
    main: list[Line] = []
    i = 0
    while i < len(body):
        line = body[i]
        m = DESIGNERS_NOTE.match(line.text)
        if m:
            designers_note = line.text[m.end():].strip()
            i += 1
            continue
        if is_instruction(line.text) and main:
            # A second instruction under the same header: "Add this bullet point to the
            # … summary:" brings bullets; other wording joins the entry's text.
            sub = read_instruction(split_inline(line.text)[0], header)
            tail = split_inline(line.text)[1]
            group = ([Line(line.index, tail, "paragraph")] if tail else [])
            i += 1
            while i < len(body) and not is_instruction(body[i].text) \
                    and not DESIGNERS_NOTE.match(body[i].text):
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
        # "Delete 'Retinue'." gives the deleted words; other deletions keep the instruction.
        return EntryFields(instr.operation, instr.location, instr.rest or instruction_text.strip(),
                           designers_note=designers_note)
    if not main:
        # An instruction with nothing after it is a mechanical change: keep its words.
        return EntryFields("renumber" if instr.operation == "replace" else instr.operation,
                           instr.location, instruction_text.strip(), designers_note=designers_note)

    title = instr.title
    operation = instr.operation
    if operation == "add" and title is None:
        title, main = _take_title(main)
        if title is None and not instr.unit and header.target and adds_the_following(first.text):
            # "Add the following:" with untitled wording under a rule's header extends that rule.
            operation = "append"
    if operation == "add" and instr.title is None and title is None and len(main) == 1 and not instr.unit:
        items = quoted_list(main[0].text)
        if items:  # "Add 'Psyker' and 'Fly'.": the quoted items, listed.
            return EntryFields(operation, instr.location, ", ".join(items), designers_note=designers_note)
    text_lines, bullets = _split_wording(main)
    text = "\n".join(join_broken(text_lines))
    return EntryFields(operation, instr.location, text, title, bullets + extra_bullets, designers_note)


def _unquote(text: str) -> str:
    return strip_closing(strip_opening(text.strip()))


def _take_title(lines: list[Line]) -> tuple[str | None, list[Line]]:
    """The title of an added rule: a short first line ("Charging Aircraft"), or the term of a
    glossary line ("Charge Distance: The result of …")."""
    first = lines[0]
    t = first.text.strip()
    if first.is_table:
        return None, lines
    if starts_quoted(t):
        # "'Tyranids Units" over the quoted section's paragraphs: a short line that opens the
        # quote and ends with no stop is the added section's title.
        inner = strip_opening(t)
        if len(lines) > 1 and 0 < len(inner.split()) <= 8 and not ends_quoted(t) and not re.search(r"[.;:,!?]$", inner):
            return record_name(inner), lines[1:]
        return None, lines
    lead = first.lead.strip()
    if lead and not lead.endswith(":") and len(lead.split()) <= 16 and t.startswith(lead):
        # A bold title run into its first paragraph (a PDF line join).
        rest = Line(first.index, t[len(lead):].strip(), first.kind, color=first.color, page=first.page)
        return record_name(lead), [rest] + lines[1:]
    words = t.split()
    if 0 < len(words) <= 16 and not re.search(r"[.;:,]$", t) and not first.is_bullet and len(lines) > 1:
        return record_name(t), lines[1:]
    m = re.match(r"^([^:.]{2,70}?):\s+(\S.*)$", t)
    if m and not first.is_bullet:
        rest = Line(first.index, m.group(2), first.kind, color=first.color, page=first.page)
        return record_name(m.group(1).strip()), [rest] + lines[1:]
    return None, lines


def _split_wording(lines: list[Line]) -> tuple[list[str], list[str]]:
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


def _as_text(line: Line, text: str) -> str:
    if line.is_table:
        return "\n".join("\t".join(r) for r in line.rows)
    return f"- {text}" if line.is_bullet else text
