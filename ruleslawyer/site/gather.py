"""Gather the site: every record's entry, URL, links and page, from the corpus with errata applied.

One way: everything is gathered afresh on every build; the writer then renders only the pages
whose fingerprint (a hash of what the page shows) changed, and writes only changed bytes.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..library.corpus import Corpus
from ..library.reconcile import identity
from ..records import Faq, Record, record_name
from .links import Linker, link_requests
from .pages import (KIND_DIRS, KIND_ORDER, Entry, Page, SiteContext, edition_links, errata_page, faction_urls,
                    home_page, keyword_pages, list_pages, search_text, snippet)
from .search_index import INDEX_PATH, IndexEntry, index_fields, render_index
from .slugs import SlugAllocator


def gather(corpus: Corpus, files: Sequence[Any], title: str) -> SiteContext:
    """Every page of the site and its search index, from `corpus` and the stored `files`."""
    records = [r for r in corpus.records if r.kind in KIND_DIRS]
    entries = allocate_urls(records)
    pair_originals(entries, corpus.originals)
    keywords = keyword_pages(records)
    linker = Linker(records, {id(e.record): e.url for e in entries},
                    {kw: (url, len(units)) for kw, (url, units) in keywords.items()})
    furls = faction_urls(records)
    rules = RuleTree(entries)
    change_anchor = errata_anchors(corpus.outcomes)
    printed = printed_in(corpus)
    points = current_points(corpus)
    editions = edition_links(entries)
    common = {"site_title": title}
    pages: list[Page] = []
    index: list[IndexEntry] = []
    known = corpus.stored_hashes
    for e in entries:
        r = e.record
        faction = getattr(r, "faction", None)
        name = record_name(r)
        published = corpus.date_of(r)
        index.append(IndexEntry(name, r.kind, faction, r.edition, e.url,
                                *index_fields(name, snippet(r), search_text(r)), getattr(r, "number", None) or "",
                                f"{r.source.file}, {published}" if published else r.source.file))
        links = linker.resolve(r, link_requests(r), "../")
        crumbs, kids = rules.crumbs_and_kids(r) if r.kind == "rule" else ([], [])
        about = mentionable(r)
        mentions = linker.mentions(about, r.edition, "../") if about is not None else []
        changes = getattr(r, "changes", ())
        anchors = [change_anchor.get(change_key(c)) for c in changes] if changes else []
        key = identity(r)
        pages.append(record_page(common, e, known.get(id(r)) or repr(r), links, crumbs, kids, anchors,
                                 furls.get(faction), mentions, printed.get(key, ()), points.get(key),
                                 editions.get(id(e), ())))

    pages.extend(list_pages(entries, keywords, linker, common, furls, points))
    pages.append(errata_page(corpus.outcomes, entries, common))
    pages.append(home_page(entries, corpus, files, common, furls))
    pages.append(Page("search.html", "search.html", dict(common, root="", page_title="Search"), ()))
    counts: dict[str, int] = defaultdict(int)
    for e in entries:
        counts[e.record.kind] += 1
    return SiteContext(pages=pages, assets={INDEX_PATH: render_index(index).encode("utf-8")}, counts=dict(counts))


class RuleTree:
    """The rules hierarchy by (file, edition, section path): a rule page's breadcrumbs and children."""

    def __init__(self, entries: Iterable[Entry]):
        self.children: dict[tuple, list[Entry]] = defaultdict(list)
        self.by_path: dict[tuple, Entry] = {}
        for e in entries:
            r = e.record
            if r.kind == "rule":
                self.children[(r.source.file, r.edition, tuple(r.section))].append(e)
                self.by_path[(r.source.file, r.edition, tuple(r.section) + (r.name,))] = e

    def crumbs_and_kids(self, r: Record) -> tuple[list, list]:
        """(section name, parent URL or None) for each level above rule `r`, and its children (name, URL)."""
        crumbs = []
        for i, name in enumerate(r.section):
            parent = self.by_path.get((r.source.file, r.edition, tuple(r.section[: i + 1])))
            crumbs.append((name, "../" + parent.url if parent else None))
        kids = [(k.record.name, "../" + k.url)
                for k in self.children.get((r.source.file, r.edition, tuple(r.section) + (r.name,)), [])]
        return crumbs, kids


def mentionable(r: Record) -> str | None:
    """The text whose rule names a FAQ's or note's page lists (`Linker.mentions`), else None."""
    if isinstance(r, Faq):
        return f"{r.question} {r.answer}"
    return f"{r.name} {r.text}" if r.kind == "note" else None


def record_page(common, e: Entry, content: str, links, crumbs, kids, anchors, furl, mentions,
                printed: tuple = (), points=None, editions: tuple = ()) -> Page:
    """The page of one record. `content` stands for the record in the page key (its stored hash,
    or its repr); `printed` lists the other files that print the record, with what they say
    differently; `points` is a datasheet's entry in the newest points list (Munitorum Field
    Manual), if any; `editions` (label, URL) of the record's other editions (`pages.edition_links`)."""
    r = e.record
    vars_ = dict(common, root="../", record=r, original=e.original, links=links, crumbs=crumbs, children=kids,
                 page_title=record_name(r), errata_anchors=anchors, faction_url="../" + furl if furl else None,
                 mentions=mentions, printed_in=printed, current_points=points, other_editions=editions)
    return Page(e.url, "record.html", vars_,
                (content, e.original and repr(e.original), links.resolved, crumbs, kids, anchors, furl, mentions,
                 printed, points, editions))


def printed_in(corpus: Corpus) -> dict[tuple, tuple]:
    """For each record printed in several files: ((file, ((field, value here, value there), ...)), ...)
    for the other printings, by record identity (an amended copy keeps its original's)."""
    out = {}
    for p in corpus.printings.values():
        rows = []
        for _, info in p.others:
            diffs = tuple((d.field, d.values[0][1], dict(d.values).get(info.name, "")) for d in p.differences
                          if dict(d.values).get(info.name) not in (None, d.values[0][1]))
            rows.append((info.name, diffs))
        out[identity(p.chosen)] = tuple(rows)
    return out


def current_points(corpus: Corpus) -> dict[tuple, Any]:
    """Each datasheet's current price (`library.prices`: the newest dated source of its edition,
    whatever its kind) and each detachment rule's and enhancement's detachment price, by record
    identity: the same number `show`, `points`, the cards and `list check` give."""
    from ..library.prices import PriceIndex, datasheet_price, newest_datasheet_editions

    index = PriceIndex(corpus)
    newest = newest_datasheet_editions(corpus.records)
    out = {}
    for r in corpus.records:
        if r.kind == "datasheet":
            found = datasheet_price(index, r, newest)
        elif r.kind in ("detachment_rule", "enhancement") and r.group:
            found = index.current(r.group, r.faction, r.edition, "detachment")
        else:
            continue
        if found is not None:
            out[identity(r)] = found
    return out


# ---------------------------------------------------------------- URLs and originals
def _identity(r: Record) -> str:
    parts = (r.kind, record_name(r), r.edition, getattr(r, "faction", None), getattr(r, "group", None),
             "/".join(getattr(r, "section", ()) or ()), r.source.file, r.source.page,
             getattr(r, "text", None) or getattr(r, "effect", None) or "")
    return "\x1f".join(map(str, parts))


def _qualifiers(r: Record) -> list[str | None]:
    ed = f"{r.edition}th" if r.edition else None
    section = (getattr(r, "section", None) or (None,))[-1]
    return [ed, getattr(r, "group", None), getattr(r, "faction", None), section,
            Path(r.source.file).stem if r.source.file else None]


def allocate_urls(records: Iterable[Record]) -> list[Entry]:
    by_kind: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by_kind[r.kind].append(r)
    entries = []
    for kind in KIND_ORDER:
        allocator = SlugAllocator()
        items = [(i, record_name(r), r, r) for i, r in enumerate(by_kind.get(kind, ()))]
        slugs = allocator.allocate(items, qualifiers_of=_qualifiers, identity_of=_identity)
        for i, r in enumerate(by_kind.get(kind, ())):
            entries.append(Entry(r, f"{KIND_DIRS[kind]}/{slugs[i]}.html"))
    return entries


def _original_key(r: Record) -> tuple:
    return (r.kind, record_name(r), r.edition, getattr(r, "group", None), tuple(getattr(r, "section", ()) or ()),
            r.source.file, r.source.page)


def pair_originals(entries: list[Entry], originals: Iterable[Record]) -> None:
    """Give every amended record its original, so pages can mark changes and show the print."""
    amended = [e for e in entries if getattr(e.record, "changes", ())]
    names = {record_name(e.record) for e in amended}
    table: dict[tuple, list[Record]] = defaultdict(list)
    for o in originals:
        # Only these can match an amended record's key (a fraction of all). Amended records are of
        # kinds with a `name` (record_name is that name), so getattr tells the same, faster.
        if getattr(o, "name", None) in names:
            table[_original_key(o)].append(o)
    for e in amended:
        found = table.get(_original_key(e.record))
        if found:
            e.original = found[0]


def change_key(change) -> tuple:
    return (change.document, change.version, change.page, change.operation, change.new_text)


def errata_anchors(outcomes) -> dict[tuple, str]:
    out = {}
    for n, o in enumerate(outcomes, 1):
        e = o.erratum
        out.setdefault((e.document, e.version, e.page, e.operation, e.text), f"e{n}")
    return out

