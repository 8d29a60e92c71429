"""Stratagems, enhancements and detachment rules in plain-text dumps of card PDFs: the header
lines in another order, two columns' lines interleaved, detachment names that begin with a
number. What cannot be placed is a warning, never a junk `rule`."""
from __future__ import annotations

from ruleslawyer.ingest.formats import load_bytes
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document

# Modelled on plain `pdftotext` (no -layout) of a core stratagems chapter printed in two columns:
# both cards' headers first, then their flavour, WHEN and TARGET lines alternating.
INTERLEAVED = """COMMAND RE-ROLL 15.02
CORE STRATAGEM
1CP
EXPLOSIVES 15.05
CORE STRATAGEM

A great commander can bend even the vagaries
of fate and fortune to their will.

Priming grenades or other explosives, these
warriors hurl death into the enemy's midst.

WHEN: Any phase, just after you make a roll for a friendly unit.

WHEN: Your Shooting phase.
TARGET: One friendly unengaged EXPLOSIVES unit.

EFFECT: Roll six D6: for each 4+, that enemy unit suffers 1 mortal wound.

TARGET: That unit or model.
EFFECT: You re-roll that roll.

INSANE BRAVERY 15.04

1CP

WHEN: Battle-shock step of your Command phase.
TARGET: That unit.
EFFECT: That battle-shock roll is automatically successful.
"""


def _parse(text: str, name: str = "dump.txt"):
    doc = load_bytes(text.encode(), name, sha256="0" * 64)
    ctx = ParseContext(doc=doc, edition=guess_edition(doc))
    return parse_document(doc, ctx), ctx


def test_interleaved_cards_are_kept_by_name_and_the_doubt_is_reported():
    records, ctx = _parse(INTERLEAVED)
    strats = {r.name: r for r in records if r.kind == "stratagem"}
    assert set(strats) == {"Command Re-roll", "Explosives", "Insane Bravery"}
    assert {r.group for r in strats.values()} == {"Core"}
    assert (strats["Command Re-roll"].cp, strats["Command Re-roll"].number) == (1, "15.02")
    # Whose WHEN is whose cannot be told: no field is guessed, a warning says so.
    assert strats["Explosives"].when is None and strats["Explosives"].effect is None
    assert any("Explosives".upper() in w and "mixed" in w for w in ctx.warnings), ctx.warnings
    # A card read whole keeps its text; the cost printed after the name in a dump is read.
    bravery = strats["Insane Bravery"]
    assert (bravery.cp, bravery.when, bravery.target) == (1, "Battle-shock step of your Command phase.", "That unit.")
    assert not [r for r in records if r.kind == "rule"]


DETACHMENT = """STORM OF FIRE

1CP

1st Company Task Force – Battle Tactic Stratagem

WHEN: Your Shooting phase.

TARGET: One ADEPTUS ASTARTES unit from your army.

EFFECT: Until the end of the phase, ranged weapons equipped by models in your unit have the [IGNORES COVER] ability.

Extremis-level Threats

1st Company Task Force Detachment

Each time a model from your army makes an attack that targets a MONSTER or VEHICLE unit, re-roll a Wound roll of 1.
"""


def test_a_detachment_whose_name_begins_with_a_number():
    records, _ = _parse(DETACHMENT)
    by_kind = {(r.kind, r.name): r for r in records}
    assert by_kind[("stratagem", "Storm of Fire")].group == "1st Company Task Force"
    assert by_kind[("detachment_rule", "Extremis-level Threats")].group == "1st Company Task Force"
    assert not [r for r in records if r.kind == "rule"]
