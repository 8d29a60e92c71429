"""A faction pack rendered as Markdown: card headings that carry their cost ("NAME (1CP)"), and an
ENHANCEMENTS list that ends where the pack's errata and datasheets begin. Text made up for the test."""
from __future__ import annotations

from ruleslawyer.ingest.document import DocumentOrigin
from ruleslawyer.ingest.load.text import load_text
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document
from ruleslawyer.records_json import to_dict

PACK = """# Some converter title

## HOUNDS OF THE GLACIER

A detachment of made-up hunters.

DETACHMENT RULE

## THE PACK CLOSES IN

Each time a model from your army makes a melee attack, re-roll a Hit roll of 1.

ENHANCEMENTS

## FROSTBITE TALISMAN

A charm carved from the ice of a glacier, said to steady the heart of whoever wears it in battle.

ADEPTUS ASTARTES model only. Add 1 to the bearer's Toughness characteristic.

## SNOW RUNNER

ADEPTUS ASTARTES model only. Add 2" to the Move characteristic of the bearer.

---

## ICE IN THE VEINS (1CP)

HOUNDS OF THE GLACIER — BATTLE TACTIC STRATAGEM

The cold steadies them.

WHEN: Your Shooting phase.

TARGET: One ADEPTUS ASTARTES unit from your army.

EFFECT: Until the end of the phase, improve the Ballistic Skill of weapons in your unit by 1.

---

WARHAMMER 40,000

UPDATES & ERRATA

## Page 12 – Some Captain, Abilities, Made-up Ability
Change to:
'Made-up Ability: Once per battle, this model can do something new.'

## Page 14 – Hounds of the Glacier, Snow Runner Enhancement
Change to:
'ADEPTUS ASTARTES model only. Add 3" to the Move characteristic of the bearer.'

---

## FROST WARDEN

M 6"    T 4    SV 3+    W 4    LD 6+    OC 1

## RANGED WEAPONS

Frost pistol [PISTOL]    RANGE 12"    A 1    BS 3+    S 4    AP 0    D 1

## ABILITIES

Cold Eyes: Each time this model makes an attack, add 1 to the Hit roll.
"""


def _records() -> list[dict]:
    data = PACK.encode()
    doc = load_text(data, DocumentOrigin("pack.md", "pack.md", "markdown", "0" * 64, len(data)))
    return [to_dict(r) for r in parse_document(doc, ParseContext(doc=doc, edition=guess_edition(doc)))]


def test_a_card_heading_with_its_cost_in_brackets_is_a_stratagem():
    stratagems = [r for r in _records() if r["kind"] == "stratagem"]
    assert [(s["name"], s["cp"]) for s in stratagems] == [("Ice in the Veins", 1)]
    assert stratagems[0]["when"] == "Your Shooting phase."


def test_the_enhancement_list_ends_before_the_errata_and_datasheets():
    records = _records()
    assert sorted(r["name"] for r in records if r["kind"] == "enhancement") == ["Frostbite Talisman", "Snow Runner"]
    assert [r["page"] for r in records if r["kind"] == "errata"] == ["12", "14"]
