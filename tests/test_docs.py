"""Docs that cannot drift: every command has help text and a section in the README, and the
README opens with the two commands (.ci/run runs the second one verbatim)."""
from __future__ import annotations

import re
import shlex

import click
import pytest

from ruleslawyer import registry
from ruleslawyer.cli.main import cli

COMMANDS = registry.names(registry.COMMANDS)

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def all_commands():
    ctx = click.Context(cli)
    for name in sorted(COMMANDS):
        cmd = cli.get_command(ctx, name)
        assert cmd is not None, f"command {name} is registered but its module is missing"
        yield name, cmd
        if isinstance(cmd, click.Group):
            for sub in cmd.list_commands(ctx):
                yield f"{name} {sub}", cmd.get_command(ctx, sub)


@pytest.mark.parametrize("name,cmd", list(all_commands()), ids=lambda v: v if isinstance(v, str) else "")
def test_command_has_help_and_readme_section(name, cmd):
    assert cmd.help and len(cmd.help.strip()) > 20, f"`ruleslawyer {name}` has no help text"
    assert f"ruleslawyer {name}" in README, f"README does not mention `ruleslawyer {name}`"


def test_readme_opens_with_the_two_commands():
    blocks = re.findall(r"```(?:bash|sh)?\n(.*?)```", README, re.S)
    assert len(blocks) >= 2
    first, second = blocks[0].strip(), blocks[1].strip()
    assert "pip install" in first and "ruleslawyer" in first
    assert "pip install" in second and "pytest" in second
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert second in ci, ".ci/run must run the README's test command verbatim"


def test_help_runs_without_a_store(runner):
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


# Examples that cannot run here: they name the user's own files, or serve until stopped.
_NOT_RUN = {"ingest": "names the user's files", "site serve": "serves until stopped",
            "list check": "names the user's army list", "list sheet": "names the user's army list"}


def help_examples():
    """(command name, argv, expected first line or None) for every "Example:" in a command's help."""
    for name, cmd in all_commands():
        text = " ".join((cmd.help or "").split())
        for m in re.finditer(r"ruleslawyer ((?:[^\"();]|\"[^\"]*\")+?)(?: \((?:prints (?P<prints>[^:)]+))?[^)]*\)|;|\.?$)",
                             text.split("Example", 1)[1] if "Example" in text else ""):
            yield name, shlex.split(m.group(1)), m.group("prints")


@pytest.mark.parametrize("name,argv,prints", [e for e in help_examples() if e[0] not in _NOT_RUN],
                         ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_help_examples_work_on_the_shipped_corpus(runner, name, argv, prints, tmp_path, monkeypatch):
    """A new user's store is the shipped corpus: every example in `--help` must work on it."""
    monkeypatch.chdir(tmp_path)  # examples that write (cards, site) write here
    result = runner.invoke(cli, argv)
    assert result.exit_code == 0, f"ruleslawyer {' '.join(argv)}:\n{result.output}"
    if prints:
        assert result.output.splitlines()[0] == prints


def test_every_example_is_found_and_run():
    found = {name for name, _, _ in help_examples()}
    with_examples = {name for name, cmd in all_commands() if "Example" in (cmd.help or "")}
    assert found == with_examples, "an Example in --help that the pattern above does not read"
    assert {"search", "show", "table", "cards", "errata", "stratagems", "wound", "site build"} <= found - set(_NOT_RUN)
