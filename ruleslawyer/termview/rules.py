"""Terminal views of stratagems, enhancements, detachment rules and rules.

A stratagem is laid out like its card: name and cost, group and category, the flavour line,
then WHEN / TARGET / EFFECT / RESTRICTIONS as hanging paragraphs. A rule shows its section
path, text and bullet summary. When errata changed a record, each change gets a line naming
the FAQ document, version and page, and the amended wording is marked »like this« in the text.
"""
from __future__ import annotations

import textwrap

from ..records import Change, DetachmentRule, Enhancement, Record, Rule, Stratagem
from .common import source_line, wrap

MARK_OPEN, MARK_CLOSE = "»", "«"


def _marked(text: str | None, changes: tuple[Change, ...]) -> str:
    """The text with every amended passage (a change's new wording) marked »…«."""
    text = text or ""
    for change in changes:
        new = (change.new_text or "").strip()
        if new and new in text and f"{MARK_OPEN}{new}" not in text:
            text = text.replace(new, f"{MARK_OPEN}{new}{MARK_CLOSE}", 1)
    return text


def _hanging(label: str, text: str, width: int) -> list[str]:
    """"WHEN:   text..." with the text wrapped under itself."""
    pad = " " * 10
    lines: list[str] = []
    for i, para in enumerate(text.split("\n")):
        if not para.strip():
            lines.append("")
            continue
        first = f"{label + ':':<10}" if i == 0 else pad
        lines.extend(textwrap.wrap(para, width, initial_indent=first, subsequent_indent=pad) or [first])
    return lines


def change_lines(record: Record, width: int, before_after: bool = False) -> list[str]:
    """One line per applied erratum: document, version, page, what it did.

    With `before_after` (a datasheet, whose tables do not mark changed words) each line is
    followed by what the erratum changed, as printed and as amended.
    """
    changes = getattr(record, "changes", ()) or ()
    if not changes:
        return []
    out = ["", "Errata applied:" if before_after else "Errata applied (amended wording marked »…«):"]
    for c in changes:
        where = ", ".join(p for p in (
            c.document or "unknown document",
            f"version {c.version}" if c.version else None,
            f"page {c.page}" if c.page else None) if p)
        what = c.operation + (f" ({c.location})" if c.location else "")
        out.extend(textwrap.wrap(f"- {where}: {what}", width, subsequent_indent="  "))
        if before_after:
            for label, text in (("was", c.old_text), ("now", c.new_text)):
                for line in (text or "(nothing)").splitlines():
                    out.extend(textwrap.wrap(f"{label}: {line}", width, initial_indent="    ",
                                             subsequent_indent="      "))
    return out


def format_stratagem(record: Stratagem, width: int = 80) -> str:
    """A stratagem laid out like its card."""
    cost = f"{record.cp}CP" if record.cp is not None else "?CP"
    head = f"{record.number + ' ' if record.number else ''}{record.name.upper()}  {cost}"
    kind = " – ".join(p for p in (record.group, record.category) if p)
    lines = [head]
    if kind or record.faction:
        lines.append(kind + (f"  ({record.faction})" if record.faction else ""))
    lines.append("-" * min(width, max(len(head), 20)))
    if record.fluff:
        lines.extend(wrap(record.fluff, width))
        lines.append("")
    changes = record.changes
    fields = [("WHEN", record.when), ("TARGET", record.target), ("EFFECT", record.effect),
              ("RESTRICTIONS", record.restrictions)]
    printed = False
    for label, value in fields:
        if value:
            lines.extend(_hanging(label, _marked(value, changes), width))
            printed = True
    if not printed:
        lines.append("(only listed by name and cost in this document)")
    lines.extend(change_lines(record, width))
    lines.append(source_line(record))
    return "\n".join(lines)


def format_enhancement(record: Enhancement, width: int = 80) -> str:
    """An enhancement: name and points, detachment, flavour, restriction and text."""
    pts = f"  {record.points} pts" if record.points is not None else ""
    lines = [f"{record.name}{pts}"]
    flags = [label for label, on in (("upgrade", record.upgrade), ("may be given to a SUPPORT model", record.support))
             if on]  # 11th edition
    meta = " – ".join(p for p in (record.group and f"{record.group} Detachment", record.faction,
                                  ", ".join(flags)) if p)
    if meta:
        lines.append(meta)
    lines.append("-" * min(width, max(len(lines[0]), 20)))
    if record.fluff:
        lines.extend(wrap(record.fluff, width))
        lines.append("")
    if record.restriction:
        lines.append(f"Restriction: {record.restriction}")
    lines.extend(wrap(_marked(record.text, record.changes), width))
    lines.extend(change_lines(record, width))
    lines.append(source_line(record))
    return "\n".join(lines)


def format_rule(record: Rule | DetachmentRule, width: int = 80) -> str:
    """A rule (or detachment rule): its number (11th edition) and name, section path, flavour,
    text, summary bullets."""
    number = getattr(record, "number", None)
    lines = [f"{number} {record.name}" if number else record.name]
    if isinstance(record, DetachmentRule):
        dp = f"{record.detachment_points} Detachment Points" if record.detachment_points is not None else None
        meta = " – ".join(p for p in (record.group and f"{record.group} Detachment rule", record.faction, dp,
                                      record.force_disposition and f"Force Disposition: {record.force_disposition}")
                          if p)
    else:
        path = " > ".join(record.section)
        meta = " – ".join(p for p in (path, record.faction,
                                      f"step {record.step}" if record.step else None) if p)
    if meta:
        lines.append(meta)
    lines.append("-" * min(width, max(len(lines[0]), 20)))
    if record.fluff:
        lines.extend(wrap(record.fluff, width))
        lines.append("")
    lines.extend(wrap(_marked(record.text, record.changes), width))
    summary = getattr(record, "summary", ()) or ()
    if summary:
        lines.append("")
        lines.append("Summary:")
        for item in summary:
            lines.extend(textwrap.wrap(item, width, initial_indent="  • ", subsequent_indent="    "))
    footnote = getattr(record, "footnote", None)
    if footnote:
        lines.append(f"* {footnote}")
    lines.extend(change_lines(record, width))
    lines.append(source_line(record))
    return "\n".join(lines)
