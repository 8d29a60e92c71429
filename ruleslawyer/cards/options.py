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
# Body text size (pt) each card size starts at; text shrinks in 0.5 pt steps to FLOOR_PT.
BASE_PT: dict[str, float] = {"poker": 7.0, "tarot": 7.5, "a6": 9.0, "a5": 10.5}
FLOOR_PT = 5.0
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
    def base_pt(self) -> float:
        return BASE_PT[self.size]

    @property
    def floor_pt(self) -> float:
        return FLOOR_PT

    def font_steps(self) -> list[float]:
        """Body sizes to try, largest first, ending at the floor."""
        steps, size = [], self.base_pt
        while size > self.floor_pt + 1e-6:
            steps.append(round(size, 2))
            size -= 0.5
        steps.append(self.floor_pt)
        return steps

    @property
    def padding_mm(self) -> float:
        """Safe-area inset of the card content from the trim line."""
        return 2.5 if min(self.card_mm) < 80 else 4.0
