"""Card pieces that need no PDF engine: options, imposition geometry, rule references, splitting."""
from __future__ import annotations

import pytest

from ruleslawyer.cards import CardError, CardOptions
from ruleslawyer.cards.fit import split_text
from ruleslawyer.cards.impose import crop_marks, impose, make_grid
from ruleslawyer.cards.references import RuleIndex, referenced_rules
from ruleslawyer.records import Ability, Datasheet, Rule, Source, Weapon

SRC = Source(file="test.txt")


def test_sizes_are_exact_and_landscape_swaps_them():
    assert CardOptions(size="poker").card_mm == (63.5, 88.9)
    assert CardOptions(size="tarot").card_mm == (70.0, 120.0)
    assert CardOptions(size="a6").card_mm == (105.0, 148.0)
    assert CardOptions(size="a5", landscape=True).card_mm == (210.0, 148.0)


def test_bad_options_name_the_field():
    with pytest.raises(CardError, match="'size'"):
        CardOptions(size="huge")
    with pytest.raises(CardError, match="'bleed'"):
        CardOptions.resolve({"bleed": -1})
    with pytest.raises(CardError, match="unknown card option"):
        CardOptions.resolve({"colour": "red"})


def test_nine_poker_cards_on_a4_and_on_letter():
    a4 = make_grid(CardOptions(sheet="a4"))
    assert (a4.cols, a4.rows, a4.width, a4.height) == (3, 3, 210.0, 297.0)
    assert make_grid(CardOptions(sheet="letter")).per_sheet == 9
    # A6 cards fit two to an A4 sheet once it is turned landscape
    a6 = make_grid(CardOptions(size="a6", sheet="a4"))
    assert a6.per_sheet == 2 and a6.width > a6.height


def test_crop_marks_stay_outside_every_card_and_its_bleed():
    opts = CardOptions(sheet="a4", bleed=2)
    grid = make_grid(opts)
    marks = crop_marks(grid, opts.bleed)
    assert marks
    for m in marks:
        x1 = m.left + (m.length if m.axis == "h" else 0)
        y1 = m.top + (m.length if m.axis == "v" else 0)
        for c in range(grid.cols):
            for r in range(grid.rows):
                x, y = grid.slot_box(c, r)
                inside = (m.left < x + grid.card_w + 2 and x1 > x - 2 and m.top < y + grid.card_h + 2 and y1 > y - 2)
                assert not inside


def test_duplex_backs_mirror_about_the_long_edge():
    class F:
        side = "front"

    pairs = [(F(), F()) for _ in range(4)]
    _, sheets = impose(pairs, CardOptions(sheet="a4", duplex=True))
    front, back = sheets[0], sheets[1]
    for f, b in zip(front.slots, back.slots):
        assert b.left == pytest.approx(210 - f.left - 63.5) and b.top == pytest.approx(f.top)
    # a landscape sheet (A6 cards) flips top to bottom instead
    _, sheets = impose(pairs[:2], CardOptions(size="a6", sheet="a4", duplex=True))
    for f, b in zip(sheets[0].slots, sheets[1].slots):
        assert b.top == pytest.approx(210 - f.top - 148) and b.left == pytest.approx(f.left)


def rule(name, section=(), edition=10):
    return Rule(name=name, source=SRC, edition=edition, section=tuple(section), text=f"text of {name}")


def test_card_names_resolve_to_rules_tolerantly_but_not_fuzzily():
    index = RuleIndex([rule("Blast Weapons", edition=9), rule("Rapid Fire", edition=9), rule("Anti-X"),
                       rule("Sustained Hits"), rule("Deep Strike"), rule("Leader"), rule("Blast"),
                       rule("Bolter Discipline", ["Angels of Death"], 9), rule("Shock Assault", ["Angels of Death"], 9)])
    assert [r.name for r in index.find("Blast", 9)] == ["Blast Weapons"]
    assert [r.name for r in index.find("blast", 10)] == ["Blast"]
    assert [r.name for r in index.find("Rapid fire 2", 9)] == ["Rapid Fire"]
    assert [r.name for r in index.find("anti-infantry 4+", 10)] == ["Anti-X"]
    assert [r.name for r in index.find("Sustained Hits D3", 10)] == ["Sustained Hits"]
    assert [r.name for r in index.find("Angels of Death", 9)] == ["Bolter Discipline", "Shock Assault"]
    assert index.find("Deep Strikes", 10) and not index.find("Deep Strike", 9)
    assert index.find("Living Metal", 10) == [] and index.find("Blasted", 10) == []


def test_a_datasheet_gets_each_named_rule_once_and_not_its_own_texts():
    index = RuleIndex([rule("Blast"), rule("Deep Strike"), rule("Leader"), rule("Stealth")])
    d = Datasheet(name="Unit", source=SRC, edition=10,
                  weapons=(Weapon("Gun", "18\"", A="D6", skill="3+", S="5", AP="-1", D="1", abilities=("blast",)),
                           Weapon("Gun 2", "12\"", A="1", skill="3+", S="5", AP="-1", D="1", abilities=("Blast",))),
                  abilities=(Ability("Deep Strike"), Ability("Stealth", "Printed in full here."), Ability("Leader")))
    assert [r.name for r in referenced_rules(d, index)] == ["Blast", "Deep Strike", "Leader"]


def test_split_text_counts_printed_characters_and_skips_bullets():
    text = "First line here.\n- bullet one\n- bullet two"
    first, rest = split_text(text, len("Firstlinehere.") + len("bulletone"))
    assert first == "First line here.\n- bullet one" and rest == "- bullet two"
    assert split_text("abc def", 99) == ("abc def", "")


def test_an_amended_rule_on_a_card_says_which_faq_changed_it():
    from ruleslawyer.cards.content import Block
    from ruleslawyer.cards.fit import Face
    from ruleslawyer.cards.impose import impose
    from ruleslawyer.cards.render import document_html
    from ruleslawyer.records import Change

    amended = Rule(name="Advance", source=SRC, edition=9, text="Roll <one> D6.",
                   changes=(Change("Core Book", "1.7", "219", "replace", None, "old", "new"),))
    face = Face("Unit", ("Necrons",), "datasheet", "back", (Block("rule", {"item": amended, "label": "Advance"}),), 7)
    opts = CardOptions()
    page, sheets = impose([(face, face)], opts)
    html = document_html(page, sheets, opts)
    assert "Amended by Core Book v1.7, p.&nbsp;219" in html
    assert "Roll &lt;one&gt; D6." in html  # record text is escaped
