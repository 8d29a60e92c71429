"""What a document does not state but shows: its publication date, edition and faction, each
with the reason it was inferred (stored with the file and shown by `files`).

Date: the "Legal for matched play from 20th June 2026" line of a faction pack, else the PDF's
creation date. Edition: words that name it ("10th edition"), 11th edition rule numbers and terms
(InSv, SUPPORT, Detachment Points), the publication date (11th edition from June 2026), the
faction pack layout, the folder's name, then the older cues (`parsing.guess_edition`'s). Faction:
the title ("WORLD EATERS / FACTION PACK", "Faction Pack: World Eaters"), else the faction
keyword the rules name most. Where nothing decides, the value is None: the caller warns.
"""
from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass

from ..document import HEADING, Document

ELEVENTH_FROM = "2026-06-01"  # 11th edition has been current since June 2026
TENTH_FROM = "2023-06-01"
NINTH_FROM = "2020-07-01"

# The factions of the game, by the keyword their rules print (for the faction keyword count).
FACTIONS = ("Adepta Sororitas", "Adeptus Custodes", "Adeptus Mechanicus", "Adeptus Titanicus", "Aeldari",
            "Agents of the Imperium", "Astra Militarum", "Black Templars", "Blood Angels", "Chaos Daemons",
            "Chaos Knights", "Chaos Space Marines", "Dark Angels", "Death Guard", "Deathwatch", "Drukhari",
            "Emperor's Children", "Genestealer Cults", "Grey Knights", "Imperial Knights", "Leagues of Votann",
            "Necrons", "Orks", "Space Marines", "Space Wolves", "T'au Empire", "Thousand Sons", "Tyranids",
            "World Eaters")


# Faction keywords that name a faction by another name.
_KEYWORD_ALIASES = {"ADEPTUS ASTARTES": "Space Marines", "HERETIC ASTARTES": "Chaos Space Marines",
                    "ASURYANI": "Aeldari", "TAU EMPIRE": "T'au Empire"}


@dataclass(frozen=True)
class Inferred:
    """One inferred value and why."""

    value: object
    reason: str
    from_title: bool = False  # the document's title says it (not a count of cues)

    def as_json(self) -> dict:
        return {"value": self.value, "reason": self.reason}


_MONTHS = {m: i + 1 for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july",
                                            "august", "september", "october", "november", "december"))}
_LEGAL = re.compile(r"legal for matched play from\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\s+(\d{4})", re.I)
_PDF_DATE = re.compile(r"(?:D:)?(\d{4})(\d{2})(\d{2})")


# A title that ends in its date: "BALANCE DATASLATE MARCH 2027", "Rules Update – 22 October 2025",
# "Event FAQ, October 22, 2025", "Core Rules Updates 2025-10-22".
_MONTH_NAME = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_TITLE_DATE = re.compile(rf"(?:^|[\s,(\-\u2013\u2014:|]+)(?P<date>(?P<d1>\d{{1,2}})?(?:st|nd|rd|th)?\s*"
                         rf"(?P<mon>{_MONTH_NAME})\s+(?:(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,?\s+)?(?P<y>(?:19|20)\d\d)"
                         r"|(?P<iso>(?:19|20)\d\d-[01]\d-[0-3]\d))\)?$", re.I)


@dataclass(frozen=True)
class TitleDate:
    """A dated title split: the document's name, its version (the date as printed, month
    capitalised: "March 2027") and the ISO date (the first of the month when no day is printed)."""

    name: str
    version: str
    iso: str


# Words between a title and its date that are no part of the name ("… – Updated March 2027").
_DATE_WORDS = re.compile(r"[\s,:|\-\u2013\u2014(]*\b(?:updated|published|effective|issued|from)$", re.I)


def title_date(title: str, *, alone: bool = False) -> TitleDate | None:
    """The date a title ends in, and the name before it; None when it ends in no date or
    nothing names the document before it. With `alone`, a line that is only a date ("JUNE
    2024" under the title) is one too, with no name."""
    text = " ".join(title.split())
    m = _TITLE_DATE.search(text)
    if not m:
        return None
    name = _DATE_WORDS.sub("", text[:m.start()].strip(" ,:|-\u2013\u2014(")).strip(" ,:|-\u2013\u2014(")
    if not re.search(r"[A-Za-z]{2,}", name) and not (alone and not re.search(r"\w", name)):
        return None
    if m.group("iso"):
        return TitleDate(name, m.group("iso"), m.group("iso"))
    day = int(m.group("d1") or m.group("d2") or 1)
    if not 1 <= day <= 31:
        return None
    month = _MONTHS[m.group("mon").lower()]
    printed = re.sub(_MONTH_NAME, lambda x: x.group(0).capitalize(), m.group("date"), flags=re.I)
    return TitleDate(name, printed, f"{int(m.group('y')):04d}-{month:02d}-{day:02d}")


def infer_date(doc: Document) -> Inferred | None:
    """The publication date a document shows: its "Legal for matched play from" date, else the
    date its title ends in ("BALANCE DATASLATE MARCH 2027"), else the PDF's creation date."""
    m = _LEGAL.search(doc.text[:20000])
    if m and m.group(2).lower() in _MONTHS:
        day, month, year = int(m.group(1)), _MONTHS[m.group(2).lower()], int(m.group(3))
        if 1 <= day <= 31:
            return Inferred(f"{year:04d}-{month:02d}-{day:02d}", f"the document says '{' '.join(m.group(0).split())}'")
    for block in doc.blocks[:12]:
        dated = title_date(block.text, alone=True) if block.kind == HEADING and len(block.text) < 100 else None
        if dated:
            return Inferred(dated.iso, f"the title '{' '.join(block.text.split())}'")
    for key in ("CreationDate", "ModDate"):
        m = _PDF_DATE.match(str(doc.meta.get(key) or ""))
        if m and 1980 <= int(m.group(1)) <= 2100:
            return Inferred(f"{m.group(1)}-{m.group(2)}-{m.group(3)}", f"the PDF's {key}")
    return None


_EDITION_WORDS = [(re.compile(rf"\b({n}|{w})(th)?[ -]ed", re.I), e)
                  for n, w, e in (("11", "eleventh", 11), ("10", "tenth", 10), ("9", "ninth", 9), ("8", "eighth", 8),
                                  ("5", "fifth", 5))]
_FACTION_PACK = re.compile(r"\bFACTION PACK\b", re.I)


def infer_edition(doc: Document, date: Inferred | None = None, *, points_list: bool = False) -> Inferred | None:
    """The edition of `doc`, with the evidence that decided it (None when nothing does)."""
    text = doc.text[:400_000]
    counts = {edition: len(pattern.findall(text)) for pattern, edition in _EDITION_WORDS}
    best = max(counts, key=counts.get)
    if counts[best]:
        return Inferred(best, f"the text names the {_ordinal(best)} edition")
    numbered = len(_NUMBERED_HEADING.findall(text))
    if numbered >= 3:
        return Inferred(11, f"{numbered} numbered rule headings such as '03.01' (11th edition numbers its rules)")
    terms = _ELEVENTH.findall(text)
    if len(terms) >= 2:
        return Inferred(11, "11th edition terms: " + ", ".join(sorted({" ".join(t.split()) for t in terms})))
    if _first_numbered_rule(doc):
        return Inferred(11, "a heading numbers the first rule of a chapter ('NN.01'), as 11th edition does")
    if date and str(date.value) >= ELEVENTH_FROM:
        return Inferred(11, f"published {date.value} ({date.reason}); 11th edition is current from June 2026")
    if _FACTION_PACK.search(text[:5000]) and _LEGAL.search(text[:20000]):
        return Inferred(11, "the faction pack layout of 11th edition ('Legal for matched play from ...')")
    by_path = edition_from_path(doc.origin.path)
    if by_path:
        return Inferred(by_path, "the file's folder or name says so")
    cue = _older_edition_cue(text)
    if cue:
        return Inferred(*cue)
    if date and str(date.value) >= NINTH_FROM:
        edition = 10 if str(date.value) >= TENTH_FROM else 9
        return Inferred(edition, f"published {date.value} ({date.reason}), when the {_ordinal(edition)} edition "
                                 "was current")
    if points_list:
        return Inferred(10, "a points list of unit sizes with no tiers for repeated units (11th edition prices "
                            "them in tiers)")
    return None


def _ordinal(n: int) -> str:
    return f"{n}th"


_TITLE_PACK = re.compile(r"faction pack\s*[:–-]\s*(?P<name>[A-Za-z'’ ]{3,40}?)\s*(?:$|\n|version)", re.I)


def infer_faction(doc: Document) -> Inferred | None:
    """The faction a document is about: its title, else the faction keyword it names most."""
    text = doc.text[:400_000]
    m = _TITLE_PACK.search(text[:3000])
    if m and known_faction(m.group("name")):
        return Inferred(known_faction(m.group("name")), f"the title '{' '.join(m.group(0).split())}'", True)
    # "WORLD EATERS" above "FACTION PACK: VERSION 1.0": the heading before the pack line
    lines = [" ".join(b.text.split()) for b in doc.blocks[:12] if b.text.strip()]
    for before, line in zip(lines, lines[1:]):
        if _FACTION_PACK.match(line) and known_faction(before):
            return Inferred(known_faction(before), f"the title '{before} / {line}'", True)
    counts = Counter()
    for keyword, faction in [(f.upper(), f) for f in FACTIONS] + list(_KEYWORD_ALIASES.items()):
        pattern = re.escape(keyword).replace("'", "['’]")
        counts[faction] += len(re.findall(rf"\b{pattern}\b", text))
    counts = +counts
    if sum(1 for n in counts.values() if n) > 3:
        return None  # a document of many factions (a points list, a rules commentary) is no one's
    ranked = counts.most_common(2)
    if ranked and (len(ranked) < 2 or ranked[0][1] >= 2 and ranked[0][1] >= 2 * ranked[1][1]):
        faction, n = ranked[0]
        return Inferred(faction, f"its rules name the {faction} faction keyword ({n} time{'s' if n > 1 else ''}) "
                                 "and no other as often")
    return None


def known_faction(name: str) -> str | None:
    """The faction `name` names, as the game spells it ("LEAGUES OF VOTANN" -> "Leagues
    of Votann"), or None when it is no faction of `FACTIONS`."""
    want = re.sub(r"[^a-z]", "", name.lower())
    for faction in FACTIONS:
        if re.sub(r"[^a-z]", "", faction.lower()) == want:
            return faction
    return None


def with_faction(records: list, faction: Inferred) -> list:
    """`records` with the document's faction set on those of a kind that has one and names none:
    the records of a faction pack (the title names the faction) or of a one-detachment sheet
    (every record of one detachment). Anything else (a page that also prints core stratagems)
    is left as parsed."""
    groups = {getattr(r, "group", None) for r in records} - {None}
    if not (faction.from_title or len(groups) == 1):
        return records
    out = []
    for r in records:
        if hasattr(r, "faction") and not r.faction and not getattr(r, "number", None) and \
                (getattr(r, "group", None) or "").casefold() != "core":
            r = dataclasses.replace(r, faction=faction.value)
        out.append(r)
    return out


_WEAPON_KEYWORD = re.compile(r"\[(?:ASSAULT|PISTOL|HEAVY|BLAST|HAZARDOUS|TORRENT|PRECISION|LANCE|TWIN-LINKED|"
                             r"IGNORES COVER|LETHAL HITS|DEVASTATING WOUNDS|INDIRECT FIRE|ONE SHOT|PSYCHIC|"
                             r"RAPID FIRE [D\d]+|SUSTAINED HITS [D\d]+|MELTA [D\d]+|ANTI-[A-Z]+ \d\+)[],]", re.I)


def _older_edition_cue(text: str) -> tuple[int, str] | None:
    """Weaker cues, after the 11th edition's: the characteristic set (OC is 10th edition; WS/BS
    with Power Ratings is 9th), stratagem sections or bracketed weapon abilities (10th); then
    era markers (Indomitus and Command Points are 9th edition; Initiative, Go to Ground and To
    Wound charts are 5th edition)."""
    if re.search(r"\bOC\b", text) and re.search(r"\bLd\b", text) and re.search(r"\bSv\b", text, re.I):
        return 10, "the OC, Ld and Sv characteristics of 10th edition datasheets"
    if re.search(r"\b(WHEN|TARGET|EFFECT):", text) and re.search(r"\bCP\b", text):
        return 10, "WHEN/TARGET/EFFECT stratagems costed in CP (10th edition)"
    if len(_WEAPON_KEYWORD.findall(text)) >= 2:  # "[RAPID FIRE 1]", "[BLAST]": 10th edition weapon abilities
        return 10, "bracketed weapon abilities such as [BLAST] (10th edition)"
    if re.search(r"\bIndomitus\b|\bPOWER \d+|\bbattle-forged\b", text, re.I):
        return 9, "9th edition terms (Power Ratings, Battle-forged, Indomitus)"
    if re.search(r"\bGo to Ground\b|\bInitiative\b|\bTo Wound chart\b|\bSweeping Advance\b", text):
        return 5, "5th edition terms (Initiative, Go to Ground, To Wound chart)"
    return None


# 11th edition prints a number on every core rule ("MOVING UNITS 03.01", "24.12 FEEL NO PAIN"),
# an InSv box and a SUPPORT box on datasheets, and Detachment Points on detachments.
_NUMBERED_HEADING = re.compile(r"^(?:[A-Z][A-Z0-9'’,!?/&()\[\] \-–‑]{2,60}\s+\d{2}\.\d{2}|\d{2}\.\d{2}\s+[A-Z][A-Z'’ \-‑]{2,60})$",
                               re.M)
_ELEVENTH = re.compile(r"\bInSv\b|^\s*SUPPORT\b|\bDetachment Points\b", re.M)


def _first_numbered_rule(doc: Document) -> bool:
    """A heading block that numbers the first rule of a chapter ("PERFORMING ACTIONS 16.01"):
    a one-rule chapter prints a single number, too few for the count above, but its heading
    says 11th edition as plainly (earlier editions number no rule headings)."""
    for block in doc.blocks:
        if block.kind == HEADING:
            text = " ".join(block.text.split())
            if _NUMBERED_HEADING.match(text) and re.search(r"\b\d{2}\.01\b", text):
                return True
    return False


# A folder or file name that says its edition: "e11/", "wh40k-10e", "9th_edition".
_PATH_EDITION = re.compile(r"^(?:e|ed|edition)?(5|8|9|10|11)(?:e|ed|th|th[ _-]?ed(?:ition)?)?$", re.I)


def edition_from_path(path: str) -> int | None:
    """The edition a file's own path names, when its text says nothing: the nearest folder or
    file-name token such as "e11", "10e" or "9th" (a bare number is not enough)."""
    parts = re.split(r"[/\\]", path or "")
    for part in reversed(parts):
        for token in re.split(r"[ _.\-]+", part):
            m = _PATH_EDITION.match(token)
            if m and not token.isdigit():
                return int(m.group(1))
    return None
