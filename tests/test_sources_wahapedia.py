"""The Wahapedia CSV export: 11th edition columns, damaged copies, never stored short silently."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ruleslawyer.errors import LoadError
from ruleslawyer.ingest.pipeline import ingest_paths
from ruleslawyer.ingest.sources.wahapedia import detect
from ruleslawyer.ingest.sources.wahapedia11 import iso_date, tier_label, unit_costs
from ruleslawyer.store import Store

# A minimal 11th edition export: one datasheet with tiered costs and a SUPPORT box, one detachment.
TABLES = {
    "Factions.csv": "id|name|link|\nTS|Testers|https://wahapedia.ru/wh40k11ed/factions/testers|\n",
    "Source.csv": "id|name|type|edition|version|errata_date|errata_link|\n"
                  "000000001|Testers|Faction Pack|11|1.2|26.08.2026 0:00:00||\n",
    "Last_update.csv": "last_update|\n2026-09-13 03:43:55|\n",
    "Datasheets.csv": "id|name|faction_id|source_id|legend|role|loadout|transport|virtual|is_support|leader_head|"
                      "leader_footer|damaged_w|damaged_description|link|\n"
                      "000000001|Test Medic|TS|000000001|||||false|true|This model can support:|||||\n"
                      "000000002|Test Squad|TS|000000001|||||false|false||||||\n",
    "Datasheets_models.csv": "datasheet_id|line|name|M|T|Sv|inv_sv|inv_sv_descr|W|Ld|OC|base_size|base_size_descr|\n"
                             "000000001|1|Test Medic|6\"|4|4+|5||3|6+|1|32mm||\n"
                             "000000002|1|Tester|6\"|4|4+|-||1|7+|2|32mm||\n",
    "Datasheets_leader.csv": "leader_id|attached_id|\n000000001|000000002|\n",
    "Datasheets_abilities.csv": "datasheet_id|line|ability_id|model|name|description|type|parameter|\n",
    "Datasheets_keywords.csv": "datasheet_id|keyword|model|is_faction_keyword|\n",
    "Datasheets_models_cost.csv": "datasheet_id|line|description|cost|\n"
                                  "000000001|1|YOUR 1ST TO 2ND UNITS COST||\n000000001|2|1 model|60|\n"
                                  "000000001|3|YOUR 3RD + UNIT COSTS||\n000000001|4|1 model|70|\n"
                                  "000000001|5|WARGEAR OPTIONS||\n000000001|6|per Test kit|5|\n"
                                  "000000002|1|YOUR UNIT COSTS||\n000000002|2|10 models| 90|\n",
    "Datasheets_wargear.csv": "datasheet_id|line|line_in_wargear|dice|name|description|range|type|A|BS_WS|S|AP|D|\n"
                              "000000002|1|1||Test rifle|LETHAL HITS: non-VEHICLE, Rapid Fire 1|24|Ranged|2|4|4|0|1|\n",
    "Abilities.csv": "id|name|legend|faction_id|description|\n"
                     '000000009|Feel No Pain||| <div class="abName">FEEL NO PAIN<span class="h_number">24.12</span>'
                     "</div><p>Roll one D6 for each wound.</p>|\n",
    "Detachments.csv": "id|faction_id|name|legend|type|dp|force_disposition|\n000000765|TS|Test Host|||2|Purge the Foe|\n",
    "Detachment_abilities.csv": "id|faction_id|name|legend|description|detachment|detachment_id|\n"
                                "000000100|TS|Careful Aim||Re-roll hit rolls of 1.|Test Host|000000765|\n",
    "Enhancements.csv": "faction_id|name|id|cost|detachment|detachment_id|upgrade|legend|description|support_leader|\n"
                        "TS|Test Relic|000000200|20|Test Host|000000765|true||Testers model only. Add 1 to hits.||\n",
    "Stratagems.csv": "faction_id|name|id|type|cp_cost|legend|turn|phase|detachment|detachment_id|description|\n"
                      "TS|TEST STRIKE|000000300|Test Host – Battle Tactic Stratagem|1||Your turn|Any|Test Host|"
                      "000000765|<b>WHEN:</b> Any phase.<br><b>TARGET:</b> One unit.<br><b>EFFECT:</b> Hit.|\n",
}


def make_export(folder: Path, **changes: str | None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in {**TABLES, **changes}.items():
        if text is not None:
            (folder / name).write_text(text, encoding="utf-8")
    return folder


def records(folder: Path):
    source = detect(folder)
    return list(source.records()), source


def test_11th_edition_columns(tmp_path):
    recs, source = records(make_export(tmp_path))
    assert source.edition == 11
    medic = next(r for r in recs if r.kind == "datasheet" and r.name == "Test Medic")
    assert medic.edition == 11 and medic.leader is None
    assert medic.support is not None and medic.support.attaches_to == ("Test Squad",)
    assert [(c.models, c.points, c.tier) for c in medic.points] == [("1", 60, "1st-2nd"), ("1", 70, "3rd+")]
    assert [(w.name, w.points) for w in medic.wargear_costs] == [("Test kit", 5)]
    assert medic.invulnerable_save == "5+"
    assert (medic.source.date, medic.source.version) == ("2026-08-26", "1.2")
    squad = next(r for r in recs if r.kind == "datasheet" and r.name == "Test Squad")
    assert [(c.models, c.points, c.tier) for c in squad.points] == [("10", 90, None)]
    assert squad.weapons[0].abilities == ("lethal hits: non-vehicle", "rapid fire 1")
    rule = next(r for r in recs if r.kind == "detachment_rule")
    assert (rule.detachment_points, rule.force_disposition) == (2, "Purge the Foe")
    enh = next(r for r in recs if r.kind == "enhancement")
    assert (enh.upgrade, enh.restriction, enh.points) == (True, "Testers model only.", 20)
    fnp = next(r for r in recs if r.kind == "rule" and r.name == "Feel No Pain")
    assert fnp.number == "24.12" and "24.12" not in fnp.text and fnp.text == "Roll one D6 for each wound."
    assert enh.source.date == "2026-09-13"  # no publication of its own: the export's date
    assert not source.warnings


def test_damaged_copy_is_refused_in_one_line(tmp_path):
    damaged = {name: "".join(f'"{line}"\n' for line in text.splitlines()) for name, text in TABLES.items()}
    folder = make_export(tmp_path / "d", **damaged)
    with pytest.raises(LoadError) as info:
        detect(folder)
    message = str(info.value)
    assert "\n" not in message and "wrapped in quotes" in message and "'|'" in message


def test_missing_text_column_is_refused(tmp_path):
    text = TABLES["Stratagems.csv"].replace("|description|", "|notes|")
    folder = make_export(tmp_path, **{"Stratagems.csv": text})
    with Store(tmp_path / "s.sqlite") as store:
        report = ingest_paths(store, [folder])
        assert report.failed and "Stratagems.csv" in report.failed[0].error
        assert "'description'" in report.failed[0].error
        assert store.is_empty()


def test_truncated_table_is_a_warning(tmp_path):
    cut = TABLES["Datasheets_models.csv"][:-20]
    folder = make_export(tmp_path, **{"Datasheets_models.csv": cut})
    with Store(tmp_path / "s.sqlite") as store:
        report = ingest_paths(store, [folder])
        result = report.results[0]
        assert result.status == "ingested"
        assert any("Datasheets_models.csv" in w and "truncated" in w for w in result.warnings)
        assert any("no characteristics rows" in w for w in result.warnings)


def test_unparsable_values_are_warnings(tmp_path):
    costs = TABLES["Datasheets_models_cost.csv"].replace("|60|", "|sixty|")
    strat = TABLES["Stratagems.csv"].replace("Stratagem|1|", "Stratagem|one|")
    recs, source = records(make_export(tmp_path, **{"Datasheets_models_cost.csv": costs, "Stratagems.csv": strat}))
    assert any("'sixty'" in w for w in source.warnings) and any("'one'" in w for w in source.warnings)
    medic = next(r for r in recs if r.kind == "datasheet" and r.name == "Test Medic")
    assert medic.points[0].points is None  # kept, without inventing a number


def test_rows_read_are_rows_stored(tmp_path):
    recs, _ = records(make_export(tmp_path))
    for kind, table in (("datasheet", "Datasheets.csv"), ("stratagem", "Stratagems.csv"),
                        ("enhancement", "Enhancements.csv"), ("detachment_rule", "Detachment_abilities.csv")):
        rows = len(TABLES[table].strip().splitlines()) - 1
        assert sum(1 for r in recs if r.kind == kind) == rows


def test_helpers():
    assert tier_label("1ST TO 2ND") == "1st-2nd" and tier_label("3RD +") == "3rd+" and tier_label("") is None
    assert iso_date("26.08.2026 0:00:00") == "2026-08-26" and iso_date("01.01.0001 0:00:00") is None
    costs, wargear = unit_costs([{"description": "5 models", "cost": "x"}], "T", warns := [])
    assert costs[0].points is None and warns and not wargear


# ------------------------------------------------------------------ the real 11th edition sample
def test_real_sample_repaired_and_damaged(shared, tmp_path):
    base = shared / "realdata" / "e11" / "csv"
    with pytest.raises(LoadError, match="wrapped in quotes"):
        detect(base / "ListBrewer_Data_sample")
    recs, source = records(base / "ListBrewer_Data_sample_repaired")
    assert source.edition == 11
    boyz = next(r for r in recs if r.kind == "datasheet" and r.name == "Boyz")
    assert {c.tier for c in boyz.points} == {"1st-3rd", "4th+"}
    assert any(r.kind == "detachment_rule" and r.force_disposition for r in recs)
    assert any(r.kind == "rule" and r.number == "24.12" for r in recs)
    # the same folder copied: it is read the same way wherever it lives
    copy = tmp_path / "copy"
    shutil.copytree(base / "ListBrewer_Data_sample_repaired", copy)
    assert len(records(copy)[0]) == len(recs)


def test_encodings_are_read_from_the_content(tmp_path):
    utf16 = {name: text.encode("utf-16") for name, text in TABLES.items()}
    folder = tmp_path / "u16"
    folder.mkdir()
    for name, data in utf16.items():
        (folder / name).write_bytes(data)
    recs, source = records(folder)
    assert sum(1 for r in recs if r.kind == "datasheet") == 2 and not source.warnings
    legacy = make_export(tmp_path / "cp", **{"Enhancements.csv": None})
    (legacy / "Enhancements.csv").write_bytes(TABLES["Enhancements.csv"].replace("Add 1", "Add 1 \u2013").encode("cp1252"))
    recs, source = records(legacy)
    assert any("Windows-1252" in w for w in source.warnings)
    assert "\u2013" in next(r for r in recs if r.kind == "enhancement").text


def test_rows_of_missing_datasheets_are_counted(tmp_path):
    sheets = TABLES["Datasheets.csv"].rsplit("000000002|", 1)[0]  # the Test Squad row lost
    recs, source = records(make_export(tmp_path, **{"Datasheets.csv": sheets}))
    assert sum(1 for r in recs if r.kind == "datasheet") == 1
    assert any(w.startswith("rows that name datasheets Datasheets.csv does not have") and
               "Datasheets_models.csv 1" in w and "Datasheets_wargear.csv 1" in w for w in source.warnings)


# A minimal 9th edition export (WS/BS columns, no Last_update.csv): it states no date of its own,
# only each publication's errata date in Source.csv.
TABLES_9 = {
    "Factions.csv": "id|name|link|\nTS|Testers|https://wahapedia.ru/wh40k9ed/factions/testers|\n",
    "Source.csv": "id|name|type|edition|version|errata_date|errata_link|\n"
                  "000000024|Codex: Testers|Codex|9|Indomitus 1.0|22.02.2022 0:00:00||\n",
    "Datasheets.csv": "id|name|link|faction_id|source_id|role|unit_composition|transport|power_points|\n"
                      "000000882|Test Guard|x|TS|000000024|Troops|5 Test Guard.||7|\n",
    "Datasheets_models.csv": "datasheet_id|line|name|M|WS|BS|S|T|W|A|Ld|Sv|Cost|base_size|\n"
                             "000000882|1|Test Guard|6\"|2+|2+|5|5|3|3|8|2+||40mm|\n",
    "Stratagems.csv": "faction_id|name|type|cp_cost|legend|source_id|description|id|\n"
                      "TS|TEST CLAIM|Testers Stratagem|1||000000024|Use this Stratagem in any phase.|000000001|\n"
                      "TS|TEST TALONS|Testers Stratagem|1|||Use this Stratagem in any phase.|000000002|\n",
}


def test_9th_edition_export_is_dated_by_its_publications_only(tmp_path):
    """A 9th edition record is dated by its publication's Source.csv row; one with no publication
    has no date (never another export's)."""
    folder = tmp_path / "ninth"
    folder.mkdir()
    for name, text in TABLES_9.items():
        (folder / name).write_text(text, encoding="utf-8")
    found, source = records(folder)
    assert source.edition == 9
    by_name = {r.name: r for r in found}
    published = iso_date(TABLES_9["Source.csv"].splitlines()[1].split("|")[5])
    assert by_name["Test Guard"].source.date == published == by_name["Test Claim"].source.date
    assert by_name["Test Talons"].source.date is None
