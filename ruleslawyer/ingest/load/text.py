"""Plain text and Markdown loader: one block per line, styled spans from `**bold**`/`*italic*`.

Headings are `#` lines and short ALL-CAPS lines; bullets are `-`, `*` and `•` lines; runs of
tab-separated lines (two or more tabs) and pipe tables become table blocks. Each line is its
own block because the documents this reads keep one paragraph to a line; blank lines carry no
meaning of their own.
"""
from __future__ import annotations

import re

from ...errors import LoadError
from ..document import HEADING, LIST_ITEM, PARAGRAPH, TABLE, Block, Document, DocumentOrigin, Span

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*(?:[-*•▪●]|\d+[.)])\s+(?=\S)")
_BULLET_MARK = re.compile(r"^\s*[-*•▪●]\s+")
_PIPE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_PIPE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_STYLE = re.compile(r"(\*\*\*|\*\*|\*|__)")
_EMPHASIS = re.compile(r"[*_]")
_ASCII_LOWER = re.compile(r"[a-z]")
_TWO_LETTERS = re.compile(r"[A-Za-z][^A-Za-z]*[A-Za-z]")
_LABELLED = re.compile(r":\s*\S")


def decode(data: bytes, path: str) -> str:
    """Decode text bytes (UTF-8 with or without BOM, else cp1252); refuse binary data."""
    if not data.strip():
        raise LoadError(path, "the file is empty")
    for bom, codec in ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
                       (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):  # UTF-16/32 text is full of NUL bytes but is still text
            try:
                data = data[len(bom):].decode(codec).encode("utf-8")
            except UnicodeDecodeError:
                raise LoadError(path, f"invalid {codec.upper()} text") from None
            break
    if b"\x00" in data[:65536]:
        raise LoadError(path, "binary data, not text (NUL bytes)", hint="is this the right file?")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    sample = text[:65536]
    controls = sum(1 for c in sample if ord(c) < 32 and c not in "\t\n\r\f")
    if controls > max(8, len(sample) // 100):
        raise LoadError(path, "binary data, not text (control characters)")
    # A non-breaking hyphen (U+2011, in 11th edition names and values) is a plain hyphen.
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2011", "-")


def parse_spans(line: str) -> tuple[Span, ...]:
    """Split Markdown emphasis into spans. Unbalanced markers are kept as literal text."""
    if "*" not in line and "__" not in line:  # most lines: no marker at all
        return (Span(line),)
    parts = _STYLE.split(line)
    # Only honour a marker that has a partner later in the line.
    spans: list[Span] = []
    bold = italic = False
    buf = ""
    counts = {m: parts.count(m) for m in ("***", "**", "*", "__")}
    seen = {m: 0 for m in counts}
    for part in parts:
        if part in counts:
            seen[part] += 1
            # The last of an odd count has no partner: literal.
            if counts[part] % 2 == 1 and seen[part] == counts[part]:
                buf += part
                continue
            if buf:
                spans.append(Span(buf, bold=bold, italic=italic))
                buf = ""
            if part == "***":
                bold, italic = not bold, not italic
            elif part in ("**", "__"):
                bold = not bold
            else:
                italic = not italic
        else:
            buf += part
    if buf:
        spans.append(Span(buf, bold=bold, italic=italic))
    return tuple(s for s in spans if s.text) or (Span(""),)


def is_caps_heading(line: str) -> bool:
    """A short line with letters, none of them lower case, and no "LABEL: text" shape."""
    s = (_EMPHASIS.sub("", line) if "*" in line or "_" in line else line).strip()
    if len(s) > 80 or _ASCII_LOWER.search(s):  # the cheap refusals first: most lines are prose
        return False
    if s.isascii():  # no lower-case letter left: only count the letters
        if not _TWO_LETTERS.search(s):
            return False
    else:
        letters = [c for c in s if c.isalpha()]
        if len(letters) < 2 or any(c.islower() for c in letters):
            return False
        if not any(c.isupper() for c in letters):  # a script without case (Japanese, Chinese):
            return False  # "no lower case" says nothing; only a Markdown heading marks a heading
    if _LABELLED.search(s):  # "KEYWORDS: INFANTRY" is a labelled line, not a heading
        return False
    return True


def _table_cells(line: str) -> list[str]:
    if "|" in line and _PIPE_ROW.match(line):
        return [c.strip() for c in line.strip().strip("|").split("|")]
    return [c.strip() for c in line.split("\t")]


def load_text(data: bytes, origin: DocumentOrigin) -> Document:
    """Turn text or Markdown bytes into a Document."""
    text = decode(data, origin.path)
    lines = text.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        raw = lines[i].rstrip()
        if not raw.strip():
            i += 1
            continue
        if raw.count("\t") >= 2 or _PIPE_ROW.match(raw):
            rows = []
            while i < len(lines) and (lines[i].count("\t") >= 2 or _PIPE_ROW.match(lines[i])):
                if not _PIPE_RULE.match(lines[i]):
                    rows.append(tuple(_table_cells(lines[i].rstrip("\n"))))
                i += 1
            # Tab tables pad short rows with trailing empty cells; drop the padding columns
            # that are empty on every row.
            width = max(len(r) for r in rows)
            while width > 1 and all(len(r) < width or not r[width - 1] for r in rows):
                width -= 1
            rows = [tuple(r[:width]) for r in rows]
            blocks.append(Block(TABLE, rows=tuple(rows), attrs={"line": str(i)}))
            continue
        attrs = {"line": str(i + 1)}
        m = _MD_HEADING.match(raw)
        if m:
            blocks.append(Block(HEADING, spans=parse_spans(m.group(2)), level=len(m.group(1)), attrs=attrs))
        elif is_caps_heading(raw):
            blocks.append(Block(HEADING, spans=tuple(Span(s.text, True, s.italic) for s in parse_spans(raw.strip())),
                                level=2, attrs=attrs))
        elif _BULLET_MARK.match(raw):
            body = _BULLET_MARK.sub("", raw, count=1)
            blocks.append(Block(LIST_ITEM, spans=parse_spans(body), attrs=attrs))
        else:
            blocks.append(Block(PARAGRAPH, spans=parse_spans(raw.strip()), attrs=attrs))
        i += 1
    return Document(origin=origin, blocks=tuple(blocks), title=_title(blocks))


def _title(blocks: list[Block]) -> str | None:
    """The document's title: its first line when that is short and not a sentence ("Reference
    Sheet" above "Version 1.2", "Necrons – Chronomancer"), else its first heading."""
    lines = [b for b in blocks[:10] if b.text.strip()]
    if lines:
        first = lines[0].text.strip()
        if lines[0].kind == HEADING or (len(first) <= 80 and any(c.isalpha() for c in first)
                                         and first[-1] not in ".:;,!?" and lines[0].kind != LIST_ITEM):
            return first
    return next((b.text.strip() for b in lines if b.kind == HEADING), None)
