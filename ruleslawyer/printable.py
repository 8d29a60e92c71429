"""Text from outside (file names, stored names) made safe to store and to print on one line.

A file name may hold any bytes but "/" and NUL: bytes that are not UTF-8 (Python keeps them as
surrogates, which SQLite and JSON refuse), newlines that would split an error line in two, and
escape sequences a terminal would obey. Messages show them as escapes instead.
"""
from __future__ import annotations

__all__ = ["safe_text", "printable"]


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

