"""Checking a --faction filter against the factions in the store, with suggestions.

Every command that filters by faction calls `check_faction` first, so a mistyped faction is one
error line naming close factions (exit 1), never an empty answer that looks like "none match".
"""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Iterable

from ..errors import NotFoundError
from ..names import fold

UNIVERSAL = ("none", "universal")  # the stratagems filter's word for records without a faction


def check_faction(store, faction: str | None) -> None:
    """Raise NotFoundError (with suggestions) unless `faction` names a faction of `store`.

    `store` is an open Store, or the path of one (None: the default store). A faction matches
    when a stored faction equals it or starts with it, ignoring case and punctuation;
    "none"/"universal" always match. No faction given: nothing to check.
    """
    if faction is None:
        return
    if isinstance(store, (str, Path)) or store is None:
        from .corpus import open_store

        with open_store(store) as opened:
            return check_faction_among(faction, stored_factions(opened))
    check_faction_among(faction, stored_factions(store))


def stored_factions(store) -> list[str]:
    """The factions of the stored records (one SQL query; errata do not change factions)."""
    return [f for f in store.counts_by_faction() if f and f != "(none)"]


def check_faction_among(faction: str, known: Iterable[str]) -> None:
    """`check_faction` against a list of faction names."""
    want = fold(faction)
    known = sorted(set(known))
    if want in UNIVERSAL or any(fold(k) == want or fold(k).startswith(want) for k in known):
        return
    raise NotFoundError(f"no faction named {faction!r}", suggestions=suggest_factions(faction, known),
                        hint=_hint(known))


def suggest_factions(faction: str, known: list[str], n: int = 5) -> list[str]:
    """Up to `n` known factions close to `faction`: close spellings, then ones containing it."""
    by_key = {fold(k): k for k in known}
    want = fold(faction)
    close = difflib.get_close_matches(want, list(by_key), n=n, cutoff=0.5)
    inside = [k for k in by_key if want and (want in k or any(w.startswith(want[:4]) for w in k.split()))]
    out: list[str] = []
    for key in [*close, *inside]:
        if by_key[key] not in out:
            out.append(by_key[key])
    return out[:n]


def _hint(known: list[str]) -> str:
    if not known:
        return "the store holds no faction records; ingest some first"
    shown = ", ".join(known[:12]) + (f" and {len(known) - 12} more" if len(known) > 12 else "")
    return f"factions in the store: {shown}"
