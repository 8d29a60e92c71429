"""Sections of an FAQ/errata document that say what their entries are about.

- A subject heading, "<X>: FAQS", "<X> FAQ" or "<X> ERRATA" ("CARD DECK: FAQS" in a
  tournament companion), names the product its entries are about: their records' document is X
  (the version stays the containing document's).
- A dataslate's faction part: under a faction heading (in a document with several), a rule's
  title ("Big Noise Stratagem") over its wording with no instruction reprints the rule as it now
  reads; the "CORE RULES" part has no faction.
- A dataslate's faction part prints its army rules, then its detachments, then its datasheets. A
  two-column page read out of order can put a faction's detachment part after the next faction's
  datasheets part: a detachment heading there continues the faction part before it, when that one
  has not reached its datasheets part (`FactionParts`).
- A card amendments heading ("CARD AMENDMENTS FOR TOURNAMENTS", "AMENDED CARDS") opens cards
  reprinted as amended: each card starts at its type line ("PRIMARY MISSION - DEFENDER") over
  its name ("HOLD THE LINE"), or its name over its type line, as the section's first card does,
  and is one erratum replacing the card named.
"""
from __future__ import annotations

import re

from ..document import HEADING
from .errata_grammar import is_instruction
from .errata_headers import section_of
from .errata_qa import QUESTION
from .lines import Line, record_name

# "CARD DECK: FAQS", "Card Deck FAQ", "Crusade – Frequently Asked Questions", "CARD DECK
# ERRATA & FAQ", "Card Deck: Errata"
_SUBJECT = re.compile(r"^(?P<subject>.{3,80}?)\s*[:\u2013\u2014-]?\s*(?:(?P<errata>errata)\s*(?:&|and)?\s*)?"
                      r"(?P<faq>faqs?|frequently\s+asked\s+questions)?$", re.I)
# Words about the document itself, or a banner: no subject.
_NO_SUBJECT = re.compile(r"^(?:(?:the|official|errata|updates?|rules|designer'?s|commentary|and|&|,)\s*)*$"
                         r"|^warhammer\s*(?:40,?000|40k)$", re.I)
_CARD_SECTION = re.compile(r"^(?:(?:[a-z']+\s+){0,3}card\s+(?:amendments|errata|updates)|amended\s+cards)"
                           r"(?:\s+for\s+[a-z ]{3,40})?$", re.I)
# A card's type line: "PRIMARY MISSION - DEFENDER", "TWIST", "CORE - BATTLE TACTIC STRATAGEM".
_CARD_TYPE = re.compile(r"^[A-Z][A-Z' \-\u2013\u2014]*\b(?:MISSION|STRATAGEM|TWIST|GAMBIT|ASSET|DEPLOYMENT|CHALLENGER|"
                        r"OBJECTIVE|CARD)\b[A-Z' \-\u2013\u2014]*$")
# A card's name: a few words in capitals.
_CARD_NAME = re.compile(r"^[A-Z][A-Z'\u2019!\- ]{2,60}$")


def subject_heading(line: Line) -> tuple[str, str] | None:
    """(section, subject) for a heading "<X>: FAQS" ("faq") or "<X>: ERRATA" ("errata"), the
    subject as a record name; None for any other line and for a heading that names nothing but
    the document's parts ("ERRATA & FAQ", "Official FAQ")."""
    if line.kind != HEADING:
        return None
    m = _SUBJECT.match(" ".join(line.text.split()))
    if not m or not (m.group("errata") or m.group("faq")):
        return None
    subject = m.group("subject").strip(" :,-\u2013\u2014")
    if _NO_SUBJECT.match(subject):
        return None  # "Errata & FAQ", "Official FAQ", "WARHAMMER 40,000 FAQ": no subject named
    return ("faq" if m.group("faq") else "errata"), record_name(subject)


def is_card_section(line: Line) -> bool:
    """True for a heading that opens reprinted, amended cards ("CARD AMENDMENTS FOR TOURNAMENTS")."""
    return line.kind == HEADING and bool(_CARD_SECTION.match(" ".join(line.text.split())))


def card_start(lines: list[Line], n: int, name_first: bool = False) -> str | None:
    """The card's name when line `n` starts a card: its type line directly over its name line,
    or (`name_first`, a section whose cards print their name first) its name over its type."""
    if n + 1 >= len(lines):
        return None
    one, two = (" ".join(x.text.split()) for x in lines[n:n + 2])
    kind, name = (two, one) if name_first else (one, two)
    if _CARD_TYPE.match(kind) and _CARD_NAME.match(name) and not _CARD_TYPE.match(name) \
            and not any(_CARD_SECTION.match(x) for x in (one, two)):
        return record_name(name)
    return None


def cards_name_first(lines: list[Line], n: int) -> bool:
    """Whether the cards of the section starting at line `n` print their name over their type
    line ("NEW ORDERS" / "CORE - STRATEGIC PLOY STRATAGEM"): the first card found says."""
    for k in range(n, min(n + 12, len(lines))):
        if card_start(lines, k):
            return False
        if card_start(lines, k, name_first=True):
            return True
    return False


# Where a dataslate's faction part ends: the core rules part (section headings end it too).
_CORE_PART = re.compile(r"^core\s+rules$", re.I)
# The title of a rule a dataslate reprints: it ends by saying what it is ("Silver Wake Army
# Rule", "Big Noise Stratagem", "Rokkit Buggy, Bumpy Ride Ability").
_RULE_TITLE = re.compile(r"^[A-Z][^.:;!?]{2,120}\s(?:rules?|abilit(?:y|ies)|enhancement|stratagem|section|keywords|"
                         r"weapons|profiles?)$", re.I)
# A part of a faction's entries, no rule's name: "ARMY RULE", "DATASHEETS".
_PART_TITLE = re.compile(r"^(?:(?:army|detachment|faction|core|datasheets?|unit)\s+)*(?:rules?|abilit(?:y|ies)|"
                         r"enhancements?|stratagems?|keywords|weapons)$", re.I)
# The parts of a faction's entries that say where in its order a heading is.
_DATASHEETS_PART = re.compile(r"^datasheets?$", re.I)
_DETACHMENT_PART = re.compile(r"^[A-Z][^.:;!?,]{2,80}\sdetachment$", re.I)
_SENTENCE_END = re.compile(r"[.!?]['\u2019\u201d\")]?$")


def ends_factions(text: str) -> bool:
    """True for the heading of a dataslate's core rules part ("CORE RULES")."""
    return bool(_CORE_PART.match(text.strip()))


def reprinted_title(lines: list[Line], n: int) -> bool:
    """True when heading (or bold line) `n` titles a rule ("Glowing Crown Enhancement")
    directly over plain wording: running text, not an instruction, heading, bold title,
    question, table or flavour line."""
    line = lines[n]
    if not (line.kind == HEADING or line.bold) or n + 1 >= len(lines) or not _RULE_TITLE.match(line.text) \
            or _PART_TITLE.match(line.text):
        return False
    nxt = lines[n + 1]
    # (a sentence or a long line, not another title such as "Big Noise Army Rule,")
    return not (nxt.kind == HEADING or nxt.bold or nxt.is_table or nxt.italic or is_instruction(nxt.text)
                or QUESTION.match(nxt.text) or section_of(nxt)
                or not (_SENTENCE_END.search(nxt.text) or len(nxt.text.split()) >= 12))


class FactionParts:
    """The faction parts of a many-faction dataslate as the walk meets them: which faction the
    entries under a heading are about (see the module docstring)."""

    def __init__(self) -> None:
        self.faction: str | None = None  # the faction of the entries now
        # the faction part of the last faction heading and the one before it: [faction, reached
        # its datasheets part]
        self.printed: list | None = None
        self.earlier: list | None = None

    def enter(self, faction: str | None) -> str | None:
        """A faction heading (None: the core rules part or a section): the faction it opens."""
        self.earlier = self.printed if self.printed and self.printed[0] else None
        self.printed = [faction, False]
        self.faction = faction
        return faction

    def part(self, text: str) -> str | None:
        """Another heading under a faction heading: the faction of the entries below it. A
        detachment heading after the datasheets part goes back to the faction part before, when
        that one has not reached its datasheets part (read out of order)."""
        text = " ".join(text.split())
        current = self.printed if self.printed and self.faction == self.printed[0] else self.earlier
        if current is None:
            return self.faction
        if _DATASHEETS_PART.match(text):
            current[1] = True
        elif _DETACHMENT_PART.match(text) and current is self.printed and current[1] \
                and self.earlier and not self.earlier[1]:
            self.faction = self.earlier[0]
        return self.faction
