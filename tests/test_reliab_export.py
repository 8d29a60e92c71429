"""Never silent about lost content: a damaged Wahapedia export is refused or ingested with a warning.

Each damage of issue 20 is made to a small subset of the real 10th edition export (a few
datasheets with all their rows): a column gone, a table cut short or missing, a row with fields
missing, factions unknown. The export is then either refused with one line naming the file and
what is wrong (and the store is unchanged), or ingested with a warning naming the file; and the
rows read are counted against the records stored.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ruleslawyer.ingest.pipeline import ingest_paths
from ruleslawyer.ingest.sources.wahapedia_csv import read_table
from ruleslawyer.store import Store
from tests.fuzz_helpers import export_subset


@pytest.fixture(scope="module")
def subset(shared, tmp_path_factory) -> Path:
    return export_subset(shared / "realdata" / "wahadumper__wahadumper", tmp_path_factory.mktemp("x") / "export",
                         sheets=12)


@pytest.fixture
def export(subset, tmp_path) -> Path:
    copy = tmp_path / "export"
    shutil.copytree(subset, copy)
    return copy


def ingest(folder: Path, tmp_path: Path):
    with Store(tmp_path / "s.sqlite") as store:
        report = ingest_paths(store, [folder])
        counts = store.counts_by_kind()
    (result,) = report.results
    return result, counts


def lines(path: Path) -> list[str]:
    return path.read_bytes().decode("utf-8-sig").split("\r\n")


def test_the_subset_stores_every_row_it_reads(export, tmp_path):
    """Rows read against records stored: each stratagem and enhancement row is one record."""
    result, counts = ingest(export, tmp_path)
    assert result.status == "ingested", result.error
    assert counts["stratagem"] == len(read_table(export / "Stratagems.csv"))
    assert counts["enhancement"] == len(read_table(export / "Enhancements.csv"))
    assert counts["datasheet"] == len(read_table(export / "Datasheets.csv"))
    assert not [w for w in result.warnings if "missing" in w or "truncated" in w or "fields" in w]


def test_stratagems_without_their_description_column_are_refused(export, tmp_path):
    rows = lines(export / "Stratagems.csv")
    rows[0] = rows[0].replace("|description|", "|descr|")
    (export / "Stratagems.csv").write_text("\r\n".join(rows), encoding="utf-8")
    result, counts = ingest(export, tmp_path)
    assert result.status == "failed" and "\n" not in result.error
    assert "Stratagems.csv" in result.error and "'description'" in result.error
    assert not counts


def test_models_cut_to_100_bytes_is_a_warning(export, tmp_path):
    path = export / "Datasheets_models.csv"
    path.write_bytes(path.read_bytes()[:100])
    result, _ = ingest(export, tmp_path)
    assert result.status == "ingested"
    assert any(w.startswith("Datasheets_models.csv:") for w in result.warnings), result.warnings


def test_abilities_cut_mid_file_is_a_warning(export, tmp_path):
    path = export / "Datasheets_abilities.csv"
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    result, _ = ingest(export, tmp_path)
    assert any(w.startswith("Datasheets_abilities.csv:") and "truncated" in w for w in result.warnings), result.warnings


def test_a_missing_table_is_a_warning(export, tmp_path):
    (export / "Datasheets_abilities.csv").unlink()
    result, _ = ingest(export, tmp_path)
    assert result.status == "ingested"
    assert any(w.startswith("Datasheets_abilities.csv is missing") for w in result.warnings), result.warnings


def test_a_row_with_fields_missing_does_not_swallow_the_next(export, tmp_path):
    """A short row used to be read on into the next row, which was lost without a word."""
    path = export / "Stratagems.csv"
    rows = lines(path)
    count = len(read_table(path))
    fields = rows[2].split("|")
    rows[2] = "|".join(fields[:3] + fields[6:])
    path.write_text("\r\n".join(rows), encoding="utf-8")
    result, counts = ingest(export, tmp_path)
    assert counts["stratagem"] == count - 1  # only the damaged row is gone
    assert any(w.startswith("Stratagems.csv: line 3:") for w in result.warnings), result.warnings


def test_rows_naming_unknown_factions_are_a_warning(export, tmp_path):
    path = export / "Factions.csv"
    path.write_text(lines(path)[0] + "\r\n", encoding="utf-8")
    result, counts = ingest(export, tmp_path)
    assert result.status == "ingested"
    assert any(w.startswith("Factions.csv:") and "factions it does not have" in w for w in result.warnings)


def test_catalogue_units_without_a_profile_are_counted(tmp_path):
    """Unit entries read against datasheets stored: one that gives none is named in a warning."""
    import json

    from tests.bs_samples import CATALOGUE, SYSTEM

    data = json.loads(json.dumps(CATALOGUE))
    unit = json.loads(json.dumps(data["catalogue"]["sharedSelectionEntries"][0]))
    unit.update(id="u-2", name="Broken Squad", profiles=[p for p in unit["profiles"] if p["typeName"] != "Unit"])
    data["catalogue"]["sharedSelectionEntries"].append(unit)
    (tmp_path / "System.json").write_text(json.dumps(SYSTEM), encoding="utf-8")
    cat = tmp_path / "Testers.json"
    cat.write_text(json.dumps(data), encoding="utf-8")
    with Store(tmp_path / "s.sqlite") as store:
        (result,) = ingest_paths(store, [cat]).results
    assert result.kinds.get("datasheet") == 1
    assert any("1 of 2 unit entries have no Unit profile" in w and "Broken Squad" in w for w in result.warnings), \
        result.warnings


def test_a_catalogue_without_its_game_system_says_so(tmp_path):
    from tests.bs_samples import write_pair

    cat = write_pair(tmp_path, "xml")
    (tmp_path / "System.gst").unlink()
    with Store(tmp_path / "s.sqlite") as store:
        (result,) = ingest_paths(store, [cat]).results
    assert result.status == "ingested"
    (line,) = [w for w in result.warnings if "game system (id sys-1) is not in the folder" in w]
    # Only the links that point outside the catalogue are named (the fixture's two category links
    # point at entries it leaves out; Support and Take and Hold are in its game system).
    assert line.endswith("left unresolved: 4 links (4 names: Faction: Testers, Infantry, Support, Take and Hold)"), line


def test_a_broken_game_system_names_only_the_links_that_need_it(tmp_path):
    from tests.bs_samples import SYS_NS, write_pair

    cat = write_pair(tmp_path, "xml")
    (tmp_path / "System.gst").write_text(f'<gameSystem xmlns="{SYS_NS}" name="x"><broken', encoding="utf-8")
    with Store(tmp_path / "s.sqlite") as store:
        by_name = {Path(r.path).name: r for r in ingest_paths(store, [tmp_path]).results}
    assert by_name["Testers.cat"].status == "ingested" and by_name["System.gst"].status == "failed"
    (line,) = [w for w in by_name["Testers.cat"].warnings if "System.gst" in w]
    assert line.endswith("links into that file are left unresolved: 4 links (4 names: Faction: Testers, Infantry, "
                         "Support, Take and Hold)"), line


def test_mfm_meta_that_is_not_a_mapping_is_a_warning(shared, tmp_path):
    """A damaged meta.yaml that still parses (here to a string) was an internal error."""
    from tests.fuzz_helpers import mfm_subset

    folder = tmp_path / "mfm"
    folder.mkdir()
    for name, data in mfm_subset(shared / "realdata" / "e11" / "mfm", ("adeptus-custodes",)).items():
        (folder / name).write_bytes(data)
    (folder / "meta.yaml").write_bytes(b"'\n" + (folder / "meta.yaml").read_bytes() + b"'\n")  # one quoted string
    with Store(tmp_path / "s.sqlite") as store:
        results = ingest_paths(store, [folder]).results
    assert all("internal error" not in (r.error or "") for r in results), results
    assert any("meta.yaml: not a mapping" in w for r in results for w in r.warnings), results


@pytest.mark.parametrize("damage", ["missing", "folder"])
def test_an_export_without_its_models_table_is_refused_not_walked(damage, export, tmp_path):
    """Without Datasheets_models.csv the folder was not recognised and its CSVs were skipped: 0 read, exit 0."""
    (export / "Datasheets_models.csv").unlink()
    if damage == "folder":
        (export / "Datasheets_models.csv").mkdir()
    result, counts = ingest(export, tmp_path)
    assert result.status == "failed" and "Datasheets_models.csv" in result.error and not counts


def test_the_size_limit_applies_to_structured_files(export, tmp_path, monkeypatch):
    """Export tables and catalogues are read through the same reader as documents: regular files, size-limited."""
    from ruleslawyer.ingest import formats

    big, second = sorted(export.glob("*.csv"), key=lambda p: p.stat().st_size)[:-3:-1]
    assert big.stat().st_size > second.stat().st_size
    monkeypatch.setattr(formats, "MAX_FILE_BYTES", second.stat().st_size)  # only the largest table is over
    result, counts = ingest(export, tmp_path)
    assert result.status == "failed" and big.name in result.error and "too large" in result.error
