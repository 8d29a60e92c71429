"""Gold scores for stratagems, enhancements, detachment rules and rules on every seed and input,
and the page-furniture check on the same records."""
from __future__ import annotations

import json
import re

import pytest

from tests.conftest import seed_path
from tests.gold import format_report, parsed, score_input

KINDS = {"stratagem", "enhancement", "detachment_rule", "rule"}
INPUTS = [("000", ".txt"), ("001", ".txt"), ("002", ".txt"), ("000", ".pdf"), ("001", ".html"), ("002", ".pdf")]


@pytest.mark.parametrize("prefix, suffix", INPUTS)
def test_gold_scores(shared, prefix, suffix):
    report = score_input(shared, seed_path(shared, prefix, suffix), KINDS)
    overall = report["_overall"]
    assert overall["recall"] >= 0.95, format_report(report)
    assert overall["precision"] >= 0.95, format_report(report)
    assert overall["field_accuracy"] >= 0.95, format_report(report)
    for kind in KINDS & set(report):
        r = report[kind]
        if r["gold"]:
            assert r["recall"] >= 0.95 and r["field_accuracy"] >= 0.95, format_report(report)
        if r["predicted"]:
            assert r["precision"] >= 0.95, format_report(report)


# Cues of page furniture in our own words: ad and donation services, account and site controls,
# the site's keyword index ("... datasheets:"), the publisher's address.
FURNITURE = re.compile(r"boosty|\bads\b|adsbygoogle|pin code|subscri|patreon|newsletter|combo-box|"
                       r"settings tab|datasheets:\s*$|orderofgamers", re.I | re.M)
ICON_LINE = re.compile(r"^\s*(?:C|BA|\]|\[)\s*$", re.M)


def _texts(record: dict):
    for key in ("name", "text", "when", "target", "effect", "restrictions", "fluff", "restriction", "group"):
        value = record.get(key)
        if isinstance(value, str):
            yield key, value
    for item in record.get("summary") or ():
        yield "summary", item


@pytest.mark.parametrize("prefix, suffix", INPUTS)
def test_no_page_furniture_in_records(shared, prefix, suffix):
    """Ads, the Disable Ads popup, subscription pleas and icon letters make no record text."""
    for record in parsed(seed_path(shared, prefix, suffix)):
        if record["kind"] not in KINDS:
            continue
        for key, value in _texts(record):
            assert not FURNITURE.search(value), (record["name"], key, value[:120])
            assert not ICON_LINE.search(value), (record["name"], key, value[:120])


def test_same_name_in_two_groups_is_two_records(shared):
    """Command Re-roll is printed for Core and for Boarding Actions with different texts."""
    found = [r for r in parsed(seed_path(shared, "001", ".txt"))
             if r["kind"] == "stratagem" and r["name"] == "Command Re-roll"]
    assert sorted((r["group"], r["category"]) for r in found) == [("Boarding Actions", "Epic Deed"),
                                                                  ("Core", "Battle Tactic")]
    assert all(r["faction"] is None for r in found)
    assert found[0]["when"] != found[1]["when"]


def _gold(shared, prefix):
    """The gold records of a seed, read at test time."""
    path = seed_path(shared, prefix, ".txt")
    return [json.loads(line) for line in (shared / "gold" / f"{path.stem}.jsonl").read_text().splitlines() if line]


@pytest.mark.parametrize("suffix", [".txt", ".html"])
def test_enhancement_restriction_and_points(shared, suffix):
    records = {(r["kind"], r["name"]): r for r in parsed(seed_path(shared, "001", suffix))}
    gold = {(g["kind"], g["name"]): g for g in _gold(shared, "001")}
    sanctum = records[("enhancement", "Dimensional Sanctum")]
    assert (sanctum["points"], sanctum["restriction"], sanctum["group"]) == (20, "CRYPTEK model only.", "Canoptek Court")
    assert sanctum["text"] == gold[("enhancement", "Dimensional Sanctum")]["text"]
    assert sanctum["fluff"] != sanctum["text"] and "Infiltrators" in sanctum["text"]
    # Listed without points and without a restriction: only the page's list says it is an enhancement.
    trans = records[("enhancement", "Impromptu Translocation")]
    assert (trans["points"], trans["restriction"]) == (None, None)
    hyper = records[("detachment_rule", "Hyperphasing")]
    assert "Strike Force" in hyper["text"] and "Up to 3 units" in hyper["text"]
    assert not hyper["text"].startswith("Employing")  # the flavour paragraph is kept apart
    assert hyper["fluff"] == gold[("detachment_rule", "Hyperphasing")]["fluff"]
