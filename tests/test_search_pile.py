"""Search on the whole real pile (conftest `real_pile`): the current printing first, players'
words, superseded FAQ versions, points in a question, and the source of every hit.

Issue 27: "Search ranks the current edition first when the same rule exists in several. An
older edition never outranks the current printing of the same rule." The expected answers are
in tests/relevance.py (PILE_CURRENT_FIRST), written from the 11th edition documents.
"""
from __future__ import annotations

import shutil

import pytest

from .relevance import PILE_CURRENT_EDITION, PILE_CURRENT_FIRST

pytestmark = [pytest.mark.realdata, pytest.mark.slow]

NEWEST = 11
# Kinds that state or answer a rule: an older edition's record of these must not come first.
ANSWERS = {"rule", "table", "stratagem", "faq", "errata", "note"}


@pytest.fixture(scope="module")
def pile(real_pile, tmp_path_factory):
    """A copy of the session's pile store (the index is built beside the copy)."""
    from ruleslawyer.index.search import ensure_index
    from ruleslawyer.store import Store

    db = tmp_path_factory.mktemp("pilesearch") / "all.sqlite"
    shutil.copyfile(real_pile, db)
    with Store(db) as store:
        ensure_index(store)
    return db


def _search(pile, query: str, **options):
    from ruleslawyer.index.search import search_db

    return search_db(pile, query, **options)


def _older_answer_before_current(hits) -> list[str]:
    first_current = next((i for i, h in enumerate(hits) if h.edition == NEWEST), len(hits))
    return [f"{h.kind} {h.name} ({h.edition})" for h in hits[:first_current]
            if h.kind in ANSWERS and h.edition and h.edition < NEWEST]


@pytest.mark.parametrize("query, kind, name", PILE_CURRENT_FIRST)
def test_the_current_rule_answers_first(pile, query, kind, name):
    result = _search(pile, query)
    assert result.corrected is None, "a player's word is not typo-corrected"
    first = result.hits[0]
    assert (first.kind, first.name.casefold(), first.edition) == (kind, name.casefold(), NEWEST), \
        [(h.kind, h.name, h.edition) for h in result.hits[:5]]
    assert not _older_answer_before_current(result.hits)


@pytest.mark.parametrize("query", PILE_CURRENT_EDITION)
def test_no_older_edition_comes_first(pile, query):
    hits = _search(pile, query).hits
    assert hits[0].edition == NEWEST and not _older_answer_before_current(hits)


def test_invuln_finds_the_11th_edition_characteristic_and_save_roll(pile):
    """The 11th edition calls the invulnerable save a characteristic, InSv: the definition
    (02 Datasheets) and the save-roll text (05 Attack sequence) are both found."""
    hits = _search(pile, "invuln").hits
    current = [h for h in hits if h.edition == NEWEST]
    files = {h.file for h in current if "InSv" in h.data.get("text", "")}
    assert {"core11_02_Datasheets.pdf", "core11_05_Attack_sequence.pdf"} <= files


def test_a_faq_a_newer_version_dropped_is_not_offered_as_current(pile):
    """The World Eaters faction pack v1.0 answers an FAQ on Summoned by Slaughter that v1.1
    removed: it comes after the current answers, marked superseded by v1.1; frozen at a date
    before v1.1 it is the current answer again."""
    def summoned(hits):
        return [h for h in hits if h.kind == "faq" and "summoned by slaughter" in h.name.casefold()]

    query = "can I use summoned by slaughter in the first battle round"
    hits = _search(pile, query).hits
    assert hits[0].superseded_by is None and all(h.superseded_by for h in summoned(hits))
    faqs = _search(pile, query, kind="faq", limit=100).hits
    assert summoned(faqs) and all(h.superseded_by == "World Eaters Faction Pack v1.1" for h in summoned(faqs))
    first_superseded = min(faqs.index(h) for h in summoned(faqs))
    assert all(h.superseded_by for h in faqs[first_superseded:])
    frozen = _search(pile, "summoned by slaughter first battle round", as_of="2026-07-01").hits
    assert frozen[0].kind == "faq" and frozen[0].superseded_by is None and "v1.0" in frozen[0].file


@pytest.mark.parametrize("query, unit", [("how many points are 10 boyz", "Boyz"),
                                         ("how many points is a land speeder", "Land Speeder")])
def test_a_question_about_points_shows_the_newest_price(pile, query, unit):
    """A question naming a unit and points: the first hit is the unit's price of the 11th
    edition, from the newest dated source that prices it (a datasheet without costs after it)."""
    hits = _search(pile, query, limit=20).hits
    first = hits[0]
    assert first.name == unit and first.edition == NEWEST and first.snippet.startswith("Points:")
    priced = [h for h in hits if h.name == unit and h.edition == NEWEST and h.date and h.snippet.startswith("Points:")]
    assert first.date == max(h.date for h in priced)


def test_every_hit_names_its_file_and_the_dated_ones_their_date(pile):
    hits = _search(pile, "engagement range", limit=10).hits  # 11th: the dated core rules chapter
    assert all(h.file for h in hits)
    assert hits[0].date and hits[0].to_json()["date"] == hits[0].date and hits[0].to_json()["file"] == hits[0].file
