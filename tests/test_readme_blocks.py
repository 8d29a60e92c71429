"""Every output block in the README is what the command prints on the shipped corpus.

A block is a fenced block whose first line starts with `$ ruleslawyer`. Its commands run in
order, in a fresh store that holds the shipped example corpus (what a new user's first command
gives them), from a folder holding a copy of the checkout's `docs/` (so `docs/examples/...`
files can be ingested, and sites and cards are written there, not into the checkout). The output
must match the block line for line; only times ("in 0.4s") and the store's location may differ.

`UPDATE_GOLDEN=1 pytest tests/test_readme_blocks.py` rewrites the blocks from real runs (then
read the diff before committing); `test_the_regenerate_switch_is_off` keeps CI from passing with
the switch left on.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli

from .conftest import ROOT

README = ROOT / "README.md"
BLOCK = re.compile(r"^```[a-z]*\n(\$ ruleslawyer .*?)^```", re.M | re.S)
SHOWN_STORE = "/home/me/.local/share/ruleslawyer/store.sqlite"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def blocks() -> list[str]:
    return BLOCK.findall(README.read_text(encoding="utf-8"))


def commands(block: str) -> list[tuple[str, str]]:
    """(command line, expected output) pairs of one block."""
    out: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return [(cmd, "\n".join(lines)) for cmd, lines in out]


def normalise(text: str, store: str) -> str:
    text = text.replace(store, SHOWN_STORE)
    text = re.sub(r"\bin \d+(?:\.\d+)?s\b", "in 0.0s", text)
    return "\n".join(line.rstrip() for line in text.rstrip("\n").splitlines())


def run(command: str, store: str) -> str:
    """What `command` prints (stdout and stderr, as a terminal shows them), with `| head -n N`."""
    head = None
    m = re.search(r"\s*\|\s*head -n (\d+)\s*$", command)
    if m:
        head, command = int(m.group(1)), command[: m.start()]
    argv = shlex.split(command)
    assert argv[0] == "ruleslawyer", command
    result = CliRunner().invoke(cli, argv[1:], env={"RULESLAWYER_DB": store, "COLUMNS": "100"})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    output = result.output
    if head is not None:
        output = "\n".join(output.splitlines()[:head])
    return output


@pytest.fixture
def in_checkout(tmp_path, monkeypatch, example_store):
    """A fresh copy of the example store, run from a folder holding a copy of the checkout's
    docs/ (the examples name docs/examples/ files and write sites and cards beside them)."""
    store = tmp_path / "store.sqlite"
    shutil.copyfile(example_store, store)
    work = tmp_path / "work"
    shutil.copytree(ROOT / "docs", work / "docs")
    monkeypatch.chdir(work)
    return str(store)


# Commands that would not return (a server) are shown but not run.
NOT_RUN = ("ruleslawyer site serve",)


def run_block(block: str, store: str) -> tuple[list[tuple[str, str, str]], str]:
    """Run a block's commands in order: (command, expected, got) for each, and the block as run."""
    results, actual_lines = [], []
    for command, expected in commands(block):
        got = normalise(expected if command.startswith(NOT_RUN) else run(command, store), store)
        results.append((command, normalise(expected, store), got))
        actual_lines += [f"$ {command}", *([got] if got else [])]
    return results, "\n".join(actual_lines) + "\n"


@pytest.mark.parametrize("number", range(len(blocks())), ids=lambda n: f"block{n + 1}")
def test_readme_block_is_what_the_command_prints(number, in_checkout, tmp_path, example_store):
    if UPDATE:  # regenerate every block in one go (later blocks shift as earlier ones change)
        if number:
            pytest.skip("regenerated with block 1")
        text = README.read_text(encoding="utf-8")
        for n, block in enumerate(blocks()):
            store = tmp_path / f"store{n}.sqlite"
            shutil.copyfile(example_store, store)
            _, actual = run_block(block, str(store))
            text = text.replace(block, actual, 1)
        README.write_text(text, encoding="utf-8")
        return
    results, _ = run_block(blocks()[number], in_checkout)
    for command, expected, got in results:
        assert got == expected, f"README block {number + 1}: `{command}` printed:\n{got}"


def test_there_are_output_blocks_to_check():
    assert len(blocks()) >= 10


def test_the_regenerate_switch_is_off():
    assert not UPDATE, "UPDATE_GOLDEN=1 rewrites the README's blocks; unset it before committing"
