"""What an FAQ/errata document is: its name, version and edition, from its own title and text.

The name comes from the title that names the document ("CODEX: SPACE MARINES VERSION 1.1" is
document "Codex: Space Marines", version 1.1), never from a banner every document prints
("WARHAMMER 40,000") or a converter's own heading ("# Game Rules"). A title ending in its date
("BALANCE DATASLATE MARCH 2027", or the date on a title line of its own) is a dated document:
the name without the date, the version the date as printed ("March 2027"). The edition is the parse's
guess when it has one; otherwise the document's own evidence decides (`faq_edition`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..document import Document
from .errata_text import is_heading_like
from .inference import title_date
from .lines import Line, record_name

VERSION = re.compile(r"\bversion\s*:?\s*(?P<v>\d+(?:\.\d+)*[a-z]?)\b", re.I)
# "v1.2", "Version 1.2" in a title or file name.
SHORT_VERSION = re.compile(r"(?:\bversion\s*|\bv\.?\s*)(?P<v>\d+(?:\.\d+)+[a-z]?)\b", re.I)
# What a title says about the document rather than naming it: "– Official FAQ", "FAQ & Errata".
_FAQ_WORDS = re.compile(r"\s*(?:[-\u2013\u2014:|]\s*)?\b(?:official\s+)?(?:faqs?|errata|updates?|"
                        r"frequently\s+asked\s+questions|designer'?s\s+commentary|rules?\s+commentary)"
                        r"(?:\s*(?:&|and)\s*(?:faqs?|errata|updates?|commentary))*\b", re.I)
# Banners every Warhammer document prints, and a converter's own headings: they name no document.
_BANNER = r"warhammer\s*(?:40,?000|40k)(?:\s*:?\s*(?:\d+(?:st|nd|rd|th)\s+edition))?"
_GENERIC = re.compile(rf"^(?:{_BANNER}|game\s+rules|rules|contents|introduction|faqs?|errata)$", re.I)
_BANNER_PREFIX = re.compile(rf"^{_BANNER}\s*(?:[-\u2013\u2014:|]\s*)?(?=\S)", re.I)
# What a version line calls the document its title names: "FACTION PACK: VERSION 1.1".
_KIND = re.compile(r"^[a-z]+\s+pack$", re.I)
# A title that says the document is an update ("RULES UPDATES", "Core Rules Updates").
_UPDATE_TITLE = re.compile(r"\b(?:updates?|errata|faqs?|dataslate|commentary)\b", re.I)


@dataclass
class Meta:
    """The document an FAQ amends, its version and edition."""

    document: str | None
    version: str | None
    edition: int | None


def title_block(lines: list[Line], doc: Document, edition: int | None, stop: int) -> Meta:
    """Document name, version and edition from the title lines before line `stop` (the first entry)."""
    document, version = document_name(lines, doc, stop)
    return Meta(document, version, edition if edition is not None else faq_edition(lines))


def document_name(lines: list[Line], doc: Document, stop: int) -> tuple[str | None, str | None]:
    """The name and version of the document whose title lines are those before line `stop` (the
    first entry): the one resolver of a document's name for its FAQs, errata and rules updates."""
    head = lines[:min(max(stop, 1), 60)]
    # (the line at `stop` too: a title that is also the first section, "RULES UPDATES")
    names = [(ln, name) for ln in lines[:min(stop + 1, 60)] if is_heading_like(ln) and (name := _named(ln.text))]
    document = version = None
    for ln in head:  # a title with a version names the document ("CODEX: NECRONS VERSION 1.1")
        m = VERSION.search(ln.text)
        if m and len(ln.text) < 80:
            version = m.group("v")
            before = _named(ln.text[:m.start()])
            if before and not re.search(r"[A-Za-z]{2,}", _FAQ_WORDS.sub("", before)):
                before = None  # "Official FAQ Version 1.0": the name is on the line above
            earlier = [(x, name) for x, name in names if x.index < ln.index]
            # A title on the line right above names the document; the version line's own words
            # are then a subtitle ("CORE BOOK" / "Indomitus Version 1.7").
            above = earlier[-1][1] if earlier and lines.index(earlier[-1][0]) == lines.index(ln) - 1 else None
            document = above or before or (earlier[-1][1] if earlier else None)
            if above and before and _KIND.match(before):
                # "WORLD EATERS" / "FACTION PACK: VERSION 1.1": the version line says what kind
                # of document the title names ("World Eaters Faction Pack").
                document = f"{above} {before}"
            elif document and _KIND.match(document) and len(earlier) >= 2:
                # "WORLD EATERS" / "FACTION PACK" / "VERSION 1.1": the kind on a line of its own
                document = f"{earlier[-2][1]} {document}"
            break
    if document is None:
        from .rule_chapter_titles import chapter_title

        document = chapter_title(doc)  # a book chapter's FAQ: the chapter is the document
    if document is None and names:
        # A title that calls the document an update ("CORE RULES UPDATES") names what it amends.
        updates = [name for _, name in names if _UPDATE_TITLE.search(name)]
        document = (updates or [names[0][1]])[0]
    if document is None:
        # A text or Markdown FAQ with no title line: its file name says what it is
        # ("Tyranids_FAQ_v1.2.txt").
        document = re.sub(r"[_\s]+", " ", re.sub(r"\.[A-Za-z0-9]{1,5}$", "", doc.origin.name or "")).strip()
    if version is None and document:
        m = SHORT_VERSION.search(document)
        version = m.group("v") if m else None
    if document:
        document = re.sub(r"\b([A-Z]) (?=[A-Z]{2,}\b)", r"\1", document)  # letter-spaced "T YRANIDS"
        document = without_faq_words(_kind_last(document))
        document = record_name(document.strip(" :-([")) or None
    dated = title_date(document) if document and version is None else None
    if dated:  # "Balance Dataslate March 2027": the month tells one iteration from the next
        document, version = dated.name, dated.version
    elif document and version is None:  # the date on a line of its own under the title
        alone = [d for ln in head if is_heading_like(ln) and (d := title_date(ln.text, alone=True)) and not d.name]
        version = alone[0].version if alone else None
    return document, version


def _kind_last(name: str) -> str:
    """A pack's name as the family writes it, its kind last: "Faction Pack: World Eaters" and
    "World Eaters – Faction Pack" are "World Eaters Faction Pack"."""
    m = re.match(r"^(?P<kind>[A-Za-z]+\s+pack)\s*[:\u2013\u2014-]\s*(?P<name>\S.*)$", name, re.I) \
        or re.match(r"^(?P<name>.*\S)\s*[:\u2013\u2014-]\s*(?P<kind>[A-Za-z]+\s+pack)$", name, re.I)
    return f"{m.group('name')} {m.group('kind')}" if m else name


def _named(text: str) -> str | None:
    """The document a title line names, without a leading banner, or None for a banner alone."""
    t = re.sub(r"\s+", " ", text).strip(" :-\u2013\u2014|")
    if not t or _GENERIC.match(t) or re.match(r"^(?:q|a)\s*[:.]", t, re.I):
        return None
    t = _BANNER_PREFIX.sub("", t).strip(" :-\u2013\u2014|")
    if not t or _GENERIC.match(t) or not re.search(r"[A-Za-z]{2,}", t):
        return None
    if VERSION.fullmatch(t) or re.fullmatch(r"version\s*:?\s*[\d.]+[a-z]?", t, re.I):
        return None
    return t


def without_faq_words(name: str) -> str:
    """The name of the document an FAQ amends: "Codex: Necrons – Official FAQ" -> "Codex:
    Necrons", "Tyranids FAQ v1.2" -> "Tyranids"; a name that is nothing else is kept."""
    bare = SHORT_VERSION.sub("", name)
    bare = _FAQ_WORDS.sub("", bare).strip(" :-\u2013\u2014|,")
    return bare if re.search(r"[A-Za-z]{2,}", bare) and not _GENERIC.match(bare) else name


# Evidence of an edition in an FAQ's own text, strongest first. 11th edition addresses its core
# rules by number ("18.01", "02.02.04"); 10th edition FAQs cite the Rules Commentary, Epic Heroes,
# Detachment rules and bracketed weapon abilities.
_RULE_NUMBER = re.compile(r"(?:^|\s)\d{2}\.\d{2}(?:\.\d{2})?(?=\s|$|[,.:])")
_TENTH = re.compile(r"\bRules Commentary\b|\bEpic Hero\b|\bDetachment rule\b|\bBattle-shock(?:ed)?\b|"
                    r"\[(?:DEVASTATING WOUNDS|LETHAL HITS|SUSTAINED HITS|ONE SHOT|ANTI-|HAZARDOUS|PRECISION|"
                    r"IGNORES COVER|TORRENT|BLAST|MELTA|RAPID FIRE|ASSAULT|PISTOL|HEAVY|TWIN-LINKED)")
_MONTH = r"(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# "June 2024", "October 22, 2025", "20th June 2026" (its "June 2026"), "2025-10-22".
_DATE = re.compile(rf"\b{_MONTH}\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?(?P<y>20\d\d)\b"
                   r"|\b(?P<iso>20\d\d)-(?P<m>[01]\d)-[0-3]\d\b", re.I)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def faq_edition(lines: list[Line]) -> int | None:
    """The edition an FAQ's own text shows: rules addressed by number or a date from June 2026
    (11th edition); a date from mid 2023 on, or 10th edition terms (10th). None when nothing
    says."""
    text = "\n".join(ln.text for ln in lines)
    if len(_RULE_NUMBER.findall(text)) >= 2:
        return 11
    date = _latest_date(text)
    if date and date >= (2026, 6):
        return 11
    if date and date >= (2023, 6):
        return 10
    if _TENTH.search(text):
        return 10
    return None


def _latest_date(text: str) -> tuple[int, int] | None:
    best = None
    for m in _DATE.finditer(text):
        if m.group("iso"):
            found = (int(m.group("iso")), int(m.group("m")))
        else:
            found = (int(m.group("y")), _MONTHS.index(m.group("mon").lower()) + 1)
        best = found if best is None or found > best else best
    return best
