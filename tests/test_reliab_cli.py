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
