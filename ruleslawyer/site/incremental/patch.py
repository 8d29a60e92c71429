"""A rebuild that patches the last build when only the wording of a few records changed.

The usual rebuild follows one re-ingested file: a few records have new wording and nothing that
places a record in the site moved (its name, kind, list fields, source file and URL, the errata
outcomes). `build.gather` would still walk the whole corpus: allocate every URL, build the
linker, make and hash every page's key, only to find all but a few pages unchanged.
`patch_gather` proves that from the "shape" the last build kept (`shape_of`: each entry's record
hash, URL and source file in entry order, the keyword pages, a digest of the errata outcomes,
the originals of amended records) and remakes only the pages of the changed records. Every
other page keeps the fingerprint the manifest holds for it; its variables are made (by a full
gather) only if it must be rendered after all, because its file was deleted.

Pages linking (or, for FAQs and notes, naming) a rule whose linker entry changed (its hover
text) are remade too, with a linker that knows every entry those pages look up. It gives up,
raising NotPatchable so that the build gathers everything, whenever it cannot prove the rest
unchanged: another number or order of records, more than MAX_CHANGED changed, a changed record
that is amended or whose list fields, source file or URL would move, a changed rule that a
keyword page shows. What it returns is what `gather` would: the same pages with the same
fingerprints, the same search index, the same memory for the next build (the tests compare the
files it writes with a full build's).
"""
from __future__ import annotations

import functools
import re
from collections import defaultdict
from typing import Any, Sequence

from ...library.corpus import Corpus
from ...records import Record, record_name
from ...library.reconcile import identity
from ..gather import (RuleTree, current_points, printed_in, printings_digest, allocate_urls, change_key, errata_anchors, gather, mentionable, pair_originals,
                      record_page)
from .memory import COLUMN_SEP, column, outcomes_digest
from .facts import DEPS_SEP, RecordFacts, deps_of, record_fingerprint, record_fingerprints
from ..links import TARGET_KINDS, Linker, entry_keys
from ..pages import KIND_DIRS, KIND_ORDER, Entry, Page, SiteContext, edition_links, errata_page, faction_urls, home_page
from ..search_index import IndexEntry, fold
from ..slugs import slugify
from ..writer import read_manifest

MAX_CHANGED = 50  # beyond this many changed records a full gather costs little more
MAX_REMADE = 5000  # record pages remade (changed, or linking a changed rule)
_LIST_TEMPLATES = frozenset({"list.html", "faction.html", "factions.html", "keyword.html", "keywords.html"})


class NotPatchable(Exception):
    """The last build cannot be patched into this one (the message says why): gather everything."""


def patch_gather(corpus: Corpus, files: Sequence[Any], title: str, facts: RecordFacts) -> SiteContext:
    """The gathered site, made by patching the last build; raises NotPatchable when that cannot be proven right."""
    from .index_parts import INDEX_PATH, index_bytes
    from .memory import GatherMemory, links_token

    previous = facts.previous or {}
    shape = previous.get("shape")
    columns = _columns(shape)
    if columns is None or shape["title"] != title:
        raise NotPatchable("no shape kept by the last build, or another site title")
    old_fps, urls, old_files = columns
    manifest = read_manifest(previous["out"]) if previous.get("out") is not None else None
    if manifest is None:
        raise NotPatchable("no readable manifest")
    old_pages = manifest["pages"]
    records = [r for r in corpus.records if r.kind in KIND_DIRS]
    by_kind: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by_kind[r.kind].append(r)
    ordered = [r for kind in KIND_ORDER for r in by_kind.get(kind, ())]  # the entry order of allocate_urls
    if len(ordered) != len(old_fps):
        raise NotPatchable("records were added or dropped")
    fps = record_fingerprints(ordered, corpus.stored_hashes)
    changed = [i for i, (new, old) in enumerate(zip(fps, old_fps)) if new != old]
    if len(changed) > MAX_CHANGED:
        raise NotPatchable(f"{len(changed)} records changed")
    if outcomes_digest(corpus.outcomes) != shape["outcomes"]:
        raise NotPatchable("the errata outcomes changed")
    printed = printed_in(corpus)
    points = current_points(corpus)
    if printings_digest(printed, points) != shape.get("printings"):
        raise NotPatchable("which files print which records, or the current points, changed")
    for i in changed:
        if not _same_place(ordered[i], fps[i], urls[i], old_files[i], facts.known.get(old_fps[i]), shape, facts):
            raise NotPatchable(f"{urls[i]}: its record moved (list fields or file) or is amended")
    _check_urls(changed, ordered, urls, by_kind)

    memory = GatherMemory(facts.code, previous)
    url_of = {id(r): url for r, url in zip(ordered, urls)}
    keywords = {kw: (url, count) for kw, (url, count) in shape["keywords"].items()}
    targets = _Targets(records, url_of, keywords)
    digests = memory.old_digests()
    moved = targets.changed_entries([ordered[i] for i in changed], digests)
    if moved and any(not moved.isdisjoint((fold(kw), "~" + fold(kw))) for kw in keywords):
        raise NotPatchable("a keyword page shows a changed rule")

    entries = [Entry(r, url) for r, url in zip(ordered, urls)]
    pair_originals(entries, corpus.originals)
    if any(shape["amended"].get(e.url, False) != (e.original and record_fingerprint(e.original))
           for e in entries if getattr(e.record, "changes", ())):
        raise NotPatchable("the original of an amended record changed")
    fallback = _FullGather(corpus, files, title, facts.code)
    common = {"site_title": title}
    todo = set(changed)
    pages: list[Page | None] = []
    index: list[IndexEntry] = []
    remake: list[tuple[int, int, str, str]] = []  # (page number, entry number, requests, deps)
    # The loop below runs for every record of every patched rebuild: `facts.get`,
    # `memory.keep_token` inlined, the dependants test is a regex.
    used, known, old_tokens, tokens = facts.used, facts.known, memory.old_tokens, memory.tokens
    linking = _any_key(moved)
    later = functools.partial
    for i, (e, fp) in enumerate(zip(entries, fps)):
        r = e.record
        fact = known.get(fp) or used.get(fp)  # equal records, equal facts: either will do
        if fact is None:
            fact = facts.get(r, fp)
        used[fp] = fact
        requests, snip, terms, _listing, deps = fact
        index.append(IndexEntry(record_name(r), r.kind, getattr(r, "faction", None), r.edition, e.url, snip, terms))
        if i not in todo:
            if linking and (_links_any(deps, moved, linking) or _mentions_any(r, moved)):
                todo.add(i)  # it links (or may name) a changed rule: its links are resolved again
            else:
                token = old_tokens.get(fp)
                fingerprint = old_pages.get(e.url)
                if token is None or fingerprint is None:
                    raise NotPatchable(f"{e.url}: nothing kept of its last build")
                tokens[fp[0]][fp] = token
                pages.append(Page(e.url, "record.html", later(fallback.variables, e.url), None, fingerprint))
                continue
        remake.append((len(pages), i, requests, deps))
        pages.append(None)
    memory.reused = len(pages) - len(remake)
    if len(remake) > MAX_REMADE:
        raise NotPatchable(f"{len(remake)} record pages to remake")
    furls = faction_urls(records)
    if remake:
        # Changed records and the pages linking their changed entries, remade as gather makes
        # them. One linker knowing every entry these pages look up answers as the whole corpus's.
        about = {i: mentionable(entries[i].record) for _, i, _, _ in remake}
        linker = targets.linker_for({d for _, _, _, deps in remake for d in deps_of(deps)}
                                    .union(*(_runs(text) for text in about.values() if text)))
        rules = RuleTree(entries) if any(entries[i].record.kind == "rule" for _, i, _, _ in remake) else None
        anchors_of = errata_anchors(corpus.outcomes)
        # unchanged: the records' names, kinds, factions, editions and URLs did not move
        editions = edition_links(entries)
        for n, i, requests, _deps in remake:
            e, fp = entries[i], fps[i]
            r = e.record
            links = linker.resolve(r, facts.requests(fp, requests), "../")
            token = memory.keep_token(fp, links_token(links))
            crumbs, kids = rules.crumbs_and_kids(r) if r.kind == "rule" else ([], [])
            anchors = [anchors_of.get(change_key(c)) for c in getattr(r, "changes", ())]
            mentions = linker.mentions(about[i], r.edition, "../") if about[i] is not None else []
            pages[n] = record_page(common, linker, e, facts, fp, requests, links, token, crumbs, kids, anchors,
                                   furls.get(getattr(r, "faction", None)), mentions, printed.get(identity(r), ()),
                                   points.get(identity(r)), editions.get(id(e), ()))
    list_state = memory.old_list_state()
    if list_state is None:
        raise NotPatchable("no list state kept")
    memory.keep_digests(digests)
    pages.extend(memory.list_pages(list_state, fallback.list_pages))
    pages.append(errata_page(corpus.outcomes, entries, common))
    pages.append(home_page(entries, corpus, files, common, furls))
    pages.append(Page("search.html", "search.html", dict(common, root="", page_title="Search"), ()))
    edited = {ordered[i].kind for i in changed}  # other kinds' documents are the last build's
    data, memory.index_layout = index_bytes(index, fps, memory.old_index(INDEX_PATH),
                                            same_kinds=frozenset(KIND_DIRS) - edited)
    memory.shape = dict(shape, fps=column(fps))
    memory.patched = True
    counts: dict[str, int] = defaultdict(int)
    for r in ordered:
        counts[r.kind] += 1
    return SiteContext(pages=pages, assets={INDEX_PATH: data}, counts=dict(counts), facts=facts, memory=memory)


def _same_place(r: Record, fp: str, url: str, file: str, old_facts: list | None, shape: dict,
                facts: RecordFacts) -> bool:
    """Whether changed record `r` sits where its predecessor did: same list fields (name, kind,
    keywords, faction ...), same source file, and neither is amended (URLs: `_check_urls`)."""
    if old_facts is None or getattr(r, "changes", ()) or url in shape["amended"]:
        return False
    if r.source.file != file:
        return False
    return facts.get(r, fp)[3] == old_facts[3]


def _check_urls(changed: list[int], ordered: list[Record], urls: list[str], by_kind: dict[str, list[Record]]) -> None:
    """Raise NotPatchable unless every URL stays as it was (`changed`: positions in entry order).

    A record whose name no other record of its kind shares keeps the plain slug of its name
    (its name is a list field, unchanged). Records sharing a name are told apart in an order
    that depends on their wording too, so for those the kind's URLs are allocated again.
    """
    start = 0
    for kind in KIND_ORDER:
        members = by_kind.get(kind, [])
        end = start + len(members)
        if any(start <= i < end and urls[i] != f"{KIND_DIRS[kind]}/{slugify(record_name(ordered[i]))}.html"
               for i in changed):
            if [e.url for e in allocate_urls(members)] != urls[start:end]:
                raise NotPatchable(f"{kind} URLs moved")
        start = end


def _any_key(keys: set[str]):
    """A regex finding any of `keys` in a record's link deps as its facts keep them (joined by DEPS_SEP)."""
    if not keys:
        return None
    alternatives = "|".join(map(re.escape, sorted(keys)))
    return re.compile(f"(?:^|{DEPS_SEP})(?:{alternatives})(?:{DEPS_SEP}|$)")


def _links_any(deps: str | list[str], keys: set[str], pattern) -> bool:
    """Whether link deps `deps` (see facts.deps_of) hold one of `keys`."""
    return bool(pattern.search(deps)) if isinstance(deps, str) else not keys.isdisjoint(deps)


def _mentions_any(r: Record, keys: set[str]) -> bool:
    """Whether the page of `r` may name a linker entry in `keys` (FAQs and notes list the rules they name)."""
    text = mentionable(r)
    if text is None:
        return False
    text = f" {fold(text)} "
    return any(f" {key.lstrip('~')} " in text for key in keys)


def _runs(text: str) -> set[str]:
    """Every run of 1-4 folded words of `text`, bare and with "~": the linker entries `mentions` may look up."""
    words = fold(text).split()
    runs = {" ".join(words[i:i + n]) for n in (1, 2, 3, 4) for i in range(len(words) - n + 1)}
    return runs | {"~" + run for run in runs}


class _Targets:
    """The linker entries of the corpus, built only for the names asked about."""

    def __init__(self, records: list[Record], url_of: dict[int, str], keywords: dict[str, tuple[str, int]]):
        self._records, self._url_of, self._keywords = records, url_of, keywords
        self._keys: list[tuple[Record, list[str]]] | None = None

    def _with_keys(self) -> list[tuple[Record, list[str]]]:
        if self._keys is None:
            self._keys = [(r, entry_keys(r.name)) for r in self._records if r.kind in TARGET_KINDS]
        return self._keys

    def linker_for(self, keys) -> Linker:
        """A Linker knowing every entry under `keys` (and all keyword pages): for those keys it
        answers as the whole corpus's linker would (same targets, same order)."""
        wanted = set(keys)
        return Linker([r for r, ks in self._with_keys() if not wanted.isdisjoint(ks)], self._url_of, self._keywords)

    def changed_entries(self, changed: list[Record], digests: dict[str, str]) -> set[str]:
        """The linker entries of `changed` records whose digest differs from `digests` (updated in place)."""
        keys = {k for r in changed if r.kind in TARGET_KINDS for k in entry_keys(r.name)}
        if not keys:
            return set()
        fresh = {k: d for k, d in self.linker_for(keys).digests().items() if k in keys}
        moved = {k for k in keys if fresh.get(k) != digests.get(k)}
        digests.update(fresh)
        return moved


class _FullGather:
    """The whole site gathered afresh, made only if a page the patch reused must be rendered after all."""

    def __init__(self, corpus: Corpus, files, title: str, code: str):
        self._args = (corpus, files, title, code)
        self._pages: dict[str, Page] | None = None

    def _all(self) -> dict[str, Page]:
        if self._pages is None:
            corpus, files, title, code = self._args
            self._pages = {p.path: p for p in gather(corpus, files, title, RecordFacts(code)).pages}
        return self._pages

    def variables(self, path: str) -> dict[str, Any]:
        return self._all()[path].variables()

    def list_pages(self) -> list[Page]:
        return [p for p in self._all().values() if p.template in _LIST_TEMPLATES]


def _columns(shape: Any) -> tuple[list[str], list[str], list[str]] | None:
    """The record hashes, URLs and source files of a well-formed shape, else None."""
    if not (isinstance(shape, dict) and isinstance(shape.get("title"), str) and isinstance(shape.get("outcomes"), str)
            and isinstance(shape.get("amended"), dict) and isinstance(shape.get("keywords"), dict)
            and all(isinstance(v, list) and len(v) == 2 for v in shape["keywords"].values())
            and all(isinstance(shape.get(k), str) for k in ("fps", "urls", "files"))):
        return None
    fps, urls, files = (shape[k].split(COLUMN_SEP)[1:] for k in ("fps", "urls", "files"))
    return (fps, urls, files) if len(fps) == len(urls) == len(files) else None
