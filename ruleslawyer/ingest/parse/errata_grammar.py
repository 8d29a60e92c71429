"""The grammar of errata headers and instruction lines.

    Page 42 – Banner Bearer                       header: page "42", target "Banner Bearer"
    Change this rule to read: 'While a unit …'    instruction -> operation replace, location null
    Change AP to '-2'.                            a value change: place "AP", new value "-2"

`parse_header(text)` reads a header; `read_instruction(text, header)` an instruction line
(errata_entries.py reads the wording after it).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# "Page 219 – Look Out, Sir", "*Pages 333-335 – …", "Page 363, Rare Rules", "Page 247",
# "Pages 91 and 103 – Sanctus and Ranged Weapons list, …"
_PAGE_REF = r"\d+(?:\s*(?:[-\u2013\u2014]|and|&|,)\s*\d+)*"
HEADER = re.compile(
    rf"^\s*(?P<star>\*)?\s*Pages?\s+(?P<page>{_PAGE_REF})\s*(?:(?:[-\u2013\u2014:]|,)\s*(?P<title>.*?))?\s*$",
    re.I)
_ORDINAL = (r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final|"
            r"penultimate|\d+(?:st|nd|rd|th))")
# A comma part of a header that names a place inside the target, not a rule.
_LOCATION_PART = re.compile(rf"^(?:the\s+)?{_ORDINAL}\s+(?:paragraph|sentence|bullet(?: point)?|line)s?$", re.I)
_VERB = re.compile(r"^(?:change|add|delete|remove|replace|insert|substitute|amend|in the\b|the\b.*\bshould)",
                   re.I)

# "Change the third sentence of the first paragraph to read:", "Change to read:",
# "Change third sentence to read:", "Change the fourth bullet point of … to:"
_CHANGE = re.compile(r"^(?:change|amend|replace)\s*(?P<what>.*?)\s*(?:to\s+read|to\s+say|with)\s*(?::|\.|$)",
                     re.I)
_CHANGE_TO = re.compile(r"^(?:change|amend)\s+(?:(?P<what>.+?)\s+)?to\s*:\s*", re.I)
_ADD = re.compile(r"^(?:add|insert)\s+the\s+followings?(?P<unit>(?:\s+(?!to\b)[\w'-]+){0,3}?)"
                  r"(?:\s+(?:to|at|after|before)\s+(?P<where>.+?))?\s*:", re.I)
# Index-card errata: "Change to 'text'", "Add '[PISTOL]'.", "Add close combat weapon profile:",
# "Add additional sub-bullet to read:".
_CHANGE_TO_QUOTE = re.compile(r"^(?:change|amend)\s+to\s*(?=['\"\u201c])", re.I)
_ADD_QUOTE = re.compile(r"^(?:add|insert)\s+(?=['\"\u201c])", re.I)
# The unit may open with a numeral ordinal ("Add 6th bullet to read:").
_ADD_UNIT = re.compile(r"^(?:add|insert)\s+(?:an?\s+)?(?P<unit>(?:\d+(?:st|nd|rd|th)\s+)?[A-Za-z][\w\[\]' -]{0,50}?),?"
                       r"(?:\s+to\s+read)?\s*:\s*", re.I)
_QUOTE_THEN_PLACE = re.compile(r"^['\"\u201c](?P<quoted>.+?)['\"\u201d]\s+to\s+(?P<where>the\s+(?:start|end|beginning)"
                               r"\s+of\s+.+?)\.?$", re.I)
_DELETE = re.compile(r"^(?:delete|remove)\s+(?P<what>.+?)\s*[.:]?$", re.I)
_RENUMBER_VALUE = re.compile(r"^(?:add|subtract)\s+\w+\s+(?:to|from)\s+the\s+(?:numerical\s+)?values?\s+of\s+"
                             r"(?P<what>.+?)(?:,\s*e\.g\..*)?\.?$", re.I)
_CHANGE_MECH = re.compile(r"^change\s+(?P<what>.+?)\s+to\s+(?!read\b)(?:each\s+)?(?:be\s+)?.+$", re.I)
_APPEND_UNITS = {"sentence", "sentences", "paragraph", "paragraphs", "words", "text", "line", "lines"}
# What an added unit is called when it is a new titled part ("Add Attached Unit section",
# "Add close combat weapon profile"), and words that are no title ("additional", "following").
_TITLED_UNIT = re.compile(r"^(?P<name>.+?)\s+(?:section|sub-section|profile|ability|rule|box ?out)$", re.I)
_NO_TITLE = {"additional", "new", "following", "the following", "this", "a", "an", "sub", "extra"}
# "Change AP to '-2'.", "Change the weapon's Damage characteristic to 'D6'.", "Change the Models
# per Unit value to read '1-3'.", "Change '1 master-crafted power weapon' to '1 power weapon'.":
# one value (or wording) in quotes replaces the thing named before "to".
_CHANGE_VALUE = re.compile(r"^(?:change|amend)\s+(?:'(?P<old>[^']+)'|(?P<what>(?:[^'\"\u201c\u201d]|(?<=\w)'(?=\w))+?))"
                           r"\s+to\s+(?:read\s+)?"
                           r"(?:'(?P<value>[^']*)'|\u201c(?P<dvalue>[^\u201d]*)\u201d)\s*[.,]?$", re.I)
_VALUE = r"(?:\d+\+?(?:\"|''|\u2033)?|D\d+(?:\+\d+)?|\d*D\d+(?:\+\d+)?|-\d+)"
_CHANGE_BARE_VALUE = re.compile(rf"^change\s+(?P<old>{_VALUE})\s+to\s+(?P<new>{_VALUE})\s*\.?$", re.I)
_CHANGE_CHARACTERISTIC = re.compile(rf"^(?i:change)\s+(?P<what>M|WS|BS|S|T|W|A|Ld|Sv|OC|AP|D|InSv)\s+to\s+(?P<new>{_VALUE}|-)\s*\.?$")
# "Delete 'Retinue'.": the quoted words are what goes, not a place.
_DELETE_QUOTED = re.compile(r"^(?:delete|remove)\s+'(?P<what>[^']+)'\s*\.?$", re.I)
_QUOTED_ITEM = re.compile(r"'([^']+)'")


@dataclass(frozen=True)
class Header:
    """A parsed "Page N – Title" line."""

    page: str
    target: str | None
    location: str | None
    starred: bool = False


def parse_header(text: str) -> Header | None:
    """The page, target and location of an entry header, or None when `text` is not one."""
    m = HEADER.match(text.replace("\u00a0", " "))
    if not m:
        return None
    title = (m.group("title") or "").strip().rstrip(".").strip()
    if title and _VERB.match(title):  # "Page 12: Change …" would be prose, not a header
        return None
    page = re.sub(r"\s*[\u2013\u2014-]\s*", "-", m.group("page").strip())
    if not title:
        return Header(page, None, None, bool(m.group("star")))
    parts = [p.strip() for p in title.split(",")]
    loc_parts: list[str] = []
    while len(parts) > 1 and _LOCATION_PART.match(parts[-1]):
        loc_parts.insert(0, parts.pop())
    target = ", ".join(p for p in parts if p) or None
    location = ", ".join(re.sub(r"^the\s+", "", p, flags=re.I) for p in loc_parts) or None
    return Header(page, target, location, bool(m.group("star")))


# 11th edition addresses core rules by number: "18.01 Stratagems, 2nd paragraph", "Rule 02.02.04 –
# Unit Coherency", "DEEP STRIKE 20.03".
_RULE_NO = r"\d{2}(?:\.\d{2}){1,2}"
_NUMBERED_FIRST = re.compile(rf"^\s*(?:rule\s+)?(?P<num>{_RULE_NO})\s*(?:[-\u2013\u2014:,]\s*)?(?P<title>[A-Za-z'].*?)\s*$", re.I)
_NUMBERED_LAST = re.compile(rf"^\s*(?P<title>[A-Za-z'][^.:;]*?)\s*[-\u2013\u2014,]?\s+\(?(?:rule\s+)?(?P<num>{_RULE_NO})\)?\s*$",
                            re.I)


def numbered_header(text: str) -> Header | None:
    """An entry header that addresses a rule by its number ("18.01 Stratagems, 2nd paragraph"):
    the number in `page` (the reference as printed), the rule and its part as for a page header."""
    t = text.replace("\u00a0", " ").strip()
    m = _NUMBERED_FIRST.match(t) or _NUMBERED_LAST.match(t)
    if not m or _VERB.match(m.group("title")) or len(t) > 160:
        return None
    parts = [p.strip() for p in re.sub(r"\s+[\u2013\u2014-]\s+", ", ", m.group("title").rstrip(".")).split(",")]
    loc_parts: list[str] = []
    while len(parts) > 1 and _LOCATION_PART.match(parts[-1]):
        loc_parts.insert(0, parts.pop())
    location = ", ".join(re.sub(r"^the\s+", "", p, flags=re.I) for p in loc_parts) or None
    return Header(m.group("num"), ", ".join(p for p in parts if p) or None, location)


def is_edit(text: str) -> bool:
    """True for an instruction that can only be an edit ("Change … to read:", "Change to:", "Add
    the following:", "Add 'FLY'.", "Change 3" to 6".", "Remove 'AIRCRAFT'."), unlike "Remove that
    unit from the battlefield." or "Change the target's position", which rules text can say."""
    t = text.strip()
    if not _EDIT_VERB.match(t):
        return False  # (most lines: the patterns below all open on one of these verbs)
    return bool(_CHANGE.match(t) or _CHANGE_TO.match(t) or _ADD.match(t) or _CHANGE_TO_QUOTE.match(t)
                or _ADD_QUOTE.match(t) or _DELETE_QUOTED.match(t) or _CHANGE_VALUE.match(t)
                or _REMOVE_QUOTED.match(t) or _CHANGE_WORD.match(t))


_EDIT_VERB = re.compile(r"(?:change|amend|replace|add|insert|remove|delete)", re.I)
_REMOVE_QUOTED = re.compile(r"^(?:remove|delete)\s+['\u2018\"\u201c]", re.I)
_CHANGE_WORD = re.compile(r"^change\s+\S+\s+to\s+\S+\.?$", re.I)


def is_instruction(text: str) -> bool:
    """True for an editing instruction ("Change …", "Add the following …", "Delete …")."""
    t = text.strip()
    return bool(_CHANGE.match(t) or _CHANGE_TO.match(t) or _ADD.match(t) or _DELETE.match(t)
                or _RENUMBER_VALUE.match(t) or _CHANGE_MECH.match(t) or _CHANGE_TO_QUOTE.match(t)
                or _ADD_QUOTE.match(t) or _ADD_UNIT.match(t))


@dataclass
class Instruction:
    """What an instruction line says: operation, place, whether wording follows, and more."""

    operation: str
    location: str | None
    needs_body: bool
    unit: str = ""
    rest: str = ""  # text after the instruction's colon on the same line
    title: str | None = None  # the name an "Add <name> section/profile" instruction gives


_NEW_PARTS = {"section", "sections", "sub-section", "sub-sections", "rule", "rules", "bullet", "bullets", "point",
              "points", "entry", "entries", "ability", "abilities", "profile", "profiles"}


def _where(phrase: str, instruction: str) -> str | None:
    """The place an "Add the following … <prep> <place>:" names: "to the end of X" -> "end of X";
    "before 'Abilities'" keeps its preposition (the place is next to the thing named)."""
    prep = re.search(rf"\b(before|after)\s+{re.escape(phrase)}", instruction, re.I)
    if prep:
        return f"{prep.group(1).lower()} {phrase.strip().rstrip(':,.')}"
    return place_of(phrase)


def _unit_title(unit: str) -> str | None:
    """ "close combat weapon profile" -> "Close combat weapon"; "Attached Unit section" ->
    "Attached Unit"; None for "additional sentence", "the following bullet"."""
    m = _TITLED_UNIT.match(unit.strip())
    if not m:
        return None
    name = m.group("name").strip()
    if name.lower() in _NO_TITLE or name.split()[0].lower() in _NO_TITLE or re.match(rf"^{_ORDINAL}$", name, re.I):
        return None
    return name[:1].upper() + name[1:]


def place_of(phrase: str | None) -> str | None:
    """The location named by an instruction phrase: "the end of the third paragraph" ->
    "end of the third paragraph"; "this rule" / "this box out" (the whole target) -> None."""
    if not phrase:
        return None
    p = re.sub(r"\s+", " ", phrase.strip().rstrip(":,."))
    p = re.sub(r"^the\s+", "", p, flags=re.I)
    if not p or re.match(r"^(?:this|that|it)\b", p, re.I):
        return None
    return p


def read_instruction(text: str, header: Header) -> Instruction:
    """Operation and location of an instruction line, and any wording after its colon."""
    t = text.strip()
    m = _ADD.match(t)
    if m:
        unit = re.sub(r"\s+", " ", (m.group("unit") or "").strip().lower())
        where = m.group("where")
        rest = t[m.end():].strip()
        # A new section, rule or list entry is added ("Add the following section before
        # 'Abilities':", "Add the following bullet:"); words are appended to existing wording.
        new_part = unit.split()[-1] in _NEW_PARTS if unit else False
        appends = not new_part and (bool(where) or unit in _APPEND_UNITS)
        location = _where(where, t) if where else header.location
        return Instruction("append" if appends else "add", location, True, unit, rest)
    m = _CHANGE_TO_QUOTE.match(t)
    if m:
        return Instruction("replace", header.location, True, "", t[m.end():].strip())
    m = _ADD_QUOTE.match(t)
    if m:
        # "Add 'Regiment'." adds an entry (a keyword, an ability); "Add '…' to the end of …"
        # appends words (parse_entry reads the place).
        placed = _QUOTE_THEN_PLACE.match(t[m.end():].strip())
        return Instruction("append" if placed else "add", header.location, True, "", t[m.end():].strip())
    m = _CHANGE.match(t) or _CHANGE_TO.match(t)
    if m:
        rest = t[m.end():].strip()
        what = m.group("what")
        location = place_of(what) if what and not re.match(r"^(?:this|it)\b", what.strip(), re.I) \
            else header.location
        return Instruction("replace", location, True, "", rest)
    m = _ADD_UNIT.match(t)
    if m and not _RENUMBER_VALUE.match(t):
        printed = m.group("unit").strip()
        unit = re.sub(r"^(?:additional|new)\s+", "", printed.lower())
        last = unit.split()[-1] if unit.split() else ""
        appends = last.replace("sub-", "") in _APPEND_UNITS or last.rstrip("s") in ("sentence", "sub-bullet")
        # "Add close combat weapon profile:" -> the profile's name, kept with the wording's case
        return Instruction("append" if appends else "add", header.location, True, unit, t[m.end():].strip(),
                            title=_unit_title(printed))
    m = _DELETE_QUOTED.match(t)
    if m:
        return Instruction("delete", header.location, False, rest=m.group("what").strip())
    m = _DELETE.match(t)
    if m:
        return Instruction("delete", place_of(m.group("what")) or header.location, False)
    m = _RENUMBER_VALUE.match(t)
    if m:
        return Instruction("renumber", place_of(m.group("what")), False)
    m = _CHANGE_MECH.match(t)
    if m:
        return Instruction("renumber", place_of(m.group("what")), False)
    return Instruction("replace", header.location, True, "", "")


def split_inline(text: str) -> tuple[str, str]:
    """Split "Change this rule to read: 'While a unit …" at the colon before the wording."""
    m = re.search(r":\s*(?=['\u2018\"\u201c])", text)
    if m:
        return text[:m.start() + 1].strip(), text[m.end():].strip()
    m = _CHANGE_TO_QUOTE.match(text) or _ADD_QUOTE.match(text)
    if m:
        return text[:m.end()].strip(), text[m.end():].strip()
    return text, ""


def value_change(text: str) -> tuple[str | None, str, str | None] | None:
    """(place, new value, old wording) of "Change AP to '-2'." or "Change '1 x' to '1 y'.", else
    None (a "Change to '…'" names no place and is read as wording)."""
    t = text.strip()
    m = _CHANGE_VALUE.match(t)
    bare = _CHANGE_BARE_VALUE.match(t)
    if bare and not m:  # "Change 3" to 6".": a printed value and the value that replaces it
        return None, bare.group("new"), bare.group("old")
    bare = _CHANGE_CHARACTERISTIC.match(t)
    if bare and not m:  # "Change M to 12".": the characteristic and its new value
        return bare.group("what"), bare.group("new"), None
    if not m or _CHANGE_TO_QUOTE.match(t):
        return None
    new = m.group("value") if m.group("value") is not None else m.group("dvalue")
    return place_of(m.group("what")), new.strip(), m.group("old")


def quote_then_place(text: str) -> tuple[str, str | None] | None:
    """("Once per phase,", "start of this paragraph") of "'Once per phase,' to the start of this
    paragraph.", else None."""
    m = _QUOTE_THEN_PLACE.match(text)
    return (m.group("quoted"), place_of(m.group("where"))) if m else None


def adds_the_following(text: str) -> bool:
    """True for "Add the following …:" (wording follows that may or may not have a title)."""
    return bool(_ADD.match(text.strip()))


def quoted_list(text: str) -> list[str] | None:
    """["Psyker", "Fly"] for "'Psyker' and 'Fly'." (quoted items and nothing else), else None."""
    items = _QUOTED_ITEM.findall(text)
    if len(items) > 1 and not _QUOTED_ITEM.sub("", text).strip(" .,and&"):
        return [i.strip() for i in items]
    return None
