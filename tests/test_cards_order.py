"""The order a unit's rules take when they do not fit its card (issue 29): every rule in full on
the back, then also in the front's free space, then a second card for that unit, and only when
two cards cannot hold them, the key sentence with a reference to the rules sheet by name and
number. Built from content made here, so the sizes are known without real documents."""
from __future__ import annotations

import pytest

from dataclasses import replace

from ruleslawyer.cards import CardOptions
from ruleslawyer.records import Ability, Datasheet, Profile, Rule, Source

SRC = Source(file="order.txt")
KEY = "Each time this unit makes an attack, you can re-roll the Hit roll."


def long_rule(sentences: int) -> Rule:
    """A core rule whose first sentence says what it does and the others explain, at length."""
    filler = " ".join(f"Clause {k} explains where the rule applies and to which models it applies."
                      for k in range(sentences))
    return Rule(name="Big Rule", source=SRC, edition=10, text=f"{KEY} {filler}", number="24.12")


def unit(*rules: Rule) -> Datasheet:
    return Datasheet(name="Test Unit", source=SRC, edition=10, faction="Orks",
                     profiles=(Profile("Boy", {"M": '6"', "T": "5", "Sv": "5+", "W": "1", "Ld": "7+", "OC": "2"}),),
                     abilities=tuple(Ability(r.name, "", "core") for r in rules),
                     keywords=("INFANTRY",), faction_keywords=("ORKS",))


def cards_of(*rules: Rule, **opts):
    """The unit's cards in the full-rules order (`--full-rules`) unless `opts` says otherwise."""
    from ruleslawyer.cards import make_cards

    return make_cards([unit(*rules)], list(rules), CardOptions(**{"one_card": False, **opts}), verify=False)


def texts(cards) -> list[tuple[str | None, str, bool]]:
    """(title, text, continued) of every text block on the unit's faces, in print order."""
    return [(b.data.get("title"), b.data["text"], b.continued) for f, back in cards.pairs for face in (f, back)
            for b in face.blocks if b.kind == "text"]


def referenced(cards) -> bool:
    return any("rules sheet" in text or "rules sheet" in label for f, back in cards.pairs for face in (f, back)
               for b in face.blocks for text, label in [(b.data.get("text", ""), "")] + [
                   (t, lab) for lab, t in b.data.get("lines", ())])


def rule_text_printed(cards) -> str:
    """The Big Rule as printed: its block and the continuations that follow it, joined."""
    parts, on = [], False
    for title, text, continued in texts(cards):
        if title == "Big Rule" or (on and continued and title is None):
            parts.append(text)
            on = True
        else:
            on = False
    return " ".join(" ".join(parts).split())


@pytest.mark.slow
def test_a_rule_too_long_for_one_card_gets_a_second_card_not_a_reference():
    from ruleslawyer.cards.content import build_content
    from ruleslawyer.cards.fit import fit_cards
    from ruleslawyer.library.operative import operative_text

    rule = long_rule(45)
    contents = build_content([unit(rule)], [rule])
    assert fit_cards(contents, CardOptions(one_card=False)) == {0: None}, "the rule in full should not fit one card"
    cards = cards_of(rule)
    faces = [face for pair in cards.pairs for face in pair if face.side != "blank"]
    assert len(cards.pairs) == 2 and {f.total for f in faces} == {2} and [f.number for f in faces][-1] == 2
    assert len({f.font_pt for f in faces}) == 1 and faces[0].font_pt >= 7.0
    assert not referenced(cards)
    assert rule_text_printed(cards) == " ".join(operative_text(rule.text).split())
    # an ability never splits across faces: the rule splits only because it is taller than a face
    assert not any(text.rstrip().endswith("\u2026") for _, text, _ in texts(cards))


@pytest.mark.slow
def test_a_reference_only_when_two_cards_cannot_hold_the_rule():
    rule = long_rule(90)
    cards = cards_of(rule)
    assert referenced(cards)
    by_title = {title: text for title, text, _ in texts(cards)}
    # the sentence that says what it does, and where the rest is: by name and number
    assert by_title["Big Rule"].startswith(KEY) and "rules sheet, 24.12" in by_title["Big Rule"]
    assert len(by_title["Big Rule"].split()) < len(rule.text.split()) / 4
    # ... and the rules sheet carries it in full when asked for
    sheet = cards_of(rule, rules_sheet=True)
    printed = " ".join(b.data["text"] for f, back in sheet.pairs for face in (f, back) if face.kind == "rules"
                       for b in face.blocks if b.kind == "text")
    assert " ".join(rule.text.split()) in " ".join(printed.split())


@pytest.mark.slow
def test_one_card_option_takes_the_reference_instead_of_a_second_card():
    cards = cards_of(long_rule(45), one_card=True)
    assert len(cards.pairs) == 1 and referenced(cards)


def test_rules_first_use_the_fronts_free_space():
    a, b = (replace(long_rule(8), name=n, number=k) for n, k in (("Rule A", "1.01"), ("Rule B", "1.02")))
    cards = cards_of(a, b)
    assert len(cards.pairs) == 1 and not referenced(cards)
    front, back = cards.pairs[0]
    # the back's rules begin on the front, whole: Rule A there, Rule B on the back
    assert [x.data.get("title") for x in front.blocks if x.kind == "text"] == ["Rule A"]
    assert [x.data.get("title") for x in back.blocks if x.kind == "text"] == ["Rule B"]


@pytest.mark.slow
def test_on_two_cards_no_rule_is_divided_when_a_face_can_hold_it():
    a, b = (replace(long_rule(14), name=n, number=k) for n, k in (("Rule A", "1.01"), ("Rule B", "1.02")))
    cards = cards_of(a, b)
    faces = [face for pair in cards.pairs for face in pair]
    assert len(cards.pairs) == 2 and not referenced(cards) and len({f.font_pt for f in faces}) == 1
    titled = [title for title, _, continued in texts(cards) if not continued]
    assert titled == ["Rule A", "Rule B"] and not [t for t in texts(cards) if t[2]]
