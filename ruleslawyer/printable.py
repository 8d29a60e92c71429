"""Text from outside (file names, stored names) made safe to store and to print on one line.

A file name may hold any bytes but "/" and NUL: bytes that are not UTF-8 (Python keeps them as
surrogates, which SQLite and JSON refuse), newlines that would split an error line in two, and
escape sequences a terminal would obey. Messages show them as escapes instead.
"""
from __future__ import annotations

__all__ = ["safe_text", "printable", "terminal_safe"]

import re

# The only escape sequences ruleslawyer itself prints: SGR styles (bold, a colour, reset).
_OWN_STYLE = re.compile(r"(\x1b\[[0-9;]*m)")


def safe_text(text: str) -> str:
    """`text` (a file name, say) with bytes that are not UTF-8 shown as \\xNN escapes, so that
    it can be stored and printed (names from the file system may hold any bytes)."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def printable(text: str) -> str:
    """`text` safe to print on one terminal line: control characters (newlines, escape
    sequences), format characters (bidi overrides) and undecodable bytes shown as escapes."""
    text = safe_text(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii") for c in text)


def terminal_safe(text: str) -> str:
    """`text` (many lines, say a record as the terminal shows it) with every control and format
    character escaped but newlines, tabs and our own style codes: a right-to-left override or an
    escape sequence inside a record's name is shown, not obeyed."""
    text = safe_text(text)
    if text.isprintable():
        return text
    parts = _OWN_STYLE.split(text)
    for i in range(0, len(parts), 2):  # even parts are text; odd ones our style codes
        part = parts[i]
        if not part.isprintable():
            parts[i] = "".join(c if c.isprintable() or c in " \n\t" else c.encode("unicode_escape").decode("ascii")
                               for c in part)
    return "".join(parts)
