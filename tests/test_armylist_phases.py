"""Phase detection for the reminder table, on abilities of real datasheets labelled by hand
(tests/fixtures/armylists/phase_labels.tsv: name, phase, key words, datasheet id)."""
from __future__ import annotations

import csv
import html
import re
from pathlib import Path

import pytest

from ruleslawyer.library.armylist_phases import PHASES, phase_of

LABELS = Path(__file__).parent / "fixtures" / "armylists" / "phase_labels.tsv"
# labelled after the detector was written and never used to tune it
HELD_OUT = LABELS.with_name("phase_labels_heldout.tsv")


def _labels(path: Path) -> list[tuple[str, str, str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, phase, words, sheet = line.split("\t")
            rows.append((name, phase, words, sheet))
    return rows


def _texts(shared: Path) -> dict[tuple[str, str], str]:
    path = shared / "realdata" / "wahadumper__wahadumper" / "Datasheets_abilities.csv"
    out = {}
    with path.open(encoding="utf-8-sig", newline="") as f:
        for row in csv.reader(f, delimiter="|"):
            if len(row) > 6 and row[4] and row[5]:
                out[(row[4], row[0])] = re.sub(r"<[^>]+>", "", html.unescape(row[5]))
    return out


def test_labels_are_many_and_valid():
    rows = _labels(LABELS)
    assert len(rows) >= 60
    assert {phase for _, phase, _, _ in rows} <= set(PHASES)
    assert len({phase for _, phase, _, _ in rows}) >= 6  # every phase of the table is represented


@pytest.mark.parametrize("labels", [LABELS, HELD_OUT], ids=["tuned-on", "held-out"])
def test_phase_detection_matches_hand_labels(shared, labels):
    texts = _texts(shared)
    rows = _labels(labels)
    wrong = []
    for name, phase, words, sheet in rows:
        text = texts[(name, sheet)]
        assert words.split(";")[0].split()[0].strip("'\"").lower() in text.lower()  # the row read is the one labelled
        got = phase_of(text)
        if got != phase:
            wrong.append((name, phase, got))
    accuracy = 1 - len(wrong) / len(rows)
    assert accuracy >= 0.90, wrong


def test_phase_of_reads_the_moment_not_an_as_if_clause():
    assert phase_of("At the start of your Command phase, gain 1CP.") == "command"
    assert phase_of("Once per battle round, when targeted with a Stratagem, reduce its cost.") == "any"
    assert phase_of("Once per battle, at the start of any phase, do it.") == "once per battle"
    assert phase_of("After that unit attacks, this model can shoot as if it were your Shooting phase.") == "any"
    assert phase_of("Each time this model makes a Charge move, its melee weapons gain [LANCE].") == "charge"
