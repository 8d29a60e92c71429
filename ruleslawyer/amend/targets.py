"""Where the records an erratum may amend sit in the working list: by name, datasheet, section
and wording, of the erratum's edition, leaving out printings newer than the erratum."""
from __future__ import annotations

from typing import Callable

from ..names import name_key
from ..records import Datasheet, DetachmentRule, Enhancement, Erratum, Record, Rule, Stratagem

TEXT_KINDS = (Rule, DetachmentRule, Enhancement, Stratagem)


class TargetIndex:
    """Where each amendable record sits in the working list, by name key."""

    def __init__(self, current: list[Record | None]):
        self.current = current
        self._too_new: Callable[[Record], bool] | None = None  # printed after the current erratum
        self._loose: Callable[[Record], bool] = lambda r: True
        self.skipped_newer: list[Record] = []
        self._folded: dict[int, str] | None = None  # case-folded wording, for the search by wording
        self._newest: tuple[int | None] | None = None  # (the newest datasheet edition,), once asked
        self.carried: dict[int, int | None] = {}  # position of a new-edition printing -> the edition it came from
        self.by_name: dict[str, list[int]] = {}
        self.datasheets: dict[str, list[int]] = {}
        for i, r in enumerate(current):
            if isinstance(r, TEXT_KINDS):
                self.by_name.setdefault(name_key(r.name), []).append(i)
            elif isinstance(r, Datasheet):
                self.datasheets.setdefault(name_key(r.name), []).append(i)

    def add(self, i: int) -> None:
        """Index the record appended at position `i` (a new printing made by an update)."""
        where = self.datasheets if isinstance(self.current[i], Datasheet) else self.by_name
        where.setdefault(name_key(self.current[i].name), []).append(i)

    def newest_sheet_edition(self) -> int | None:
        """The newest edition of any datasheet in the corpus (None when none says)."""
        if self._newest is None:
            editions = [self.current[i].edition for ids in self.datasheets.values() for i in ids
                        if self.current[i] is not None and self.current[i].edition is not None]
            self._newest = (max(editions, default=None),)
        return self._newest[0]

    def start(self, e: Erratum, dated: Callable[[Record], str | None] | None) -> None:
        """Before applying `e`: printings dated after its document are out of its reach."""
        self.skipped_newer = []
        erratum_date = dated(e) if dated else None
        # an entry of unknown date may amend only what its target names exactly (kind words
        # and all) in a printing of known date: it is not known to be newer than that printing
        self._loose = (lambda r: True) if erratum_date or not dated else (lambda r: not dated(r))
        if not erratum_date:
            self._too_new = None
            return
        self._too_new = lambda r: (dated(r) or "") > erratum_date

    def _in_time(self, positions: list[int]) -> list[int]:
        if self._too_new is None:
            return positions
        kept = []
        for i in positions:
            if self._too_new(self.current[i]):
                self.skipped_newer.append(self.current[i])
            else:
                kept.append(i)
        return kept

    def loosely(self, positions: list[int]) -> list[int]:
        """Of `positions` found by a looser reading of the target's name, those the current
        entry may amend (see `start`)."""
        return [i for i in positions if self._loose(self.current[i])]

    def sheets(self, name: str, edition: int | None) -> list[int]:
        """Where the datasheets named `name` of `edition` (None: any) sit."""
        return self._in_time([i for i in self.datasheets.get(name_key(name), [])
                              if self.current[i] is not None and same_edition(self.current[i], edition)])

    def rules(self, name: str, edition: int | None, section: str | None = None) -> list[int]:
        found = self._in_time([i for i in self.by_name.get(name_key(name), [])
                               if self.current[i] is not None and same_edition(self.current[i], edition)])
        if section and len(found) > 1:
            inside = [i for i in found if name_key(section) in {name_key(s) for s in
                                                                 getattr(self.current[i], "section", ())}]
            found = inside or found
        return found

    def mentioning(self, stems: list[str], edition: int | None) -> list[int]:
        """Text records of `edition` whose wording contains each of `stems` (word starts)."""
        if self._folded is None:
            self._folded = {i: self.current[i].text.casefold() for i in self.text_records(None)}
            self._holding: dict[str, set[int]] = {}
        # Where each stem occurs, found once per stem: errata share stems ("unit", "model"),
        # and scanning every text once per erratum was most of applying errata to 50,000 records.
        holding = self._holding
        for s in stems:
            if s not in holding:
                holding[s] = self._texts_holding(s)
        found = set.intersection(*(holding[s] for s in stems)) if stems else set(self._folded)
        return [i for i in sorted(found) if self.current[i] is not None and same_edition(self.current[i], edition)]

    def _texts_holding(self, stem: str) -> set[int]:
        """The positions of the text records whose folded wording contains `stem`.

        The texts are searched as one string (NUL between them) with str.find, which jumps
        to the next text after a hit: a loop step per text that holds the stem, not per text.
        """
        if not hasattr(self, "_joined"):
            from itertools import accumulate

            keys = list(self._folded)
            texts = [self._folded[i] for i in keys]
            joined = "\0".join(texts)
            starts = [0, *accumulate(len(t) + 1 for t in texts)]
            exact = joined.count("\0") == max(0, len(texts) - 1)  # no NUL inside a text
            self._joined = (joined, starts, keys) if exact else None
        if self._joined is None or "\0" in stem:
            return {i for i, text in self._folded.items() if stem in text}
        from bisect import bisect_right

        joined, starts, keys = self._joined
        out = set()
        pos = joined.find(stem)
        while pos != -1:
            k = bisect_right(starts, pos) - 1
            out.add(keys[k])
            pos = joined.find(stem, starts[k + 1])
        return out

    def text_records(self, edition: int | None) -> list[int]:
        return [i for i, r in enumerate(self.current)
                if isinstance(r, (Rule, DetachmentRule, Enhancement)) and same_edition(r, edition)]


def same_edition(record: Record, edition: int | None) -> bool:
    return edition is None or record.edition is None or record.edition == edition
