"""Text of BattleScribe descriptions as plain text.

BSData writes keywords and emphasis with a Markdown-like markup: `**bold**`, `^^small caps^^`,
both nested either way (`^^**Destroyer Cult^^**`), `*italic*` and the odd `<ins>` tag. The
records hold plain text, so the markup is dropped; the words stay as written. Typographic
characters are normalised as everywhere else in the project: non-breaking spaces and hyphens,
curly quotes, and "■" bullets (written as "- " lines).
"""
from __future__ import annotations

import re

_MARKS = re.compile(r"\*\*|\^\^")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_TAGS = re.compile(r"</?(?:ins|del|b|i|u|em|strong|br|sup|sub)\s*/?>", re.I)
_CHARS = str.maketrans({"\u00a0": " ", "\u2011": "-", "\u2010": "-", "\u2019": "'", "\u2018": "'",
                        "\u201c": '"', "\u201d": '"', "\u2009": " ", "\u202f": " "})


def plain(text: str | None) -> str:
    """Markup-free text with normalised characters, one line per paragraph or bullet."""
    if not text:
        return ""
    text = _TAGS.sub("", _ITALIC.sub(r"\1", _MARKS.sub("", text))).translate(_CHARS)
    lines = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = re.sub(r"[ \t]+", " ", line).strip()
        line = re.sub(r"^[■•▪●]\s*", "- ", line)
        if line:
            lines.append(line)
    return "\n".join(lines)


def bullets(text: str) -> list[str]:
    """The "- " bullet lines of a plain text, without the dash."""
    return [line[2:].strip() for line in text.split("\n") if line.startswith("- ")]
