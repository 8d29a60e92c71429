"""Versioned points: MFM YAML and its changelog, saved points-website pages, `ruleslawyer points`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleslawyer.errors import NotFoundError, QueryError
from ruleslawyer.ingest.sources.mfm import detect
from ruleslawyer.ingest.sources.mfm_changelog import tier_of
from ruleslawyer.ingest.sources.mfm_html import detect as detect_page
from ruleslawyer.library.points import current_points, points_changes, points_of, version_key

META = 'version: "1.1"\nlastUpdated: 2026-07-22\nfactions:\n  - testers\n'
FACTION = """name: Testers
slug: testers
version: "1.1"
detachments:
  - name: Test Host
    dp: 2
    objective: PURGE THE FOE
    enhancements:
      - { name: Test Relic, points: 20 }
units:
  - name: Test Squad
    pricing:
      - range: "[1,2]"
        label: Your 1st To 2nd Units Cost
        costs:
          - { models: 5, points: 60 }
          - { models: 10, points: 120 }
      - range: "[3,)"
        label: Your 3rd + Unit Costs
        costs:
          - { models: 5, points: 70 }
    wargear:
      - { item: Test cannon, points: 10 }
  - name: Test Walker
    pricing:
      - range: "[1,)"
        label: Your Unit Costs
        costs:
          - { models: 1, points: 140 }
  - name: Test Hero
    pricing:
      - range: "[1,)"
        costs:
          - { models: 1, points: 80 }
"""
CHANGELOG = """# Data changelog

## [2026-07-22] — MFM v1.1

### Added
- **Testers**: Test Hero — 1 model (80 pts)
- **Other Faction**: Not Here — 1 model (50 pts)

### Changed
- **Testers**: Test Squad — 5 models [[1,2]]: 55 → 60 pts (+5)
- **Testers**: Test Host — DP: 3 → 2
- **Testers**: Test Host · Test Relic: 25 → 20 pts (-5)
- **Testers**: v1.0 → v1.1

### Removed
- **Testers**: removed Old Tank — 1 model (was 200 pts)

## [2026-06-22] — MFM v1.0

### Added
- Initial dataset baseline.
"""


def make_mfm(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meta.yaml").write_text(META, encoding="utf-8")
    (folder / "testers.yaml").write_text(FACTION, encoding="utf-8")
    (folder / "DATA-CHANGELOG.md").write_text(CHANGELOG, encoding="utf-8")
    return folder


def test_current_points_from_yaml(tmp_path):
    source = detect(make_mfm(tmp_path))
    recs = list(source.records())
    squad = next(r for r in recs if r.name == "Test Squad" and r.version == "1.1")
    assert [(c.models, c.points, c.tier) for c in squad.costs] == [("5", 60, "1st-2nd"), ("10", 120, "1st-2nd"),
                                                                   ("5", 70, "3rd+")]
    assert [(w.name, w.points) for w in squad.wargear_costs] == [("Test cannon", 10)]
    host = next(r for r in recs if r.name == "Test Host" and r.version == "1.1")
    assert (host.target_kind, host.detachment_points, host.wargear_costs[0].points) == ("detachment", 2, 20)
    assert squad.edition == 11 and squad.source.version == "1.1" and squad.source.date == "2026-07-22"
    assert not source.warnings


def test_changelog_gives_the_previous_version(tmp_path):
    recs = list(detect(make_mfm(tmp_path)).records())
    old, new, changes = points_changes(recs)
    assert (old, new) == ("1.0", "1.1")
    by_name = {c.name: c for c in changes}
    assert set(by_name) == {"Test Squad", "Test Host", "Test Hero", "Old Tank"}  # no other faction, no walker
    squad = by_name["Test Squad"]
    assert {(c.models, c.points) for c in squad.before.costs if c.tier == "1st-2nd"} == {("5", 55), ("10", 120)}
    assert by_name["Test Host"].before.detachment_points == 3
    assert by_name["Test Host"].before.wargear_costs[0].points == 25
    assert by_name["Test Hero"].status == "added" and by_name["Old Tank"].status == "removed"
    assert by_name["Old Tank"].before.costs[0].points == 200


def test_library_lookups(tmp_path):
    recs = list(detect(make_mfm(tmp_path)).records())
    assert [p.version for p in current_points(recs, "test squad")] == ["1.1"]
    assert [p.name for p in current_points(recs, "walker", faction="test")] == ["Test Walker"]
    with pytest.raises(NotFoundError):
        current_points(recs, "nothing like it")
    with pytest.raises(NotFoundError) as info:
        current_points(recs, faction="orks")
    assert info.value.suggestions == ["Testers"]
    with pytest.raises(NotFoundError):
        points_changes(recs, old="0.9")
    with pytest.raises(QueryError):
        points_changes([r for r in recs if r.version == "1.1"])
    assert version_key("1.10") > version_key("1.9") > version_key("v1.1")
    assert points_of(recs, "TEST SQUAD", "Testers").version == "1.1"
    assert points_of(recs, "Old Tank") is None  # removed in the newest version
    assert points_of(recs, "Test Host", target_kind="detachment").detachment_points == 2


def test_single_faction_file(tmp_path):
    path = tmp_path / "testers.yaml"
    path.write_text(FACTION, encoding="utf-8")
    recs = list(detect(path).records())
    assert {r.name for r in recs} == {"Test Squad", "Test Walker", "Test Hero", "Test Host"}
    assert detect(tmp_path / "nothing.yaml") is None


def test_tier_ranges():
    assert (tier_of("[1,2]"), tier_of("[3,)"), tier_of("[1,)"), tier_of("[1,1]")) == ("1st-2nd", "3rd+", None, "1st")


PAGE = """<html><head><title>Warhammer 40,000: Munitorum Field Manual</title></head><body>
<div>TESTERS</div><div>v1.1</div><div>DETACHMENTS</div>
<div>TEST HOST</div><div>2DP</div><div>PURGE THE FOE</div><div>ENHANCEMENTS</div>
<div>Test Relic</div><div>20 pts</div>
<template id="P:1"></template>
<div hidden id="S:1"><div>TEST SQUAD</div><div>▲</div><div>YOUR 1ST TO 2ND UNITS COST</div><div>5 models</div>
<div>▲ (+5) 60 pts</div><div>YOUR 3RD + UNIT COSTS</div><div>5 models</div><div>70 pts</div>
<div>SUPPORT</div><div>TEST WALKER</div></div>
<script>$RS("S:1","P:1")</script></body></html>"""


def test_points_web_page(tmp_path):
    page = tmp_path / "mfm_testers.html"
    page.write_text(PAGE, encoding="utf-8")
    source = detect_page(page)
    recs = list(source.records())
    squad = next(r for r in recs if r.name == "Test Squad")
    assert (squad.faction, squad.version) == ("Testers", "1.1")
    assert [(c.models, c.points, c.tier) for c in squad.costs] == [("5", 60, "1st-2nd"), ("5", 70, "3rd+")]
    host = next(r for r in recs if r.name == "Test Host")
    assert (host.detachment_points, [(w.name, w.points) for w in host.wargear_costs]) == (2, [("Test Relic", 20)])
    index = tmp_path / "mfm_index.html"
    index.write_text(PAGE.split("<div>TESTERS")[0] + "</body></html>", encoding="utf-8")
    source = detect_page(index)
    assert list(source.records()) == [] and source.warnings  # said, not junk


def test_cli_points(runner, tmp_path):
    from ruleslawyer.cli.main import cli

    folder = make_mfm(tmp_path / "mfm")
    assert runner.invoke(cli, ["ingest", str(folder)]).exit_code == 0
    out = runner.invoke(cli, ["points", "test squad"])
    assert out.exit_code == 0 and "5: 60, 10: 120 (1st-2nd)" in out.output
    out = runner.invoke(cli, ["points", "--changes", "--from", "1.0", "--to", "1.1"])
    assert out.exit_code == 0 and "v1.0 -> v1.1" in out.output and "Old Tank [removed]" in out.output
    out = runner.invoke(cli, ["points", "--changes", "--json"])
    rows = [json.loads(line) for line in out.output.splitlines()]
    assert {r["status"] for r in rows} == {"added", "changed", "removed"}
    out = runner.invoke(cli, ["points", "--faction", "nosuch"])
    assert out.exit_code == 1 and out.output.count("\n") == 1 and "Testers" in out.output


@pytest.mark.parametrize("typed, bare, count", [
    ("10 boyz", "boyz", 10), ("10x boyz", "boyz", 10), ("boyz x10", "boyz", 10), ("boyz (20)", "boyz", 20),
    ("20 gretchin", "gretchin", 20), ("boyz", "boyz", None), ("doomsday ark", "doomsday ark", None),
])
def test_a_model_count_typed_with_the_name_is_split_off(typed, bare, count):
    from ruleslawyer.library.points import model_count

    assert model_count(typed) == (bare, count)


def test_cli_points_of_one_unit_size(runner, tmp_path):
    """"10 test squad" is the Test Squad's 10-model price, in every tier the list has; a size
    the list does not price is an error naming the sizes it does."""
    from ruleslawyer.cli.main import cli

    assert runner.invoke(cli, ["ingest", str(make_mfm(tmp_path / "mfm"))]).exit_code == 0
    for typed in ("10 test squad", "test squad x10"):
        out = runner.invoke(cli, ["points", typed])
        assert out.exit_code == 0, out.output
        line = out.output.splitlines()[0]
        assert "Test Squad" in line and "10: 120 (1st-2nd)" in line and "5:" not in line
    out = runner.invoke(cli, ["points", "7 test squad"])
    assert out.exit_code == 1 and out.output.count("\n") == 1 and "5, 10" in out.output


def test_real_mfm_yaml_and_page_agree(shared):
    e11 = shared / "realdata" / "e11"
    yaml_recs = [r for r in detect(e11 / "mfm").records()
                 if r.kind == "points" and r.faction == "Necrons" and r.version == "1.1"]
    page_recs = {(r.target_kind, r.name.casefold()): r for r in detect_page(e11 / "html" / "mfm_necrons.html").records()}
    compared = 0
    for r in yaml_recs:
        other = page_recs.get((r.target_kind, r.name.casefold()))
        if other is None:
            continue  # Legends units are not on the saved page
        compared += 1
        assert set(other.costs) == set(r.costs) and other.detachment_points == r.detachment_points
    assert compared >= 50
    old, new, changes = points_changes(list(detect(e11 / "mfm").records()))
    ark = next(c for c in changes if c.name == "Doomsday Ark")
    assert (old, new) == ("1.0", "1.1")
    assert {c.points for c in ark.before.costs} == {200, 220} and {c.points for c in ark.after.costs} == {210, 230}


def test_pdf_without_text_layer(shared):
    from ruleslawyer.errors import LoadError
    from ruleslawyer.ingest.formats import load_file

    with pytest.raises(LoadError, match=r"no text layer \(scanned or outlined text\); OCR is not supported"):
        load_file(shared / "realdata" / "e11" / "pdf" / "armageddon_Orks_-_Munitorum_UK.pdf")


@pytest.mark.parametrize("damage", [
    ("    pricing:\n      - range", "    pricing: lots\n    x:\n      - range"),
    ("{ models: 5, points: 60 }", "{ models: 5, points: sixty }"),
    ("{ models: 5, points: 60 }", "{ models: 5, points: .nan }"),
    ("units:\n", "units: 7\nnot_units:\n"),
    ("      - { name: Test Relic, points: 20 }", "      - just a string"),
])
def test_damaged_yaml_is_warned_not_a_crash(tmp_path, damage):
    path = tmp_path / "testers.yaml"
    path.write_text(FACTION.replace(*damage, 1), encoding="utf-8")
    source = detect(path)
    if source is None:
        return  # no longer looks like points data: not claimed at all
    list(source.records())
    assert source.warnings


def test_invalid_yaml_is_one_line(tmp_path):
    from ruleslawyer.errors import LoadError

    path = tmp_path / "testers.yaml"
    path.write_text(FACTION + "\n  - : [unclosed\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        list(detect(path).records())
    assert "testers.yaml" in str(info.value) and "\n" not in str(info.value)


DESCRIBED = """name: Testers
version: "1.1"
units:
  - name: Test Grots
    pricing:
      - range: "[1,)"
        costs:
          - { models: 10, points: 45, desc: 10 Grots }
          - { models: 11, points: 45, desc: "1 Herder, 10 Grots" }
          - { models: 1, points: 60, desc: Test Buggy, addon: true }
"""


def test_unit_size_descriptions_and_add_on_models(tmp_path):
    """A size the points list describes keeps its description; an add-on model is a cost on top
    of the unit (wargear), never a unit size of its own."""
    from ruleslawyer.library.points import costs_text

    path = tmp_path / "testers.yaml"
    path.write_text(DESCRIBED, encoding="utf-8")
    grots, = detect(path).records()
    assert [(c.models, c.points, c.description) for c in grots.costs] == [("10", 45, "10 Grots"),
                                                                         ("11", 45, "1 Herder, 10 Grots")]
    assert [(w.name, w.points) for w in grots.wargear_costs] == [("Test Buggy", 60)]
    assert costs_text(grots.costs) == "10 Grots: 45 pts; 1 Herder, 10 Grots: 45 pts"


def test_unit_cost_description_exports_only_when_known():
    """`description` is optional in the JSON shape: absent when unknown, and an older export
    without it loads as before."""
    from ruleslawyer.records import Points, Source, UnitCost
    from ruleslawyer.records_json import from_dict, to_dict

    plain = Points(name="A", source=Source(file="a.yaml"), costs=(UnitCost("5", 50),))
    described = Points(name="B", source=Source(file="a.yaml"), costs=(UnitCost("11", 45, None, "1 Herder, 10 Grots"),))
    assert to_dict(plain)["costs"] == [{"models": "5", "points": 50}]
    assert to_dict(described)["costs"] == [{"models": "11", "points": 45, "description": "1 Herder, 10 Grots"}]
    assert from_dict(to_dict(described)) == described and from_dict(to_dict(plain)) == plain


def test_real_gretchin_sizes_say_what_they_hold(shared):
    import yaml

    e11 = shared / "realdata" / "e11" / "mfm"
    data = yaml.safe_load((e11 / "orks.yaml").read_text(encoding="utf-8"))
    wanted = {(str(c["models"]), c["points"], c.get("desc")) for u in data["units"] if u["name"] == "Gretchin"
              for p in u["pricing"] for c in p["costs"]}
    grots = next(r for r in detect(e11).records() if r.name == "Gretchin" and r.version == "1.1")
    assert {(c.models, c.points, c.description) for c in grots.costs} == wanted
    assert any(d and "Runtherd" in d for _, _, d in wanted)


def test_points_web_page_sizes_said_by_what_they_hold(tmp_path):
    """On the points website a size may be given by what it holds ("1 Herder, 10 Grots"): a unit
    size (the counts added up) with its description, not a wargear item."""
    page = tmp_path / "mfm_testers.html"
    page.write_text(PAGE.replace("<div>SUPPORT</div>", "<div>TEST GROTS</div><div>YOUR UNIT COSTS</div>"
                                 "<div>10 Grots</div><div>45 pts</div><div>1 Herder, 10 Grots</div>"
                                 "<div>50 pts</div><div>SUPPORT</div>"), encoding="utf-8")
    grots = next(r for r in detect_page(page).records() if r.name == "Test Grots")
    assert [(c.models, c.points, c.description) for c in grots.costs] == [("10", 45, "10 Grots"),
                                                                         ("11", 50, "1 Herder, 10 Grots")]
    assert grots.wargear_costs == ()


def test_changes_compare_versions_of_one_edition():
    """An 11th edition list in v1.0 and v1.1 and a 10th edition list in v1.2: by default the
    newest edition's two newest versions are compared, never 11th v1.1 with 10th v1.2."""
    from ruleslawyer.library.points import changes_edition
    from ruleslawyer.records import Points, Source, UnitCost

    def price(edition, version, pts):
        return Points(name="Test Tank", source=Source(file=f"e{edition}_{version}.yaml"), edition=edition,
                      faction="Testers", version=version, costs=(UnitCost("1", pts),))

    recs = [price(11, "1.0", 100), price(11, "1.1", 110), price(10, "1.2", 90)]
    assert changes_edition(recs) == 11
    assert changes_edition(recs, 10) == 10
    assert changes_edition(recs, wanted=["1.2"]) == 10
    of_11 = [r for r in recs if r.edition == changes_edition(recs)]
    old, new, changes = points_changes(of_11)
    assert (old, new) == ("1.0", "1.1") and [c.after.costs[0].points for c in changes] == [110]


@pytest.mark.realdata
def test_real_necron_changes_are_of_the_11th_edition(shared, runner, tmp_path):
    from ruleslawyer.cli.main import cli

    db = str(tmp_path / "x.sqlite")
    for folder in (shared / "realdata" / "e11" / "mfm",):
        assert runner.invoke(cli, ["--db", db, "ingest", str(folder)]).exit_code == 0
    out = runner.invoke(cli, ["--db", db, "points", "--changes", "--faction", "necrons"])
    assert out.exit_code == 0, out.output
    assert "11th edition v1.0 -> v1.1" in out.output and "The Silent King" in out.output


def test_points_of_an_enhancement_by_name(runner, tmp_path):
    """An enhancement is priced by its detachment's points record: `points NAME` gives its current
    cost, its detachment and source; a bare `points` still lists units and detachments only."""
    from ruleslawyer.cli.main import cli

    folder = make_mfm(tmp_path / "mfm")
    assert runner.invoke(cli, ["ingest", str(folder)]).exit_code == 0
    recs = list(detect(folder).records())
    host = current_points(recs, "test host")[0]
    relic = host.wargear_costs[0]
    out = runner.invoke(cli, ["points", relic.name.lower()])
    assert out.exit_code == 0, out.output
    line = out.output.splitlines()[0]
    assert f"enhancement of {host.name}" in line and f"{relic.points} pts" in line and "v1.1" in line
    row = json.loads(runner.invoke(cli, ["points", relic.name, "--json"]).output.splitlines()[0])
    assert (row["kind"], row["detachment"]) == ("enhancement", host.name)
    listing = runner.invoke(cli, ["points"]).output
    assert "enhancement of" not in listing and host.name in listing


@pytest.mark.realdata
def test_real_enhancement_cost_is_the_newest_field_manual(shared, runner, tmp_path):
    """From the Hall of Armouries: the 11th edition MFM YAML's cost, not the 10th edition export's."""
    import yaml
    from ruleslawyer.cli.main import cli

    path = shared / "realdata" / "e11" / "mfm" / "adeptus-custodes.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    detachment, cost = next((d["name"], e["points"]) for d in data["detachments"] for e in d["enhancements"]
                            if e["name"].casefold() == "from the hall of armouries")
    db = str(tmp_path / "x.sqlite")
    assert runner.invoke(cli, ["--db", db, "ingest", str(path.parent)]).exit_code == 0
    out = runner.invoke(cli, ["--db", db, "points", "from the hall of armouries"])
    assert out.exit_code == 0, out.output
    assert f"enhancement of {detachment}" in out.output and f"{cost} pts" in out.output


def test_the_manuals_notes_are_notes_a_search_finds(tmp_path):
    """meta.yaml's notes say what the manual's terms mean: one note per "## " section."""
    folder = make_mfm(tmp_path)
    notes = ("version: \"1.1\"\nlastUpdated: 2026-07-22\nnotes: |-\n  You need points and **Test Points (TP)**.\n\n"
             "  ## TESTS\n\n  - **Test Points (TP)**: how many you spend depends on the game size.\n"
             "factions:\n  - testers\n")
    (folder / "meta.yaml").write_text(notes, encoding="utf-8")
    found = [r for r in detect(folder).records() if r.kind == "note"]
    assert [(n.name, n.text, n.version, n.edition) for n in found] == [
        ("Mustering an Army", "You need points and Test Points (TP).", "1.1", 11),
        ("Tests", "- Test Points (TP): how many you spend depends on the game size.", "1.1", 11)]
    assert all(n.source.file == "meta.yaml" and n.source.date == "2026-07-22" for n in found)
