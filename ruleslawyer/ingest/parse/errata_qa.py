"""Question and answer labels of FAQ documents, as extraction leaves them.

A pair is printed "Q: …" then "A: …", the answer perhaps followed by "Example:" paragraphs that
belong to it. Extraction can separate a label from its text ("Q:" on a line of its own, or a
column of labels "Q:" "A:" before the two texts), leave an answer's label at the end of its
question ("… in the first battle round? A:"), run the next question onto an answer ("A: Yes.
Q: Can …?"), or print an answer before its question (a two-column page read across). `with_labels` puts each label back on its text, so one question
and one answer make one pair, whatever follows them.
"""
from __future__ import annotations

import re

from .lines import Line

QUESTION = re.compile(r"^\s*Q\s*[:.]\s*", re.I)
ANSWER = re.compile(r"^\s*A\s*[:.]\s*", re.I)
_LABEL_ONLY = re.compile(r"^\s*(?P<label>[QA])\s*[:.]\s*$", re.I)
# An answer's label left at the end of its question: "… in the first battle round? A:"
_TRAILING_ANSWER = re.compile(r"(?<=[?.])\s+A\s*:\s*$")


def split_qa(text: str) -> tuple[str, str]:
    """Split "Q: … A: …" printed in one block into question and answer."""
    body = QUESTION.sub("", text, count=1)
    m = re.search(r"\s+A\s*:\s+", body)
    if m and QUESTION.match(text):
        return body[:m.start()].strip(), body[m.end():].strip()
    return body.strip(), ""


def with_labels(lines: list[Line]) -> list[Line]:
    """The lines with every Q/A label on its own text (see the module docstring)."""
    lines = _split_trailing_answers(lines)
    if not any(_LABEL_ONLY.match(ln.text) for ln in lines):
        return lines
    out: list[Line] = []
    n = 0
    while n < len(lines):
        labels = []
        while n + len(labels) < len(lines) and (m := _LABEL_ONLY.match(lines[n + len(labels)].text)):
            labels.append(m.group("label").upper())
        texts = lines[n + len(labels):n + 2 * len(labels)]
        if labels and len(texts) == len(labels) and not any(QUESTION.match(t.text) or ANSWER.match(t.text)
                                                            for t in texts):
            # a column of labels, then the texts they label, in the same order
            out.extend(t.replace(text=f"{label}: {t.text.strip()}") for label, t in zip(labels, texts))
            n += 2 * len(labels)
            continue
        out.append(lines[n])
        n += 1
    return out


# The next question run onto the end of an answer: "A: Yes. Q: Can a unit …?"
_RUN_ON_QUESTION = re.compile(r"(?<=[.!?)\]'\u2019\"])\s+(?=Q\s*:\s)")


def _split_trailing_answers(lines: list[Line]) -> list[Line]:
    out: list[Line] = []
    for line in list(_split_run_on_questions(lines)):
        m = _TRAILING_ANSWER.search(line.text) if QUESTION.match(line.text) else None
        if m:
            out.append(line.replace(text=line.text[:m.start()].rstrip()))
            out.append(line.replace(text="A:"))
        else:
            out.append(line)
    return out


def _split_run_on_questions(lines: list[Line]):
    for line in lines:
        m = _RUN_ON_QUESTION.search(line.text) if ANSWER.match(line.text) else None
        if m:
            yield line.replace(text=line.text[:m.start()].rstrip())
            yield line.replace(text=line.text[m.end():].strip())
        else:
            yield line


def answers_next_question(lines: list[Line], n: int) -> bool:
    """True when the answer at `n` is printed before its question: the next line is a question
    that has no answer of its own after it."""
    if n + 1 >= len(lines) or not QUESTION.match(lines[n + 1].text) or split_qa(lines[n + 1].text)[1]:
        return False
    after = next((x for x in lines[n + 2:n + 12] if QUESTION.match(x.text) or ANSWER.match(x.text)), None)
    return after is None or not ANSWER.match(after.text)
