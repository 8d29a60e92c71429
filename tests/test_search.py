"""Search library: query syntax, filters, phrases, synonyms, typo retry, snippets, index lifecycle."""
from __future__ import annotations

import pytest

from ruleslawyer.errors import QueryError
from ruleslawyer.index import engine, lifecycle
from ruleslawyer.index.analysis import load_synonyms, terms
from ruleslawyer.index.query import parse_query
from ruleslawyer.index.search import ensure_index, make_snippet, search
from ruleslawyer.records import Rule
from ruleslawyer.store import Store

from .search_helpers import RECORDS, SRC, fill

@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with Store(tmp_path_factory.mktemp("search") / "store.sqlite") as st:
        fill(st, RECORDS)
        yield st


def names(result) -> list[str]:
    return [h.name for h in result.hits]


# ---------------------------------------------------------------- ranking and syntax
def test_exact_name_beats_a_mention(store):
    assert names(search(store, "overwatch"))[:2] == ["Overwatch", "Fire Overwatch"]
    assert names(search(store, "pain"))[0] in ("Feel No Pain", "Pain Engine")
    assert names(search(store, "feel no pain"))[0] == "Feel No Pain"


def test_phrase_keeps_every_word_in_position(store):
    # "feel the pain" is in Pain Engine; "feel no pain" is not, and a dropped stop word must
    # not let the phrase match across it.
    assert names(search(store, '"feel no pain"')) == ["Feel No Pain"]
    assert names(search(store, '"feel pain"')) == []
    assert names(search(store, '"feel the pain"')) == ["Pain Engine"]


def test_synonyms_from_the_data_file(store):
    assert ("fnp",) in load_synonyms() and terms("feel no pain") in load_synonyms()[("fnp",)]
    assert names(search(store, "fnp"))[0] == "Feel No Pain"
    assert names(search(store, "ds"))[0] == "Deep Strike"


def test_fielded_filters(store):
    q = 'kind:stratagem faction:necrons cp:1 phase:fight edition:10 group:"awakened dynasty"'
    assert names(search(store, q)) == ["Protocol of the Hungry Void"]
    assert names(search(store, "keyword:fly")) == ["Canoptek Scarab Swarms"]
    assert names(search(store, "kind:stratagem phase:shooting")) == ["Targeting Algorithms"]
    assert names(search(store, "overwatch", kind="stratagem")) == ["Fire Overwatch"]
    assert names(search(store, "overwatch", edition=9)) == ["Overwatch"]
    assert set(names(search(store, "unit", faction="necrons"))) <= {r.name for r in RECORDS if getattr(r, "faction", None)}


def test_boolean_operators(store):
    assert names(search(store, "overwatch NOT kind:stratagem")) == ["Overwatch"]
    assert names(search(store, "overwatch -hitting")) == ["Fire Overwatch"]
    assert set(names(search(store, "gauss OR reanimates"))) == {"Necron Warriors", "Reanimation Protocols"}
    assert names(search(store, "shoot AND unmodified")) == ["Overwatch"]
    assert names(search(store, "shoot AND charging"))[0] == "Overwatch"
    assert set(names(search(store, "(gauss OR reanimates) AND kind:datasheet"))) == {"Necron Warriors"}


def test_question_words_do_not_count(store):
    assert names(search(store, "what is the toughness of necron warriors"))[0] == "Necron Warriors"


def test_typo_is_retried_and_reported(store):
    result = search(store, "reanimaton protocols")
    assert result.corrected == "reanimation protocols"
    assert names(result)[0] == "Reanimation Protocols"
    assert search(store, "reanimation protocols").corrected is None


def test_no_hits_gives_suggestions(store):
    result = search(store, "overwatch kind:enhancement")
    assert result.hits == [] and any("remove the filters" in s for s in result.suggestions)


@pytest.mark.parametrize("query, message", [
    ('"feel no pain', "unbalanced quote"),
    ("color:red", "unknown field"),
    ("kind:spaceship", "unknown kind"),
    ("cp:one", "cp must be a number"),
    ("phase:lunch", "unknown phase"),
    ("(overwatch", "unbalanced parenthesis"),
    ("overwatch NOT", "NOT at the end"),
])
def test_malformed_queries_raise_query_error_with_hint(query, message):
    with pytest.raises(QueryError, match=message) as info:
        parse_query(query)
    assert info.value.hint


def test_snippet_highlights_matched_words():
    text = "First passage about nothing.\n" + "word " * 60 + "the charging unit can fire overwatch at the enemy " + "tail " * 40
    snippet, spans = make_snippet(text, set(terms("overwatch charge")))
    assert [snippet[s:e] for s, e in spans] == ["charging", "overwatch"]
    assert snippet.startswith("... ") and snippet.endswith(" ...") and len(snippet) <= 170


# ---------------------------------------------------------------- index lifecycle
def test_index_is_rebuilt_when_the_store_changes(tmp_path):
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, RECORDS[:2])
        first = ensure_index(st)
        assert ensure_index(st) == first  # fresh: no rebuild
        assert names(search(st, "deep strike")) == []
        fill(st, RECORDS)
        assert names(search(st, "deep strike"))[0] == "Deep Strike"
        current = lifecycle.read_current(lifecycle.index_root(st.path))
        assert current["generation"] == st.generation and current["dir"] != first.name


def test_failed_build_leaves_the_old_index_working(tmp_path, monkeypatch):
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, RECORDS)
        live = ensure_index(st)
        fill(st, RECORDS[:3])

        def broken(documents, path, **kw):
            path.mkdir(exist_ok=True)
            (path / "partial").write_text("half")
            raise RuntimeError("disk full")

        monkeypatch.setattr(engine, "build_index_dir", broken)
        with pytest.raises(RuntimeError):
            ensure_index(st)
        root = lifecycle.index_root(st.path)
        assert lifecycle.read_current(root)["dir"] == live.name
        assert [p.name for p in root.glob("build-*")] == [live.name]  # the half-built one is gone
        with engine.Index(live) as index:
            assert index.doc_count == len(RECORDS)


def test_query_kinds_match_the_record_kinds():
    from ruleslawyer.index.query import KINDS as query_kinds
    from ruleslawyer.records import KINDS

    assert query_kinds == KINDS


def test_reader_reopens_when_its_build_vanished(tmp_path):
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, RECORDS)
        live = ensure_index(st)
        calls = []

        def locate():
            calls.append(1)
            return tmp_path / "gone" if len(calls) == 1 else live

        with engine.open_live(locate) as index:
            assert index.doc_count == len(RECORDS) and len(calls) == 2


def test_terminal_highlighting_marks_only_the_matched_words():
    from ruleslawyer.cli.results import _highlight

    coloured = _highlight("fire overwatch now", [(5, 14)], color=True)
    assert coloured.startswith("fire \x1b[") and "overwatch" in coloured and coloured.endswith("\x1b[0m now")
    assert _highlight("fire overwatch now", [(5, 14)], color=False) == "fire overwatch now"


def test_rule_beats_the_erratum_named_after_it(tmp_path):
    from ruleslawyer.records import Erratum

    erratum = Erratum(document="Core Book", version="1.0", page="12", target="Overwatch", source=SRC,
                      text="Overwatch hits on unmodified 6s and costs 2 command points.", edition=9)
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, [erratum, *RECORDS])
        hits = search(st, "overwatch").hits
    assert [(h.kind, h.name) for h in hits[:2]] == [("rule", "Overwatch"), ("errata", "Overwatch")]


@pytest.mark.parametrize("query", ["", "()", "   "])
def test_empty_query_is_an_error(store, query):
    with pytest.raises(QueryError, match="nothing to search for"):
        search(store, query)


def test_quoted_phrase_is_not_expanded_by_synonyms(store):
    assert names(search(store, "ds"))[0] == "Deep Strike"
    assert names(search(store, '"ds"')) == []


def test_index_parts_are_separate_files_read_on_demand(store):
    """A compound segment (*.seg) is read whole into memory when opened; the build writes
    one file per part, and text postings carry no positions (phrases use word pairs)."""
    path = ensure_index(store)
    assert not list(path.glob("*.seg")) and list(path.glob("*.pst")) and list(path.glob("*.trm"))
    with engine.Index(path) as index:
        schema = index.ix.schema
        assert not schema["text"].format.supports("positions")
        assert schema["name"].format.supports("positions")
