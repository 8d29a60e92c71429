"""Reading weapon tables, and the ability panel a PDF prints beside them, for `CardReader`.

A 10th-edition card has no abilities column in its weapon table (keywords are bracketed in
the weapon name), so an ABILITIES cell in the header row heads the card's ability panel,
printed to the right of the weapons: each row is split into its weapon side and its panel
side, read as two streams. Weapon names may wrap onto a row of their own, before or after
their values; a table flattened to one value per line is read as names then values.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .datasheet_lines import Line, label_key, is_value, norm_text
from .datasheet_sections import WeaponTable, split_weapon_name

# A line of an ability panel: "CORE: Deep Strike", "Name: text".
PANEL_LINE = re.compile(r"^(?:CORE|FACTION)\s*:|^[A-Z][^.:;?]{0,60}:\s")
# A section label inside a panel line, after the end of the text before it.
_MID_LABEL = re.compile(r"(?<=[.!?:])\s+(?=(?:WARGEAR\s*ABILITIES|UNIT\s*COMPOSITION|WARGEAR\s*OPTIONS)\b)")


class WeaponReading:
    """The weapon-table part of `CardReader` (a mixin: it uses the reader's state and `read`)."""

    def _weapon_header(self, line: Line, header: list[str]) -> int:
        folded = [label_key(c) for c in line.cells]
        # A 10th-edition table has no abilities column (keywords are bracketed in the name):
        # an ABILITIES cell there heads the card's ability panel printed beside the weapons.
        if line.kind == "row" and not line.virtual and "A" in folded and "ABILITIES" in folded[1:]:
            self.panel = (line.index, folded.index("ABILITIES"))
            self._split_row(line)
            return 1
        melee = "MELEE" in label_key(header[0]) if header else None
        panel_kept = self.panel if self.panel and self.panel[0] == line.index else None
        self.table, self.section = WeaponTable(header, melee=melee or None, known=self.weapon_keywords), "weapons"
        self.panel = panel_kept
        return 1

    def _split_row(self, line: Line) -> None:
        """Read the weapon side and the ability-panel side of a row as two streams."""
        col = self.panel[1]
        left = tuple(c for c in line.cells[:col])
        right = norm_text(" ".join(c for c in line.cells[col:] if c.strip()))
        nonempty = [c for c in left if c.strip()]
        if nonempty:
            # One cell is a weapon row left as one line ("Slugga 12" 1 5+ 4 0 1") or a text line.
            words = nonempty[0].split()
            as_row = len(nonempty) > 1 or (len(words) > 6 and all(is_value(w) for w in words[-6:]))
            self.read([line.piece(left if as_row else nonempty[0], "row" if as_row else "paragraph")], 0, 1)
        if right:
            self._panel_text(line, right)

    def _panel_text(self, line: Line, text: str) -> None:
        """Text of the ability panel printed beside the weapons, read in the panel's own section."""
        main, self.section = self.section, self.panel_section
        for part in _MID_LABEL.split(text):
            if part.strip():
                self.read([line.piece(part.strip(), "paragraph")], 0, 1)
        self.panel_section, self.section = self.section, main

    def _panel_unfinished(self) -> bool:
        """True when the panel's last ability stops mid-sentence (its text goes on below)."""
        reader = self.wargear if self.panel_section == "other_wargear" else self.abilities
        if self.panel_section not in ("abilities", "other_wargear") or not reader.items:
            return False
        lines = reader.items[-1][1]
        return bool(lines) and not re.search(r"[.!?:)\]\"”]$", lines[-1])

    def _weapon_words(self, line: Line) -> bool:
        """A 10th-edition weapon table a loader left as loose lines: name lines, value lines,
        keyword lines ("[BLAST]") in any split. Returns False for a line that is none of these."""
        text = line.text
        words = text.split()
        n = len(self.table.columns) - 1
        has_values = any(is_value(w) for w in words)
        if not has_values and (len(words) > 8 or re.search(r"[.:;!?]$", text)):
            return False
        if not self.word_buffer and (text[:1].islower() or text.startswith("[")) and not has_values \
                and self.weapons:
            last = self.weapons[-1]  # the end of the last weapon's name, or its keywords
            name, keywords = split_weapon_name(f"{last.name} {text}", self.table.known)
            self.weapons[-1] = replace(last, name=name, abilities=last.abilities + keywords)
            return True
        self.word_buffer.extend(words)
        buf = self.word_buffer
        for i in range(1, len(buf) - n + 1):
            if all(is_value(w) for w in buf[i:i + n]):
                self.weapons.extend(self.table.rows([" ".join(buf[:i])] + buf[i:i + n]))
                self.word_buffer = buf[i + n:]
                break
        return True

    def _weapon_row(self, line: Line) -> None:
        """A weapon row. In a 10th-edition table, text after the values belongs to the ability
        panel beside it, and a name may wrap onto a row of its own, before or after its values."""
        table = self.table
        cells = [c for c in line.cells if c.strip()]
        if not table.tenth or (len(cells) == 1 and self.panel is None and not self.pending_name):
            self.weapons.extend(table.rows(cells))
            return
        body, leftover = table.split_cells(cells)
        if leftover:
            self._panel_text(line, " ".join(leftover))
        if not body:
            return
        if len(body) == 1:  # a name with no values: half of a wrapped name
            part = body[0]
            if (part[:1].islower() or part.startswith("[")) and self.weapons and not self.pending_name:
                last = self.weapons[-1]
                name, keywords = split_weapon_name(f"{last.name} {part}", table.known)
                self.weapons[-1] = replace(last, name=name, abilities=last.abilities + keywords)
            else:
                self.pending_name = f"{self.pending_name} {part}".strip() if self.pending_name else part
            return
        if self.pending_name:
            if body[0][:1].islower() or body[0].startswith("["):
                body = [f"{self.pending_name} {body[0]}"] + body[1:]
            self.pending_name = None
        self.weapons.extend(table.rows(body))

    def _vertical_weapon(self, line: Line) -> int:
        """A weapon table flattened to a name line (or two) then one line per value."""
        text = line.text
        n_values = len(self.table.columns) - 1
        if is_value(text) and self.vertical_names:
            self.vertical_values.append(text)
            if len(self.vertical_values) == n_values:
                name = max(self.vertical_names, key=lambda s: ("[" in s, len(s)))
                weapon = self.table.row([name] + self.vertical_values)
                if weapon is not None:
                    self.weapons.append(weapon)
                self.vertical_names, self.vertical_values = [], []
            return 1
        if self.vertical_values:  # a name after a partial row: start over
            self.vertical_names, self.vertical_values = [], []
        self.vertical_names.append(text)
        return 1
