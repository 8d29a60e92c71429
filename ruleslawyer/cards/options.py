"""Card and sheet sizes, and the validated options of one card run.

Sizes are in millimetres, portrait (width, height). `CardOptions.resolve()` accepts None, a
dict or an instance (the pdfplumber `TableSettings` pattern) and names the wrong field in its
error message.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from ..errors import RuleslawyerError

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "tarot": (70.0, 120.0),
    "a6": (105.0, 148.0),
    "a5": (148.0, 210.0),
}
SHEET_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}
# Largest body text size (pt) of each card size: type grows to fill the card up to it, and
# shrinks in STEP_PT steps to FLOOR_PT, the smallest type ever printed.
MAX_PT: dict[str, float] = {"poker": 9.0, "tarot": 10.0, "a6": 12.0, "a5": 14.0}
FLOOR_PT = 7.0
STEP_PT = 0.25
MAX_BLEED_MM = 10.0


class CardError(RuleslawyerError):
    """Bad card options or nothing to print."""


@dataclass(frozen=True)
class CardOptions:
    """What to print and how: card size and orientation, sheet, duplex backs, bleed (mm)."""

    size: str = "poker"
    landscape: bool = False
    sheet: str = "none"  # "a4", "letter" or "none" (one card per PDF page)
    duplex: bool = False
    bleed: float = 0.0
    stratagems: bool = False
    rules_sheet: bool = False
    exact: bool = False  # measure every size tried with WeasyPrint (slow; the reference fit)
    # One card a unit (the default, as a player sleeves them): when its rules in full do not
    # fit one card, long rules by their operative sentence with a rules sheet reference (the
    # longest by name and number) rather than a second card. A unit whose front alone is too
    # long still continues on a second card. False (`--full-rules`): every rule in full, on the
    # front's free space, then a second card, a reference only when two cards cannot hold it.
    one_card: bool = True

    def __post_init__(self):
        problems = []
        if self.size not in CARD_SIZES:
            problems.append(f"Card option 'size' must be one of {', '.join(CARD_SIZES)}, not {self.size!r}")
        if self.sheet not in (*SHEET_SIZES, "none"):
            problems.append(f"Card option 'sheet' must be a4, letter or none, not {self.sheet!r}")
        if not 0 <= float(self.bleed) <= MAX_BLEED_MM:
            problems.append(f"Card option 'bleed' must be between 0 and {MAX_BLEED_MM:g} mm, not {self.bleed}")
        if problems:
            raise CardError("; ".join(problems))

    @classmethod
    def resolve(cls, value: "CardOptions | Mapping[str, Any] | None") -> "CardOptions":
        """An instance from None (defaults), a mapping of field values, or an instance."""
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(value) - known)
        if unknown:
            raise CardError(f"unknown card option(s): {', '.join(unknown)}")
        return cls(**dict(value))

    @property
    def card_mm(self) -> tuple[float, float]:
        """(width, height) of the trimmed card in mm, landscape when asked."""
        w, h = CARD_SIZES[self.size]
        return (h, w) if self.landscape else (w, h)

    @property
    def max_pt(self) -> float:
        return MAX_PT[self.size]

    @property
    def floor_pt(self) -> float:
        return FLOOR_PT

    def font_steps(self) -> list[float]:
        """Body sizes to try, largest first, ending at the floor."""
        n = round((self.max_pt - FLOOR_PT) / STEP_PT)
        return [round(self.max_pt - k * STEP_PT, 2) for k in range(n + 1)]

    @property
    def padding_mm(self) -> float:
        """Safe-area inset of the card content from the trim line."""
        return 2.0 if min(self.card_mm) < 80 else 4.0
