"""A saved page of the official points website (Munitorum Field Manual) -> versioned Points.

Recognised by its title. The page is streamed server-side rendering: most blocks arrive as hidden
`<div id="S:5e">` segments that a script moves into `<template id="P:5e">` placeholders, so the
segments are put in place first, then the page is read as its visible lines:

    NECRONS / v1.1                                  faction and version
    CURSED LEGION / 2DP / PURGE THE FOE / ENHANCEMENTS / Murdermind / 15 pts / ...
    DOOMSDAY ARK / YOUR 1ST TO 2ND UNITS COST / 1 model / ▲ (+10) 210 pts / YOUR 3RD + ... / ...

A unit is a name followed by a "YOUR … COST(S)" heading; a detachment a name followed by "NDP".
A page with no points (the index of factions) gives no records and a warning, never junk.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from ...errors import LoadError
from ...names import fold, title_case
from ...records import ItemCost, Points, Record, Source, UnitCost
from .structured import StructuredSource
from .wahapedia11 import tier_label

FORMAT = "mfm-html"
_TITLE = re.compile(rb"<title>[^<]*Munitorum Field Manual[^<]*</title>", re.I)
_VERSION = re.compile(r"^v(\d+(?:\.\d+)*)$")
_COSTS = re.compile(r"^your\s+(.*?)\s*units?\s+costs?$", re.I)
_DP = re.compile(r"^(\d+)\s*DP$")
_PTS = re.compile(r"^(?:[▲▼]\s*)?(?:\(([+-]?\d+)\)\s*)?(\d+)\s*pts$")
_MODELS = re.compile(r"^(\d+)\s+\S.*$")
_MARKS = {"▲", "▼"}
_LISTS = {"leader", "support", "leader:", "support:"}


def detect(path: Path) -> "MfmPage | None":
    """An MfmPage for a saved points-website page (by its title), else None."""
    if not path.is_file() or path.suffix.lower() not in (".html", ".htm"):
        return None
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536)
    except OSError:
        return None
    if not _TITLE.search(head):
        return None
    return MfmPage(path=path, files=(path,), format=FORMAT, title="Munitorum Field Manual (web page)", edition=11)


def page_lines(html: str) -> list[str]:
    """The visible lines of the page, streamed segments put in their placeholders."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "lxml")
    segments = {d["id"][2:]: d for d in soup.find_all("div", id=re.compile(r"^S:"))}
    for _ in range(8):  # segments may hold placeholders of their own
        moved = 0
        for holder in soup.find_all(id=re.compile(r"^P:")):
            seg = segments.pop(holder["id"][2:], None)
            if seg is not None:
                seg.extract()
                holder.replace_with(seg)
                moved += 1
        if not moved:
            break
    for junk in soup(["script", "style", "template", "noscript"]):
        junk.decompose()
    return [line.strip() for line in soup.get_text("\n").split("\n") if line.strip()]


class MfmPage(StructuredSource):
    """One saved page of the points website."""

    def records(self) -> Iterator[Record]:
        """The points of every unit and detachment on the page, at the page's version."""
        try:
            html = self.path.read_bytes().decode("utf-8", errors="replace")
        except OSError as exc:
            raise LoadError(self.path, f"cannot read: {exc.strerror or exc}") from None
        lines = [line for line in page_lines(html) if line not in _MARKS]
        version = faction = None
        for i, line in enumerate(lines):
            m = _VERSION.match(line)
            if m:
                version = m.group(1)
                if i and lines[i - 1].isupper():
                    faction = title_case(lines[i - 1])
                break
        made = 0
        for record in self._blocks(lines, faction, version):
            made += 1
            yield record
        if not made:
            # (the ingest report names the file: one file, one reader)
            self.warnings.append("a points-website page with no unit or detachment points "
                                 "(an index page? save a faction's page)")

    def _src(self, name: str, version: str | None) -> Source:
        return Source(file=self.path.name, format=self.format, version=version, locator=fold(name))

    def _blocks(self, lines: list[str], faction: str | None, version: str | None) -> Iterator[Points]:
        i, n = 0, len(lines)
        while i < n - 1:
            name, nxt = lines[i], lines[i + 1]
            if _COSTS.match(nxt):
                i, record = self._unit(lines, i + 1, name, faction, version)
                yield record
            elif _DP.match(nxt):
                i, record = self._detachment(lines, i + 1, name, faction, version)
                yield record
            else:
                i += 1

    def _unit(self, lines, i, name, faction, version) -> tuple[int, Points]:
        costs, wargear, tier = [], [], None
        while i < len(lines):
            line = lines[i]
            heading = _COSTS.match(line)
            if heading:
                tier, i = tier_label(heading.group(1)), i + 1
                continue
            if line.lower() in _LISTS:
                i += 2
                continue
            price = _PTS.match(lines[i + 1]) if i + 1 < len(lines) else None
            if not price:
                break
            listed = re.fullmatch(r"\d+\s+[^\d,]+(?:,\s*\d+\s+[^\d,]+)*", line)  # "1 Runtherd, 10 Gretchin"
            if _MODELS.match(line) and re.search(r"\bmodels?\b", line, re.I):
                costs.append(UnitCost(models=_MODELS.match(line).group(1), points=int(price.group(2)), tier=tier))
            elif listed:  # the size said by what it holds: the counts add up to the unit size
                costs.append(UnitCost(models=str(sum(int(n) for n in re.findall(r"(\d+)\s+[^\d,]+", line))),
                                      points=int(price.group(2)), tier=tier, description=line))
            else:
                wargear.append(ItemCost(name=re.sub(r"^per\s+", "", line, flags=re.I), points=int(price.group(2))))
            i += 2
        return i, Points(name=title_case(name), source=self._src(name, version), edition=11, faction=faction,
                         version=version, target_kind="datasheet", costs=tuple(costs), wargear_costs=tuple(wargear))

    def _detachment(self, lines, i, name, faction, version) -> tuple[int, Points]:
        dp = int(_DP.match(lines[i]).group(1))
        i += 1
        enhancements = []
        while i < len(lines):
            line = lines[i]
            if line.lower() in _LISTS:
                i += 2
                continue
            if i + 1 < len(lines) and _DP.match(lines[i + 1]) or i + 1 < len(lines) and _COSTS.match(lines[i + 1]):
                break
            price = _PTS.match(lines[i + 1]) if i + 1 < len(lines) else None
            if price:
                enhancements.append(ItemCost(name=line, points=int(price.group(2))))
                i += 2
                continue
            if enhancements and not line.isupper():
                break
            i += 1  # the force disposition, the unique tag, the ENHANCEMENTS heading
        return i, Points(name=title_case(name), source=self._src(name, version), edition=11, faction=faction,
                         version=version, target_kind="detachment", wargear_costs=tuple(enhancements),
                         detachment_points=dp)
