"""Registries are entry points (issue 28): ruleslawyer's own formats and commands are declared in
pyproject.toml, and a plugin package that declares entries in the same groups is read like a
built-in one. The plugin here is a real distribution on sys.path (a module and its dist-info
with entry_points.txt), found by importlib.metadata as an installed package would be."""
from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from ruleslawyer import registry

PLUGIN_SOURCE = '''
"""A plugin for a made-up house-rules format: a first line "HOUSE-RULES", then "Name: text" lines."""
from pathlib import Path

from ruleslawyer.ingest.sources.structured import StructuredSource
from ruleslawyer.records import Rule, Source


class HouseRules(StructuredSource):
    def records(self):
        sha = self.sha256()
        for line in self.path.read_text(encoding="utf-8").splitlines()[1:]:
            name, _, text = line.partition(":")
            if text.strip():
                yield Rule(name=name.strip(), text=text.strip(), edition=11,
                           source=Source(file=self.path.name, format="house-rules", sha256=sha))


def detect(path):
    path = Path(path)
    if path.is_file() and path.suffix == ".house":
        with open(path, encoding="utf-8") as handle:
            if handle.readline().strip() == "HOUSE-RULES":
                return HouseRules(path=path, files=(path,), format="house-rules", title=path.stem, edition=11)
    return None
'''

LIST_FORMAT_SOURCE = '''
"""A plugin army-list format: "UNITS:" then one "name, points" line per unit."""
from ruleslawyer.ingest.sources.armylists.model import ArmyList, ListUnit


class TallyFormat:
    name = "tally"

    def looks_like(self, text):
        return text.lstrip().startswith("UNITS:")

    def parse(self, text):
        army = ArmyList(format="tally", factions=["Necrons"])
        for n, line in enumerate(text.splitlines()[1:], start=2):
            name, _, points = line.partition(",")
            if name.strip():
                army.units.append(ListUnit(name=name.strip(), points=int(points), line=n))
        return army


TALLY = TallyFormat()
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """Install a plugin distribution `rl-house-plugin` on sys.path for one test."""
    root = tmp_path / "plugin"
    root.mkdir()
    (root / "rl_house_plugin.py").write_text(textwrap.dedent(PLUGIN_SOURCE))
    (root / "rl_house_lists.py").write_text(textwrap.dedent(LIST_FORMAT_SOURCE))
    info = root / "rl_house_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rl-house-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(textwrap.dedent("""\
        [ruleslawyer.sources]
        50-house = rl_house_plugin:detect

        [ruleslawyer.lists]
        50-tally = rl_house_lists:TALLY
        """))
    monkeypatch.syspath_prepend(str(root))
    registry.clear_cache()
    yield root
    registry.clear_cache()


def test_the_own_registries_come_from_the_package_metadata():
    assert registry.names(registry.PARSERS)[-1] == "90-rules"  # the catch-all runs last
    assert set(registry.names(registry.LOADERS)) >= {"pdf", "html", "text"}
    assert "show" in registry.names(registry.COMMANDS)
    assert registry.load_named(registry.COMMANDS, "show").name == "show"


def test_a_plugin_source_is_read_by_ingest(plugin, tmp_path):
    from ruleslawyer.cli.main import cli

    doc = tmp_path / "club.house"
    doc.write_text("HOUSE-RULES\nOverwatch: shoot at a charging unit, hitting on 6s only.\n")
    assert "50-house" in registry.names(registry.SOURCES)
    db = tmp_path / "s.sqlite"
    result = CliRunner().invoke(cli, ["--db", str(db), "ingest", str(doc)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in
            CliRunner().invoke(cli, ["--db", str(db), "export"]).output.splitlines()]
    assert [(r["name"], r["source"]["format"]) for r in rows] == [("Overwatch", "house-rules")]


def test_without_the_plugin_the_format_is_unknown(tmp_path):
    registry.clear_cache()
    assert "50-house" not in registry.names(registry.SOURCES)


def test_a_plugin_list_format_is_read_by_list_check(plugin, tmp_path):
    from ruleslawyer.cli.main import cli
    from ruleslawyer.ingest.sources.armylists import parse_list

    text = "UNITS:\nRoyal Warden, 50\nNecron Warriors, 80\n"
    army = parse_list(text, name="tally.txt")
    assert army.format == "tally" and [u.name for u in army.units] == ["Royal Warden", "Necron Warriors"]
    listed = tmp_path / "tally.txt"
    listed.write_text(text)
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "s.sqlite"), "list", "check", str(listed)])
    assert "tally" in result.output and "Royal Warden" in result.output, result.output


def test_the_built_in_list_formats_are_registered_in_order():
    assert registry.names(registry.LISTS)[:3] == ["10-battlescribe-roster", "20-new-recruit", "30-official-app"]


# ---------------------------------------------------------------- the table kept between processes
@pytest.fixture
def cache_file(tmp_path, monkeypatch):
    """The registry's cache file in a temporary folder, written even where Python is asked not
    to write bytecode (PYTHONDONTWRITEBYTECODE, which also stops the cache)."""
    path = tmp_path / "cache" / "entry_points.json"
    monkeypatch.setattr(registry, "CACHE_FILE", path)
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    registry.clear_cache()
    yield path
    registry.clear_cache()


def _no_metadata(monkeypatch):
    from importlib import metadata

    def refuse(*args, **kwargs):
        raise AssertionError("the installed packages' metadata was read")

    monkeypatch.setattr(metadata, "entry_points", refuse)
    monkeypatch.setattr(metadata, "distribution", refuse)


def test_the_table_is_kept_and_used_while_nothing_is_installed(cache_file, monkeypatch):
    first = registry.names(registry.COMMANDS)
    assert cache_file.exists()
    registry.clear_cache()
    _no_metadata(monkeypatch)
    assert registry.names(registry.COMMANDS) == first
    assert registry.load_named(registry.COMMANDS, "show").name == "show"


def test_a_package_installed_since_is_found(cache_file, tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    registry.clear_cache()
    assert "50-house" not in registry.names(registry.SOURCES)  # the table is kept without it
    (site / "rl_house_plugin.py").write_text(textwrap.dedent(PLUGIN_SOURCE))
    info = site / "rl_house_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rl-house-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[ruleslawyer.sources]\n50-house = rl_house_plugin:detect\n")
    registry.clear_cache()  # a new process: the folder's time changed, so the metadata is read again
    assert "50-house" in registry.names(registry.SOURCES)
    assert registry.load_named(registry.SOURCES, "50-house").__module__ == "rl_house_plugin"


def test_a_damaged_cache_file_is_read_past(cache_file):
    cache_file.parent.mkdir(parents=True)
    for damaged in ("{not json", '{"key": 1}', '[{"key": null, "groups": {"x": [[1, 2, 3]]}}]'):
        cache_file.write_text(damaged)
        registry.clear_cache()
        assert "search" in registry.names(registry.COMMANDS)


def test_a_second_command_does_not_import_the_metadata_reader(tmp_path):
    import os
    import subprocess
    import sys

    probe = ("import sys\nfrom ruleslawyer import registry\n"
             "registry.load_named(registry.COMMANDS, 'search')\n"
             "print('importlib.metadata' in sys.modules)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = [subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True)
            for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr  # the first may read it (or find the table kept)
    assert runs[1].stdout.strip() == "False", runs[1].stderr
