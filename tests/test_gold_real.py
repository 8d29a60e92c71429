"""Real documents against hand-made gold (tests/gold/real/MANIFEST.tsv): each above its floor,
with precision at least 0.95 once the floor says the document is read well (>= 0.93)."""
from __future__ import annotations

import pytest

from tests.conftest import require_shared
from tests.gold import format_report
from tests.gold_real import BLIND_MANIFEST, GOLD_DIR, in_scope, read_manifest, score_entry

ENTRIES = read_manifest() + read_manifest(BLIND_MANIFEST)


def test_manifest_covers_at_least_twenty_documents():
    documents = {e.document for e in ENTRIES if e.half == "tuning"}
    assert len(documents) >= 20, documents
    for e in ENTRIES:
        assert (GOLD_DIR / e.gold).is_file(), e.gold
        assert (GOLD_DIR / e.gold.replace(".jsonl", ".notes.md")).is_file(), f"{e.gold} has no notes"


def test_scope_clauses_filter_as_documented():
    rec = {"kind": "datasheet", "name": "Overlord", "faction": "Necrons", "source": {"page": 3}}
    assert in_scope(rec, "all")
    assert in_scope(rec, "pages=1-3;faction=necrons")
    assert not in_scope(rec, "pages=4,5")
    assert in_scope(rec, "names=Lychguard|Overlord")
    assert not in_scope(rec, "group=Awakened Dynasty")


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_real_document_scores_above_its_floor(entry):
    shared = require_shared()
    report = score_entry(shared, entry)
    overall = report["_overall"]
    assert overall["score"] >= entry.floor, f"{entry.document}\n{format_report(report)}"
    if entry.floor >= 0.93:
        assert overall["precision"] >= 0.95, f"{entry.document}\n{format_report(report)}"
