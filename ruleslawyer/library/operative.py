"""The operative text of a rule: the sentences that say what it does.

A rule's first sentence is often not one of them: "This ability always takes the form [SUSTAINED
HITS X]." names its form, "Weapons with [ASSAULT] in their profile are known as Assault weapons."
its name; examples and designer's notes explain. Cards and the list sheet print what remains.

    operative_text(text) -> str          the text without those sentences (paragraphs kept)
    operative_sentences(text) -> list    the same, one sentence (with its bullet list) per item
    action_line(text, cue) -> str        one line saying what to do, its timing clause left out

Rules are recognised by the wording the rules documents use for these sentences, not by name.
"""
from __future__ import annotations

import re

# Sentences that name, exemplify or explain a rule rather than say what it does.
_NOT_OPERATIVE = re.compile(
    r"^(?:this (?:ability|rule|keyword) (?:always )?takes the form\b"
    r"|(?:weapons?|units?|models?) with [^.]{0,60}\bare known as\b"
    r"|[^.]{0,80}\bare known as [^.]{0,40}(?:weapons?|units?|models?)\.?$"
    r"|\*?example\b|\*?e\.g\.|designer['’]?s note\b|note:)", re.IGNORECASE)
# Paragraphs that explain: everything from such a line to the end of the paragraph goes.
_EXPLAINS = re.compile(r"^\*?(?:example|designer['’]?s note)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(]?[A-Z0-9])")
# Connectives a reminder skips to reach what the rule does.
_CONNECTIVE = re.compile(r"^(?:you can|you may) use this ability\.?$|^place [^.]*\btokens?\b", re.IGNORECASE)
_IF_YOU_DO = re.compile(r"^if you do,\s*", re.IGNORECASE)
# Timing clauses a reminder's phase and step already say.
_TIMING = re.compile(
    r"^(?:(?:if your army faction is [^,]+|once per (?:battle|turn)(?: round)?),\s*)?"
    r"(?:(?:at|in|during|until) (?:the )?(?:start|end) of (?:your|the|each|any|either player['’]s|"
    r"your opponent['’]s|the opponent['’]s)?\s*(?:\w+ )?(?:phase|turn|battle round)(?: step)?"
    r"|(?:in|during) (?:your|the|each|either player['’]s|your opponent['’]s)\s*\w+ phase"
    r"|at the (?:start|end)(?: or (?:start|end))? of (?:this|that) (?:unit|model)['’]s [\w ]{0,20}?move"
    r"|(?:each time|when|after|once) (?:this|a|that|such a) (?:unit|model)[^,]{0,40}?"
    r"\bselected to (?:shoot|fight|make an? [\w ]+? move))"
    r"(?:,\s*|\s+)", re.IGNORECASE)
# A sub-ability's label inside a rule ("War Cry (Once per battle, per army): ...").
_LABEL = re.compile(r"^[A-Z][\w’'!-]*(?: [\w’'!-]+){0,5}(?: \([^)]*\))?:\s+")
# Sentences that finish the one before them (what a selected unit gets, what a roll does).
_FOLLOW = re.compile(r"^(?:that (?:unit|model)\b|if you do\b|on an? \d)", re.IGNORECASE)


def _sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(paragraph) if s.strip()]


def _rule_lines(text: str):
    """The rule's non-blank lines, stripped, without its explaining paragraphs (an example or a
    designer's note runs from its opening line to the next blank line)."""
    skipping = False
    for raw in (text or "").split("\n"):
        line = raw.strip()
        if not line:
            skipping = False
        elif _EXPLAINS.match(line):
            skipping = True
        elif not skipping:
            yield line


def operative_sentences(text: str) -> list[str]:
    """The rule's sentences that say what it does, in order; a sentence ending in ":" carries the
    bullet list under it ("this model's melee attacks have: +3 A; +2 S")."""
    out: list[str] = []
    listing = False  # the last sentence introduced a bullet list (it ended in ":")
    for line in _rule_lines(text):
        numbered = re.match(r"^\d{1,2}[.)]\s+", line)
        if line[:2] in ("- ", "* ", "\u2022 ") or numbered:
            item = line[numbered.end() if numbered else 2:].strip().rstrip(".;")
            if out and (listing or out[-1].endswith(":")):
                out[-1] += (" " if out[-1].endswith(":") else "; ") + item
                listing = True
            else:
                out.append(item)
            continue
        listing = False
        out.extend(s for s in _sentences(line) if not _NOT_OPERATIVE.match(s))
    return out


def operative_text(text: str) -> str:
    """The rule's text without the sentences that only name, exemplify or explain it; its
    paragraphs and bullet lists kept as printed. The whole text when nothing is left."""
    kept: list[str] = []
    for line in _rule_lines(text):
        if line[:2] in ("- ", "* ", "\u2022 "):
            kept.append(line)
            continue
        sentences = [s for s in _sentences(line) if not _NOT_OPERATIVE.match(s)]
        if sentences:
            kept.append(" ".join(sentences))
    return "\n".join(kept) if kept else (text or "").strip()


def action_line(text: str, start: int = 0) -> str:
    """One line saying what the rule makes a player do: its operative sentence number `start`
    (the one naming its moment), without the timing clause the reminder's phase and step say,
    past "you can use this ability" to what it does."""
    sentences = operative_sentences(text)
    if not sentences:
        return " ".join((text or "").split())
    start = min(max(start, 0), len(sentences) - 1)
    picked: list[str] = []
    for k in range(start, len(sentences)):
        s = sentences[k]
        if picked:
            if not _FOLLOW.match(s):
                break
            picked.append(_IF_YOU_DO.sub("", s))
            continue
        label = _LABEL.match(s)
        if label and _TIMING.match(s[label.end():]):
            s = s[label.end():]
        for _ in range(3):  # "In your Shooting phase, when this unit is selected to shoot, ..."
            s = _TIMING.sub("", s, count=1)
        s = _IF_YOU_DO.sub("", s)
        if s and not _CONNECTIVE.match(s):
            picked.append(s)
    line = " ".join(picked) if picked else sentences[start]
    return line[:1].upper() + line[1:]


# A sentence that defines a term ("Such units are known as Leaders") rather than says what to do.
_DEFINES = re.compile(r"\blisted on (?:their|its) datasheets?\b|\b(?:are|is) known as\b|\bis said to be\b",
                      re.IGNORECASE)
_DOES = re.compile(r"\b(?:can|must|cannot|each time|add|subtract|re-roll|roll|is not|are not|until|while|"
                   r"select|set (?:it|this unit|that unit) up|counts? as|gains?|suffers?|improve|worsen)\b",
                   re.IGNORECASE)


MIN_LEFT_OUT = 15


def key_text(text: str, limit: int = 30) -> tuple[str, bool]:
    """(text, whole): the operative text when it is at most `limit` words; else the sentence that
    says what the rule does (the first operative one that does not only define a term), with the
    sentences that finish it ("If you do, ..."). Whole sentences only: never cut mid-sentence."""
    full = operative_text(text)
    if len(full.split()) <= limit:
        return full, True
    sentences = operative_sentences(text)
    start = next((i for i, s in enumerate(sentences) if not _DEFINES.search(s)), 0)
    if not _DOES.search(sentences[start]):  # a scene-setting sentence: the first that acts
        start = next((i for i in range(start, len(sentences)) if _DOES.search(sentences[i])), start)
    picked = [sentences[start]]
    for s in sentences[start + 1:]:
        # what finishes it ("If you do, ..."), or the items of the list it opens (their bullets lost)
        if not (_FOLLOW.match(s) or (picked[-1].endswith(":") and len(picked) < 4)):
            break
        picked.append(s)
    key = " ".join(picked)
    # a rule that only loses a few words is printed whole: a pointer would save no room
    return (full, True) if len(full.split()) - len(key.split()) < MIN_LEFT_OUT else (key, False)
