"""BattleScribe: one reader for the schema as XML (.cat/.gst) or JSON (11th edition BSData)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleslawyer.ingest.pipeline import gather, ingest_paths
from ruleslawyer.ingest.sources.battlescribe import detect
from ruleslawyer.ingest.sources.bs_text import plain
from ruleslawyer.ingest.sources.bs_tree import read_tree
from ruleslawyer.records_json import to_dict
from ruleslawyer.store import Store
from tests.bs_samples import CATALOGUE, NS, SYS_NS, SYSTEM, write_pair

def records_of(cat: Path):
    source = detect(cat)
    assert source is not None
    return list(source.records()), source


def comparable(records) -> list[dict]:
    out = []
    for r in records:
        d = to_dict(r)
        d.pop("source")
        out.append(d)
    return sorted(out, key=lambda d: (d["kind"], d["name"]))


def test_json_and_xml_give_the_same_records(tmp_path):
    from_json, _ = records_of(write_pair(tmp_path / "j", "json"))
    from_xml, _ = records_of(write_pair(tmp_path / "x", "xml"))
    assert comparable(from_json) == comparable(from_xml)
    assert {r.kind for r in from_json} == {"datasheet", "detachment_rule", "enhancement", "rule", "stratagem"}


def test_datasheet_fields(tmp_path):
    recs, source = records_of(write_pair(tmp_path, "json"))
    assert source.edition == 11  # from the game system's own name
    sheet = next(r for r in recs if r.kind == "datasheet")
    assert sheet.name == "Test Squad" and sheet.faction == "Testers" and sheet.edition == 11
    assert sheet.invulnerable_save == "5+"
    assert sheet.profiles[0].stats == {"M": '6"', "T": "4", "Sv": "3+", "W": "2", "Ld": "6+", "OC": "1"}
    assert [(c.models, c.points) for c in sheet.points] == [("5", 80), ("10", 160)]
    assert sheet.support is not None and sheet.leader is None
    assert sheet.support.attaches_to == ("Target Drones",)
    assert sheet.weapons[0].abilities == ("assault", "heavy")
    abilities = {a.name: a.text for a in sheet.abilities}
    assert abilities["Steady Aim"] == "Add 1 to hit rolls of this unit's attacks."  # markup and quotes plain
    assert abilities["Test Protocols"] == ""  # a rule the datasheet names; its text is the rule record
    assert sheet.faction_keywords == ("Testers",) and sheet.keywords == ("Infantry",)
    assert sheet.source.version == "3"


def test_detachment_and_enhancement(tmp_path):
    recs, _ = records_of(write_pair(tmp_path, "xml"))
    rule = next(r for r in recs if r.kind == "detachment_rule")
    assert (rule.name, rule.group, rule.detachment_points, rule.force_disposition) == (
        "Careful Testing", "Test Cadre", 2, "Take and Hold")
    assert rule.text == '- Re-roll hit rolls of 1.\n- Add 1" to Move.'
    enh = next(r for r in recs if r.kind == "enhancement")
    assert (enh.name, enh.points, enh.group, enh.text) == ("Test Relic", 15, "Test Cadre",
                                                           "The bearer has the Stealth ability.")


def test_stratagem_profiles(tmp_path):
    recs, _ = records_of(write_pair(tmp_path, "json"))
    strat = next(r for r in recs if r.kind == "stratagem")
    assert (strat.name, strat.cp, strat.category, strat.group, strat.when, strat.effect) == (
        "Test Volley", 1, "Battle Tactic", "Test Cadre", "Your Shooting phase.", "Re-roll wound rolls of 1.")


def test_root_after_4kb_is_still_a_catalogue(tmp_path):
    cat = write_pair(tmp_path, "xml", comment_bytes=6000)
    recs, _ = records_of(cat)
    assert any(r.kind == "datasheet" for r in recs)


@pytest.mark.parametrize("bad", ["lots", "inf", "NaN", "1e400"])
def test_bad_numbers_are_warnings_not_errors(tmp_path, bad):
    data = json.loads(json.dumps(CATALOGUE))
    unit = data["catalogue"]["sharedSelectionEntries"][0]
    unit["costs"][0]["value"] = bad
    unit["selectionEntryGroups"][0]["constraints"][0]["value"] = bad
    (tmp_path / "System.json").write_text(json.dumps(SYSTEM), encoding="utf-8")
    cat = tmp_path / "Testers.json"
    cat.write_text(json.dumps(data), encoding="utf-8")
    with Store(tmp_path / "s.sqlite") as store:
        report = ingest_paths(store, [cat])
        assert not report.failed
        result = report.results[0]
        assert result.kinds.get("datasheet") == 1
        assert any(bad in w for w in result.warnings)


def test_broken_game_system_does_not_fail_the_catalogue(tmp_path):
    cat = write_pair(tmp_path, "xml")
    (tmp_path / "System.gst").write_text(f'<gameSystem xmlns="{SYS_NS}" name="x"><broken', encoding="utf-8")
    with Store(tmp_path / "s.sqlite") as store:
        report = ingest_paths(store, [cat, tmp_path / "System.gst"])
        by_name = {Path(r.path).name: r for r in report.results}
        assert by_name["Testers.cat"].status == "ingested"
        assert any("System.gst" in w for w in by_name["Testers.cat"].warnings)
        assert by_name["System.gst"].status == "failed" and "System.gst" in by_name["System.gst"].error


def test_folder_walk_offers_json_catalogues(tmp_path):
    write_pair(tmp_path, "json")
    (tmp_path / "notes.json").write_text('{"not": "battlescribe"}', encoding="utf-8")
    names = sorted(Path(str(i.path)).name for i in gather([tmp_path]) if hasattr(i, "records"))
    assert names == ["System.json", "Testers.json"]


def test_markup_is_plain_text():
    assert plain("^^**Destroyer Cult, Monster^^** and **^^Titanic^^** models") == \
        "Destroyer Cult, Monster and Titanic models"
    assert plain("a\u00a0b \u2011 c\n\n\u25a0 IMMORTALS") == "a b - c\n- IMMORTALS"


def test_read_tree_refuses_junk(tmp_path):
    from ruleslawyer.errors import LoadError
    bad = tmp_path / "x.json"
    bad.write_text('{"catalogue": {"name": "x", ', encoding="utf-8")
    with pytest.raises(LoadError, match="x.json"):
        read_tree(bad)


# ------------------------------------------------------------------ the real 11th edition data
def test_real_11th_edition_catalogues(shared):
    folder = shared / "realdata" / "e11" / "bsdata"
    for cat, unit, wounds, invuln in (("Necrons.json", "Overlord", "6", "4+"), ("Orks.json", "Warboss", "6", "5+")):
        recs, source = records_of(folder / cat)
        assert source.edition == 11
        sheet = next(r for r in recs if r.kind == "datasheet" and r.name == unit)
        assert sheet.edition == 11 and sheet.profiles[0].stats["W"] == wounds and sheet.invulnerable_save == invuln
        kinds = {r.kind for r in recs}
        assert {"datasheet", "enhancement", "detachment_rule"} <= kinds
        # every detachment rule belongs to a detachment; no rule text keeps the markup
        assert all(r.group for r in recs if r.kind == "detachment_rule")
        assert not any("^^" in getattr(r, "text", "") or "**" in getattr(r, "text", "") for r in recs)


def test_real_11th_edition_repeat_tiers(shared):
    """The surcharge on later copies of a datasheet becomes the 11th edition tiers (as the MFM prints them)."""
    recs, _ = records_of(shared / "realdata" / "e11" / "bsdata" / "Necrons.json")
    sheets = {r.name: r for r in recs if r.kind == "datasheet"}
    assert [(c.models, c.tier) for c in sheets["Technomancer"].points] == [("1", "1st"), ("1", "2nd+")]
    ark = sheets["Doomsday Ark"].points
    assert [c.tier for c in ark] == ["1st-2nd", "3rd+"] and ark[1].points - ark[0].points == 20
    assert all(c.tier is None for c in sheets["Necron Warriors"].points)


def test_real_10th_edition_detachments(shared):
    recs, source = records_of(shared / "realdata" / "BSData__wh40k-10e" / "Necrons.cat")
    assert source.edition == 10
    enhancements = [r for r in recs if r.kind == "enhancement"]
    assert enhancements and all(r.group for r in enhancements)
    warriors = next(r for r in recs if r.kind == "datasheet" and r.name == "Necron Warriors")
    assert [c.models for c in warriors.points] == ["10", "20"]


def test_units_from_a_linked_library(tmp_path):
    """A chapter catalogue whose datasheets live in a shared library catalogue beside it."""
    write_pair(tmp_path, "json")
    library = json.loads(json.dumps(CATALOGUE))
    library["catalogue"].update({"id": "lib-1", "name": "Library - Testers", "library": True})
    (tmp_path / "Testers.json").write_text(json.dumps(library), encoding="utf-8")
    chapter = {"catalogue": {
        "entryLinks": [{"id": "el-1", "targetId": "u-1", "type": "selectionEntry", "name": "Test Squad"}],
        "catalogueLinks": [{"id": "cl-1", "targetId": "lib-1", "type": "catalogue", "name": "Library - Testers"}],
        "xmlns": NS, "id": "cat-2", "name": "Imperium - Test Chapter", "revision": 1, "type": "catalogue"}}
    cat = tmp_path / "Chapter.json"
    cat.write_text(json.dumps(chapter), encoding="utf-8")
    source = detect(cat)
    assert {p.name for p in source.files} == {"Chapter.json", "System.json", "Testers.json"}
    sheets = [r for r in source.records() if r.kind == "datasheet"]
    assert [(s.name, s.faction, s.edition, s.invulnerable_save) for s in sheets] == [
        ("Test Squad", "Test Chapter", 11, "5+")]


def test_folder_walk_skips_other_json_and_names_a_bad_cat(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "x"}', encoding="utf-8")
    (tmp_path / "Broken.cat").write_text("<notbattlescribe/>", encoding="utf-8")
    items = gather([tmp_path])
    assert len(items) == 1 and items[0].status == "failed" and "Broken.cat" in items[0].error


# ------------------------------------------------------------------ an unseen faction (the held-out check)
def _disguised(path: Path, old: str, new: str, seed: int) -> dict:
    """A real catalogue made into another faction's: its faction word renamed in every name and
    text, every id it defines replaced (consistently, references too), object keys and the
    top-level lists shuffled. The BattleScribe structure is all that stays the same."""
    import random
    import re

    rng = random.Random(seed)
    data = json.loads(path.read_text(encoding="utf-8"))
    ids: dict[str, str] = {}

    def collect(node):
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                ids.setdefault(node["id"], "-".join(f"{rng.randrange(16 ** 4):04x}" for _ in range(4)))
            for v in node.values():
                collect(v)
        elif isinstance(node, list):
            for v in node:
                collect(v)

    collect(data)
    word = re.compile(rf"\b{old}", re.I)

    def walk(node, key=None):
        if isinstance(node, dict):
            items = [(k, walk(v, k)) for k, v in node.items()]
            rng.shuffle(items)
            return dict(items)
        if isinstance(node, list):
            out = [walk(v, key) for v in node]
            if key in ("sharedSelectionEntries", "entryLinks", "categoryEntries", "sharedProfiles"):
                rng.shuffle(out)
            return out
        if isinstance(node, str):
            if node in ids:
                return ids[node]
            if key in ("name", "$text", "description", None):
                return word.sub(lambda m: new if m.group(0)[0].isupper() else new.lower(), node)
        return node

    return walk(data)


def _unit_facts(catalogue: dict) -> dict[str, tuple[str, str | None, str | None]]:
    """Each unit the catalogue's root offers (entry links to shared entries) with a Unit profile of
    its own: name -> (profile name, W, InSv), read straight from the JSON."""
    root = catalogue["catalogue"]
    shared_entries = {e["id"]: e for e in root["sharedSelectionEntries"]}
    out = {}
    for link in root["entryLinks"]:
        entry = shared_entries.get(link.get("targetId"))
        profiles = [p for p in (entry or {}).get("profiles", []) if p.get("typeName") == "Unit"]
        if entry is None or not profiles:
            continue
        stats = {c["name"]: c.get("$text") for c in profiles[0]["characteristics"]}
        invuln = stats.get("InSv")
        out[entry["name"]] = (profiles[0]["name"], stats.get("W"), invuln if invuln not in (None, "", "-") else None)
    return out


@pytest.mark.parametrize("source, old, new", [("Orks.json", "Ork", "Grox"), ("Necrons.json", "Necron", "Tombkin")])
def test_an_unseen_faction_gives_edition_wounds_and_invulnerable_save(shared, tmp_path, monkeypatch, source, old, new):
    """`show "<unit>" --json` of a faction the reader has never seen gives edition 11, the profile's
    W and the invulnerable save, for units across the catalogue."""
    from click.testing import CliRunner

    from ruleslawyer.cli.main import cli

    folder = shared / "realdata" / "e11" / "bsdata"
    catalogue = _disguised(folder / source, old, new, seed=len(source))
    (tmp_path / f"{new}.json").write_text(json.dumps(catalogue, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "Warhammer_40_000.json").write_bytes((folder / "Warhammer_40_000.json").read_bytes())
    db = tmp_path / "held.sqlite"
    with Store(db) as store:
        ingest_paths(store, [tmp_path / f"{new}.json", tmp_path / "Warhammer_40_000.json"])
    facts = _unit_facts(catalogue)
    assert len(facts) > 40
    monkeypatch.setenv("RULESLAWYER_DB", str(db))
    runner = CliRunner()
    names = sorted(facts)[:: max(1, len(facts) // 12)]  # a dozen spread over the alphabet
    assert any(facts[n][2] for n in names) and any(not facts[n][2] for n in names)
    for name in names:
        result = runner.invoke(cli, ["show", name, "--json"])
        assert result.exit_code == 0, (name, result.output)
        data = json.loads(result.output[result.output.index("{"):])
        profile_name, wounds, invuln = facts[name]
        profile = next(p for p in data["profiles"] if p["name"] == profile_name)
        assert (data["edition"], profile["W"], data["invulnerable_save"]) == (11, wounds, invuln), name
        assert data["faction"] and new.lower() in data["faction"].lower()
