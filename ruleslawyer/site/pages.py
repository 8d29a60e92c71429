"""The pages that list records: kinds, factions, keywords, errata, home; and the page model.

`build.get_context` gathers the record pages and calls these for the lists; each returns
`Page`s whose `key` holds exactly what the page shows (the writer renders a page again only
when its key changed).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..library.corpus import Corpus
from ..library.reconcile import identity
from ..records import Datasheet, Erratum, Faq, Record, Stratagem, record_name
from .faction import faction_sections
from .links import Link, Linker, hover_text
from .search_index import SNIPPET_CHARS, fold
from .slugs import SlugAllocator

# Folder of each kind's pages; errata entries are listed on errata.html, not given pages.
KIND_DIRS = {
    "datasheet": "datasheet", "stratagem": "stratagem", "enhancement": "enhancement",
    "detachment_rule": "detachment-rule", "rule": "rule", "table": "table", "note": "note", "faq": "faq",
}
KIND_ORDER = tuple(KIND_DIRS)


@dataclass
class Page:
    """One output page: where it goes, which template, its variables, what it depends on.

    `vars` may be a function making them, called only when the page is rendered.
    """

    path: str
    template: str
    vars: dict[str, Any] | Callable[[], dict[str, Any]]
    key: Any  # a value whose repr changes whenever the page's content would

    def variables(self) -> dict[str, Any]:
        """The template variables (made now when `vars` is a function)."""
        return self.vars() if callable(self.vars) else self.vars


@dataclass
class SiteContext:
    pages: list[Page]
    assets: dict[str, bytes]  # path -> content (static files, search index)
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class Entry:
    """A record with a page: the record, its original (when amended), its URL and links."""

    record: Record
    url: str
    original: Record | None = None


# ---------------------------------------------------------------- lists
def keyword_pages(records: Iterable[Record]) -> dict[str, tuple[str, list[Datasheet]]]:
    units: dict[str, list[Datasheet]] = defaultdict(list)
    for r in records:
        if isinstance(r, Datasheet):
            for kw in {k.upper() for k in (*r.keywords, *r.faction_keywords)}:
                units[kw].append(r)
    slugs = SlugAllocator().allocate((kw, kw, [], kw) for kw in units)
    return {kw: (f"keyword/{slugs[kw]}.html", units[kw]) for kw in sorted(units)}


def _item(e: Entry, prefix: str, *, said: tuple[str, ...] = (),
          also: tuple[Entry, ...] = ()) -> dict[str, Any]:
    """A list entry; `said` names what the list's heading already tells (faction, edition);
    `also` are the other editions of the record, linked from its row."""
    r = e.record
    bits = [b for b in (getattr(r, "group", None), None if "faction" in said else getattr(r, "faction", None)) if b]
    if r.edition and "edition" not in said:
        bits.append(f"{r.edition}th ed.")
    row = {"name": record_name(r), "url": prefix + e.url, "meta": ", ".join(bits),
           "amended": _amended_label(r), "kind": r.kind}
    if also:
        row["also"] = tuple((f"{o.record.edition}th ed.", prefix + o.url) for o in also)
    return row


def edition_groups(entries: Iterable[Entry]) -> list[list[Entry]]:
    """The entries of each record printed in more than one edition, newest edition first.

    Editions are told apart by `reconcile.identity` without its edition: same kind, name,
    faction and group. A record with no edition is in no group.
    """
    groups: dict[tuple, list[Entry]] = defaultdict(list)
    for e in entries:
        key = identity(e.record)
        if key is not None and e.record.edition:
            groups[key[:3] + key[4:]].append(e)
    return [sorted(g, key=lambda e: -e.record.edition) for g in groups.values()
            if len({e.record.edition for e in g}) > 1]


def edition_links(entries: Iterable[Entry], prefix: str = "../") -> dict[int, tuple[tuple[str, str], ...]]:
    """For each entry (by id) of a record printed in several editions: (label, URL) of the others,
    newest first, for its page to say they exist."""
    out = {}
    for group in edition_groups(entries):
        for e in group:
            out[id(e)] = tuple((f"{o.record.edition}th edition", prefix + o.url) for o in group
                               if o.record.edition != e.record.edition)
    return out


def other_editions(entries: Iterable[Entry]) -> tuple[set[int], dict[int, tuple[Entry, ...]]]:
    """Records printed in several editions: (ids of the entries of an older edition, which the
    lists leave out; for each newest entry by id, its other editions' entries, newest first).
    A record with no edition never hides nor is hidden."""
    older: set[int] = set()
    also: dict[int, tuple[Entry, ...]] = {}
    for group in edition_groups(entries):
        newest = group[0].record.edition
        rest = tuple(sorted((e for e in group if e.record.edition != newest), key=lambda e: -e.record.edition))
        older.update(id(e) for e in rest)
        for e in group:
            if e.record.edition == newest:
                also[id(e)] = rest
    return older, also


def _amended_label(r: Record) -> str:
    """'' for a record as printed, 'added' for one an erratum brought in, else 'amended'."""
    changes = getattr(r, "changes", ())
    if not changes:
        return ""
    return "added" if all(c.operation == "add" for c in changes) else "amended"


def faction_urls(records: Iterable[Record]) -> dict[str, str]:
    factions = sorted({f for r in records if (f := getattr(r, "faction", None))})
    slugs = SlugAllocator().allocate((f, f, [], f) for f in factions)
    return {f: f"faction/{slugs[f]}.html" for f in factions}


def list_pages(entries: list[Entry], keywords, linker: Linker, common, faction_urls,
               points: dict[tuple, Any] | None = None) -> list[Page]:
    """The kind lists, the faction pages (`faction.faction_sections`; `points`: current points by
    record identity) and the keyword pages."""
    pages = []
    made: dict[tuple, dict[str, Any]] = {}

    # A name printed in several editions is listed at its newest, its row linking the others
    # (the faction pages, sectioned by edition, still list every edition; so does the rules list,
    # which follows each document's sections).
    older, also = other_editions(entries)

    def item(e: Entry, said: tuple[str, ...]) -> dict[str, Any]:
        """`_item`, made once per record and heading (the same record is listed on up to ~6 pages)."""
        key = (id(e), "faction" in said, "edition" in said)
        if key not in made:
            made[key] = _item(e, "../", said=said, also=also.get(id(e), ()))
        return made[key]

    shown: dict[int, str] = {}  # id(row) -> repr(row): a row is on up to ~6 pages, repr it once

    def rows_key(rows: list[dict[str, Any]]) -> str:
        """What a run of list rows shows, for a page's key (one string: cheap to fingerprint)."""
        out = []
        for row in rows:
            text = shown.get(id(row))
            if text is None:
                text = shown[id(row)] = repr(row)
            out.append(text)
        return "\x1e".join(out)

    by_kind: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        by_kind[e.record.kind].append(e)
    for kind in KIND_ORDER:
        groups: dict[str, list] = defaultdict(list)
        order: dict[str, tuple] = {}
        members = by_kind.get(kind, [])
        if kind != "rule":  # rules keep document order, under their section headings
            members = sorted((e for e in members if id(e) not in older),
                             key=lambda e: (fold(record_name(e.record)), e.url))
        for n, e in enumerate(members):
            r = e.record
            said: tuple[str, ...] = ()
            if kind == "rule":
                head = " \u203a ".join(filter(None, [f"{r.edition}th edition" if r.edition else "Any edition",
                                                      *r.section]))
                sort_key = (-(r.edition or 0), n)
                said = ("edition",)
            elif kind in ("stratagem", "enhancement", "detachment_rule"):
                head = " \u203a ".join(filter(None, [r.faction or "Universal", getattr(r, "group", None)]))
                sort_key = (head,)
                said = ("faction",)
            elif kind in ("note", "faq"):
                head = " ".join(filter(None, [getattr(r, "document", None), getattr(r, "version", None)])) or "Other"
                sort_key = (head,)
            else:
                head = getattr(r, "faction", None) or (f"{r.edition}th edition" if r.edition else "Other")
                sort_key = (head,)
            order.setdefault(head, sort_key)
            groups[head].append(item(e, said))
        grouped = sorted(groups.items(), key=lambda kv: order[kv[0]])
        hidden = kind != "rule" and any(id(e) in older for e in by_kind.get(kind, ()))
        pages.append(Page(f"{KIND_DIRS[kind]}/index.html", "list.html",
                          dict(common, root="../", page_title=_plural(kind), kind=kind, groups=grouped,
                               newest_only=hidden),
                          (kind, hidden, tuple((head, rows_key(rows)) for head, rows in grouped))))

    # factions
    by_faction: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        f = getattr(e.record, "faction", None)
        if f:
            by_faction[f].append(e)
    faction_list = []
    for faction in sorted(by_faction):
        items = sorted(by_faction[faction], key=lambda e: (fold(record_name(e.record)), e.url))
        sections = faction_sections(items, points or {}, lambda e: item(e, ("faction", "edition")), KIND_ORDER)
        url = faction_urls[faction]
        faction_list.append({"name": faction, "url": url, "count": len(items)})
        pages.append(Page(url, "faction.html", dict(common, root="../", page_title=faction, faction=faction,
                                                    editions=sections), (faction, repr(sections))))
    pages.append(Page("faction/index.html", "factions.html",
                      dict(common, root="../", page_title="Factions", factions=faction_list), tuple(map(repr, faction_list))))

    # keywords
    kw_list = []
    by_id = {id(e.record): e for e in entries}
    for kw, (url, units) in keywords.items():
        rows = sorted((item(by_id[id(u)], ("group",)) for u in units if id(by_id[id(u)]) not in older),
                      key=lambda i: (fold(i["name"]), i["url"]))
        rule = linker.rule(kw, None, None)
        rule_link = Link("../" + rule.url, rule.title) if rule else None
        kw_list.append({"name": kw, "url": url, "count": len(rows)})
        pages.append(Page(url, "keyword.html", dict(common, root="../", page_title=kw, keyword=kw, units=rows,
                                                    rule=rule_link), (kw, rows_key(rows), rule_link)))
    pages.append(Page("keyword/index.html", "keywords.html",
                      dict(common, root="../", page_title="Keywords", keywords=kw_list), tuple(map(repr, kw_list))))
    return pages


def _plural(kind: str) -> str:
    from ..render.templating import kind_plural

    return kind_plural(kind)


# ---------------------------------------------------------------- errata and home
# Outcomes of the errata page, in order; what each means is said once, above the list.
OUTCOMES = (
    ("applied", "Applied", "changed or added the record it names."),
    ("superseded", "Superseded", "a newer version of the same document has its own entry for the same place, "
                                 "and only the newest applies."),
    ("newer-print", "Already in a newer print", "the record is printed in a document dated after the erratum, "
                                                "so the print already holds the change."),
    ("no-target", "Target not found", "none of your documents prints the record this entry changes."),
    ("other", "Not applied", "the entry could not be applied as written; the reason is given with it."),
)


def outcome_group(applied: bool, reason: str | None) -> str:
    """Which of OUTCOMES an erratum's outcome belongs to (from the reason `amend.apply` gives)."""
    text = (reason or "").lower()
    if applied:
        return "applied"
    if text.startswith("superseded"):
        return "superseded"
    if "is newer than" in text:
        return "newer-print"
    if "not in the corpus" in text or "not found" in text:
        return "no-target"
    return "other"


def errata_page(outcomes, entries: list[Entry], common) -> Page:
    """errata.html: every erratum grouped by document (newest version first), then by outcome."""
    by_change: dict[tuple, Entry] = {}
    for e in entries:
        for c in getattr(e.record, "changes", ()):
            by_change.setdefault((c.document, c.version, c.page, c.operation, c.new_text), e)
    # Records by folded name, for applied errata whose change no record carries: made only when
    # one needs it (folding every name of a large corpus is most of this page's cost).
    by_name: dict[str, list[Entry]] | None = None
    rows = []
    for n, o in enumerate(outcomes, 1):
        err: Erratum = o.erratum
        target = None
        if o.applied:
            target = by_change.get((err.document, err.version, err.page, err.operation, err.text))
            if target is None and o.target_name:
                if by_name is None:
                    by_name = _by_folded_name(entries, {fold(o.target_name) for o in outcomes
                                                        if o.applied and o.target_name})
                same = [e for e in by_name.get(fold(o.target_name), ())
                        if err.edition is None or e.record.edition in (None, err.edition)]
                target = same[0] if same else None
        rows.append({"anchor": f"e{n}", "erratum": err, "applied": o.applied, "reason": o.reason,
                     "target_name": o.target_name, "url": target.url if target else None,
                     "group": outcome_group(o.applied, o.reason)})
    applied = sum(1 for r in rows if r["applied"])
    documents = _errata_documents(rows)
    counts = {key: sum(1 for r in rows if r["group"] == key) for key, _, _ in OUTCOMES}
    outcomes_shown = [(key, label, meaning, counts[key]) for key, label, meaning in OUTCOMES if counts[key]]
    return Page("errata.html", "errata.html",
                dict(common, root="", page_title="Errata", rows=rows, applied=applied, documents=documents,
                     outcomes=outcomes_shown),
                (tuple((repr(r["erratum"]), r["applied"], r["reason"], r["target_name"], r["url"]) for r in rows),
                 tuple(OUTCOMES)))


def _errata_documents(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows by document (name, then version, newest first), each by outcome in OUTCOMES order."""
    docs: dict[tuple, list] = defaultdict(list)
    for r in rows:
        e = r["erratum"]
        docs[(e.document or "Document not named", e.version or "")].append(r)
    order = {key: i for i, (key, _, _) in enumerate(OUTCOMES)}
    labels = {key: label for key, label, _ in OUTCOMES}
    out = []
    names = sorted({d for d, _ in docs}, key=fold)
    for name in names:
        for version in sorted((v for d, v in docs if d == name), key=_version_order, reverse=True):
            members = docs[(name, version)]
            groups: dict[str, list] = defaultdict(list)
            for r in members:
                groups[r["group"]].append(r)
            out.append({"name": name, "version": version, "count": len(members),
                        "applied": sum(1 for r in members if r["applied"]),
                        "groups": [(k, labels[k], groups[k]) for k in sorted(groups, key=order.get)]})
    return out


def _version_order(version: str) -> tuple:
    """"1.10" after "1.9"; parts that are not numbers compare as text, after numbers."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in version.lstrip("vV").split("."))


def _by_folded_name(entries: list[Entry], wanted: set[str]) -> dict[str, list[Entry]]:
    by_name: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        key = fold(record_name(e.record))
        if key in wanted:
            by_name[key].append(e)
    return by_name


def home_page(entries: list[Entry], corpus: Corpus, files, common, faction_urls) -> Page:
    counts = defaultdict(int)
    factions = defaultdict(int)
    for e in entries:
        counts[e.record.kind] += 1
        f = getattr(e.record, "faction", None)
        if f:
            factions[f] += 1
    errata = sum(1 for r in corpus.records if r.kind == "errata")
    applied = sum(1 for o in corpus.outcomes if o.applied)
    versions: dict[str, str] = {}
    for r in corpus.originals:
        v = getattr(r, "version", None)
        if v and r.source.file not in versions:
            versions[r.source.file] = f"{getattr(r, 'document', None) or ''} {v}".strip()
    docs = [{"name": f.name, "title": f.title, "edition": f.edition, "format": f.format,
             "records": f.record_count, "version": versions.get(f.name)} for f in files]
    kinds = [{"kind": k, "count": counts.get(k, 0), "url": f"{KIND_DIRS[k]}/index.html"} for k in KIND_ORDER]
    flist = [{"name": f, "count": factions[f], "url": faction_urls[f]} for f in sorted(factions)]
    vars_ = dict(common, root="", page_title=common["site_title"], docs=docs, kinds=kinds, factions=flist,
                 errata=errata, total=len(entries), errata_applied=applied)
    return Page("index.html", "home.html", vars_, (repr(docs), repr(kinds), repr(flist), errata, applied))


def snippet(r: Record) -> str:
    """The line under the record's search result, cut at a word: the search also reads it as the
    record's lead (a datasheet's keywords, a stratagem's timing and effect, a rule's opening)."""
    if isinstance(r, Datasheet):
        text = " ".join(r.keywords)
    elif isinstance(r, Stratagem):
        text = " ".join(filter(None, [r.when, r.effect]))
    elif isinstance(r, Faq):
        text = r.answer
    else:
        text = getattr(r, "text", "")
    return hover_text(text, SNIPPET_CHARS - 1)  # with its "…", within the index's cap


def search_text(r: Record) -> str:
    if isinstance(r, Datasheet):
        return " ".join([*r.keywords, *r.faction_keywords, *(a.name for a in r.abilities),
                         *(w.name for w in r.weapons)])
    if isinstance(r, Stratagem):
        return " ".join(filter(None, [r.group, r.category, r.target, r.effect]))
    if isinstance(r, Faq):
        return f"{r.question} {r.answer}"
    return " ".join(filter(None, [getattr(r, "group", None), " ".join(getattr(r, "section", ()) or ()),
                                  getattr(r, "text", "")]))
