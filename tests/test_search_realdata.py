"""Players' words and the current edition on real documents: the 9th edition primer, the 10th
edition BSData game system and a 10th edition datasheet page, and the 11th edition BSData
game system and core rules chapters, ingested together.

The store's newest edition is the 11th, so for a rule printed in several editions the 11th
edition printing must come first; abbreviations must never be typo-corrected.
"""
from __future__ import annotations

import pytest

from .conftest import shared_file

pytestmark = [pytest.mark.realdata, pytest.mark.slow]

FILES = [
    "realdata/timburr1__timburr1.github.io/9th_ed_battle_primer.pdf",
    "realdata/BSData__wh40k-10e/Warhammer_40000.gst",
    "realdata/AndrewDeWitt__GrimLog/astra-militarum_Kasrkin.html",
    "realdata/e11/bsdata/Warhammer_40_000.json",
    "realdata/e11/pdf/core11_05_Attack_sequence.pdf",
    "realdata/e11/pdf/core11_09_Movement_phase.pdf",
]


@pytest.fixture(scope="module")
def real_store(shared, tmp_path_factory):
    from ruleslawyer.index.search import ensure_index
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    paths = [shared_file(shared, f) for f in FILES]
    with Store(tmp_path_factory.mktemp("realsearch") / "store.sqlite") as store:
        ingest_paths(store, paths)
        ensure_index(store)
        yield store


def _search(store, query: str, **options):
    from ruleslawyer.index.search import search

    return search(store, query, **options)


def test_invuln_is_not_corrected_into_another_word(real_store):
    result = _search(real_store, "invuln")
    assert result.corrected is None
    assert result.hits and "invulnerable" in (result.hits[0].name + result.hits[0].snippet).lower()


@pytest.mark.parametrize("query, name", [
    ("deep strike", "deep strike"), ("feel no pain", "feel no pain"), ("fnp", "feel no pain"),
    ("ds", "deep strike"), ("5+++", "feel no pain"),
])
def test_the_11th_edition_printing_comes_first(real_store, query, name):
    hits = [h for h in _search(real_store, query, limit=10).hits if h.kind == "rule" and h.name.casefold() == name]
    assert len({h.data.get("edition") for h in hits}) >= 2, "the store holds this rule in several editions"
    editions = [h.data.get("edition") for h in hits]
    assert editions[0] == 11 and editions == sorted(editions, reverse=True)


def test_shoot_after_falling_back_finds_the_11th_edition_rule_first(real_store):
    first = _search(real_store, "can a unit shoot after falling back").hits[0]
    assert first.kind == "rule" and first.data.get("edition") == 11 and "fall" in first.name.casefold()


def test_a_rule_number_finds_its_rule(real_store):
    first = _search(real_store, "05.02").hits[0]
    assert first.kind == "rule" and first.data.get("number") == "05.02"
