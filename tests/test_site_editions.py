"""The site and 11th edition: a datasheet page gives the current points of the newest points list
(same edition only, by tier, with wargear costs), and the lists give a name printed in several
editions at its newest, linking the others.
"""
from __future__ import annotations

import re

from ruleslawyer.library.corpus import Corpus
from ruleslawyer.records import Datasheet, ItemCost, Points, Profile, Source, Stratagem, UnitCost
from ruleslawyer.site.build import get_context
from ruleslawyer.site.writer import write_site

SRC = Source("sheets.json", None, "battlescribe", "0" * 64)


def _unit(edition: int, points: int) -> Datasheet:
    return Datasheet("Test Warriors", SRC, edition=edition, faction="Testers", points=(UnitCost("10", points),),
                     keywords=("INFANTRY", "BATTLELINE"), faction_keywords=("TESTERS",),
                     profiles=(Profile("Warrior", {"M": '5"', "T": "4", "Sv": "4+", "W": "1"}),))


def _corpus(*extra) -> Corpus:
    old_pts = Points("Test Warriors", Source("testers.yaml", version="1.0"), edition=11, faction="Testers",
                     version="1.0", costs=(UnitCost("10", 70),))
    new_pts = Points("Test Warriors", Source("testers.yaml", version="1.1"), edition=11, faction="Testers",
                     version="1.1", costs=(UnitCost("10", 80, "1st-2nd"), UnitCost("10", 90, "3rd+")),
                     wargear_costs=(ItemCost("gauss reaper", 5),))
    gambit = Stratagem("Test Gambit", SRC, edition=11, faction="Testers", cp=1, group="Test Host", effect="Go.")
    records = [_unit(10, 100), _unit(11, 110), new_pts, old_pts, gambit, *extra]
    return Corpus(records=records, originals=list(records))


def _build(tmp_path, corpus):
    out = tmp_path / "site"
    write_site(get_context(corpus), out, workers=1)
    return out


def _text(path) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8")))


def test_datasheet_page_gives_the_current_points_of_its_edition(tmp_path):
    out = _build(tmp_path, _corpus())
    eleventh = _text(out / "datasheet" / "test-warriors-11th.html")
    assert "Points v1.1: 1st-2nd: 10 models 80 pts; 3rd+: 10 models 90 pts" in eleventh
    assert "Wargear gauss reaper +5 pts" in eleventh
    assert "110" not in eleventh and "70 pts" not in eleventh.replace("170", "")
    tenth = _text(out / "datasheet" / "test-warriors-10th.html")
    assert "10 models: 100 pts" in tenth and "v1.1" not in tenth  # an 11th edition list does not price it


def test_lists_give_the_newest_edition_and_link_the_others(tmp_path):
    out = _build(tmp_path, _corpus())
    listing = (out / "datasheet" / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r"<li>.*?</li>", listing)
    warriors = [r for r in rows if ">Test Warriors<" in r]
    assert len(warriors) == 1 and "test-warriors-11th.html" in warriors[0]
    assert 'also <a href="../datasheet/test-warriors-10th.html">10th ed.</a>' in warriors[0]
    assert "listed at its newest edition" in listing
    keyword = (out / "keyword" / "battleline.html").read_text(encoding="utf-8")
    assert "test-warriors-11th.html" in keyword and "10th ed.</a>" in keyword
    assert keyword.count(">Test Warriors<") == 1
    faction = (out / "faction" / "testers.html").read_text(encoding="utf-8")  # every edition, by section
    assert "test-warriors-11th.html" in faction and "test-warriors-10th.html" in faction
    stratagems = (out / "stratagem" / "index.html").read_text(encoding="utf-8")
    assert "listed at its newest edition" not in stratagems  # nothing hidden there


def test_new_points_version_rebuilds_the_datasheet_page(tmp_path):
    """A rebuild sees a points list change (no datasheet changed) and remakes the page."""
    out = _build(tmp_path, _corpus())
    newer = Points("Test Warriors", Source("testers.yaml", version="1.2"), edition=11, faction="Testers",
                   version="1.2", costs=(UnitCost("10", 95),))
    report = write_site(get_context(_corpus(newer)), out, workers=1)
    assert 0 < report.written < report.pages
    assert "Points v1.2: 10 models: 95 pts" in _text(out / "datasheet" / "test-warriors-11th.html")


def test_rule_page_shows_its_number(tmp_path):
    from ruleslawyer.records import Rule

    fnp = Rule("Feel No Pain", SRC, edition=11, number="24.12", text="Roll one D6.")
    out = _build(tmp_path, _corpus(fnp))
    assert "Rule 24.12" in _text(out / "rule" / "feel-no-pain.html")


def test_detachment_and_enhancement_pages_give_their_11th_edition_fields(tmp_path):
    from ruleslawyer.records import DetachmentRule, Enhancement

    rule = DetachmentRule("Test Doctrine", SRC, edition=11, faction="Testers", group="Test Host", text="Go.",
                          detachment_points=2, force_disposition="Purge the Foe")
    relic = Enhancement("Test Relic", SRC, edition=11, faction="Testers", group="Test Host", text="Shiny.",
                        upgrade=True, support=True)
    out = _build(tmp_path, _corpus(rule, relic))
    page = _text(out / "detachment-rule" / "test-doctrine.html")
    assert "2 Detachment Points" in page and "Force Disposition: Purge the Foe" in page
    page = _text(out / "enhancement" / "test-relic.html")
    assert "Upgrade" in page and "May be given to a SUPPORT model" in page


def test_record_page_links_its_other_editions(tmp_path):
    out = _build(tmp_path, _corpus())
    newest = (out / "datasheet" / "test-warriors-11th.html").read_text(encoding="utf-8")
    assert 'Also in <a href="../datasheet/test-warriors-10th.html">10th edition</a>' in newest
    older = (out / "datasheet" / "test-warriors-10th.html").read_text(encoding="utf-8")
    assert 'Also in <a href="../datasheet/test-warriors-11th.html">11th edition</a>' in older
    assert "Also in" not in (out / "stratagem" / "test-gambit.html").read_text(encoding="utf-8")


def test_detachment_pages_give_the_detachments_current_points(tmp_path):
    from ruleslawyer.records import DetachmentRule, Enhancement

    host = Points("Test Host", Source("testers.yaml", version="1.1"), edition=11, faction="Testers", version="1.1",
                  target_kind="detachment", detachment_points=3, wargear_costs=(ItemCost("Test Relic", 20),))
    rule = DetachmentRule("Test Doctrine", SRC, edition=11, faction="Testers", group="Test Host", text="Go.")
    relic = Enhancement("Test Relic", SRC, edition=11, faction="Testers", group="Test Host", points=15, text="Shiny.")
    out = _build(tmp_path, _corpus(rule, relic, host))
    line = "Current points (testers.yaml v1.1): Test Host: 3 DP; enhancements Test Relic 20 pts"
    assert line in _text(out / "detachment-rule" / "test-doctrine.html")
    assert line in _text(out / "enhancement" / "test-relic.html")
    assert "Current points" not in _text(out / "stratagem" / "test-gambit.html")
