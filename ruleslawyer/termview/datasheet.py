"""The terminal card of a datasheet: title line, profile and weapon tables, abilities, keywords.

Tables are aligned in columns; the last column (weapon abilities) wraps so a row fits the
width. Ability text wraps to the width under its name. Only what the record holds is shown:
9th-edition cards get Power and weapon types, 10th-edition cards points, A and BS/WS.
"""
from __future__ import annotations

import textwrap

from ..records import Datasheet
from .common import source_line, wrap
from .rules import change_lines


def format_datasheet(record: Datasheet, width: int = 80) -> str:
    """The compact card of `record`, every line at most `width` characters wide."""
    width = max(width, 40)
    out: list[str] = []
    out.extend(_title(record, width))
    out.append("─" * width)
    out.extend(_table(*_profile_rows(record), width))
    if record.invulnerable_save:
        out.append(f"Invulnerable save: {record.invulnerable_save}")
    if record.damaged:
        out.extend(wrap(record.damaged, width))
    if record.weapons:
        out.append("")
        out.extend(_table(*_weapon_rows(record), width))
    if record.abilities:
        out.append("")
        out.append("ABILITIES")
        for ability in record.abilities:
            out.extend(_ability(ability, width))
    for title, items in (("WARGEAR OPTIONS", record.wargear_options), ("UNIT COMPOSITION", record.composition)):
        if items:
            out.append("")
            out.append(title)
            for item in items:
                out.extend(textwrap.wrap(item, width, initial_indent="  • ", subsequent_indent="    ") or ["  •"])
    for title, box in (("LEADER", record.leader), ("SUPPORT", record.support)):
        if box:
            out.append("")
            out.append(title)
            out.extend(wrap(box.text, width, "  "))
            if box.attaches_to:
                out.extend(textwrap.wrap("Attaches to: " + ", ".join(box.attaches_to), width,
                                         initial_indent="  ", subsequent_indent="    "))
    out.append("")
    if record.keywords:
        out.extend(textwrap.wrap("Keywords: " + ", ".join(record.keywords), width, subsequent_indent="  "))
    if record.faction_keywords:
        out.extend(textwrap.wrap("Faction keywords: " + ", ".join(record.faction_keywords), width,
                                 subsequent_indent="  "))
    out.extend(change_lines(record, width, before_after=True))
    out.append(source_line(record))
    return "\n".join(out)


def _title(record: Datasheet, width: int) -> list[str]:
    facts = [f for f in (record.faction, f"{record.edition}th edition" if record.edition else None) if f]
    if record.power is not None:
        facts.append(f"Power {record.power}")
    if record.points:  # by tier where the datasheet prices repeated units (11th edition)
        from ..library.points import costs_text

        facts.append(costs_text(record.points))
    if record.base:
        from ..library.points import base_text

        facts.append(base_text(record.base))
    name = record.name.upper()
    right = " · ".join(facts)
    if right and len(name) + 2 + len(right) <= width:
        return [name + " " * (width - len(name) - len(right)) + right]
    return [name] + (textwrap.wrap(right, width) if right else [])


def _profile_rows(record: Datasheet) -> tuple[list[str], list[list[str]]]:
    stat_names: list[str] = []
    for p in record.profiles:
        for key in p.stats:
            if key not in stat_names:
                stat_names.append(key)
    with_models = any(p.models for p in record.profiles)
    header = (["No."] if with_models else []) + ["Model"] + stat_names
    rows = [([p.models or ""] if with_models else []) + [p.name] + [p.stats.get(k, "") for k in stat_names]
            for p in record.profiles]
    return header, rows


def _weapon_rows(record: Datasheet) -> tuple[list[str], list[list[str]]]:
    weapons = record.weapons
    cols = [("Range", "range"), ("Type", "type"), ("A", "A"), ("BS/WS", "skill"), ("S", "S"), ("AP", "AP"),
            ("D", "D")]
    cols = [(title, attr) for title, attr in cols if any(getattr(w, attr) for w in weapons)]
    header = ["Weapon"] + [title for title, _ in cols] + ["Abilities"]
    rows = [[w.name] + [getattr(w, attr) or "-" for _, attr in cols] + [", ".join(w.abilities) or "-"]
            for w in weapons]
    return header, rows


def _table(header: list[str], rows: list[list[str]], width: int) -> list[str]:
    """Aligned columns; the last column wraps to what is left of `width`.

    When too little is left for it (a narrow terminal), the last column goes on its own
    indented lines under each row instead.
    """
    if not rows:
        return []
    all_rows = [header] + rows
    n = len(header)
    widths = [max(len(r[i]) for r in all_rows) for i in range(n)]
    fixed = sum(widths[:-1]) + 2 * (n - 1)
    below = n > 1 and width - fixed < 20 and widths[-1] > width - fixed
    lines = []
    for r in all_rows:
        head = "  ".join(r[i].ljust(widths[i]) for i in range(n - 1))
        if below:
            lines.append(head.rstrip())
            if r is not header and r[-1] not in ("", "-"):
                lines.extend(textwrap.wrap(r[-1], width, initial_indent="    ", subsequent_indent="    "))
            continue
        wrapped = textwrap.wrap(r[-1], max(width - fixed, 1)) or [""]
        lines.append((head + "  " + wrapped[0]).rstrip() if n > 1 else wrapped[0])
        lines.extend((" " * fixed + more).rstrip() for more in wrapped[1:])
    return lines


def _ability(ability, width: int) -> list[str]:
    label = ability.name + (f" [{ability.category}]" if ability.category in ("core", "faction") else "")
    if not ability.text:
        return textwrap.wrap(f"• {label}", width, subsequent_indent="    ")
    return textwrap.wrap(f"• {label}: {ability.text}", width, subsequent_indent="    ")
