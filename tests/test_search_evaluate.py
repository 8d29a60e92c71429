"""The term-at-a-time evaluator gives the hits and scores Whoosh's own searcher gives.

Every query runs twice on the same index: through `evaluate.TermAtATime` (what `search` uses)
and through Whoosh's collector (`whoosh_collector=True`); the documents and scores must agree.
"""
from __future__ import annotations

import math

import pytest

from ruleslawyer.index import engine, evaluate
from ruleslawyer.index.evaluate import best_of
from ruleslawyer.index.query import parse_query
from ruleslawyer.index.search import ensure_index, option_filters
from ruleslawyer.store import Store

from .relevance import RELEVANCE_SET
from .test_search import RECORDS, _fill

# Query shapes beyond plain questions: phrases, fields, boolean operators, negation, synonyms.
SHAPES = [
    '"feel no pain"', '"a unit"', "fnp", "deep strike", "kind:stratagem overwatch", "faction:necrons protocol",
    "cp:1 fight", "phase:shooting", "edition:10 wound", "keyword:fly", 'group:"awakened dynasty" strength',
    "overwatch OR reanimation", "pain AND model", "pain NOT engine", "(deep OR fire) AND unit",
    'name:"deep strike"', "text:wound", "unit", "the unit", "shoot", "models within 6 inches",
    "warrior toughness", "gauss flayer", "NOT overwatch unit",
]


def _compare(index: engine.Index, text: str, limit: int = 10, **options) -> None:
    parsed = parse_query(text)
    if not parsed.has_terms:
        return
    filters = parsed.filters + option_filters(**options)
    ours = index.search(parsed.node, filters, limit=limit)
    theirs = index.search(parsed.node, filters, limit=limit, whoosh_collector=True)
    assert len(ours) == len(theirs), text
    for mine, whoosh in zip(ours, theirs):
        assert math.isclose(mine.score, whoosh.score, rel_tol=1e-6), (text, mine.fields["name"], whoosh.fields["name"])
    # Equal scores may come in either order (the sums are added in another order); the
    # documents must be the same once near-ties are set aside.
    cutoff = theirs[-1].score if len(theirs) == limit else -1
    assert ({h.fields["data"] for h in ours if not math.isclose(h.score, cutoff, rel_tol=1e-6)}
            == {h.fields["data"] for h in theirs if not math.isclose(h.score, cutoff, rel_tol=1e-6)}), text


@pytest.fixture(scope="module")
def made_up_index(tmp_path_factory):
    with Store(tmp_path_factory.mktemp("evaluate") / "store.sqlite") as store:
        _fill(store, RECORDS)
        with engine.Index(ensure_index(store)) as index:
            yield index


@pytest.mark.parametrize("text", SHAPES)
def test_same_hits_and_scores_as_whoosh_on_made_up_records(made_up_index, text):
    assert made_up_index._evaluator.usable
    _compare(made_up_index, text)


@pytest.mark.parametrize("skip_ratio", [0, 10**9])
def test_scoring_a_few_documents_by_skipping_gives_the_same_scores(made_up_index, monkeypatch, skip_ratio):
    """Parts of an And score the documents left either from whole posting lists (ratio 0)
    or by skipping to each (a huge ratio); both must give Whoosh's scores."""
    monkeypatch.setattr(evaluate, "SKIP_RATIO", skip_ratio)
    for text in SHAPES:
        _compare(made_up_index, text)


def test_query_shapes_are_evaluated_here_not_handed_back(made_up_index):
    """Every shape above runs term at a time (None would mean Whoosh ran it after all)."""
    for text in SHAPES:
        parsed = parse_query(text)
        if parsed.has_terms:
            query = made_up_index.whoosh_query(parsed.node, parsed.filters)
            assert made_up_index._evaluator.top(query, 10) is not None, text


def test_same_hits_and_scores_as_whoosh_on_the_seeds(shared, tmp_path):
    from ruleslawyer.ingest.pipeline import ingest_paths

    with Store(tmp_path / "store.sqlite") as store:
        report = ingest_paths(store, [shared / "seeds"])
        assert not [r for r in report.results if r.status == "failed"]
        with engine.Index(ensure_index(store)) as index:
            assert index.doc_count > 300
            for text, *_ in RELEVANCE_SET:
                _compare(index, text, limit=3)
            for text in SHAPES:
                _compare(index, text)
            _compare(index, "reanimation", kind="rule", edition=10)
            evaluate.SKIP_RATIO, saved = 10**9, evaluate.SKIP_RATIO
            try:
                for text in SHAPES:
                    _compare(index, text)
            finally:
                evaluate.SKIP_RATIO = saved


def test_pruning_keeps_the_top_hits_and_skips_documents(shared, tmp_path):
    """MaxScore pruning of plain queries returns the hits and scores of the full evaluation,
    and leaves out documents that cannot reach the top (on most of the relevance set)."""
    from whoosh import query as q

    from ruleslawyer.ingest.pipeline import ingest_paths

    with Store(tmp_path / "store.sqlite") as store:
        ingest_paths(store, [shared / "seeds"])
        with engine.Index(ensure_index(store)) as index:
            pruned_some = 0
            for text, *_ in RELEVANCE_SET:
                parsed = parse_query(text)
                query = index.whoosh_query(parsed.node, parsed.filters)
                if type(query) is not q.Or or not all(type(s) is q.Term for s in query.subqueries):
                    continue
                full = index._evaluator.scores(query)
                pruned = index._evaluator._pruned_or(query.subqueries, 3)
                mine, theirs = best_of(pruned, 3), best_of(full, 3)  # sums added in another order
                assert [d for _, d in mine] == [d for _, d in theirs], text
                assert all(math.isclose(a, b, rel_tol=1e-9) for (a, _), (b, _) in zip(mine, theirs)), text
                pruned_some += len(pruned) < len(full)
            assert pruned_some >= len(RELEVANCE_SET) // 2


def test_best_of_breaks_ties_by_lower_document_number():
    scores = {7: 1.0, 3: 2.0, 5: 1.0, 9: 0.5, 1: 1.0}
    assert best_of(scores, 3) == [(2.0, 3), (1.0, 1), (1.0, 5)]
    assert best_of(scores, 10) == [(2.0, 3), (1.0, 1), (1.0, 5), (1.0, 7), (0.5, 9)]
    assert best_of({}, 5) == [] and best_of(scores, 0) == []
