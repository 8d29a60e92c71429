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


def best_passage(record: Record, wanted: set[str], *, points_line=None) -> tuple[str, str, float]:
    """The passage of `record` sharing most of the `wanted` stems (ties: the first printed), its
    label and its share of `wanted` (0..1). Long passages are cut around their best sentences."""
    pieces = passages(record)
    if record.kind == "points" and points_line is not None:
        pieces = [("points", points_line(record))]
    if not pieces:
        return "", record_name(record), 0.0
    best, best_score = pieces[0], -1.0
    for piece in pieces:
        found = set(terms(piece[1])) & wanted
        score = len(found) + (0.5 if set(terms(piece[0])) & wanted else 0)
        if score > best_score:
            best, best_score = piece, score
    label, text = best
    share = len(set(terms(text)) & wanted) / len(wanted) if wanted else 0.0
    return label, cut(text, wanted), share


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
