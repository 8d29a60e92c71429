"""Docs that cannot drift: every command has help text and a section in the README, and the
README opens with the two commands (.ci/run runs the second one verbatim)."""
from __future__ import annotations

import re

import click
import pytest

from ruleslawyer.cli.main import COMMANDS, cli

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
