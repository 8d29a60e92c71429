"""Edit rule text at the place an erratum names: paragraphs, sentences, bullets.

Rule text keeps one paragraph per line; lines starting "- " are bullets of the paragraph above.
`parse_location("third sentence of the first paragraph")` gives a `Place`; `edit(text, op,
place, new)` returns the edited text and the old wording it replaced, or raises LocationError.
When a sentence-level change names a place that holds different wording while another sentence
of the rule matches the old wording closely, the edit goes where the wording is (a summary's
paragraphs are not the core book's), and the result says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..sentences import ends_with_abbreviation

ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "last": -1, "final": -1, "penultimate": -2}
_ORD = r"(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final|penultimate|\d+(?:st|nd|rd|th))"
_TOKEN = re.compile(r"[a-z0-9+]+")


class LocationError(Exception):
    """The place an erratum names does not exist in the rule's text."""


@dataclass(frozen=True)
class Place:
    """Where in a rule: paragraph and sentence numbers (1-based, -1 = last), a bullet number,
    or the end of the rule / of a paragraph. All None: the whole rule."""

    paragraph: int | None = None
    sentence: int | None = None
    bullet: int | None = None
    at_end: bool = False
    at_start: bool = False

    @property
    def whole(self) -> bool:
        """True when no part is named: the entry replaces or extends the whole text."""
        return self == Place()


@dataclass(frozen=True)
class Edit:
    """The result of one edit: the new full text and the old and new wording of the part changed."""

    text: str
    old: str
    new: str
    note: str | None = None  # how the place was found when not by its number


def _ordinal(word: str) -> int:
    word = word.lower()
    if word in ORDINALS:
        return ORDINALS[word]
    return int(re.match(r"\d+", word).group())


def parse_location(location: str | None) -> Place | None:
    """The Place a location phrase names; None when the phrase is not understood."""
    if not location:
        return Place()
    loc = re.sub(r"\s+", " ", location.strip().lower())
    loc = re.sub(r"^the ", "", loc)
    m = re.fullmatch(rf"(?:the )?end of (?:the )?{_ORD} paragraph", loc)
    if m:
        return Place(paragraph=_ordinal(m.group(1)), at_end=True)
    m = re.fullmatch(rf"(?:the )?(?:start|beginning) of (?:the )?(?:{_ORD} paragraph|this .+|the .+)", loc)
    if m:
        return Place(paragraph=_ordinal(m.group(1)) if m.group(1) else 1, at_start=True)
    if re.fullmatch(r"(?:the )?end(?: of (?:this|the) .+)?", loc) or re.fullmatch(r"(?:this|the) .+", loc):
        return Place(at_end=True)
    m = re.fullmatch(rf"{_ORD} sentence(?: of (?:the )?{_ORD} paragraph)?", loc)
    if m:
        return Place(paragraph=_ordinal(m.group(2)) if m.group(2) else None, sentence=_ordinal(m.group(1)))
    m = re.fullmatch(rf"{_ORD} paragraph(?:,? (?:the )?{_ORD} sentence)?", loc)
    if m:
        return Place(paragraph=_ordinal(m.group(1)), sentence=_ordinal(m.group(2)) if m.group(2) else None)
    m = re.fullmatch(rf"{_ORD} bullet(?: point)?\b.*", loc)
    if m:
        return Place(bullet=_ordinal(m.group(1)))
    return None


# A comma part of a target that names a place in it ("Strands of Fate, 4th paragraph").
_PLACE_PART = re.compile(rf"^(?:the )?{_ORD} (?:paragraph|sentence|bullet(?: point)?|line)s?$", re.I)


def split_place(target: str | None, location: str | None) -> tuple[str | None, str | None]:
    """The target without the places its last comma parts name, and the location they make
    with the instruction's own: ("Army Rule Card, Strands of Fate, 4th paragraph", "start of
    this paragraph") -> ("Army Rule Card, Strands of Fate", "start of the 4th paragraph").

    Unpaged errata print the place in the heading ("Transport section, 2nd sentence"), paged
    ones mostly in the instruction; either way the edit needs both.
    """
    parts = [p.strip() for p in (target or "").split(",")]
    places: list[str] = []
    while len(parts) > 1 and _PLACE_PART.match(parts[-1]):
        places.insert(0, re.sub(r"^the ", "", parts.pop(), flags=re.I))
    if not places:
        return target, location
    name, place = ", ".join(parts), ", ".join(places)
    if not location:
        return name, place
    this = re.search(r"\bthis (?:paragraph|sentence|bullet|line)\b", location, re.I)
    if this:
        return name, f"{location[:this.start()]}the {place}{location[this.end():]}"
    if re.fullmatch(rf"{_ORD} (?:sentence|bullet)s?", location.strip(), re.I) and "paragraph" in place:
        return name, f"{location} of the {place}"
    return name, location


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of a paragraph, not split after "e.g." and similar abbreviations."""
    out: list[str] = []
    start = 0
    for m in re.finditer(r"[.!?]['\")\]\u2019\u201d]*\s+(?=['\"(\[\u2018\u201c]?[A-Z0-9])", paragraph):
        head = paragraph[start:m.end()].strip()
        if ends_with_abbreviation(head):
            continue
        out.append(head)
        start = m.end()
    tail = paragraph[start:].strip()
    if tail:
        out.append(tail)
    return out


def tokens(text: str) -> list[str]:
    """The case-folded words of `text`, for comparing wordings regardless of case and punctuation."""
    return _TOKEN.findall(text.casefold())


def containment(old: str, new: str) -> float:
    """Share of the old wording's words that the new wording keeps (1.0: all of them)."""
    a, b = tokens(old), set(tokens(new))
    return sum(1 for t in a if t in b) / len(a) if a else 0.0


def best_sentence(text: str, new: str) -> tuple[int, int, float] | None:
    """(paragraph index, sentence index, score) of the sentence the new wording most resembles."""
    best = None
    for pi, para in enumerate(_paragraph_lines(text)):
        for si, sentence in enumerate(split_sentences(para[1])):
            if len(tokens(sentence)) < 5:
                continue
            score = containment(sentence, new)
            if best is None or score > best[2]:
                best = (pi, si, score)
    return best


def _paragraph_lines(text: str) -> list[tuple[int, str]]:
    """(line index, text) of each paragraph line (bullet lines are not paragraphs)."""
    return [(i, line) for i, line in enumerate(text.split("\n")) if line.strip() and not _is_bullet(line)]


def _is_bullet(line: str) -> bool:
    return bool(re.match(r"^\s*(?:[-\u2022•]\s+)", line))


def _pick(items: list, number: int, what: str):
    index = number - 1 if number > 0 else len(items) + number
    if not 0 <= index < len(items):
        raise LocationError(f"the rule has no {_nth(number)} {what} (it has {len(items)})")
    return index


def _nth(n: int) -> str:
    if n < 0:
        return "last" if n == -1 else "penultimate"
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def edit(text: str, operation: str, place: Place, new: str) -> Edit:
    """Apply `operation` (replace, append, delete) with `new` wording at `place` of `text`."""
    lines = text.split("\n") if text else []
    if operation == "replace" and place.whole:
        return Edit(new, text, new)
    if operation == "delete" and place.whole:
        return Edit("", text, "")
    if place.bullet is not None:
        bullets = [i for i, line in enumerate(lines) if _is_bullet(line)]
        li = bullets[_pick(bullets, place.bullet, "bullet point")]
        old = re.sub(r"^\s*(?:[-\u2022•]\s+)", "", lines[li])
        lines[li] = "" if operation == "delete" else f"- {new}"
        return Edit("\n".join(x for x in lines if x or operation != "delete"), old, new)
    paragraphs = _paragraph_lines(text)
    if operation == "append" and place.at_start:
        li = paragraphs[_pick(paragraphs, place.paragraph or 1, "paragraph")][0]
        lines[li] = f"{new.strip()} {lines[li].lstrip()}"
        return Edit("\n".join(lines), "", new)
    if operation == "append":
        if place.paragraph is None:
            if "\n" in new.strip() or not lines:
                return Edit("\n".join(lines + [new]), "", new)
            li = len(lines) - 1
        else:
            li = paragraphs[_pick(paragraphs, place.paragraph, "paragraph")][0]
        lines[li] = f"{lines[li].rstrip()} {new.strip()}"
        return Edit("\n".join(lines), "", new)
    if place.sentence is None:  # a whole paragraph
        pi = _pick(paragraphs, place.paragraph, "paragraph")
        li, old = paragraphs[pi]
        lines[li] = new if operation == "replace" else ""
        return Edit("\n".join(x for x in lines if x or operation != "delete"), old, new)
    return _edit_sentence(lines, paragraphs, operation, place, new)


def swap(text: str, old: str, new: str) -> Edit:
    """Replace the printed words `old` with `new` ("Change 9" to 8""), wherever the rule prints
    them; LocationError when it does not."""
    if not old or old not in text:
        raise LocationError(f"the rule does not print {old!r}")
    return Edit(text.replace(old, new), old, new)


def _edit_sentence(lines, paragraphs, operation: str, place: Place, new: str) -> Edit:
    text = "\n".join(lines)
    note = None
    pi = _pick(paragraphs, place.paragraph or 1, "paragraph") if paragraphs else None
    if pi is None:
        raise LocationError("the rule has no text")
    sentences = split_sentences(paragraphs[pi][1])
    si = None
    if len(sentences) >= abs(place.sentence) and place.sentence != 0:
        si = _pick(sentences, place.sentence, "sentence")
    if operation == "replace":
        # Prefer the sentence whose wording the new one keeps, when the numbered one differs.
        here = containment(sentences[si], new) if si is not None else 0.0
        best = best_sentence(text, new)
        if best and best[2] >= 0.7 and (si is None or here < 0.3) and (best[0], best[1]) != (pi, si):
            pi, si = best[0], best[1]
            sentences = split_sentences(paragraphs[pi][1])
            note = (f"found by its wording in the {_nth(pi + 1)} paragraph, "
                    f"{_nth(si + 1)} sentence")
    if si is None:
        raise LocationError(f"the {_nth(place.paragraph or 1)} paragraph has no "
                            f"{_nth(place.sentence)} sentence (it has {len(sentences)})")
    li = paragraphs[pi][0]
    old = sentences[si]
    sentences[si] = new.strip() if operation == "replace" else ""
    lines[li] = " ".join(s for s in sentences if s)
    return Edit("\n".join(lines), old, new if operation == "replace" else "", note)
