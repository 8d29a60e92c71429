"""One-line errors from the command line: unknown factions with suggestions, escaped messages."""
from __future__ import annotations

import pytest

from ruleslawyer.cli.main import UserError, cli
from ruleslawyer.errors import NotFoundError
from ruleslawyer.library.factions import check_faction_among, suggest_factions


@pytest.mark.parametrize("command", [
    ["stratagems", "--faction", "necorns"],
    ["show", "royal warden", "--faction", "necorns"],
    ["cards", "--faction", "necorns", "--out", "x.html"],
    ["search", "warden", "--faction", "necorns"],
    ["conflicts", "--faction", "necorns"],
    ["points", "--faction", "necorns"],
    ["points", "--changes", "--faction", "necorns"],
])
def test_an_unknown_faction_is_an_error_with_suggestions(runner, command):
    result = runner.invoke(cli, command)
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == ("Error: no faction named 'necorns'; did you mean: Necrons "
                                     "(hint: factions in the store: Necrons)")


@pytest.mark.parametrize("faction", ["necrons", "NECRONS", "necr", "none", "universal"])
def test_known_factions_prefixes_and_none_pass(faction):
    check_faction_among(faction, ["Necrons", "Space Marines"])


def test_suggestions_cover_typos_and_parts():
    known = ["Adeptus Custodes", "Chaos Space Marines", "Necrons", "Space Marines"]
    assert suggest_factions("space marnes", known)[:2] == ["Space Marines", "Chaos Space Marines"]
    assert "Adeptus Custodes" in suggest_factions("custodes", known)
    with pytest.raises(NotFoundError) as caught:
        check_faction_among("orks", known)
    assert "factions in the store: Adeptus Custodes" in caught.value.hint


def test_error_lines_are_escaped():
    error = UserError("bad\nname\x1b[2J.txt: cannot read", "look at \x1b]0;title\x07 it")
    assert error.message == "bad\\nname\\x1b[2J.txt: cannot read (hint: look at \\x1b]0;title\\x07 it)"


def test_every_command_with_a_faction_option_is_checked_above():
    """A new command that filters by faction must join the list of the first test."""
    import click

    mark = next(m for m in test_an_unknown_faction_is_an_error_with_suggestions.pytestmark if m.name == "parametrize")
    listed = {command[0] for command in mark.args[1]}

    def walk(group: click.Group, prefix: str = ""):
        ctx = click.Context(group)
        for name in group.list_commands(ctx):  # commands are loaded lazily
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                yield from walk(command, f"{prefix}{name} ")
            elif any("--faction" in p.opts for p in command.params):
                yield f"{prefix}{name}"
    found = set(walk(cli))
    assert "stratagems" in found and found <= listed, found - listed
