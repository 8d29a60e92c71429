"""The site read like a codex (issue 29): faction pages by role with points and key lines, one block
per detachment, editions newest first; the search data (player words, rule numbers); the errata
page by document and outcome; slugs of every script; one way to build (issue 28)."""
from __future__ import annotations

import gc
import json
import re
from pathlib import Path

import pytest

from ruleslawyer.records import Datasheet, Rule, Source
from ruleslawyer.library.corpus import Corpus
from ruleslawyer.site.build import get_context
from ruleslawyer.site.search_index import SNIPPET_CHARS, SYNONYMS_FILE
from ruleslawyer.site.writer import write_site

from .site_helpers import build_codex, codex_corpus, stored_files

PACKAGE = Path(__file__).resolve().parent.parent / "ruleslawyer"


@pytest.fixture(scope="module")
def codex(tmp_path_factory) -> Path:
    return build_codex(tmp_path_factory.mktemp("codex") / "site")


def _edition(page: str, n: int) -> str:
    """The n-th edition section of a faction page."""
    return page.split('<section class="edition"')[n + 1].split('<section class="edition"')[0]


def _text(path: Path) -> str:
    return path.read_text("utf-8")


def test_datasheets_are_grouped_by_role_in_codex_order_variants_last(codex):
    current = _edition(_text(codex / "faction" / "testers.html"), 0)
    roles = re.findall(r"<h4>([^<]+?) <span class=\"count\">", current)
    assert roles == ["Epic Hero", "Character", "Battleline", "Dedicated Transport", "Infantry", "Vehicle",
                     "Legends and variants"]
    variants = current.split("Legends and variants")[1]
    assert "<details" in current.split("Legends and variants")[0][-80:]  # behind a toggle
    assert "Old Tank 0 [Legends]" in variants and "Test Warriors (Armageddon)" in variants
    assert "Test Tank" not in variants


def test_each_datasheet_shows_its_points_and_key_line(codex):
    current = _edition(_text(codex / "faction" / "testers.html"), 0)
    hero = current.split(">Grand Tester</a>")[1].split("</li>")[0]
    assert '<span class="pts">135 pts</span>' in hero  # from the points list, not the datasheet
    assert "M 6&#34; \u00b7 T 5 \u00b7 Sv 2+ \u00b7 W 7" in hero
    warriors = current.split(">Test Warriors</a>")[1].split("</li>")[0]
    assert "10: 80 \u00b7 20: 160; 3rd+: 90 pts" in warriors  # tiers on one line


def test_a_detachment_is_one_block_with_rule_enhancements_and_stratagem_cards(codex):
    current = _edition(_text(codex / "faction" / "testers.html"), 0)
    blocks = re.findall(r'<article class="detachment">.*?</article>', current, re.S)
    assert len(blocks) == 1
    block = blocks[0]
    assert "Test Host" in block and "2 DP" in block and "Force Disposition: Purge the Foe" in block
    assert "re-roll one Hit roll" in block  # the rule's text
    relic = block.split(">Relic of Testing</a>")[1].split("</li>")[0]
    assert "25 pts" in relic and "Feel No Pain 5+" in relic and "TESTERS model only." in relic
    cards = re.findall(r'<details class="strat-card".*?</details>', block, re.S)
    assert len(cards) == 2 and all("<dt>Effect</dt>" in c for c in cards)
    assert "Improve the Strength characteristic" in block and 'data-phases="shooting"' in block


def test_editions_are_sections_newest_first_with_tabs(codex):
    page = _text(codex / "faction" / "testers.html")
    tabs = re.search(r'<nav class="edition-tabs".*?</nav>', page, re.S).group(0)
    assert re.findall(r'href="#(ed\d+)"', tabs) == ["ed11", "ed10"]
    assert 'aria-current="true">11th edition (current)' in tabs
    assert "Kayvaan Shrike" in _edition(page, 1) and "Kayvaan Shrike" not in _edition(page, 0)


def _index(site: Path) -> dict:
    text = _text(site / "static" / "search-index.js")
    return json.loads(text[len("window.RULESLAWYER_INDEX = "):-2])


def test_search_data_carries_the_clis_player_words_and_rule_numbers(codex):
    data = _index(codex)
    groups = [set(g) for g in data["synonyms"]]
    for line in SYNONYMS_FILE.read_text("utf-8").splitlines():
        entries = [e.strip().lower() for e in line.split("#")[0].split("|") if e.strip()]
        if len(entries) > 1 and all(re.fullmatch(r"[a-z ]+", e) for e in entries):
            assert set(entries) in groups, entries
    numbered = {(d[0], d[3]): d[7] for d in data["docs"] if d[7]}
    assert numbered == {("Feel No Pain", 11): "24.12", ("Deep Strike", 11): "24.05"}
    assert "no" in data["stop"] and data["editions"][-1] == 11


def test_search_leads_are_cut_at_a_word_and_say_so(tmp_path):
    # the search reads a record's lead (its snippet) for the phrase: a word cut in half would
    # match what the text does not say ("deep s" in "deep strike"), and a reader sees it cut
    src = Source("rules.txt")
    text = "Deep Strike: " + "This unit can be set up in Reserves instead of on the battlefield. " * 4
    write_site(get_context(Corpus(records=[Rule("Deep Strike", src, edition=11, text=text)], originals=[])),
               tmp_path / "site", workers=1)
    lead = _index(tmp_path / "site")["docs"][0][5]
    assert len(lead) <= SNIPPET_CHARS and lead.endswith("\u2026")
    assert text.startswith(lead[:-1]) and text[len(lead) - 1] == " "


def test_errata_page_groups_by_document_and_outcome_and_explains_each_once(codex):
    page = _text(codex / "errata.html")
    docs = re.findall(r'<h2 id="doc\d+">([^<]+?) <span', page)
    assert docs == ["Tester FAQ v1.1", "Tester FAQ v1.0"]
    newest = page.split('<h2 id="doc1">')[1].split('<h2 id="doc2">')[0]
    heads = re.findall(r'<h3><span class="outcome-label outcome-([a-z-]+)">', newest)
    assert heads == ["applied", "no-target", "other"]
    assert page.count("only the newest applies") == 1  # "superseded", said once
    assert page.count("badge-warn") == 1  # a red badge only where the reason is unusual
    assert 'id="only-applied"' in page and 'for="only-applied"' in page


def test_names_in_any_script_get_pages_of_their_own(tmp_path):
    src = Source("units.cat", None, "battlescribe", "0" * 64)
    names = ["\u0411\u044b\u0441\u0442\u0440\u044b\u0439 \u0432\u043e\u0438\u043d", "\u0421\u0438\u043b\u044c\u043d\u044b\u0439 \u0432\u043e\u0438\u043d",
             "\u7d20\u65e9\u3044\u6226\u58eb", "\u0393\u03c1\u03ae\u03b3\u03bf\u03c1\u03bf\u03c2", "Caf\u00e9", "Cafe\u0301"]
    records = [Datasheet(n, src, edition=11, faction="Testers") for n in names]
    write_site(get_context(Corpus(records=records, originals=records)), tmp_path / "site", workers=1)
    pages = sorted((tmp_path / "site" / "datasheet").glob("*.html"))
    assert len([p for p in pages if p.name != "index.html"]) == len(names)
    headings = {re.search(r"<h1>(.*?)</h1>", _text(p)).group(1) for p in pages if p.name != "index.html"}
    assert len(headings) == len(names)  # the NFC and NFD spellings are two records: two pages


def test_a_rebuild_after_one_change_renders_and_writes_only_the_pages_it_changes(tmp_path):
    out = build_codex(tmp_path / "site")
    before = {p: p.read_bytes() for p in out.rglob("*.html")}
    report = write_site(get_context(codex_corpus(legends=2), stored_files()), out, workers=1)
    changed = {p for p in out.rglob("*.html") if before.get(p) != p.read_bytes()}
    # the new datasheet's page, the lists that name it (datasheets, faction, keyword), the home page's counts
    assert 0 < report.rendered < report.pages // 2 and len(changed) <= report.rendered
    full = build_codex(tmp_path / "full", legends=2)
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name[0] != "."} == \
        {p.relative_to(full): p.read_bytes() for p in full.rglob("*") if p.is_file() and p.name[0] != "."}


def test_no_library_code_freezes_the_collector(tmp_path):
    users = [p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if "gc.freeze" in _text(p)]
    assert users == []
    frozen = gc.get_freeze_count()
    build_codex(tmp_path / "site")
    assert gc.get_freeze_count() == frozen and gc.isenabled()


def test_the_caches_of_former_builds_are_removed(tmp_path):
    from ruleslawyer.site.writer import FORMER_CACHES

    out = build_codex(tmp_path / "site")
    (out / FORMER_CACHES[0]).mkdir()
    (out / FORMER_CACHES[0] / "00.json").write_text("{}")
    (out / FORMER_CACHES[1]).write_text("not a folder")
    build_codex(out)
    assert not any((out / name).exists() for name in FORMER_CACHES)
    # What stays beside the pages: the manifest and the build lock (kept: removing a lock file
    # another build may be opening would let two builds in).
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == [".ruleslawyer-site.json",
                                                                               ".ruleslawyer-site.lock"]
