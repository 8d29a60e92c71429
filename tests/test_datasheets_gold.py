"""Datasheet records from the four seed inputs, scored against ../shared/gold with score.py.

The real loader and parsers run on each file (tests/gold.py). The PDF and HTML cases depend
on the PDF and HTML loaders (ingest/pdf.py, ingest/html.py) as much as on the parser.
"""
from __future__ import annotations

import pytest

from .conftest import seed_path
from .gold import format_report, score_input

CASES = [("000", ".txt"), ("000", ".pdf"), ("001", ".txt"), ("001", ".html")]


@pytest.mark.parametrize("prefix,suffix", CASES, ids=[f"{p}{s}" for p, s in CASES])
def test_datasheets_match_gold(shared, prefix, suffix):
    report = score_input(shared, seed_path(shared, prefix, suffix), {"datasheet"})
    ds = report["datasheet"]
    assert ds["recall"] == 1.0, format_report(report)
    assert ds["precision"] == 1.0, format_report(report)
    assert ds["field_accuracy"] >= 0.97, format_report(report)
