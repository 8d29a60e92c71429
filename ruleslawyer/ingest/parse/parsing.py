"""Run the family parsers over a Document and collect their records.

Each family parser is a function `parse(doc, ctx) -> Iterable[Record]` in its own module
(`datasheets`, `errata`, `tables`, `stratagems`, `rules`). They run in the order below over the
same Document; a parser that consumes blocks marks them in `ctx.claimed`, so later parsers
(rules, the catch-all for titled text, runs last) skip them. Parsers never open files.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from ... import lazy
from ...records import Record, Source
from ..document import HEADING, Document

# Order matters: specific recognisers first, the catch-all rules parser last.
FAMILY_PARSERS: tuple[str, ...] = (
    "ruleslawyer.ingest.parse.datasheets:parse",
    "ruleslawyer.ingest.parse.errata:parse",
    "ruleslawyer.ingest.parse.stratagems:parse",
    "ruleslawyer.ingest.parse.tables:parse",
    "ruleslawyer.ingest.parse.rules:parse",
)


@dataclass
class ParseContext:
    """Shared state of one parse: the edition guess and which blocks are already consumed."""

    doc: Document
    edition: int | None = None
    claimed: set[int] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)  # doubts worth reporting, stored with the file
    # Views of the document that several parsers build the same way (their line lists), made
    # once per parse and keyed by the view's name; what depends on `claimed` is refreshed by
    # whoever hands the view out again.
    memo: dict[str, object] = field(default_factory=dict)

    def warn(self, message: str, page: int | None = None) -> None:
        """Record a doubt (a block skipped, a value guessed): stored with the file, shown by
        `ingest -v` and `ruleslawyer files --warnings`, fatal under `ingest --strict`."""
        self.warnings.append(f"p.{page}: {message}" if page else message)

    def claim(self, indexes: Iterable[int]) -> None:
        self.claimed.update(indexes)

    def is_claimed(self, index: int) -> bool:
        return index in self.claimed

    def source(self, page: int | None = None, locator: str | None = None) -> Source:
        """The Source of a record found on `page` of this document."""
        o = self.doc.origin
        return Source(file=o.name, page=page, format=o.format, sha256=o.sha256, locator=locator)


_EDITION_WORDS = [
    (re.compile(r"\b(11|eleventh)(th)?[ -]ed", re.I), 11),
    (re.compile(r"\b(10|tenth)(th)?[ -]ed", re.I), 10),
    (re.compile(r"\b(9|ninth)(th)?[ -]ed", re.I), 9),
    (re.compile(r"\b(8|eighth)(th)?[ -]ed", re.I), 8),
    (re.compile(r"\b(5|fifth)(th)?[ -]ed", re.I), 5),
]


_WEAPON_KEYWORD = re.compile(r"\[(?:ASSAULT|PISTOL|HEAVY|BLAST|HAZARDOUS|TORRENT|PRECISION|LANCE|TWIN-LINKED|"
                             r"IGNORES COVER|LETHAL HITS|DEVASTATING WOUNDS|INDIRECT FIRE|ONE SHOT|PSYCHIC|"
                             r"RAPID FIRE [D\d]+|SUSTAINED HITS [D\d]+|MELTA [D\d]+|ANTI-[A-Z]+ \d\+)[],]", re.I)


def guess_edition(doc: Document) -> int | None:
    """The edition a document is written for, from what it says or the rules it uses.

    Explicit words ("9th edition") win; then the characteristic set (OC is 10th edition; WS/BS
    with Power Ratings is 9th), stratagem sections or bracketed weapon abilities (10th); then
    era markers (Indomitus and Command Points are 9th edition; Initiative, Go to Ground and To
    Wound charts are 5th edition).
    """
    text = doc.text[:400_000]
    counts = {}
    for pattern, edition in _EDITION_WORDS:
        counts[edition] = len(pattern.findall(text))
    best = max(counts, key=counts.get)
    if counts[best]:
        return best
    if _eleventh_markers(text) or _first_numbered_rule(doc):
        return 11
    # A folder or file the user named for its edition ("e11/") outweighs the weak cues below
    # (OC, bracketed weapon abilities), which later editions share.
    by_path = edition_from_path(doc.origin.path)
    if by_path:
        return by_path
    if re.search(r"\bOC\b", text) and re.search(r"\bLd\b", text) and re.search(r"\bSv\b", text, re.I):
        return 10
    if re.search(r"\b(WHEN|TARGET|EFFECT):", text) and re.search(r"\bCP\b", text):
        return 10
    if len(_WEAPON_KEYWORD.findall(text)) >= 2:  # "[RAPID FIRE 1]", "[BLAST]": 10th edition weapon abilities
        return 10
    if re.search(r"\bIndomitus\b|\bPOWER \d+|\bbattle-forged\b", text, re.I):
        return 9
    if re.search(r"\bGo to Ground\b|\bInitiative\b|\bTo Wound chart\b|\bSweeping Advance\b", text):
        return 5
    return None


# 11th edition prints a number on every core rule ("MOVING UNITS 03.01", "24.12 FEEL NO PAIN"),
# an InSv box and a SUPPORT box on datasheets, and Detachment Points on detachments.
_NUMBERED_HEADING = re.compile(r"^(?:[A-Z][A-Z0-9'’,!?/&()\[\] \-–‑]{2,60}\s+\d{2}\.\d{2}|\d{2}\.\d{2}\s+[A-Z][A-Z'’ \-‑]{2,60})$",
                               re.M)
_ELEVENTH = re.compile(r"\bInSv\b|^\s*SUPPORT\b|\bDetachment Points\b", re.M)


def _eleventh_markers(text: str) -> bool:
    return len(_NUMBERED_HEADING.findall(text)) >= 3 or len(_ELEVENTH.findall(text)) >= 2


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


def parse_document(doc: Document, ctx: ParseContext | None = None) -> list[Record]:
    """Every record the family parsers find in `doc`, in the order they found them.

    `ctx` may be given by a caller that also needs the edition guess (the pipeline stores it).
    """
    ctx = ctx or ParseContext(doc=doc, edition=guess_edition(doc))
    records: list[Record] = []
    for spec in FAMILY_PARSERS:
        records.extend(lazy.load(spec)(doc, ctx))
    return records
