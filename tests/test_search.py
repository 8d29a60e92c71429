"""Search library: query syntax, filters, phrases, synonyms, typo retry, snippets, index lifecycle."""
from __future__ import annotations

import pytest

from ruleslawyer.errors import QueryError
from ruleslawyer.index import engine, lifecycle
from ruleslawyer.index.analysis import load_synonyms, terms
from ruleslawyer.index.query import parse_query
from ruleslawyer.index.search import ensure_index, search
from ruleslawyer.index.snippets import SNIPPET_CHARS, make_snippet
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
    assert names(search(store, "overwatch", edition=9))[0] == "Overwatch"
    assert names(search(store, "pain"))[0] in ("Feel No Pain", "Pain Engine")
    assert names(search(store, "feel no pain"))[0] == "Feel No Pain"


def test_the_current_rule_that_answers_comes_before_an_older_edition(store):
    """The 9th edition Overwatch rule is named exactly as the query, but the store's newest
    edition (the 10th) answers it with the Fire Overwatch stratagem: that comes first."""
    hits = search(store, "overwatch").hits
    assert [h.name for h in hits][:2] == ["Fire Overwatch", "Overwatch"]
    assert [h.edition for h in hits][:2] == [10, 9]


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
    assert names(search(store, "shoot AND charging", edition=9))[0] == "Overwatch"
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
    assert snippet.startswith("... ") and snippet.endswith(" ...") and len(snippet) <= SNIPPET_CHARS + 8


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
        hits = search(st, "overwatch", edition=9).hits
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


# ---------------------------------------------------------------- players' words, editions
WORDS = [
    Rule(name="Invulnerable Saves", source=SRC, edition=10,
         text="Some models have an invulnerable save; it is never modified by armour penetration."),
    Rule(name="Insult to Injury", source=SRC, edition=10, text="Add 1 to the damage of a melee attack."),
    Rule(name="Stubborn Will", source=SRC, edition=10,
         text="Models in this unit have the Feel No Pain 5+ ability against mortal wounds."),
    Rule(name="Wound Rolls", source=SRC, edition=11, number="05.02",
         text="Roll one D6 for each hit and compare the Strength with the Toughness."),
]


def test_an_abbreviation_is_expanded_never_corrected(tmp_path):
    """'invuln' is in no record but 'insult' is one letter-edit family away: the synonym table
    decides what it means, before and instead of typo correction."""
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, [*RECORDS, *WORDS])
        result = search(st, "invuln")
        assert result.corrected is None
        assert names(result)[0] == "Invulnerable Saves"
        assert "Insult to Injury" not in names(result)


def test_save_shorthand_reads_as_the_rule(tmp_path):
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, [*RECORDS, *WORDS])
        assert set(names(search(st, "5+++"))[:2]) == {"Stubborn Will", "Feel No Pain"}
        assert names(search(st, "4++"))[0] == "Invulnerable Saves"
        assert search(st, "5+++").corrected is None


def test_a_zero_padded_rule_number_finds_its_rule(tmp_path):
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, [*RECORDS, *WORDS])
        assert names(search(st, "05.02"))[0] == "Wound Rolls"
        # The digits of a number are not words of their own: "Roll one D6 ... 1 ... 5" is no match.
        assert names(search(st, "05.02 kind:rule")) == ["Wound Rolls"]


PRINTINGS = [
    Rule(name="Deep Strike", source=SRC, edition=9,
         text="Deep strike: set up the deep striking unit anywhere more than 9 inches away; deep strike units arrive."),
    Rule(name="Deep Strike", source=SRC, edition=10, text="Set the unit up more than 9 inches from enemy models."),
    Rule(name="Deep Strike", source=SRC, edition=11, text="Set it up more than 8 inches away during an ingress move."),
    Rule(name="Fall Back", source=SRC, edition=9,
         text="A unit that Falls Back cannot shoot after falling back unless it can FLY."),
    Rule(name="Fall-back Move", source=SRC, edition=11,
         text="Until the end of the turn, your unit is not eligible to shoot or declare a charge."),
    Rule(name="Leadership", source=SRC, edition=None, text="A unit's leadership is tested on 2D6."),
]


def test_the_newest_printing_of_a_rule_ranks_first(tmp_path):
    """The 9th edition text repeats the words most, yet the 11th edition printing (the newest
    this store holds) comes first, the 10th next; a filter still reaches the old one."""
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, PRINTINGS)
        hits = search(st, "deep strike").hits
        assert [h.data["edition"] for h in hits if h.name == "Deep Strike"] == [11, 10, 9]
        assert search(st, "deep strike", limit=1).hits[0].data["edition"] == 11
        assert [h.data["edition"] for h in search(st, "deep strike", edition=9).hits] == [9]
        assert names(search(st, "can a unit shoot after falling back"))[0] == "Fall-back Move"


def test_every_hit_names_its_edition_and_source_on_the_terminal_and_in_json(fresh_runner):
    import json
    import os
    import re

    from ruleslawyer.cli.main import cli

    with Store(os.environ["RULESLAWYER_DB"]) as st:
        fill(st, PRINTINGS)
    lines = fresh_runner.invoke(cli, ["search", "deep strike leadership unit", "--limit", "10"]).output.splitlines()
    label = re.compile(r" (\d+th ed\.|no edition) · " + re.escape(SRC.file) + " — ")
    assert lines and all(label.search(line) for line in lines), lines
    assert any(line.startswith(f"[rule] Leadership no edition · {SRC.file} — ") for line in lines)
    data = json.loads(fresh_runner.invoke(cli, ["search", "deep strike", "--json"]).output)
    assert [h["edition"] for h in data["hits"]] == [11, 10, 9]
    assert {h["file"] for h in data["hits"]} == {SRC.file} and all("date" in h for h in data["hits"])


def test_a_rule_of_another_faction_is_not_a_printing_of_it(tmp_path):
    """Two factions' rules of one name are two rules: the newer one of another faction does
    not jump ahead of the one the words match best."""
    oaths = [Rule(name="Oath of Moment", source=SRC, edition=10, faction="World Eaters",
                  text="Select one enemy unit: re-roll hit rolls against it; blood for the blood god."),
             Rule(name="Oath of Moment", source=SRC, edition=11, faction="Space Marines",
                  text="Select one enemy unit as your oath target."),
             Rule(name="Oath of Moment", source=SRC, edition=11, faction="World Eaters",
                  text="Select one enemy unit: re-roll hit rolls against it."),
             Rule(name="Blood Tithe", source=SRC, edition=11, faction="World Eaters", text="Gain blood tithe points.")]
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, oaths)
        hits = search(st, "oath of moment blood god", faction="world eaters").hits
        assert [(h.data["faction"], h.data["edition"]) for h in hits if h.name == "Oath of Moment"] == \
            [("World Eaters", 11), ("World Eaters", 10)]
        found = [(h.name, h.data["faction"], h.data["edition"]) for h in search(st, "blood god").hits]
        we10 = found.index(("Oath of Moment", "World Eaters", 10))  # the only record saying "god"
        assert found[we10 - 1] == ("Oath of Moment", "World Eaters", 11)
        assert all(faction != "Space Marines" for _, faction, _ in found)


def test_dp_reads_as_detachment_points_and_the_definition_comes_first(tmp_path):
    """'DP' is Detachment Points: a note defining them answers before detachments priced in DP."""
    from ruleslawyer.records import Note, Points

    priced = [Points(name=f"Test Host {i}", source=SRC, edition=11, faction="Testers", version="1.1",
                     target_kind="detachment", detachment_points=1) for i in range(6)]
    definition = Note(name="Detachments", source=SRC, edition=11,
                      text="Detachment Points: the number you can spend on detachments depends on the battle size.")
    assert ("dp",) in load_synonyms() and terms("detachment points") in load_synonyms()[("dp",)]
    with Store(tmp_path / "s.sqlite") as st:
        fill(st, [*RECORDS, *priced, definition])
        result = search(st, "DP")
        assert result.corrected is None and names(result)[0] == "Detachments"
