"""Stratagem cards and lists on small documents, the `stratagems` command, and real pages."""
from __future__ import annotations

import json
from functools import lru_cache

import pytest

from ruleslawyer.cli.main import cli
from ruleslawyer.ingest.formats import load_bytes, load_file
from ruleslawyer.ingest.parse.parsing import parse_document
from ruleslawyer.library.queries import filter_stratagems
from ruleslawyer.records import Stratagem, Source
from ruleslawyer.termview import format_record
from tests.conftest import seed_path


@lru_cache(maxsize=None)
def _load(path):
    return load_file(path)


@lru_cache(maxsize=None)
def _records(path):
    """Every record the full pipeline finds in a real page (parsed once per test session)."""
    return tuple(parse_document(_load(path)))


def _parse_text(text: str):
    return parse_document(load_bytes(text.encode(), "page.txt"))


def _gold(shared, seed):
    """The gold records for a seed, read at test time."""
    return [json.loads(line) for line in (shared / "gold" / f"{seed.stem}.jsonl").read_text().splitlines() if line]


def _kind(records, kind):
    return [r for r in records if r.kind == kind]


CARD = """\
Necrons – Test Page
ALPHA STRIKE
2CP
Test Legion – Battle Tactic Stratagem
Flavour before the rules.
WHEN: Your Shooting phase.

TARGET: One friendly squad that
stands in the open.

EFFECT: Its guns ring twice as loud this turn.

RESTRICTIONS: Once per battle.
"""


def test_card_fields_and_flavour():
    (s,) = _kind(_parse_text(CARD), "stratagem")
    assert (s.name, s.cp, s.group, s.category, s.faction) == ("Alpha Strike", 2, "Test Legion", "Battle Tactic", "Necrons")
    assert s.fluff == "Flavour before the rules."
    assert s.when == "Your Shooting phase."
    assert s.target == "One friendly squad that stands in the open."  # a broken line joined
    assert s.effect == "Its guns ring twice as loud this turn."
    assert s.restrictions == "Once per battle."


def test_list_entry_and_card_merge_into_one_record():
    text = "STRATAGEMS\nALPHA STRIKE\n2CP\nTest Legion – Battle Tactic\nC\nBETA WAVE\n1CP\nCore – Epic Deed\nC\n" + CARD
    found = _kind(_parse_text(text), "stratagem")
    assert sorted(s.name for s in found) == ["Alpha Strike", "Beta Wave"]
    beta = next(s for s in found if s.name == "Beta Wave")
    # Listed by name, cost and group only: no rules text, and Core belongs to no faction.
    assert (beta.when, beta.effect, beta.faction, beta.group) == (None, None, None, "Core")
    alpha = next(s for s in found if s.name == "Alpha Strike")
    assert alpha.effect.startswith("Its guns ring")


def test_name_and_cost_on_one_line_and_labels_in_one_block():
    doc = "GAMMA RAY 1CP\nTest Legion – Strategic Ploy\nWHEN: Fight phase. TARGET: One unit. EFFECT: It fights first.\n"
    (s,) = _kind(_parse_text(doc), "stratagem")
    assert (s.name, s.cp, s.when, s.target, s.effect) == ("Gamma Ray", 1, "Fight phase.", "One unit.", "It fights first.")


def test_furniture_between_cards_is_not_text():
    doc = CARD + "Hide Ads\nOn Boosty? Enter your code to hide these ads:\n"
    (s,) = _kind(_parse_text(doc), "stratagem")
    assert "Boosty" not in (s.restrictions or "")
    assert not [r for r in _parse_text(doc) if "Boosty" in str(r)]


def test_filter_stratagems():
    src = Source("x.txt")
    records = [Stratagem("A", src, faction="Necrons", cp=1, category="Battle Tactic", group="Awakened Dynasty",
                         when="Your Shooting phase."),
               Stratagem("B", src, faction=None, cp=2, category="Strategic Ploy", group="Core", when="Fight phase."),
               Stratagem("C", src, faction="Necrons", cp=2, category="Epic Deed", group="Canoptek Court",
                         when="Any phase.")]
    names = lambda **kw: [r.name for r in filter_stratagems(records, **kw)]
    assert names(faction="necrons") == ["A", "C"]
    assert names(faction="none") == ["B"]
    assert names(category="BATTLE TACTIC") == ["A"]
    assert names(phase="shooting") == ["A"]
    assert names(cp=2, group="canoptek") == ["C"]


# ---------------------------------------------------------------- the command
def test_stratagems_command_lists_the_seed_battle_tactics(runner, shared):
    """The Necron Battle Tactics of seed 001: the expected set comes from the gold file."""
    seed = seed_path(shared, "001", ".txt")
    assert runner.invoke(cli, ["ingest", str(seed)]).exit_code == 0
    expected = sorted(g["name"].casefold() for g in _gold(shared, seed) if g["kind"] == "stratagem"
                      and g["faction"] == "Necrons" and g["category"] == "Battle Tactic")
    assert expected  # the seed has some
    result = runner.invoke(cli, ["stratagems", "--faction", "necrons", "--category", "battle tactic", "--json"])
    assert result.exit_code == 0, result.output
    got = sorted(json.loads(line)["name"].casefold() for line in result.output.splitlines())
    assert got == expected
    table = runner.invoke(cli, ["stratagems", "--faction", "necrons", "--category", "battle tactic"])
    assert table.exit_code == 0
    lines = table.output.splitlines()
    assert lines[0].split() == ["NAME", "CP", "CATEGORY", "GROUP", "WHEN"]
    assert lines[-1] == f"{len(expected)} stratagems"
    assert sorted(line.split("  ")[0].strip().casefold() for line in lines[1:-1]) == expected


def test_show_lays_out_a_stratagem(runner, shared):
    seed = seed_path(shared, "001", ".txt")
    runner.invoke(cli, ["ingest", str(seed)])
    gold = next(g for g in _gold(shared, seed) if g["kind"] == "stratagem" and g["name"] == "Protocol of the Hungry Void")
    result = runner.invoke(cli, ["show", "--kind", "stratagem", "protocol of the hungry void"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "PROTOCOL OF THE HUNGRY VOID  1CP"
    assert lines[1].startswith("Awakened Dynasty – Battle Tactic")
    assert any(line == f"WHEN:     {gold['when']}" for line in lines)  # short enough for one line
    assert [line.split(":")[0] for line in lines if line[:1].isupper() and ":" in line[:14]] == \
        ["WHEN", "TARGET", "EFFECT", "Source"]


def test_stratagems_command_no_match(runner, shared):
    runner.invoke(cli, ["ingest", str(seed_path(shared, "001", ".txt"))])
    result = runner.invoke(cli, ["stratagems", "--cp", "9"])
    assert result.exit_code == 0
    assert "No stratagems match" in result.output


# ---------------------------------------------------------------- real pages
@pytest.fixture(scope="module")
def necrons_page(shared):
    return _records(shared / "realdata" / "AndrewDeWitt__GrimLog" / "necrons_faction_page.html")


def test_faction_page_stratagems(necrons_page):
    """53 stratagem cards are printed; 4 are tooltip copies of cards shown above them."""
    found = _kind(necrons_page, "stratagem")
    assert len(found) == 49
    assert len({(s.name, s.group) for s in found}) == 49
    revenant = next(s for s in found if s.name == "Protocol of the Eternal Revenant")
    assert (revenant.cp, revenant.group, revenant.category, revenant.faction) == \
        (1, "Awakened Dynasty", "Epic Deed", "Necrons")
    assert revenant.when.startswith("Any phase")
    vengeful = next(s for s in found if s.name == "Protocol of the Vengeful Stars")
    assert vengeful.cp == 2
    assert all(s.when and s.effect for s in found)


def test_faction_page_detachments_and_enhancements(necrons_page):
    rules = {r.name: r for r in _kind(necrons_page, "detachment_rule")}
    assert rules["Command Protocols"].group == "Awakened Dynasty"
    assert rules["Conquest Protocols"].group == "Tomb Ship Complement"
    assert rules["Relentless Onslaught"].group == "Starshatter Arsenal"
    enh = {r.name: r for r in _kind(necrons_page, "enhancement")}
    veil = enh["Veil of Darkness"]
    assert (veil.points, veil.group) == (20, "Awakened Dynasty")
    # Restrictions name keywords; the card's flavour and rules text stay out of them.
    assert veil.restriction.startswith("NECRONS") and len(veil.restriction.split()) <= 4
    majesty = enh["Dread Majesty (Aura)"].restriction
    assert "OVERLORD" in majesty and "CATACOMB COMMAND BARGE" in majesty and len(majesty.split()) <= 8
    assert enh["Resurrection Protocols"].points is None
    army = [r for r in _kind(necrons_page, "rule") if r.name == "Reanimation Protocols"]
    assert army and army[0].faction == "Necrons" and army[0].fluff


def test_faction_page_faq_section_does_not_hide_the_rest(necrons_page):
    """The page's FAQ section gives faq records; the detachments around it are still read."""
    assert {r.kind for r in necrons_page} >= {"faq", "stratagem", "enhancement", "detachment_rule", "rule"}


@pytest.mark.parametrize("page, count", [("astra-militarum_Kasrkin", 37), ("tyranids_Hive_Tyrant", 39),
                                         ("astra-militarum_Baneblade", 17)])
def test_datasheet_page_stratagems(shared, page, count):
    """Each datasheet page lists `count` stratagems (name, cost, type) and prints every card."""
    records = _records(shared / "realdata" / "AndrewDeWitt__GrimLog" / f"{page}.html")
    found = _kind(records, "stratagem")
    assert len(found) == count
    assert all(s.when and s.effect for s in found)
    core = {s.name: s for s in found if s.group == "Core"}
    assert core["Command Re-roll"].cp == 1 and core["Command Re-roll"].faction is None
    assert core["Command Re-roll"].category == "Battle Tactic"


def test_grizzled_company_has_no_category(shared):
    records = _records(shared / "realdata" / "AndrewDeWitt__GrimLog" / "astra-militarum_Kasrkin.html")
    no_retreat = next(s for s in _kind(records, "stratagem") if s.name == "No Retreat!")
    assert (no_retreat.group, no_retreat.category, no_retreat.cp) == ("Grizzled Company", None, 1)
    assert "Command phase" in no_retreat.when


def test_core_stratagems_pdf(shared):
    records = _records(shared / "realdata" / "GregSQT__40k" / "15_Stratagems.pdf")
    found = {s.name: s for s in _kind(records, "stratagem")}
    assert len(found) == 10
    assert found["Command Re-roll"].cp == 1 and found["Command Re-roll"].group == "Core"
    assert "Movement phase" in found["Rapid Ingress"].when


def test_terminal_view_marks_errata():
    from ruleslawyer.records import Change

    s = Stratagem("Alpha", Source("x.txt"), cp=1, group="Core", category="Epic Deed", when="Any phase.",
                  effect="Add 2 to the roll.",
                  changes=(Change("Core Book", "1.7", "12", "replace", None, "Add 1 to the roll.", "Add 2 to the roll."),))
    out = format_record(s, 80)
    assert "EFFECT:   »Add 2 to the roll.«" in out
    assert "- Core Book, version 1.7, page 12: replace" in out
