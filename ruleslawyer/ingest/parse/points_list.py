"""A printed points list (Munitorum Field Manual as PDF or text) -> versioned `points` records.

Read by its structure, whatever the file: faction name bars (headings), unit names (bold, or a
line of their own), price lines "N models ..... P pts" with dotted leaders (dots, or U+FFFD where
a PDF's leader glyphs do not extract), a DETACHMENT ENHANCEMENTS section (a detachment's name,
then "Enhancement ..... P pts" lines) and FORGE WORLD POINTS VALUES sections (more units).

A PDF's columns arrive as blocks whose spans keep the bold of the names, so one block may hold
the end of one unit and the name of the next ("1 model .... 75 pts *Prosecutors"); a text dump
has one line per block and no bold. Both are read as one stream of names and prices. The faction
of a page comes from the contents table ("Adeptus Custodes ..... 3") when there is one, so
a column printed before its page's name bar (as text dumps do) still gets its page's faction.

The records have the identity of the points read from MFM YAML and the points website (faction,
kind, name, edition), so `points --changes` compares a PDF printing with any other version.
"""
from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass, field
from typing import Iterator

from ...names import fold, title_case
from ...records import ItemCost, Points, UnitCost
from ..document import HEADING, TABLE

# A dotted leader: ASCII dots, U+FFFD (leader glyphs without a text mapping), ellipses, middots.
_LEADER = r"[.\ufffd…·]{3,}"
_PRICE = re.compile(rf"(?P<label>[^\ufffd\n.…·]{{0,160}}?)\s*{_LEADER}\s*(?P<plus>\+\s*)?(?P<pts>\d+)\s*pts\b", re.I)
_MODELS = re.compile(r"^(\d+(?:\s*[-–]\s*\d+)?)\s+models?$", re.I)
_COUNTS = re.compile(r"(\d+)\s+[^\d,]+")
_CONTENTS_ENTRY = re.compile(rf"^(?P<name>[^\d\ufffd.]+?)\s*{_LEADER}\s*(?P<page>\d+)$")
_VERSION = re.compile(r"\bVERSION\s+(\d+(?:\.\d+)*)\b", re.I)
_PAGE_NUMBER = re.compile(r"^\d{1,3}$")
ENHANCEMENTS = "detachment enhancements"
FORGE_WORLD = "forge world points values"
_NOT_FACTIONS = {"contents", "produced by the warhammer design studio", ENHANCEMENTS, FORGE_WORLD}
MIN_PRICES = 6  # "N models .... P pts" lines a document needs to be read as a points list


def is_points_list(doc) -> bool:
    """Whether `doc` is a printed points list: many "N models .... P pts" lines."""
    count = 0
    for m in _PRICE.finditer(doc.text[:400_000]):
        if _MODELS.match(m.group("label").strip().split("\n")[-1].strip()):
            count += 1
            if count >= MIN_PRICES:
                return True
    return False


@dataclass
class _Entry:
    name: str
    faction: str | None
    kind: str  # "datasheet" or "detachment"
    page: int | None
    costs: list[UnitCost] = field(default_factory=list)
    items: list[ItemCost] = field(default_factory=list)
    blocks: set[int] = field(default_factory=set)


@dataclass
class _Token:
    what: str  # "heading", "name", "price", "page"
    text: str
    page: int | None
    points: int | None = None
    block: int = -1
    addon: bool = False  # "+10 pts": paid on top of the unit's size


def _pages(doc) -> list[list[int]]:
    """Block indexes grouped by page (a text dump with no pages is one group)."""
    groups: list[list[int]] = []
    for i, block in enumerate(doc.blocks):
        if groups and block.page == doc.blocks[groups[-1][0]].page:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _by_column(doc, indexes: list[int]) -> list[int] | None:
    """The page's blocks column by column, top to bottom, when every block says its column
    and top; else None.

    A points page is columns that flow from top to bottom; a leader line wide enough to look
    like a spanning line may cut a page into bands read band by band, which puts the foot of a
    column (a unit's prices) after the next column's head.
    """
    tops = {}
    for i in indexes:
        try:
            tops[i] = float(doc.blocks[i].attrs.get("top", ""))
        except (TypeError, ValueError):
            return None
        if doc.blocks[i].column is None:
            return None
    return sorted(indexes, key=lambda i: (doc.blocks[i].column, tops[i], i))


def _tokens(doc, order: list[int], styled: bool) -> Iterator[_Token]:
    """Blocks as a stream of headings, names and prices, in the given order."""
    for i in order:
        block = doc.blocks[i]
        if block.kind == TABLE:
            # Columns of names and prices that the loader took for a table: read column by column.
            width = max((len(row) for row in block.rows), default=0)
            for col in range(width):
                for row in block.rows:
                    cell = " ".join(row[col].split()) if col < len(row) else ""
                    if cell:
                        yield from _line_tokens(cell, block.page, i, whole=not cell[:1].isdigit())
            continue
        text = " ".join(block.text.split())
        if block.kind == HEADING:
            yield _Token("heading", text, block.page, block=i)
            continue
        if _PAGE_NUMBER.match(text):
            yield _Token("page", text, block.page, block=i)
            continue
        if not _PRICE.search(text) or len(block.spans) <= 1:
            # A line of its own with no price: a name where names are bold (or nothing is), else
            # the first line of a label wrapped over two ("1 Sword Brother, 5 Initiates").
            name = block.is_bold if styled else not text[:1].isdigit()
            yield from _line_tokens(text, block.page, i, whole=name)
            continue
        # Several spans: a bold span is a name; plain text holds prices, and text after the last
        # price is the start of the next price's label (a name wrapped at the column's foot).
        for span in block.spans:
            piece = " ".join(span.text.split())
            if not piece:
                continue
            if span.bold and not _PRICE.search(piece):
                yield _Token("name", piece, block.page, block=i)
            else:
                yield from _line_tokens(piece, block.page, i, whole=False)


def _line_tokens(text: str, page, block: int, *, whole: bool) -> Iterator[_Token]:
    pos = 0
    for m in _PRICE.finditer(text):
        yield _Token("price", m.group("label").strip(), page, int(m.group("pts")), block=block,
                     addon=bool(m.group("plus")))
        pos = m.end()
    rest = text[pos:].strip()
    if rest:
        # A whole line with no price is a name; the tail after a block's prices continues a label.
        yield _Token("name" if whole and pos == 0 else "fragment", rest, page, block=block)


def contents_pages(doc) -> dict[int, str]:
    """The contents table of a points list: first page -> faction ("Adeptus Custodes ..... 3")."""
    out: dict[int, str] = {}
    for block in doc.blocks:
        cells = [c for row in block.rows for c in row] if block.kind == TABLE else [block.text]
        for cell in cells:
            m = _CONTENTS_ENTRY.match(" ".join(cell.split()))
            if m:
                out.setdefault(int(m.group("page")), title_case(m.group("name").strip()))
    return out


def parse(doc, ctx) -> Iterator[Points]:
    """The points records of a printed points list; nothing for any other document."""
    if not is_points_list(doc):
        return
    ctx.memo["read_as"] = "points_list"
    version = None
    m = _VERSION.search(doc.text[:5000])
    if m:
        version = m.group(1)
    date = ctx.memo.get("date")
    contents = contents_pages(doc)
    entries = _entries(doc, contents, ctx)
    for entry in entries:
        if not entry.costs and not entry.items:
            continue
        name = entry.name
        src = dataclasses.replace(ctx.source(page=entry.page, locator=f"{fold(entry.faction or '')}/{entry.kind}/{name}"),
                                  version=version, date=date)
        yield Points(name=name, source=src, edition=ctx.edition, faction=entry.faction, version=version,
                     target_kind=entry.kind, costs=tuple(entry.costs), wargear_costs=tuple(entry.items))
    # The whole document is the points list: its front matter (how to use it, the contents) is
    # no rule for the later parsers to make.
    ctx.claim(range(len(doc.blocks)))


def _faction_at(page: int | None, contents: dict[int, str]) -> str | None:
    starts = [p for p in contents if page is not None and p <= page]
    return contents[max(starts)] if starts else None


def _entries(doc, contents: dict[int, str], ctx) -> list[_Entry]:
    """Read the document page by page; of the two orders a page can be read in (as loaded,
    or column by column), keep the one that makes fewer doubts."""
    styled = any(s.bold for b in doc.blocks[:400] if b.kind != HEADING for s in b.spans)
    walker = _Walker(contents)
    for indexes in _pages(doc):
        tries = []
        for order in (indexes, _by_column(doc, indexes)):
            if order is None or any(order == t[2] for t in tries):
                continue
            trial = copy.deepcopy(walker)
            for tok in _tokens(doc, order, styled):
                trial.feed(tok)
            tries.append((trial.doubts(), len(tries), order, trial))
        walker = min(tries, key=lambda t: t[:2])[3]
    for message, page in walker.warnings:
        ctx.warn(message, page)
    return walker.entries


@dataclass
class _Walker:
    """The state of a walk through a points list: faction, section, the entry being filled."""

    contents: dict[int, str]
    faction: str | None = None
    mode: str | None = None  # None before the first faction, then "units" or "enhancements"
    page_count: int | None = None  # text dumps: the page the printed page numbers say we are on
    entry: _Entry | None = None
    fragment: str = ""
    entries: list[_Entry] = field(default_factory=list)
    warnings: list[tuple[str, int | None]] = field(default_factory=list)

    def doubts(self) -> int:
        """How much of the walk so far looks wrong: warnings, unit sizes out of order, labels
        that continue nothing ("and 5 Neophytes"), names with no prices."""
        bad = len(self.warnings)
        for e in self.entries:
            sizes = [_first_count(c.models) for c in e.costs]
            bad += sum(1 for a, b in zip(sizes, sizes[1:]) if b <= a)
            bad += sum(1 for i in e.items if i.name[:1].islower() or (e.kind == "datasheet"))
            bad += not (e.costs or e.items)
        return bad

    def feed(self, tok: _Token) -> None:
        page = tok.page if tok.page is not None else self.page_count
        if tok.what == "page":
            self.page_count = int(tok.text) + 1
            # DETACHMENT ENHANCEMENTS ends a faction: a new page starts with units again.
            self.mode = "units" if self.mode else None
            self.entry, self.fragment = None, ""
            return
        if tok.what == "name" and fold(tok.text) in {fold(ENHANCEMENTS), fold(FORGE_WORLD)}:
            tok = dataclasses.replace(tok, what="heading")  # a section title set in bold in a column
        if tok.what == "heading":
            self._heading(tok)
            return
        if self.mode is None:
            return
        if tok.what == "name":
            self._name(tok, page)
        elif tok.what == "fragment":
            self.fragment = f"{self.fragment} {tok.text}".strip()
        else:
            self._price(tok, page)

    def _heading(self, tok: _Token) -> None:
        low = fold(tok.text)
        self.entry, self.fragment = None, ""
        if low == fold(ENHANCEMENTS):
            self.mode = "enhancements" if self.mode else None
        elif low == fold(FORGE_WORLD):
            self.mode = "units" if self.mode else None
        elif low not in {fold(x) for x in _NOT_FACTIONS} and tok.text.upper() == tok.text and (
                not self.contents or low in {fold(f) for f in self.contents.values()}):
            # A name bar: a faction the contents table lists (any capitalised heading without one)
            self.faction, self.mode = title_case(tok.text), "units"

    def _name(self, tok: _Token, page) -> None:
        self.fragment = ""
        entry = self.entry
        if entry is not None and not entry.costs and not entry.items and (
                tok.text[:1].islower() or self.mode == "enhancements" and entry.kind == "detachment"):
            entry.name = f"{entry.name} {tok.text}"  # a name wrapped over two lines ("... in Terminator Armour")
            return
        if entry is not None and not entry.costs and not entry.items and _looks_like_name(entry.name):
            self.warnings.append((f"points list: no points found for {entry.name!r}; left out", entry.page))
        self.entry = _Entry(name=tok.text, faction=_faction_at(page, self.contents) or self.faction,
                            kind="detachment" if self.mode == "enhancements" else "datasheet", page=page)
        self.entry.blocks.add(tok.block)
        self.entries.append(self.entry)

    def _price(self, tok: _Token, page) -> None:
        label = f"{self.fragment} {tok.text}".strip()
        self.fragment = ""
        entry = self.entry
        if entry is None:
            self.warnings.append((f"points list: a price with no unit or detachment name before it: "
                                  f"{label} {tok.points} pts; left out", page))
            return
        entry.blocks.add(tok.block)
        if tok.addon:  # a model or option added to the unit ("Daemonhost .... +10 pts")
            entry.items.append(ItemCost(name=label, points=tok.points))
            return
        sized = _MODELS.match(label)
        if sized and entry.kind == "detachment" and not entry.items:
            entry.kind, self.mode = "datasheet", "units"  # enhancements are never priced by models: units again
        if entry.kind == "datasheet" and sized and entry.costs and _first_count(sized.group(1)) <= _first_count(
                entry.costs[-1].models):
            # Sizes grow down a unit's list: a smaller one belongs to another unit whose name the
            # columns put elsewhere.
            self.warnings.append((f"points list: {label} {tok.points} pts after {entry.costs[-1].models} models of "
                                  f"{entry.name!r} belongs to another unit; left out", page))
            return
        if entry.kind == "datasheet" and sized:
            entry.costs.append(UnitCost(models=re.sub(r"\s*[-–]\s*", "-", sized.group(1)), points=tok.points))
        elif entry.kind == "datasheet" and _COUNTS.fullmatch(label.replace(" and ", ", ")):
            counts = _COUNTS.findall(label)
            entry.costs.append(UnitCost(models=str(sum(int(n) for n in counts)), points=tok.points,
                                        description=label))
        else:
            if entry.kind == "datasheet" and not entry.costs and not entry.items:
                entry.kind = "detachment"  # named things priced under a name: a detachment's enhancements
            entry.items.append(ItemCost(name=label, points=tok.points))


def _looks_like_name(text: str) -> bool:
    """A unit's or detachment's name, not a line of prose: a few words, no sentence end."""
    return len(text.split()) <= 8 and not text.rstrip().endswith((".", ":", ","))


def _first_count(models: str) -> int:
    m = re.match(r"\d+", models)
    return int(m.group()) if m else 0
