"""What a newer document changed: rules, stratagems, datasheets, points, errata and FAQ entries,
against the printing (or document version) it supersedes.

Three questions, one answer shape (`RecordChange`):
- `changes_between(store, old, new)`: two stored files (two versions of one document);
- `document_changes(store, name)`: the two newest stored files whose name holds `name`;
- `changes_since(corpus, date)`: every printing published on or after `date` that supersedes
  an older printing of the same record, every record first printed since, and every points
  version published since.
Records are matched by their identity without the edition (kind, name, faction, group), and
compared on what they say (`reconcile.differences`), not on where they were printed. Errata, FAQ
answers and notes are never merged as printings (`reconcile.UNMERGED_KINDS`): an entry of one
version of a document is matched to the next version's entry by what it amends or asks (its
target, place and operation; its question), and compared on its wording only, since its
document, version, page and colour flag always differ between versions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ..errors import NotFoundError
from ..names import fold
from ..records import Record, record_name
from .corpus import Corpus, check_date, entry_key, file_infos
from .reconcile import UNMERGED_KINDS, FileInfo, differences, identity, rank

_KINDS = ("rule", "stratagem", "datasheet", "detachment_rule", "enhancement", "points", "table",
          "errata", "faq", "note")
# What an entry of a document version says about its own printing, not about the rules.
_VERSION_FIELDS = frozenset({"document", "version", "page", "highlight", "faction_heading"})


@dataclass(frozen=True)
class RecordChange:
    """One record added, removed or changed, with the fields that changed and both printings."""

    status: str  # "added", "removed" or "changed"
    kind: str
    name: str
    faction: str | None
    before: Record | None
    after: Record | None
    fields: tuple[str, ...] = ()
    before_file: str | None = None
    after_file: str | None = None
    date: str | None = None  # when the newer printing was published

    @property
    def where(self) -> str:
        """Where and when the newer printing was published: "adeptus-custodes.yaml v1.1, 2026-07-22"."""
        ref = self.after or self.before
        version = getattr(ref, "version", None) or (ref.source.version if ref is not None else None)
        file = ref.source.file if ref is not None else ""
        return ", ".join(p for p in (f"{file} v{version}" if version else file, self.date) if p)

    @property
    def line(self) -> str:
        """One line: "changed stratagem Trail of Destruction (World Eaters): text, cp"."""
        who = f"{self.name} ({self.faction})" if self.faction else self.name
        what = f": {', '.join(self.fields)}" if self.fields else ""
        return f"{self.status:<8} {self.kind:<16} {who}{what}"


def _key(record: Record) -> tuple:
    key = identity(record)
    if key is None:  # an erratum, FAQ answer or note: what it amends or asks
        return entry_key(record)[1:]
    kind, name, faction, _edition, group, _version = key
    return kind, name, faction, group


def _compare(old: Sequence[Record], new: Sequence[Record], old_info: FileInfo | None,
             new_info: FileInfo | None) -> list[RecordChange]:
    before = {_key(r): r for r in old if r.kind in _KINDS}
    after = {_key(r): r for r in new if r.kind in _KINDS}
    out = []
    date = new_info.published if new_info else None
    for key, b in after.items():
        a = before.get(key)
        if a is None:
            out.append(_change("added", None, b, (), old_info, new_info, date))
            continue
        info_a = old_info or FileInfo(a.source.file, a.source.file, "")
        info_b = new_info or FileInfo(b.source.file, b.source.file, "")
        fields = tuple(d.field for d in differences(b, info_b, [(a, info_a)])
                       if identity(b) is not None or d.field not in _VERSION_FIELDS)
        if fields:
            out.append(_change("changed", a, b, fields, old_info, new_info, date))
    for key, a in before.items():
        if key not in after:
            out.append(_change("removed", a, None, (), old_info, new_info, date))
    return sorted(out, key=lambda c: (c.kind, fold(c.name), c.status))


def _change(status, a, b, fields, old_info, new_info, date) -> RecordChange:
    ref = b or a
    return RecordChange(status=status, kind=ref.kind, name=record_name(ref), faction=getattr(ref, "faction", None),
                        before=a, after=b, fields=fields, before_file=old_info.name if old_info else None,
                        after_file=new_info.name if new_info else None, date=date)


def _stored_file(infos: dict[str, FileInfo], name: str) -> FileInfo:
    found = [i for i in infos.values() if name in (i.name, i.path)] or \
            [i for i in infos.values() if fold(name) in fold(i.name)]
    if len(found) != 1:
        from ..errors import AmbiguousNameError

        if not found:
            raise NotFoundError(f"no stored file {name!r}", hint="see `ruleslawyer files`")
        raise AmbiguousNameError(f"{len(found)} stored files match {name!r}", candidates=[],
                                 hint="give the whole name or path: " + ", ".join(i.path for i in found[:6]))
    return found[0]


def changes_between(store, old: str, new: str) -> tuple[FileInfo, FileInfo, list[RecordChange]]:
    """What the stored file `new` changed against the stored file `old` (names or paths)."""
    infos = file_infos(store)
    a, b = _stored_file(infos, old), _stored_file(infos, new)
    olds, news = [], []
    for path, record, _ in store.records_by_file():
        if path == a.path:
            olds.append(record)
        elif path == b.path:
            news.append(record)
    return a, b, _compare(olds, news, a, b)


def document_changes(store, name: str) -> tuple[FileInfo, FileInfo, list[RecordChange]]:
    """What the newest stored version of a document changed against the one before it: the
    files whose name holds `name` ("world eaters"), ordered by date and version."""
    from .points import version_key

    want = fold(name)
    found = [i for i in file_infos(store).values() if want in fold(i.name)]
    if len(found) < 2:
        raise NotFoundError(f"fewer than two stored files named like {name!r}",
                            hint="ingest both versions of the document; see `ruleslawyer files`")
    found.sort(key=lambda i: (i.published or i.date, version_key(i.version)))
    return changes_between(store, found[-2].path, found[-1].path)


def changes_since(corpus: Corpus, since: str, *, kinds: Iterable[str] | None = None) -> list[RecordChange]:
    """Everything published on or after `since` (ISO date) that changed the reference: records
    whose newest printing is that recent and differs from the one it supersedes, records first
    printed since, and points versions since (against the version before)."""
    since = check_date(since)
    wanted = set(kinds) if kinds else set(_KINDS)
    out: list[RecordChange] = []
    printed = {id(p.chosen): p for p in corpus.printings.values()}
    for record in corpus.originals:
        if record.kind not in wanted or record.kind == "points" or record.kind in UNMERGED_KINDS:
            continue
        date = corpus.date_of(record)
        if not date or date < since:
            continue
        info = corpus.file_of(record)
        p = printed.get(id(record))
        older = sorted(((r, i) for r, i in (p.others if p else []) if (i.published or "") < date),
                       key=lambda m: rank(m[1]), reverse=True)
        if not older:
            out.append(_change("added", None, record, (), None, info, date))
            continue
        prev, prev_info = older[0]
        fields = tuple(d.field for d in differences(record, info, [(prev, prev_info)]))
        if fields:
            out.append(_change("changed", prev, record, fields, prev_info, info, date))
    if "points" in wanted:
        out.extend(_points_since(corpus, since))
    out.extend(c for c in _versions_since(corpus, since) if c.kind in wanted)
    return sorted(out, key=lambda c: (c.date or "", c.kind, fold(c.name)))


def _points_since(corpus: Corpus, since: str) -> list[RecordChange]:
    """Each price published since `since` that differs from the source before it of the same
    unit, detachment or enhancement (and edition), whatever the two sources' kinds: a points
    list's version, an export's or a catalogue's costs (the one price resolver, prices.py)."""
    from .prices import price_histories

    out = []
    for history in price_histories(corpus):
        for prev, cur in zip(history, history[1:]):
            if cur.date < since or _base_prices(prev) == _base_prices(cur):
                continue
            if cur.target_kind == "detachment" and prev.detachment_points == cur.detachment_points:
                continue  # its enhancements' costs are compared one by one
            what = f"points {_price_words(prev)} -> {_price_words(cur)}"
            out.append(_change("changed", prev.record, cur.record, (what,), corpus.file_of(prev.record),
                               corpus.file_of(cur.record), cur.date))
    return out


def _price_words(price) -> str:
    """ "55/65" (first-tier points of each size, smallest first), or "3 DP" for a detachment."""
    sizes, dp = _base_prices(price)
    if price.target_kind == "detachment":
        return f"{dp} DP"
    return "/".join("?" if points is None else str(points) for _, points in sizes)


def _base_prices(price) -> tuple:
    """What a price asks: each unit size's first-tier points (sources print tiers differently)."""
    first: dict[str, int | None] = {}
    for cost in price.costs:
        first.setdefault(str(cost.models).strip(), cost.points)
    by_size = sorted(first.items(), key=lambda item: (len(item[0]), item[0]))  # "5" before "10"
    return tuple(by_size), price.detachment_points


def _versions_since(corpus: Corpus, since: str) -> list[RecordChange]:
    """Errata, FAQ answers and notes of each document version published since `since`, against
    the version before it (a first version: every entry added). A version is a file; the file
    before it holds an older version of one of the same documents (a pack's errata and its FAQ
    may carry different document titles, and a version may drop every FAQ answer)."""
    from .points import version_key

    files: dict[str, list[Record]] = {}
    for r in corpus.originals:
        if r.kind in UNMERGED_KINDS:
            files.setdefault(r.source.file, []).append(r)
    documents = {f: {(fold(r.document or f), r.edition) for r in rs} for f, rs in files.items()}
    versions = {f: max(version_key(r.version) for r in rs) for f, rs in files.items()}
    out = []
    for f, records in files.items():
        date = corpus.date_of(records[0])
        if not date or date < since:
            continue
        older = [g for g in files if g != f and documents[g] & documents[f] and versions[g] < versions[f]]
        prev = max(older, key=lambda g: versions[g], default=None)
        prev_records = files[prev] if prev else []
        prev_info = corpus.file_of(prev_records[0]) if prev_records else None
        out.extend(_compare(prev_records, records, prev_info, corpus.file_of(records[0])))
    return out
