"""`keyword:` and `ability:` on the real 10th edition Wahapedia export, against counts made
independently from its CSV files with the csv module.

Words are compared after Porter stemming, as a search compares them.
- `keyword:X` matches a datasheet when every word of X is a word of one of its keywords or
  faction keywords (Datasheets_keywords.csv), never of a weapon ability.
- `ability:X` matches a datasheet when every word of X is a word of one of its abilities'
  names (Datasheets_abilities.csv, by name or through Abilities.csv) or of its weapons'
  abilities (the comma-separated list in Datasheets_wargear.csv's description).
"""
from __future__ import annotations

import csv
import html
import re
from collections import defaultdict
from pathlib import Path

import pytest

from .conftest import require_shared

EXPORT = "realdata/wahadumper__wahadumper"
_TAG = re.compile(r"<[^>]+>")


def _rows(folder: Path, name: str) -> list[dict]:
    with open(folder / name, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="|"))


def _words(text: str) -> set[str]:
    """Words, stemmed as a search matches them ("Infiltrator" is found by "infiltrators")."""
    from whoosh.lang.porter import stem

    return {stem(w) for w in re.findall(r"\w+", html.unescape(_TAG.sub(" ", text)).lower())}


@pytest.fixture(scope="module")
def export() -> Path:
    folder = require_shared() / EXPORT
    if not (folder / "Datasheets.csv").exists():
        pytest.skip(f"{folder} has no Wahapedia export")
    return folder


@pytest.fixture(scope="module")
def csv_words(export):
    """datasheet id -> (keyword word sets, ability-name word sets), from the CSV files alone.

    The store holds one entry per record: datasheets of one name in one faction (a unit listed
    twice in the export) are one, so only the first id of each name and faction is counted."""
    ids, seen = set(), set()
    for r in _rows(export, "Datasheets.csv"):
        key = (" ".join(r["name"].casefold().split()), r["faction_id"])
        if key not in seen:
            seen.add(key)
            ids.add(r["id"])
    keywords: dict[str, list[set[str]]] = defaultdict(list)
    for r in _rows(export, "Datasheets_keywords.csv"):
        if r["keyword"]:
            keywords[r["datasheet_id"]].append(_words(r["keyword"]))
    named = {r["id"]: r["name"] for r in _rows(export, "Abilities.csv")}
    abilities: dict[str, list[set[str]]] = defaultdict(list)
    for r in _rows(export, "Datasheets_abilities.csv"):
        name = r["name"] or named.get(r["ability_id"], "")
        if name:
            abilities[r["datasheet_id"]].append(_words(name))
    for r in _rows(export, "Datasheets_wargear.csv"):
        for part in html.unescape(_TAG.sub("", r["description"] or "")).split(","):
            if part.strip():
                abilities[r["datasheet_id"]].append(_words(part))
    return ids, keywords, abilities


@pytest.fixture(scope="module")
def real_store(export, tmp_path_factory):
    from ruleslawyer.index.search import ensure_index
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    with Store(tmp_path_factory.mktemp("real") / "store.sqlite") as store:
        ingest_paths(store, [export])
        ensure_index(store)
        yield store


def _count(store, query: str) -> int:
    from ruleslawyer.index.search import search

    return len(search(store, f"{query} kind:datasheet edition:10", limit=10000).hits)


def _csv_count(ids, table, words: set[str]) -> int:
    # Whole-field semantics of a filter: every word somewhere in the datasheet's values.
    return sum(1 for i in ids if words <= set().union(*table.get(i, [set()])))


@pytest.mark.parametrize("keyword", ["fly", "infantry", "vehicle", "psyker", "monster", "titanic", "grenades"])
def test_keyword_filter_counts_match_the_csv(real_store, csv_words, keyword):
    ids, keywords, _ = csv_words
    expected = _csv_count(ids, keywords, _words(keyword))
    assert expected > 0
    assert _count(real_store, f"keyword:{keyword}") == expected


def test_keyword_fly_is_not_anti_fly(real_store, csv_words):
    """The extra hits of the old index were datasheets whose weapons carry [ANTI-FLY]."""
    ids, keywords, abilities = csv_words
    fly = _words("fly")
    anti_fly_only = [i for i in ids if _words("anti fly") <= set().union(*abilities.get(i, [set()]))
                     and not fly <= set().union(*keywords.get(i, [set()]))]
    assert anti_fly_only  # the export has such units, so the test can tell the difference
    assert _count(real_store, "keyword:fly") == _csv_count(ids, keywords, fly)


@pytest.mark.parametrize("ability", ["deep strike", "scouts", "lone operative", "stealth", "infiltrators",
                                     "torrent", "devastating wounds", "lethal hits", "anti-fly", "hazardous"])
def test_ability_filter_counts_match_the_csv(real_store, csv_words, ability):
    ids, _, abilities = csv_words
    expected = _csv_count(ids, abilities, _words(ability))
    assert expected > 0
    assert _count(real_store, f'ability:"{ability}"') == expected
