"""The cards' measuring page never overflows: a stream taller than it gets a taller page."""
from __future__ import annotations

import pytest

from ruleslawyer.cards import CardOptions, make_cards
from ruleslawyer.records import Ability, Datasheet, Profile, Source, Weapon

SRC = Source(file="hostile.txt")
STATS = {"M": '6"', "T": "5", "Sv": "5+", "W": "1", "Ld": "7+", "OC": "2"}


def long_ability(sentences: int) -> Datasheet:
    text = " ".join(f"Sentence {i} says that this unit does something rather long to read." for i in range(sentences))
    return Datasheet("Long Boy", SRC, 10, "Orks", profiles=(Profile("Boy", STATS),),
                     abilities=(Ability("Huge", text), Ability("Small", "Does a thing."),
                                Ability("Smaller", "Does another thing.")))


def long_names(words: int) -> Datasheet:
    long = " ".join(f"Name{i}" for i in range(words))
    return Datasheet("Unit " + long, SRC, 10, "Orks " + long, keywords=tuple(long.split()),
                     profiles=(Profile("Boy " + long, STATS),),
                     weapons=(Weapon("Shoota " + long, range='18"', A="2", skill="5+", S="4", AP="0", D="1"),),
                     abilities=(Ability("Small " + long, "Does a thing."),))


@pytest.mark.slow
@pytest.mark.parametrize("record", [long_ability(3000), long_names(4000)], ids=["long ability", "long names"])
def test_a5_cards_of_a_stream_taller_than_the_measuring_page(record):
    cards = make_cards([record], [record], CardOptions(size="a5"), verify=False)
    faces = [f for pair in cards.pairs for f in pair]
    assert len(cards.pairs) > 1  # continued over cards, nothing lost
    printed = " ".join(b.data.get("text", "") for f in faces for b in f.blocks if b.kind == "text")
    for ability in record.abilities:
        assert ability.text.split()[-1] in printed
