"""The walk through an FAQ/errata document's lines: an ordered table of named rules.

For each line the first `Step` of `STEPS` that `matches` it applies and returns how many lines
it used; a `passing` step only closes what the line ends (a pair, an entry, a note) or notes
the line as used, and the next steps see the same line. The table, in order:

    page footer             "Page 3" among unpaged entries: no header
    faction heading         (passing) a heading over index-card entries: their faction
    known faction           (passing) a heading naming a known faction ("NECRONS") closes the entry
                            open; the entries below carry that faction (until "CORE RULES")
    faction part            (passing) another heading under it: a detachment part read out of
                            order returns to the faction before (errata_sections.FactionParts)
    boundary                (passing) a section heading, entry header, titled update, reprinted
                            rule or question closes the note, entry and (for all but a question)
                            the pair open
    leaving the material    (passing) a heading (or a table that is no Q&A) after an answer or a
                            complete entry (two lines, or an instruction holding its wording)
                            closes them
    subject ends            (passing) a heading as high as a subject heading (no entry header)
                            ends its subject
    section heading         "UPDATES & ERRATA", "FAQS", "DESIGNER'S NOTES", a subject heading
                            ("CARD DECK: FAQS", "<X> ERRATA": its records' document is X),
                            "CARD AMENDMENTS"
    titled update           a title over the wording of a rule an update sheet adds
    entry header            "Page 94 – …", "18.01 Stratagems", "Unit – Section", a titled header
    amended card            in a card amendments section, a card's type line over its name: the
                            card reprinted as amended, up to the next card or section
    reprinted rule          under a faction heading of a document with several, a rule's title
                            heading ("Big Noise Stratagem") over plain wording with no instruction:
                            the wording replaces the rule
    used                    (passing) a line inside a pair, an entry or the notes is used
    question                "Q: …" opens a pair (taking an answer printed before it)
    answer before question  "A: …" printed before the question it answers
    answer                  "A: …" answers the open question (never replacing an answer)
    designer's note         "Designer's Note: …" after an answer closes the pair: a note
    pair goes on            more question or answer (an "Example:" stays with its answer)
    heading between entries a faction heading ends the entry above it
    lost header             an "Add the following …:" after a complete entry of another kind
    entry wording           the open entry's instruction and wording
    note                    a designer's note's title or text
    other                   anything else (intro text)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from ...names import fold
from ...records import Record
from ..document import HEADING
from .errata_entries import DESIGNERS_NOTE, Header, parse_header
from .errata_grammar import numbered_header
from .errata_headers import dash_header, full_header, section_of, titled_header
from .errata_meta import Meta
from .errata_qa import ANSWER, QUESTION, answers_next_question, split_qa
from .errata_records import Entry, complete, errata, faq, note, opens_another_addition, with_text
from .errata_sections import (FactionParts, card_start, cards_name_first, ends_factions, is_card_section,
                              reprinted_title, subject_heading)
from .errata_text import is_heading_like
from .inference import known_faction
from .lines import Line, record_name, Step
from .parsing import ParseContext


@dataclass
class Here:
    """One line of the walk and what it is."""

    n: int
    line: Line
    text: str
    header: Header | None  # a "Page N – …" header
    section: str | None  # the section a section heading opens
    addition: bool  # the title of an update sheet's addition
    dash: Header | None  # an unpaged or titled header
    titled: tuple[Header, int] | None  # a titled header and where it ends
    question: bool
    reprint: bool = False  # a reprinted rule's title (see `_reprinted_title`)


@dataclass
class Walk:
    """The state of the walk, and the records made so far."""

    lines: list[Line]
    meta: Meta
    ctx: ParseContext
    used: set[int]
    index_cards: bool
    additions: set[int]
    out: list[Record] = field(default_factory=list)
    section: str = "intro"
    group: str | None = None  # the heading over the entries (index cards: the faction)
    faction: str | None = None  # the known faction whose heading is over the entries
    parts: FactionParts = field(default_factory=FactionParts)  # where in a faction's parts the walk is
    subject: str | None = None  # what a subject section ("<X>: FAQS", "<X> ERRATA") is about
    subject_level: int = 0  # that heading's level (0: not known)
    subjects: set[str] = field(default_factory=set)  # every subject named so far
    cards: set[int] = field(default_factory=set)  # the ids of the amended cards' errata
    name_first: bool = False  # the amended cards print their name over their type line
    note: tuple[Line, list[Line]] | None = None
    entry: Entry | None = None
    question: list[Line] = field(default_factory=list)
    answer: list[Line] = field(default_factory=list)
    in_answer: bool = False
    early_answer: list[Line] = field(default_factory=list)

    @cached_property
    def many_factions(self) -> bool:
        """True when headings name two known factions or more (a dataslate's faction parts), not
        one (a faction pack whose stratagem cards also end in "Stratagem")."""
        return len({known_faction(ln.text) for ln in self.lines if ln.kind == HEADING} - {None}) >= 2

    def here(self, n: int) -> Here:
        """What line `n` is."""
        line = self.lines[n]
        text = line.text.strip()
        header = parse_header(text)
        dash = None if header else dash_header(self.lines, n, self.index_cards)
        titled = None if header or dash or self.index_cards else titled_header(self.lines, n)
        subject = None if section_of(line) else subject_heading(line)
        section = section_of(line) or (subject[0] if subject else "cards" if is_card_section(line) else None)
        here = Here(n, line, text, header, section, n in self.additions,
                    dash or (titled[0] if titled else None), titled, bool(QUESTION.match(text)))
        here.reprint = _reprinted_title(self, here)
        return here

    def end_note(self) -> None:
        if self.note:
            self.out.append(note(self.note, self.meta, self.ctx))
            self.note = None

    def end_entry(self) -> None:
        if self.entry:
            made = list(errata(self.entry, self.about(), self.ctx))
            self.cards.update(id(r) for r in made if self.entry.card)
            self.out.extend(made)
            self.entry = None

    def about(self) -> Meta:
        """The document the records made now are about: a subject section's ("CARD DECK:
        FAQS"), else the document's own."""
        return replace(self.meta, document=self.subject) if self.subject else self.meta

    def end_pair(self) -> None:
        if self.question:
            self.out.append(faq(self.question, self.answer, self.about(), self.ctx))
        self.question, self.answer, self.in_answer = [], [], False

    def finish(self) -> list[Record]:
        """Close what is open at the end of the document; the records, in order. Amended cards
        are cards of the one product the document's subject sections are about, when there is
        one ("CARD DECK: FAQS" beside "CARD AMENDMENTS")."""
        self.end_note()
        self.end_entry()
        self.end_pair()
        if len(self.subjects) == 1:
            self.out = [replace(r, document=min(self.subjects)) if id(r) in self.cards else r for r in self.out]
        return self.out


def _use(w: Walk, h: Here) -> int:
    w.used.add(h.line.index)
    return 1


def _faction_heading(w: Walk, h: Here) -> bool:
    return w.index_cards and h.line.kind == HEADING and not h.section and h.n + 1 < len(w.lines) \
        and dash_header(w.lines, h.n + 1, True) is not None


def _take_group(w: Walk, h: Here) -> None:
    w.group = record_name(h.text)  # a faction heading over the entries below it


def _known_faction(w: Walk, h: Here) -> bool:
    return h.line.kind == HEADING and (bool(h.section) or ends_factions(h.text) or known_faction(h.text) is not None)


def _take_faction(w: Walk, h: Here) -> None:
    w.end_entry()
    w.faction = w.parts.enter(None if h.section or ends_factions(h.text) else known_faction(h.text))


def _reprinted_title(w: Walk, h: Here) -> bool:
    """Under a faction heading of a many-faction document, a rule's title over its wording
    (`errata_sections.reprinted_title`)."""
    return bool(w.faction) and not (h.section or h.header or h.dash or h.question) and w.many_factions \
        and reprinted_title(w.lines, h.n)


def _boundary(w: Walk, h: Here) -> None:
    w.end_note()
    w.end_entry()
    if w.question and h.question or h.section or h.header or h.dash or h.addition or h.reprint:
        w.end_pair()


def _leaves(w: Walk, h: Here) -> bool:
    ends_pair = w.question and (h.line.kind == HEADING or (h.line.is_table and not h.question))
    ends_entry = w.entry and h.line.kind == HEADING and complete(w.entry) and not w.entry.card
    return bool(ends_pair or ends_entry)


def _leave(w: Walk, h: Here) -> None:
    # A heading (or a table that is not a Q&A) after an answer or a complete entry leaves the
    # FAQ material.
    ends_entry = w.entry and h.line.kind == HEADING and complete(w.entry) and not w.entry.card
    if w.question:
        w.end_pair()
    if ends_entry:
        w.end_entry()


def _section(w: Walk, h: Here) -> int:
    w.section = h.section
    w.name_first = h.section == "cards" and cards_name_first(w.lines, h.n + 1)
    subject = (subject_heading(h.line) or ("", ""))[1]
    # (a subject that is the document itself, "TYRANIDS FAQ" over a Tyranids FAQ, changes nothing)
    w.subject = subject if subject and fold(subject) not in fold(w.meta.document or "") else None
    w.subjects.update([w.subject] if w.subject else [])
    w.subject_level = h.line.block.level if w.subject and h.line.block is not None else 0
    return _use(w, h)


def _subject_ends(w: Walk, h: Here) -> bool:
    if not w.subject or h.line.kind != HEADING or h.section or h.question or h.header or h.dash or h.reprint \
            or (w.entry and not complete(w.entry)):
        return False  # (an entry's header, or wording under "Change to:", is inside the section)
    level = h.line.block.level if h.line.block is not None else 0
    return not (w.subject_level and level and level > w.subject_level)


def _end_subject(w: Walk, h: Here) -> None:
    w.end_entry()
    w.end_pair()
    w.subject, w.section = None, "other"


def _card(w: Walk, h: Here) -> int:
    w.end_entry()
    w.entry = Entry(Header("", card_start(w.lines, h.n, w.name_first), None), [h.line, w.lines[h.n + 1]], header_line=h.line,
                    reprinted=True, card=True)
    w.used.update((h.line.index, w.lines[h.n + 1].index))
    return 2


def _designers_note(w: Walk, h: Here) -> int:
    w.end_pair()
    w.out.append(note((with_text(h.line, "Designer's Note"), [with_text(h.line, DESIGNERS_NOTE.sub("", h.text))]),
                      w.meta, w.ctx))
    return _use(w, h)


def _addition(w: Walk, h: Here) -> int:
    # A titled update that brings a rule: an erratum that adds it (records.md: `add`).
    numbered = numbered_header(h.text)
    header = Header(numbered.page, record_name(numbered.target or ""), numbered.location) if numbered \
        else Header("", record_name(h.text), None)
    w.entry = Entry(header, header_line=h.line, added=True)
    return _use(w, h)


def _header(w: Walk, h: Here) -> int:
    header, end = h.titled if h.titled else full_header(w.lines, h.n, h.header or h.dash)
    w.used.update(x.index for x in w.lines[h.n:end])
    w.entry = Entry(header, header_line=h.line, group=w.group if w.index_cards else None, faction=w.faction)
    w.section = "errata"
    return end - h.n


def _reprint(w: Walk, h: Here) -> int:
    w.entry = Entry(Header("", record_name(h.text), None), header_line=h.line, reprinted=True, faction=w.faction)
    return _use(w, h)


def _question(w: Walk, h: Here) -> int:
    q, a = split_qa(h.text)
    w.question = [with_text(h.line, q)]
    w.answer, w.in_answer = ([with_text(h.line, a)], True) if a else ([], False)
    if not a and w.early_answer:  # its answer was printed before it
        w.answer, w.in_answer = w.early_answer, True
    w.early_answer = []
    return 1


def _answer_text(h: Here) -> str:
    return ANSWER.sub("", h.text, count=1)


def _answers_later(w: Walk, h: Here) -> bool:
    return bool(ANSWER.match(h.text)) and answers_next_question(w.lines, h.n) and bool(w.answer or not w.question)


def _early_answer(w: Walk, h: Here) -> int:
    # An answer printed before its question (a two-column page read across): it is the next
    # question's, and the pair above keeps its own answer.
    w.end_pair()
    w.early_answer = [with_text(h.line, _answer_text(h))]
    return _use(w, h)


def _answer(w: Walk, h: Here) -> int:
    w.answer, w.in_answer = [with_text(h.line, _answer_text(h))], True
    return 1


def _pair_more(w: Walk, h: Here) -> int:
    (w.answer if w.in_answer else w.question).append(h.line)
    return 1


def _heading_between(w: Walk, h: Here) -> bool:
    lines, n = w.lines, h.n
    return bool(w.entry) and h.line.kind == HEADING and n + 1 < len(lines) and \
        bool(parse_header(lines[n + 1].text) or dash_header(lines, n + 1, w.index_cards))


def _end_entry(w: Walk, h: Here) -> int:
    # A section heading (a faction name) between entries ends the entry above it.
    w.end_entry()
    return 1


def _lost_header(w: Walk, h: Here) -> int:
    # An "Add the following sub-section:" after a complete entry of another kind: its page
    # header was lost (a PDF loader can take "Page 247" for a page number).
    w.end_entry()
    w.entry = Entry(Header("", None, None), [h.line], header_line=None)
    return 1


def _wording(w: Walk, h: Here) -> int:
    w.entry.lines.append(h.line)
    return 1


def _note_line(w: Walk, h: Here) -> int:
    if is_heading_like(h.line) and not h.line.is_bullet:
        w.end_note()
        w.note = (h.line, [])
    elif w.note:
        w.note[1].append(h.line)
    return 1


STEPS: tuple[Step, ...] = (
    Step("page footer", lambda w, h: h.header and w.index_cards and not h.header.target, _use),
    Step("faction heading", _faction_heading, _take_group, passing=True),
    Step("known faction", _known_faction, _take_faction, passing=True),
    Step("faction part", lambda w, h: w.faction and h.line.kind == HEADING and not _known_faction(w, h)
         and w.many_factions, lambda w, h: setattr(w, "faction", w.parts.part(h.text)), passing=True),
    Step("boundary", lambda w, h: h.section or h.header or h.dash or h.addition or h.reprint or h.question,
         _boundary, passing=True),
    Step("leaving the material", _leaves, _leave, passing=True),
    Step("subject ends", _subject_ends, _end_subject, passing=True),
    Step("section heading", lambda w, h: h.section, _section),
    Step("titled update", lambda w, h: h.addition, _addition),
    Step("entry header", lambda w, h: h.header or h.dash, _header),
    Step("amended card", lambda w, h: w.section == "cards" and card_start(w.lines, h.n, w.name_first), _card),
    Step("reprinted rule", lambda w, h: h.reprint, _reprint),
    Step("used", lambda w, h: w.question or w.entry or w.section == "notes" or h.question,
         lambda w, h: w.used.add(h.line.index), passing=True),
    Step("question", lambda w, h: h.question, _question),
    Step("answer before question", _answers_later, _early_answer),
    Step("answer", lambda w, h: w.question and ANSWER.match(h.text) and not w.answer, _answer),
    Step("designer's note", lambda w, h: w.question and w.answer and DESIGNERS_NOTE.match(h.text), _designers_note),
    Step("pair goes on", lambda w, h: w.question, _pair_more),
    Step("heading between entries", _heading_between, _end_entry),
    Step("lost header", lambda w, h: w.entry and opens_another_addition(w.entry, h.line), _lost_header),
    Step("entry wording", lambda w, h: w.entry, _wording),
    Step("note", lambda w, h: w.section == "notes", _note_line),
    Step("other", lambda w, h: True, lambda w, h: 1),
)


def walk(w: Walk) -> list[Record]:
    """Run the steps over the lines in order; the records they make (see the module docstring)."""
    n = 0
    while n < len(w.lines):
        h = w.here(n)
        for step in STEPS:
            if step.matches(w, h):
                used = step.apply(w, h)
                if not step.passing:
                    n += used
                    break
    return w.finish()

