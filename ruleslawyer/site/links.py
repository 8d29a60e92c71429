"""Cross-links: from a name printed on a record to the page that explains it.

A weapon keyword (`[blast]`), an ability named on a datasheet (Deep Strike, Leader, Reanimation
Protocols) or a keyword in a stratagem's TARGET (INFANTRY, CHARACTER) links to the rule of that
name in the same edition, or to the list of units with that keyword. Links are plain `<a href>`
with the rule text as `title`, so hovering shows it and following works without JavaScript.

Links are resolved while gathering (not while rendering), per record, into a `PageLinks`; its
`resolved` tuple goes into the page fingerprint, so a page is re-rendered when a rule it links
to changes its text, and only then.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping, NamedTuple

from ..library.rule_refs import RuleRefs, query_keys
from ..records import Datasheet, Record, Stratagem
from .search_index import fold

TITLE_CHARS = 280
# Kinds a name on a card may refer to, best first.
TARGET_KINDS = ("rule", "detachment_rule", "enhancement")
_CAPS_RUN = re.compile(r"(?<![\w\-])[A-Z][A-Z0-9\-'\u2019]*(?:\s+[A-Z][A-Z0-9\-'\u2019]*)*(?![\w\-])")


@dataclass(frozen=True, repr=False)
class Link:
    """Where a link goes (relative to the page it is on) and its hover text."""

    href: str
    title: str = ""

    def __repr__(self) -> str:  # goes into page fingerprints: the generated one is several times slower
        return f"Link({self.href!r}, {self.title!r})"


def hover_text(text: str | None, limit: int = TITLE_CHARS) -> str:
    """The first `limit` characters of `text` on one line, cut at a word, for a `title`."""
    flat = " ".join((text or "").split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return cut + "\u2026"


class Target(NamedTuple):  # a tuple: one per rule, made every build (a frozen dataclass is slower)
    url: str  # root-relative
    title: str
    edition: int | None
    faction: str | None
    rank: int


class Linker:
    """Resolves names to pages for a whole corpus.

    `urls` maps id(record) -> root-relative page URL for every record with a page; `keywords`
    maps a datasheet keyword (as printed, upper case) -> root-relative keyword-page URL and
    the number of units carrying it.
    """

    def __init__(self, records: Iterable[Record], urls: Mapping[int, str],
                 keywords: Mapping[str, tuple[str, int]]):
        self.keywords = dict(keywords)
        refs: RuleRefs[Target] = RuleRefs()
        self._memo: dict[tuple, Target | None] = {}
        self._links: dict[tuple, Link | None] = {}
        self._first_words: set[str] | None = None
        for record in records:
            if record.kind not in TARGET_KINDS or id(record) not in urls:
                continue
            target = Target(urls[id(record)], hover_text(getattr(record, "text", "")),
                            record.edition, getattr(record, "faction", None),
                            TARGET_KINDS.index(record.kind))
            refs.add(record.name, target, edition=record.edition, faction=target.faction, rank=target.rank)
        # the resolver shared with the cards (library.rule_refs): key -> entries
        self.by_name = refs.by_key

    def rule(self, name: str, edition: int | None, faction: str | None) -> Target | None:
        """The rule called `name` for a record of this edition and faction, or None.

        Only the same edition (or a record/rule without one) counts: a 5th-edition Blast is
        not the rule a 10th-edition `[blast]` means.
        """
        memo_key = (name, edition, faction)
        if memo_key in self._memo:
            return self._memo[memo_key]
        found = None
        for key in query_keys(name):
            found = RuleRefs.choose(self.by_name.get(key, ()), edition, faction)
            if found is not None:
                break
        self._memo[memo_key] = found
        return found

    def mentions(self, text: str, edition: int | None, prefix: str, limit: int = 8) -> list[tuple[str, Link]]:
        """Rules named in `text` (runs of 1-4 words matching a rule name), for FAQ and notes pages.

        One-word names count only from 5 letters up, so "Move" or "Fly" in a sentence do not
        turn every answer into a list of links.
        """
        words = fold(text).split()
        if self._first_words is None:
            self._first_words = {key.split(" ", 1)[0] for key in self.by_name}
        # Only a run starting with the first word of some name can be a name (same result, fewer joins).
        starts = [i for i, w in enumerate(words) if w in self._first_words]
        found: dict[str, tuple[str, Link]] = {}
        for n in (4, 3, 2, 1):
            for i in starts:
                if i > len(words) - n:
                    break
                key = " ".join(words[i:i + n])
                if key in found or (n == 1 and len(key) < 5) or key not in self.by_name:
                    continue
                t = self.rule(key, edition, None)
                if t:
                    found[key] = (key, Link(prefix + t.url, t.title))
        ordered = sorted(found.values(), key=lambda kv: (-len(kv[0].split()), kv[0]))
        return [(name, link) for name, link in ordered[:limit]]

    def _link(self, keyword: bool, name: str, edition, faction, prefix: str) -> Link | None:
        """The Link for a rule name or a keyword, memoised (most pages repeat the same names)."""
        memo_key = (keyword, name, edition, faction, prefix)
        if memo_key in self._links:
            return self._links[memo_key]
        t = self.rule(name, edition, faction)
        link = Link(prefix + t.url, t.title) if t else None
        if keyword:
            hit = self.keywords.get(name.upper())
            if hit:
                url, count = hit
                title = t.title if t else f"{count} unit{'s' if count != 1 else ''} with the {name.upper()} keyword"
                link = Link(prefix + url, title)
        self._links[memo_key] = link
        return link

    def resolve(self, record: Record, requests: Iterable[tuple[str, str]], prefix: str) -> "PageLinks":
        """The links for `requests` (from `link_requests(record)`) on the page of `record`."""
        resolved = []
        edition, faction = record.edition, getattr(record, "faction", None)
        for kind, name in requests:  # each (kind, name) once
            link = self._link(kind in _KEYWORD_KINDS, name, edition, faction, prefix)
            if link:
                resolved.append((kind, name, link.href, link.title))
        return PageLinks(tuple(sorted(resolved)))


_KEYWORD_KINDS = ("keyword", "term")


def link_requests(record: Record) -> tuple[tuple[str, str], ...]:
    """The (kind, name) pairs the page of `record` may link, in order, each once.

    Depends on the record alone (not on the corpus); `Linker.resolve` turns it into links
    against the current corpus.
    """
    wanted: dict[tuple[str, str], None] = {}
    if isinstance(record, Datasheet):
        for a in record.abilities:
            wanted[("ability", a.name)] = None
        if record.leader:
            wanted[("ability", "Leader")] = None
        for w in record.weapons:
            for kw in w.abilities:
                if len(kw) < 40:
                    wanted[("weapon_keyword", _keyword_name(kw))] = None
        for kw in (*record.keywords, *record.faction_keywords):
            wanted[("keyword", kw)] = None
        texts = [a.text for a in record.abilities]
    elif isinstance(record, Stratagem):
        texts = [record.target, record.when, record.effect]
    else:
        texts = [getattr(record, "text", "")]
    for text in texts:
        for m in _CAPS_RUN.finditer(text or ""):
            phrase = m.group(0)
            for candidate in (phrase, *(phrase.split() if " " in phrase else ())):
                if len(candidate) > 2:
                    wanted[("term", candidate)] = None
    return tuple(wanted)


def _keyword_name(kw: str) -> str:
    """`anti-infantry 4+` -> `anti-infantry`; `sustained hits 1` -> `sustained hits`."""
    return re.sub(r"\s+(?:D?\d+\+?|\d+\"?)$", "", kw.strip()).strip()


class PageLinks:
    """The links of one page, as the partials ask for them (`links.ability(name)` ...).

    Built for every page while gathering but read only for pages that get rendered, so the
    lookup tables (and Link objects) are made on first use; `resolved` holds plain
    (kind, name, href, title) tuples, whose repr (the page fingerprint) is fast.
    """

    __slots__ = ("resolved", "_map", "_terms")

    def __init__(self, resolved: tuple[tuple[str, str, str, str], ...]):
        self.resolved = resolved
        self._map = None
        self._terms = None

    def _lookup(self, kind: str, name: str) -> Link | None:
        if self._map is None:
            self._map = {(k, n): Link(href, title) for k, n, href, title in self.resolved}
        return self._map.get((kind, name))

    @property
    def terms(self) -> dict[str, Link]:
        if self._terms is None:
            self._terms = {n: Link(href, title) for k, n, href, title in self.resolved if k == "term"}
        return self._terms

    def ability(self, name: str) -> Link | None:
        return self._lookup("ability", name)

    def weapon_keyword(self, kw: str) -> Link | None:
        return self._lookup("weapon_keyword", _keyword_name(kw))

    def keyword(self, kw: str) -> Link | None:
        return self._lookup("keyword", kw)
