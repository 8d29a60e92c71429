"""The Whoosh-free search path (`index/rawread.py`, `index/fastsearch.py`) gives exactly what
the Whoosh path gives: the same hits in the same order with equal scores (==, not close),
the same corrections and suggestions, on the seed corpus, on indexes updated in place
(several segments, deleted documents, segments merged by Whoosh's own writer) and on the
real Wahapedia export. The reader itself is compared with Whoosh's reader term by term.
"""
from __future__ import annotations

import json
import random
import re
import shutil
import sys
from pathlib import Path

import pytest

from ruleslawyer.index import engine, fastsearch, querytree
from ruleslawyer.index.rawread import LENGTH_OF_BYTE, RawIndex
from ruleslawyer.index.search import ensure_index, search_index
from ruleslawyer.records import Erratum, Rule, Source
from ruleslawyer.store import Store

from .conftest import require_shared
from .relevance import RELEVANCE_SET, RELEVANCE_SET_11
from .test_search import RECORDS
from .test_search_evaluate import SHAPES

EXPORT = "realdata/wahadumper__wahadumper"
OPTIONS = ({}, {"kind": "stratagem"}, {"kind": "datasheet", "edition": "10"}, {"faction": "necrons"})
EXTRA_QUERIES = [
    "reanimation protocols", "fight first", "kind:stratagem overwatch", "faction:necrons fight", "FNP",
    "keyword:fly kind:datasheet", "ability:deep", "charge AND fight", "charge OR fight -overwatch",
    "NOT overwatch", "24.12", "rerol hit rols", "cp:1 phase:shooting", "(fight OR shoot) AND charge",
    "lone operative", "weapon:bolter", "keywords:infantry -character", "section:abilities", "name:overwatch",
    "text:wound", "zzzz qqqq", "invulnerable save 4+", 'text:"mortal wounds"', "kind:rule",
]


def _put(store: Store, path: str, records) -> None:
    store.replace_file(path=path, name=path, sha256=json.dumps([repr(r) for r in records])[:64] + path,
                       format="text", size=0, records=records)


def _compare(folder: Path, queries, options=OPTIONS) -> tuple[int, int]:
    """Run every query both ways; returns (queries the fast path ran itself, all queries)."""
    fast = fastsearch.FastIndex(folder)
    slow = engine.Index(folder)
    ran = total = 0
    try:
        for text in queries:
            for opts in options:
                try:
                    theirs = search_index(slow, text, limit=10, **opts)
                except Exception as exc:  # a malformed query: the same error both ways
                    with pytest.raises(type(exc)):
                        search_index(fast, text, limit=10, **opts)
                    continue
                ours = search_index(fast, text, limit=10, **opts)
                assert [(h.name, h.score, h.data, h.snippet) for h in ours.hits] == \
                       [(h.name, h.score, h.data, h.snippet) for h in theirs.hits], (text, opts)
                assert (ours.corrected, ours.suggestions) == (theirs.corrected, theirs.suggestions), (text, opts)
                parsed_query = ours.corrected or text
                from ruleslawyer.index.query import parse_query
                from ruleslawyer.index.search import option_filters

                parsed = parse_query(parsed_query)
                filters = parsed.filters + option_filters(**opts)
                total += 1
                if parsed.has_terms and fast.top(parsed.node, filters, 10) is not None:
                    ran += 1
    finally:
        fast.close()
        slow.close()
    return ran, total


def _compare_reader(folder: Path) -> int:
    """Every segment's statistics, postings, lengths and stored fields as Whoosh reads them."""
    from whoosh.util.numeric import length_to_byte

    raw = RawIndex(folder)
    ix = engine.Index(folder)
    reader = ix._reader
    subs = [reader] if reader.is_atomic() else [s.reader() for s, _ in ix._searcher.subsearchers]
    terms = 0
    try:
        assert raw.doc_count_all == reader.doc_count_all()
        assert len(raw.segments) == len(subs)
        schema = reader.schema
        assert raw.scorable == {name: bool(schema[name].scorable) for name in schema.names()}
        for seg, sub in zip(raw.segments, subs):
            assert seg.doc_count_all == sub.doc_count_all()
            assert seg.deleted == frozenset(d for d in range(sub.doc_count_all()) if sub.is_deleted(d))
            for field in raw.scorable:
                assert seg.field_lengths.get(field, 0) == sub.field_length(field), field
                assert seg.length_bytes(field) == bytes(length_to_byte(sub.doc_field_length(d, field, 0) or 0)
                                                        for d in range(sub.doc_count_all())), field
            for field, btext in sub.all_terms():
                text = btext.decode("utf-8")
                info, theirs = seg.term_info(field, text), sub.term_info(field, btext)
                assert (info.doc_frequency, info.max_weight, info.min_length, info.max_length) == \
                       (theirs.doc_frequency(), theirs.max_weight(), theirs.min_length(), theirs.max_length())
                assert raw.doc_frequency(field, text) == reader.doc_frequency(field, btext)
                matcher = sub.postings(field, btext)
                theirs_postings = []
                while matcher.is_active():
                    theirs_postings.append((matcher.id(), matcher.weight()))
                    matcher.next()
                ours_postings = [(d, w) for d, w in zip(*seg.postings(info)) if d not in seg.deleted]
                assert ours_postings == theirs_postings, (field, text)
                assert len(seg.postings(info)[0]) == info.doc_frequency  # deleted documents included
                terms += 1
            assert seg.term_info("text", "no-such-term-anywhere") is None
            for docnum in range(seg.doc_count_all):
                assert seg.stored_fields(docnum) == sub.stored_fields(docnum)
        for field in raw.scorable:
            assert raw.field_length(field) == reader.field_length(field)
    finally:
        raw.close()
        ix.close()
    return terms


def _queries_of(records: list[dict], count: int, seed: int = 21) -> list[str]:
    """Queries made from the records themselves: names, words of texts, fielded words."""
    rng = random.Random(seed)
    out = []
    for data in rng.sample(records, min(count, len(records))):
        words = re.findall(r"[A-Za-z]{4,}", data.get("text") or data.get("name") or "")
        out.append(data["name"])
        if len(words) >= 2:
            out.append(" ".join(rng.sample(words, 2)))
            out.append(f"{words[0]} -{words[-1]}")
            out.append(f"kind:{data['kind']} {words[0]}")
    return out


def test_length_table_is_whoosh_own():
    from whoosh.util.numeric import byte_to_length

    assert list(LENGTH_OF_BYTE) == [byte_to_length(n) for n in range(256)]


def test_normalize_is_whoosh_own():
    """The tuple trees normalise to what Whoosh's normalize() makes of the same queries."""
    from ruleslawyer.index.query import parse_query

    def as_tuple(q):
        from whoosh import query as wq

        if q is wq.NullQuery:
            return querytree.NULL
        kind = type(q)
        if kind is wq.Term:
            return ("term", q.fieldname, q.text, q.boost)
        if kind in (wq.Or, wq.And):
            return ("or" if kind is wq.Or else "and", q.boost, tuple(as_tuple(s) for s in q.subqueries))
        if kind is wq.AndMaybe:
            return ("andmaybe", as_tuple(q.a), as_tuple(q.b))
        if kind is wq.Not:
            return ("not", as_tuple(q.query), q.boost)
        raise AssertionError(kind)

    checked = 0
    for text in [*SHAPES, *EXTRA_QUERIES, *(q for q, *_ in RELEVANCE_SET + RELEVANCE_SET_11)]:
        try:
            parsed = parse_query(text)
        except Exception:  # malformed on purpose: no query to compare
            continue
        if not parsed.has_terms:
            continue
        for opts in OPTIONS:
            from ruleslawyer.index.search import option_filters

            filters = parsed.filters + option_filters(**opts)
            try:
                ours = querytree.query_tree(parsed.node, filters)
            except querytree.Unsupported:
                continue
            whoosh_query = engine.Index.whoosh_query(None, parsed.node, filters)
            assert ours == as_tuple(whoosh_query), text
            checked += 1
    assert checked > 200


# ---------------------------------------------------------------- seed corpus, updates
@pytest.fixture(scope="module")
def seed_index(tmp_path_factory, example_store) -> Path:
    path = tmp_path_factory.mktemp("fast") / "seed.sqlite"
    shutil.copyfile(example_store, path)
    with Store(path) as store:
        return ensure_index(store)


def test_reader_reads_what_whoosh_reads_on_the_seed_corpus(seed_index):
    assert _compare_reader(seed_index) > 1000


def test_same_hits_order_and_scores_on_the_seed_corpus(seed_index):
    queries = [*SHAPES, *EXTRA_QUERIES, *(q for q, *_ in RELEVANCE_SET + RELEVANCE_SET_11)]
    ran, total = _compare(seed_index, queries)
    assert ran > total * 0.7  # most queries run without Whoosh (phrases over names do not)


@pytest.mark.parametrize("skip_ratio, prune", [(1, True), (1, False), (10**9, False)])
def test_same_results_on_every_evaluator_branch(seed_index, monkeypatch, skip_ratio, prune):
    """Skipping to few documents (scored by Whoosh's matcher formula) and the unpruned Or
    give the same results both ways too."""
    from ruleslawyer.index import evaluate

    monkeypatch.setattr(evaluate, "SKIP_RATIO", skip_ratio)
    monkeypatch.setattr(evaluate, "PRUNE", prune)
    _compare(seed_index, [*SHAPES, *EXTRA_QUERIES, *(q for q, *_ in RELEVANCE_SET[:30])])


def test_same_results_after_updates_with_deletions_and_merges(tmp_path, monkeypatch):
    fix = Erratum(document="Core Book", version="1.1", page="3", target="Deep Strike", source=Source(file="e.txt"),
                  edition=10, operation="replace", text="Set the unit up anywhere more than 8 inches away.")
    extra = [Rule(name=f"Made-up Rule {n}", source=Source(file=f"f{n}.txt"), edition=10,
                  text=f"Roll {n} dice for each unit that can shoot; on a {n}+ add one attack.") for n in range(12)]
    queries = [*SHAPES, *EXTRA_QUERIES, "roll dice attack", "made-up rule 7", "deep strike 8 inches"]
    with Store(tmp_path / "inc.sqlite") as store:
        _put(store, "made-up.txt", RECORDS)
        ensure_index(store)
        _put(store, "e.txt", [fix])  # the amended Deep Strike replaces its document: a deletion
        folder = ensure_index(store)
        raw = RawIndex(folder)
        assert len(raw.segments) == 2 and any(seg.deleted for seg in raw.segments)
        raw.close()
        _compare_reader(folder)
        ran, total = _compare(folder, queries)
        assert ran > total / 2  # the made-up records' synonyms and phrases go to Whoosh
        for n, record in enumerate(extra):
            _put(store, f"f{n}.txt", [record])
            if n % 3 == 0:
                store.remove_file(f"f{n}.txt")
            folder = ensure_index(store)
            if n % 4 == 3:
                _compare(folder, queries[-8:])
        _compare_reader(folder)
        _compare(folder, queries)
        from ruleslawyer.index import evaluate

        monkeypatch.setattr(evaluate, "SKIP_RATIO", 1)  # scoring a few documents, deleted ones among them
        _compare(folder, queries)


def test_search_runs_without_importing_whoosh_query_modules(seed_index):
    """A plain search in a fresh process: Whoosh's index, query and searching modules stay
    unimported (only its Porter stemmer is used)."""
    import subprocess

    script = ("import sys; from ruleslawyer.index import fastsearch; from ruleslawyer.index.query import parse_query\n"
              f"ix = fastsearch.FastIndex({str(seed_index)!r})\n"
              "from ruleslawyer.index.search import search_index\n"
              "print(len(search_index(ix, 'overwatch charge kind:stratagem').hits))\n"
              "print(sorted(m for m in sys.modules if m.startswith('whoosh') and 'lang' not in m))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split("\n")
    assert int(out[0]) > 0
    assert out[1] == "['whoosh']"


# ---------------------------------------------------------------- the real export
@pytest.fixture(scope="module")
def real_index(tmp_path_factory) -> Path:
    shared = require_shared()
    from ruleslawyer.ingest.pipeline import ingest_paths

    with Store(tmp_path_factory.mktemp("real") / "real.sqlite") as store:
        ingest_paths(store, [shared / EXPORT])
        return ensure_index(store)


def test_reader_reads_what_whoosh_reads_on_the_real_export(real_index):
    assert _compare_reader(real_index) > 50000


def test_same_hits_order_and_scores_on_the_real_export(real_index):
    from ruleslawyer.index.rawread import RawIndex as Raw

    with Raw(real_index) as raw:
        records = []
        for base, seg in zip(raw.offsets, raw.segments):
            records += [json.loads(seg.stored_fields(d)["data"]) for d in range(0, seg.doc_count_all, 7)]
    queries = [*SHAPES, *EXTRA_QUERIES, *(q for q, *_ in RELEVANCE_SET + RELEVANCE_SET_11), *_queries_of(records, 60)]
    ran, total = _compare(real_index, queries, options=OPTIONS[:3])
    assert ran > total * 0.7
