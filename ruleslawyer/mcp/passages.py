"""A record cut into passages (a paragraph of a rule, one ability of a datasheet, the EFFECT of
a stratagem), and which passage answers a question best.

Words are compared by their Porter stems (Whoosh's own stemmer, as the index does), so "charging"
in a question finds "charge" in a rule.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..records import Record, record_name

PASSAGE_CHARS = 700  # an answering passage is cut to about this many characters
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Words of a question that say nothing about which rule is meant.
STOPWORDS = frozenset("""
a about after against all also am an and any are as at be been before being but by can cannot could
did do does doing during each either else for from get gets got had has have having he her his how i if
in into is it its just me might more most must my no nor not of off on once one only or other our out
over own per same shall she should so some such than that the their them then there these they this
those through to too under until up us very was we were what when where whether which while who whom
why will with within would you your yours rule rules work works happen happens mean means say says
""".split())


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    from whoosh.lang.porter import stem as porter

    return porter(word)


def terms(text: str) -> list[str]:
    """The stems of the content words of `text`, in order."""
    return [stem(w) for w in _WORD.findall(text.casefold()) if w not in STOPWORDS]


def passages(record: Record) -> list[tuple[str, str]]:
    """(label, text) pieces of `record` an answer can quote, in the order printed."""
    kind = record.kind
    out: list[tuple[str, str]] = []
    if kind == "datasheet":
        for p in record.profiles:
            stats = " ".join(f"{k} {v}" for k, v in p.stats.items())
            out.append((f"profile {p.name}", f"{p.name}: {stats}"))
        if record.invulnerable_save:
            out.append(("invulnerable save", f"{record.name} has a {record.invulnerable_save} invulnerable save."))
        for w in record.weapons:
            stats = ", ".join(f"{k} {v}" for k, v in (("Range", w.range), ("Type", w.type), ("A", w.A),
                                                     ("BS/WS", w.skill), ("S", w.S), ("AP", w.AP), ("D", w.D)) if v)
            tags = f" [{', '.join(w.abilities)}]" if w.abilities else ""
            out.append((f"weapon {w.name}", f"{w.name}: {stats}{tags}"))
        for a in record.abilities:
            out.append((f"ability {a.name}", f"{a.name}: {a.text}" if a.text else a.name))
        for label, box in (("leader", record.leader), ("support", record.support)):
            if box is not None:
                out.append((label, " ".join([box.text, *box.attaches_to]).strip()))
        if record.composition:
            out.append(("unit composition", " ".join(record.composition)))
        if record.wargear_options:
            out.append(("wargear options", " ".join(record.wargear_options)))
        keywords = ", ".join((*record.keywords, *record.faction_keywords))
        if keywords:
            out.append(("keywords", f"Keywords: {keywords}"))
        if record.damaged:
            out.append(("damaged", record.damaged))
    elif kind == "stratagem":
        for label in ("when", "target", "effect", "restrictions"):
            value = getattr(record, label)
            if value:
                out.append((label, f"{label.upper()}: {value}"))
    elif kind == "faq":
        out.append(("answer", f"Q: {record.question}\nA: {record.answer}"))
    elif kind == "table":
        rows = "; ".join(f"{r.label}: {' '.join(r.cells)}" if r.label else " ".join(r.cells) for r in record.rows)
        out.append(("table", f"{', '.join(record.columns)}. {rows}"))
    elif kind == "points":
        out.append(("points", ""))
    else:
        text = getattr(record, "text", "") or ""
        for n, para in enumerate(p for p in text.split("\n") if p.strip()):
            out.append((f"paragraph {n + 1}", para.strip()))
        for label in ("restriction", "footnote"):
            value = getattr(record, label, None)
            if value:
                out.append((label, value))
        for n, line in enumerate(getattr(record, "summary", ()) or ()):
            out.append((f"summary {n + 1}", line))
    return [(label, text) for label, text in out if text or kind == "points"]


# How much a part of a record is worth when it ties with another on the question's words: what
# a stratagem or ability does over when and whom it targets; a datasheet's profile or keywords
# only when the question's words are there.
_PRIOR = {"effect": 0.4, "restriction": -0.3, "restrictions": -0.2, "keywords": -0.4, "wargear options": -0.2,
          "unit composition": -0.2}
_QUANTITY = re.compile(r"\d")
OWN_WEIGHT = 0.3  # a word of the record's own name says little about which of its passages answers


def _prior(label: str, asks: set[str]) -> float:
    kind = label.split()[0] if label.startswith(("profile", "weapon", "ability", "paragraph")) else label
    value = _PRIOR.get(kind, 0.0)
    if kind in asks or label in asks:  # the part the question asks for (answer.asked_for)
        value += 1.2
    if kind == "ability":
        value += 0.2
    if kind in ("profile", "weapon"):
        value -= 0.2
    return value


def best_passage(record: Record, wanted: set[str], *, points_line=None, asks: set[str] = frozenset(),
                 own: set[str] = frozenset()) -> tuple[str, str, float]:
    """The passage of `record` that covers most of the `wanted` stems, its label and its share
    of `wanted` (0..1).

    Words of the record's own name (`own`) count less; a label naming a wanted word counts as
    a word; what the question `asks` for ("effect", "quantity") favours the effect of a
    stratagem or a passage with numbers. Ties go to the window with more matches, then the
    longer one, then the earlier printed (a rule's first paragraph usually states it). A rule's paragraphs are joined into windows of up to
    PASSAGE_CHARS; a longer single passage is cut around its best sentences."""
    pieces = passages(record)
    if record.kind == "points" and points_line is not None:
        pieces = [("points", points_line(record))]
    if not pieces:
        return "", record_name(record), 0.0
    weights = {t: OWN_WEIGHT if t in own else 1.0 for t in wanted}
    best, best_score = (0, 0), -1.0
    for first, last in windows(pieces):
        text = " ".join(t for _, t in pieces[first:last + 1])
        found = terms(text)
        matched = set(found) & wanted
        labels = " ".join(label for label, _ in pieces[first:last + 1])
        score = (sum(weights[t] for t in matched) + (1.0 if set(terms(labels)) & (wanted - own) else 0)
                 + _prior(pieces[first][0], asks) + (0.5 if "quantity" in asks and _QUANTITY.search(text) else 0)
                 + 0.02 * sum(1 for t in found if t in wanted) + 0.00001 * len(text)
                 - (0.03 * first if pieces[first][0].startswith("paragraph") else 0.0))
        if score > best_score:
            best, best_score = (first, last), score
    first, last = best
    label = pieces[first][0] if first == last else f"{pieces[first][0]}-{pieces[last][0].split()[-1]}"
    text = "\n".join(t for _, t in pieces[first:last + 1])
    share = len(set(terms(text)) & wanted) / len(wanted) if wanted else 0.0
    return label, cut(text, wanted), share


def windows(pieces: list[tuple[str, str]], limit: int = PASSAGE_CHARS):
    """(first, last) index pairs: each piece alone, and each run of a rule's paragraphs that fits
    in `limit` characters (a PDF's paragraphs are often one sentence, or half of one broken by a
    column or a bullet)."""
    for first, (label, _) in enumerate(pieces):
        yield first, first
        if not label.startswith("paragraph"):
            continue
        length = len(pieces[first][1])
        last = first + 1
        while last < len(pieces) and pieces[last][0].startswith("paragraph"):
            length += len(pieces[last][1]) + 1
            if length > limit:
                break
            yield first, last
            last += 1


def cut(text: str, wanted: set[str], limit: int = PASSAGE_CHARS) -> str:
    """`text`, or when longer than `limit`, the run of its sentences around the one that shares
    most of `wanted`."""
    if len(text) <= limit:
        return text
    sentences = re.split(r"(?<=[.!?])\s+", text)
    scores = [len(set(terms(s)) & wanted) for s in sentences]
    start = max(range(len(sentences)), key=lambda i: scores[i])
    end = start
    length = len(sentences[start])
    while True:  # grow around the best sentence, the side with more matches first
        grow = [(scores[i], i) for i in (start - 1, end + 1) if 0 <= i < len(sentences)
                and length + len(sentences[i]) + 1 <= limit]
        if not grow:
            break
        _, i = max(grow)
        length += len(sentences[i]) + 1
        start, end = min(start, i), max(end, i)
    piece = " ".join(sentences[start:end + 1])
    if len(piece) > limit:
        piece = piece[:limit].rsplit(" ", 1)[0]
    return ("... " if start else "") + piece + (" ..." if end < len(sentences) - 1 or len(piece) < len(text) and
                                               not piece.endswith((".", "!", "?")) else "")
