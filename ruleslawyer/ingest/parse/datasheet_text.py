"""Small text items of a datasheet: option and composition lists, unit costs, keyword lists, factions."""
from __future__ import annotations

import re

from ...records import UnitCost
from .lines import record_name
from .datasheet_lines import Line, label_key, norm_text, norm_value

_BULLETS = "•■▪●◦- "
_VERB = re.compile(r"\b(?:can|is|are|may|must|has|have|cannot)\b", re.I)
# Where a composition line holds several items: bullets, or an equipment sentence run on.
_COMPOSITION_ITEM = re.compile(r"\s*[▪■•]\s*|(?<=[a-z])\s+(?=(?:This|Every|Each|The)\b[^.:]*\bequipped with\b)")


def sentences(text: str) -> list[str]:
    """The sentences of a paragraph."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", norm_text(text))
    return [p for p in parts if p]


def split_composition(text: str) -> list[str]:
    """"▪ 1 Warboss This model is equipped with: ..." -> ["1 Warboss", "This model is equipped with: ..."]."""
    return [item for item in _COMPOSITION_ITEM.split(text) if item and item.strip()]


def add_sentence_line(target: list[str], line: Line) -> None:
    """A line of an option or composition list; a wrapped line joins the one before it."""
    text = line.text.lstrip(_BULLETS).strip()
    if not text:
        return
    if target and line.kind != "list_item" and (text[0].islower() or target[-1].endswith((";", ","))) \
            and not re.search(r"[.:!?]$", target[-1]):
        target[-1] = f"{target[-1]} {text}"
        return
    target.append(text)


_SUB_BULLETS = "◦▫‣"


def add_option(options: list[str], line: Line, list_open: bool) -> bool:
    """Add a wargear option line; return whether the last option now lists choices after it.

    The choices under "... one of the following:" join their lead, one "- " line each: "This
    model's X can be replaced with one of the following:" + "1 A" + "1 B" is one option
    "...following:\n- 1 A\n- 1 B".
    """
    text = line.text.lstrip(_BULLETS).strip()
    if label_key(text) == "NONE":
        return list_open
    # A sub-bullet ("◦" under a "■" option) is a choice, however long its note.
    marker = (getattr(line.block, "attrs", None) or {}).get("marker") if line.kind == "list_item" else None
    glyph = marker or line.text.lstrip()[:1]
    sub = bool(glyph) and glyph in _SUB_BULLETS
    if list_open and text and (sub or not _VERB.search(text) and len(text.split()) <= 10):
        options[-1] = f"{options[-1]}\n- {text}"  # one "- choice" line each, as the list is printed
        return True
    add_sentence_line(options, line)
    return bool(options) and options[-1].endswith((":", ":*"))


# ---------------------------------------------------------------- costs and keywords
_COST_INLINE = re.compile(r"^(\d+(?:\s*[-–]\s*\d+)?)\s+models?\b\W*(\d+)\s*(?:pts|points)?\.?$", re.I)
_COST_MODELS = re.compile(r"^(\d+(?:\s*[-–]\s*\d+)?)\s+models?$", re.I)
_COST_POINTS = re.compile(r"^(\d+)\s*(?:pts|points)?$", re.I)


def cost_from(line: Line, following: Line | None) -> tuple[UnitCost, bool] | None:
    """A unit size and its points ("1 model" + "65", or one row/line with both).

    Returns the cost and whether the following line was used.
    """
    cells = [c for c in line.cells if c.strip()]
    if len(cells) == 2 and _COST_MODELS.match(cells[0]) and _COST_POINTS.match(cells[1]):
        return UnitCost(_models(cells[0]), int(_COST_POINTS.match(cells[1]).group(1))), False
    text = line.text
    m = _COST_INLINE.match(text)
    if m:
        return UnitCost(_models(m.group(1)), int(m.group(2))), False
    if _COST_MODELS.match(text) and following is not None and _COST_POINTS.match(following.text):
        return UnitCost(_models(text), int(_COST_POINTS.match(following.text).group(1))), True
    return None


def _models(text: str) -> str:
    return re.sub(r"\s+", "", norm_value(re.sub(r"\s*models?$", "", text.strip(), flags=re.I)))


# A keyword list scoped to some models: "ALL MODELS: ...", "<MODEL NAME>: ...", "Pilot: ...".
_SCOPE = re.compile(r"^\s*(?:ALL\s+MODELS|<[^<>]{1,40}>|[^\W\d_][^:,;|]{0,40}?)\s*:\s*(?=\S)", re.I)


def split_keywords(text: str) -> list[str]:
    """"INFANTRY, CHARACTER, FLY" -> names; an "Imperium, Adeptus Astartes" line alike.

    Lists scoped by model ("ALL MODELS: VEHICLE, WALKER | PILOT: CHARACTER") give the union
    of their keywords: the scope labels are not keywords. Letters outside ASCII are kept.
    """
    out = []
    for part in re.split(r"[,;|]", text):
        item = norm_text(part).rstrip(".")
        while True:  # "ALL MODELS: VEHICLE" -> "VEHICLE" (a scope may follow another)
            m = _SCOPE.match(item)
            if not m:
                break
            item = item[m.end():].strip()
        if item:
            out.append(item)
    return out


# Faction keywords that name a faction differently from its usual name.
_FACTION_NAMES = {"ADEPTUS ASTARTES": "Space Marines", "ASTRA MILITARUM": "Astra Militarum",
                  "ADEPTA SORORITAS": "Adepta Sororitas", "ADEPTUS MECHANICUS": "Adeptus Mechanicus",
                  "HERETIC ASTARTES": "Chaos Space Marines", "ASURYANI": "Aeldari", "TAU EMPIRE": "T'au Empire",
                  "T'AU EMPIRE": "T'au Empire", "LEAGUES OF VOTANN": "Leagues of Votann"}
_UMBRELLA = {"IMPERIUM", "CHAOS", "AELDARI", "YNNARI", "AGENTS OF THE IMPERIUM"}


def faction_from_keywords(keywords: list[str]) -> str | None:
    """The faction a card's faction keywords name (IMPERIUM and <CHAPTER>-style slots skipped)."""
    folded = [k.upper().replace("\u2019", "'") for k in keywords]
    for k in folded:
        if k in _FACTION_NAMES:
            return _FACTION_NAMES[k]
    for k in folded:
        if k.startswith("<") or k in _UMBRELLA:
            continue
        return record_name(k)
    if "AELDARI" in folded:
        return "Aeldari"
    return None
