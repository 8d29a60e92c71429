"""Safe, collision-free, stable file names for pages.

A slug is built only from letters, digits and hyphens: Latin names become `[a-z0-9-]` (accents
folded), letters and digits of every other script are kept as they are (lower case, NFC, with
their combining marks), and everything else (punctuation, spaces, format characters such as a
zero-width space) is a hyphen or dropped. So a record named `../../etc/passwd`, `CON`, `.` or
`<script>` cannot escape the output folder, hide as a dot-file or clash with a reserved name,
and "Быстрый воин" and "素早い戦士" get pages of their own. Names that fold to the same slug ("Blast" in 5th and in
10th edition, "Command Re-roll" in two groups) are told apart by the first qualifier that
separates them (edition, group, faction, section), then by a short hash of the record's
identity, then by a counter; assignment runs over the records in a sorted order, so the same
records always get the same slugs, whatever order the store returns them in.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
import unicodedata
from functools import lru_cache
from typing import Any, Callable, Hashable, Iterable, Sequence

MAX_LEN = 80
MAX_BYTES = 160  # in UTF-8: with a qualifier, a hash and ".html", well under a file name's 255 bytes
# Windows device names: harmless on Linux, but a site may be copied anywhere.
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10)),
             "index", "search", "errata", "static"}


# Letters NFKD does not split into a base letter and an accent.
_LETTERS = str.maketrans({"æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "œ": "oe", "Œ": "oe", "ß": "ss",
                          "đ": "d", "Đ": "d", "ł": "l", "Ł": "l", "þ": "th", "Þ": "th", "ð": "d"})


_APOSTROPHES = re.compile(r"['\u2019`]")
_NON_SLUG = re.compile(r"[^a-z0-9]+")


@lru_cache(maxsize=1 << 17)
def slugify(text: str | None, *, fallback: str = "page") -> str:
    """`text` as a lowercase slug of letters, digits and single hyphens (never empty): Latin
    letters folded to ASCII, other scripts' letters and digits kept (see the module docstring)."""
    s = text or ""
    if s.isascii():
        s = _NON_SLUG.sub("-", _APOSTROPHES.sub("", s.lower())).strip("-")
    else:
        s = _APOSTROPHES.sub("", _unicode_slug(s))
    if len(s) > MAX_LEN or len(s.encode("utf-8")) > MAX_BYTES:
        s = s[:MAX_LEN]
        while len(s.encode("utf-8")) > MAX_BYTES:
            s = s[:-1]
        s = s.rstrip("-")
    if not s:
        s = fallback
    if s in _RESERVED:
        s = f"{s}-page"
    return s


def _unicode_slug(text: str) -> str:
    """A non-ASCII name as a slug: format characters dropped, Latin accents folded, every
    script's letters, digits and their marks kept, the rest one hyphen; NFC."""
    text = "".join(c for c in unicodedata.normalize("NFC", text) if unicodedata.category(c) != "Cf")
    out: list[str] = []
    base_is_ascii = False
    for c in unicodedata.normalize("NFKD", text.translate(_LETTERS)).lower():
        if unicodedata.combining(c):
            if not base_is_ascii:  # a mark of another script (or of a kept letter) is part of the word
                out.append(c)
            continue
        base_is_ascii = c.isascii()
        out.append(c if c.isalnum() or unicodedata.category(c) in ("Mn", "Mc") else "-")
    s = unicodedata.normalize("NFC", "".join(out))
    return re.sub(r"-{2,}", "-", s).strip("-")


def short_hash(*parts: object) -> str:
    """Six hex digits identifying `parts` (stable across runs and machines)."""
    return hashlib.sha1("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


class SlugAllocator:
    """Hands out unique slugs within one folder.

    `allocate(items)` takes (key, name, qualifiers, identity) tuples: `key` is what the caller
    looks the slug up by, `qualifiers` the readable disambiguators to try in order, `identity`
    a string naming the item for the hash fallback. Items are processed sorted by (slug,
    identity), so the result does not depend on input order.
    """

    def __init__(self) -> None:
        self.taken: set[str] = set()
        self.by_key: dict[Hashable, str] = {}

    def allocate(self, items: Iterable[tuple[Hashable, str, object, object]], *,
                 qualifiers_of: Callable[[Any], Sequence[str | None]] | None = None,
                 identity_of: Callable[[Any], str] | None = None) -> dict[Hashable, str]:
        """Assign slugs; `qualifiers` and `identity` may be callables, called only on a collision.

        With `qualifiers_of` / `identity_of`, an item's `qualifiers` / `identity` is the argument
        to pass them instead (on a collision): no callable per item to make.
        """
        bases = [(slugify(name), key, qualifiers, identity) for key, name, qualifiers, identity in items]
        counts = Counter([b[0] for b in bases])  # counted in C
        # Plain slugs that will be used as they are: a qualified slug must not take one of them
        # (a rule really named "Blast 10th" would otherwise be shadowed by "Blast" + "10th").
        plain = {base for base, n in counts.items() if n == 1 and base not in self.taken}
        clashing = []
        for base, key, qualifiers, identity in bases:
            if base in plain:
                self.taken.add(base)
                self.by_key[key] = base
            else:
                clashing.append((base, identity_of(identity) if identity_of else _value(identity), key,
                                 qualifiers_of(qualifiers) if qualifiers_of else _value(qualifiers)))
        for base, identity, key, qualifiers in sorted(clashing, key=lambda t: (t[0], t[1])):
            slug = self._qualified(base, qualifiers, identity, plain)
            self.taken.add(slug)
            self.by_key[key] = slug
        return self.by_key

    def _qualified(self, base: str, qualifiers: Sequence[str | None], identity: str, plain: set[str]) -> str:
        parts = [base]
        for q in qualifiers:
            if q:
                parts.append(slugify(q))
                candidate = "-".join(parts)
                if candidate not in self.taken and candidate not in plain:
                    return candidate
        n, candidate = 1, f"{base}-{short_hash(identity)}"
        while candidate in self.taken or candidate in plain:
            n += 1
            candidate = f"{base}-{short_hash(identity)}-{n}"
        return candidate


def _value(v):
    return v() if callable(v) else v
