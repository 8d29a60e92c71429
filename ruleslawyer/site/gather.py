"""Gather the site: every record's entry, URL, links and page, from the corpus with errata applied.

`gather` walks the whole corpus; `incremental.patch` reuses the last build's shape when only a
few records changed and falls back to `gather` otherwise. Both make the same pages.
"""
from __future__ import annotations

import functools
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..library.corpus import Corpus
from ..library.reconcile import identity
from ..records import Faq, Record, record_name
from .incremental.codehash import code_hash
from .incremental.facts import RecordFacts, record_fingerprint, record_fingerprints
from .links import Linker
from .pages import (KIND_DIRS, KIND_ORDER, Entry, Page, SiteContext, edition_links, errata_page, faction_urls,
                    home_page, keyword_pages)
from .search_index import IndexEntry
from .slugs import SlugAllocator


def gather(corpus: Corpus, files: Sequence[Any], title: str, facts: RecordFacts | None) -> SiteContext:
    from .incremental.index_parts import INDEX_PATH, index_bytes
    from .incremental.memory import GatherMemory, links_token, list_state, make_list_pages

    facts = facts if facts is not None else RecordFacts(code_hash())
    memory = GatherMemory(facts.code, facts.previous)
    records = [r for r in corpus.records if r.kind in KIND_DIRS]
    entries = allocate_urls(records)
    pair_originals(entries, corpus.originals)
    keywords = keyword_pages(records)
    linker = Linker(records, {id(e.record): e.url for e in entries},
                    {kw: (url, len(units)) for kw, (url, units) in keywords.items()})
    memory.start(linker)
    furls = faction_urls(records)
    rules = RuleTree(entries)
    change_anchor = errata_anchors(corpus.outcomes)
    printed = printed_in(corpus)
    points = current_points(corpus)
    editions = edition_links(entries)
    common = {"site_title": title}
    pages: list[Page] = []

    listed: list[str] = []  # each entry's list projection and URL, in order: the list pages' input
    index: list[IndexEntry] = []
    index_fps: list[str] = []  # the record hash behind each index entry
    for e, fp in zip(entries, record_fingerprints([e.record for e in entries], corpus.stored_hashes)):
        r = e.record
        requests, snip, terms, listing, deps = facts.get(r, fp)
        listed += (listing, e.url)
        faction = getattr(r, "faction", None)
        index.append(IndexEntry(record_name(r), r.kind, faction, r.edition, e.url, snip, terms))
        index_fps.append(fp)
        links = None
        token = memory.links_token(fp, deps)
        if token is None:  # new, edited, or a name it links changed: resolve (and hash) its links now
            links = linker.resolve(r, facts.requests(fp, requests), "../")
            token = memory.keep_token(fp, links_token(links))
        crumbs, kids = rules.crumbs_and_kids(r) if r.kind == "rule" else ([], [])
        about = mentionable(r)
        mentions = linker.mentions(about, r.edition, "../") if about is not None else []
        changes = getattr(r, "changes", ())
        anchors = [change_anchor.get(change_key(c)) for c in changes] if changes else []
        key = identity(r)
        pages.append(record_page(common, linker, e, facts, fp, requests, links, token, crumbs, kids, anchors,
                                 furls.get(faction), mentions, printed.get(key, ()), points.get(key),
                                 editions.get(id(e), ())))

    pages.extend(memory.list_pages(list_state(title, listed, keywords, linker),
                                   make_list_pages(entries, keywords, linker, common, furls)))
    pages.append(errata_page(corpus.outcomes, entries, common))
    pages.append(home_page(entries, corpus, files, common, furls))
    pages.append(Page("search.html", "search.html", dict(common, root="", page_title="Search"), ()))

    # render_index(index), reusing the last build's bytes for kinds whose documents are unchanged
    data, memory.index_layout = index_bytes(index, index_fps, memory.old_index(INDEX_PATH))
    assets = {INDEX_PATH: data}
    counts = defaultdict(int)
    for e in entries:
        counts[e.record.kind] += 1
    from .incremental.memory import shape_of

    memory.shape = shape_of(title, entries, index_fps, corpus.outcomes, keywords, printings_digest(printed, points))
    return SiteContext(pages=pages, assets=assets, counts=dict(counts), facts=facts, memory=memory)


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


def record_page(common, linker: Linker, e: Entry, facts: RecordFacts, fp: str, requests: str, links, token: str,
                crumbs, kids, anchors, furl, mentions, printed: tuple = (), points=None,
                editions: tuple = ()) -> Page:
    """The page of one record; `links` may be None (resolved only if the page is rendered).
    `printed` lists the other files that print the record, with what they say differently;
    `points` is a datasheet's entry in the newest points list (Munitorum Field Manual), if any;
    `editions` (label, URL) of the record's other editions (`pages.edition_links`)."""
    # The key holds the links' token, not the links: same meaning, a fraction of the bytes to hash.
    return Page(e.url, "record.html",
                functools.partial(_record_vars, common, linker, e, facts, fp, requests, links, crumbs, kids,
                                  anchors, furl, mentions, printed, points, editions),
                (fp, e.original and record_fingerprint(e.original), token, crumbs, kids, anchors, furl, mentions,
                 printed, points, editions))


def _record_vars(common, linker: Linker, e: Entry, facts: RecordFacts, fp: str, requests: str, links, crumbs, kids,
                 anchors, furl, mentions, printed, points=None, editions=()) -> dict:
    """A record page's template variables; its links are resolved here when gathering did not need them."""
    r = e.record
    if links is None:
        links = linker.resolve(r, facts.requests(fp, requests), "../")
    return dict(common, root="../", record=r, original=e.original, links=links, crumbs=crumbs, children=kids,
                page_title=record_name(r), errata_anchors=anchors, faction_url="../" + furl if furl else None,
                mentions=mentions, printed_in=printed, current_points=points, other_editions=editions)


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
    """Each datasheet's entry in the newest points list naming it (`library.points`), and each
    detachment rule's and enhancement's detachment entry, by record identity: a datasheet's page
    gives these points over the ones it prints, the others give the Detachment Points and costs."""
    from ..library.points import PointsIndex

    index = PointsIndex(corpus.records)
    if not index:
        return {}
    out = {}
    for r in corpus.records:
        if r.kind == "datasheet":
            found = index.of(r.name, r.faction, edition=r.edition)
        elif r.kind in ("detachment_rule", "enhancement") and r.group:
            found = index.of(r.group, r.faction, "detachment", edition=r.edition)
        else:
            continue
        if found is not None:
            out[identity(r)] = found
    return out


def printings_digest(printed: dict[tuple, tuple], points: dict[tuple, Any] | None = None) -> str:
    """A hash of every record's printings (`printed_in`) and current points (`current_points`): a
    change means pages must be gathered afresh."""
    import hashlib

    text = repr(sorted(printed.items())) + ("\x1f" + repr(sorted(points.items())) if points else "")
    return hashlib.sha1(text.encode()).hexdigest()


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


# ---------------------------------------------------------------- the one call
