"""Pieces every army-list text format shares: counts, points, bullets, battle sizes, editions."""
from __future__ import annotations

import re

from .model import ArmyList, ListItem

BULLETS = "•◦▪‣∙·*-"
# "2x Missile pod", "2 x Missile pod", "2× Missile pod"
_COUNT = re.compile(r"^(\d{1,6})\s*[x×]\s+(.+)$", re.IGNORECASE)  # no real count has more digits
_POINTS = re.compile(r"(\d[\d,.]*)\s*(?:points|pts|pt)\b", re.IGNORECASE)
BATTLE_SIZES = ("combat patrol", "incursion", "strike force", "onslaught")
# 11th edition words that no 10th edition export prints
_ELEVEN_MARKERS = (("detachment points", "Detachment Points"), ("force disposition", "Force Disposition"),
                   ("attached as: support", "Support attachment"))


def strip_bullet(line: str) -> tuple[str, bool]:
    """The line without leading spaces and bullet glyph, and whether it had a bullet."""
    s = line.strip()
    if s and s[0] in BULLETS and (len(s) == 1 or s[1] == " "):
        return s[1:].strip(), True
    return s, False


def text_column(line: str) -> int:
    """Where the words of a line start (after spaces and a bullet): nesting depth in app exports."""
    i = 0
    while i < len(line) and (line[i].isspace() or (line[i] in BULLETS and (i + 1 == len(line) or line[i + 1] == " "))):
        i += 1
    return i


def points_in(text: str) -> int | None:
    """The first "N points"/"N pts" figure in `text` (commas and ".0" allowed)."""
    m = _POINTS.search(text)
    if not m:
        return None
    digits = m.group(1).replace(",", "").split(".")[0]
    # no list costs a million points: longer figures are damage (and int() refuses 4,300 digits)
    return int(digits) if digits.isdigit() and len(digits) <= 6 else None


def split_count(text: str) -> tuple[int, str]:
    """("2x Missile pod") -> (2, "Missile pod"); no count reads as 1."""
    m = _COUNT.match(text.strip())
    if m:
        return int(m.group(1)), m.group(2).strip()
    return 1, text.strip()


def unglue(text: str) -> str:
    """Split words New Recruit prints glued together ("upgradeBattlesuit fists" -> "upgrade, Battlesuit
    fists"): a run of three or more lower-case letters directly followed by a capitalised word."""
    return re.sub(r"(?<=[a-z]{3})(?=[A-Z][a-z'’])", ", ", text)


def split_items(text: str, model: str | None = None, times: int = 1) -> list[ListItem]:
    """Comma-separated wargear ("Battlesuit fists, 2x Fusion blaster") as items; `times` multiplies
    the counts (WTC "8 with ..." lines). Brackets are kept with their item."""
    items, depth, current = [], 0, ""
    for ch in unglue(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += ch
    items.append(current)
    out = []
    for raw in items:
        raw = raw.strip().rstrip(".")
        if not raw:
            continue
        n, name = split_count(raw)
        out.append(ListItem(name, n * times, model))
    return out


def battle_size(text: str) -> str | None:
    """The battle size a header line names ("Strike Force (2,000 Points)" -> "Strike Force")."""
    low = text.casefold()
    for size in BATTLE_SIZES:
        if low.startswith(size):
            return text[:len(size)].title()
    return None


def mark_edition(army: ArmyList, text: str) -> None:
    """Note the 11th edition markers in `text` and the app version; set `army.edition` from them."""
    low = text.casefold()
    for key, label in _ELEVEN_MARKERS:
        if key in low and label not in army.edition_markers:
            army.edition_markers.append(label)
    m = re.search(r"App Version:\s*v?(\d{1,4})\.(\d{1,4})", text)
    if m:
        army.app_version = f"{m.group(1)}.{m.group(2)}"
        # The official app moved to the 11th edition with its version 2 (10th edition exports say 1.x).
        label = f"app version {army.app_version}"
        if label not in army.edition_markers:
            army.edition_markers.append(label)
    if any(not m.startswith("app version") for m in army.edition_markers):
        army.edition = 11
    elif army.app_version:
        army.edition = 11 if int(army.app_version.split(".")[0]) >= 2 else 10


def split_detachments(text: str) -> list[str]:
    """Names of a line that may list several detachments: "A, B and C" -> A, B, C. A line without
    commas stays whole (names may hold "and"); the resolver splits it at an "and" when the whole
    is no known detachment."""
    parts = [p.strip() for p in re.split(r",\s*", text) if p.strip()]
    if len(parts) > 1:
        head, sep, tail = parts[-1].rpartition(" and ")
        if sep and head and tail:
            parts[-1:] = [head.strip(), tail.strip()]
    return parts
