"""Card pieces that need no PDF engine: options, imposition geometry, rule references, splitting."""
from __future__ import annotations

import pytest

from ruleslawyer.cards import CardError, CardOptions
from ruleslawyer.cards.fit import split_text
from ruleslawyer.cards.impose import crop_marks, impose, make_grid
from ruleslawyer.records import Ability, Datasheet, Leader, Profile, Rule, Source, UnitCost, Weapon

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


def rule(name, edition=10, text=None, **kw):
    return Rule(name=name, source=SRC, edition=edition, text=text or f"text of {name}", **kw)


def unit(**kw) -> Datasheet:
    base = dict(name="Unit", source=SRC, edition=10, faction="Necrons",
                profiles=(Profile("Unit", {"M": "6\"", "T": "4", "Sv": "3+", "W": "5", "Ld": "6+", "OC": "1"}),),
                keywords=("INFANTRY",), faction_keywords=("NECRONS",))
    base.update(kw)
    return Datasheet(**base)


def test_split_text_counts_printed_characters_bullets_included():
    text = "First line here.\n\u2022 bullet one\n\u2022 bullet two"
    first, rest = split_text(text, len("Firstlinehere.") + len("\u2022bulletone"))
    assert first == "First line here.\n\u2022 bullet one" and rest == "\u2022 bullet two"
    assert split_text("abc def", 99) == ("abc def", "")


def test_font_steps_never_go_below_seven_points():
    for size in ("poker", "tarot", "a6", "a5"):
        steps = CardOptions(size=size).font_steps()
        assert steps[-1] == 7.0 and min(steps) == 7.0 and steps == sorted(steps, reverse=True)
        assert steps[0] > 7.0  # room to grow
    assert CardOptions(size="poker").font_steps()[0] == 9.0


def content_of(d, rules):
    from ruleslawyer.cards.content import build_content

    return build_content([d], rules)[0]


def test_front_has_own_abilities_in_full_and_core_abilities_by_name():
    leader_text = " ".join(["word"] * 300)
    form = "This ability always takes the form Deep Strike. Each time this unit arrives, set it up 9\" away."
    rules = [rule("Leader", text=leader_text, summary=("Attach this model to a unit before the battle.",),
                  number="24.05"),
             rule("Lethal Hits", text="Critical hits wound automatically."), rule("Deep Strike", text=form)]
    d = unit(weapons=(Weapon("Gun", "18\"", A="2", skill="3+", S="5", AP="-1", D="1", abilities=("lethal hits",)),),
             abilities=(Ability("Leader", "", "core"), Ability("Deep Strike", "", "core"),
                        Ability("Grim Will", "Once per battle, this unit can do a thing.", "unit")),
             leader=Leader("", ("Immortals",)))
    c = content_of(d, rules)
    own = [b for b in c.front if b.kind == "text"]
    assert [b.data["title"] for b in own] == ["Grim Will"] and own[0].data["tick"]
    named = dict(next(b for b in c.front if b.kind == "lines" and b.data["cls"] == "named").data["lines"])
    assert named["Core"] == "Leader, Deep Strike" and named["Leads"] == "Immortals"
    back = {b.data.get("title"): b for b in c.back if b.kind == "text"}
    # every rule in full on the back, by its operative text: never cut, never its form sentence
    assert back["Lethal Hits"].data["text"] == "Critical hits wound automatically."
    assert back["Leader"].data["text"] == leader_text
    assert back["Deep Strike"].data["text"] == "Each time this unit arrives, set it up 9\" away."
    assert not c.long_rules
    # the very last resort names the rules with their numbers, for the rules sheet
    last = [f for f in c.fallbacks if f.last_resort][-1]
    refs = dict(next(b for b in last.back if b.kind == "lines").data["lines"])
    assert "Leader (24.05)" in refs["Rules (see the rules sheet)"]
    assert {n for n, _ in last.long_rules} == {"Leader", "Deep Strike", "Lethal Hits"}


def test_points_tiers_on_one_line():
    from ruleslawyer.cards.content import tiers_line

    costs = (UnitCost("10", 75, "1st-3rd"), UnitCost("20", 160, "1st-3rd"),
             UnitCost("10", 85, "4th+"), UnitCost("20", 170, "4th+"))
    assert tiers_line(costs) == "10: 75 \u00b7 20: 160; 4th+: 85 \u00b7 170 pts"
    assert tiers_line((UnitCost("1", 85),)) == "85 pts"


def test_back_carries_composition_and_wargear_options_where_there_is_room():
    d = unit(composition=("1 Boss", "9 Boyz"), wargear_options=("The Boss's gun can be replaced with 1 big gun.",))
    c = content_of(d, [])
    titles = [b.data.get("title") for b in c.back]
    assert titles == ["Unit composition", "Wargear options"] and c.min_pt > 7.0
    assert not any(b.data.get("title") == "Wargear options" for f in c.fallbacks for b in f.back)


def test_wound_boxes_for_characters_vehicles_and_monsters_up_to_24_wounds():
    from ruleslawyer.cards.content import wound_rows

    assert wound_rows(unit()) == []  # infantry
    assert wound_rows(unit(keywords=("VEHICLE",))) == [("Unit", 5)]
    big = unit(keywords=("MONSTER",), profiles=(Profile("Big", {"W": "25"}),))
    assert wound_rows(big) == []
    three = unit(keywords=("VEHICLE",), points=(UnitCost("3", 150),))
    assert wound_rows(three) == [("Unit 1", 5), ("Unit 2", 5), ("Unit 3", 5)]


def test_edition_newest_by_default_with_a_note_and_edition_option():
    from ruleslawyer.cards.select import select_records

    old, new = unit(edition=9, name="Skorpekh Lord"), unit(edition=10, name="Skorpekh Lord")
    other = unit(edition=10, name="Skorpekh Destroyers")
    pool = [old, new, other]
    sel = select_records(pool, ["skorpekh lord"])
    assert sel.records == [new] and "9th" in sel.notes[0] and "--edition" in sel.notes[0]
    assert select_records(pool, ["skorpekh lord"], edition=9).records == [old]
    assert select_records(pool, ["skorpekh"]).records == [new, other]
    with pytest.raises(CardError, match="edition 8"):
        select_records(pool, ["skorpekh lord"], edition=8)


def test_estimate_matches_the_markup_it_describes():
    """Counting lines: greedy breaking at spaces and hyphens, kerned widths."""
    from ruleslawyer.cards.metrics import count_lines, text_em

    assert count_lines([("word", False)], 100) == 1
    w = text_em("aaaa")
    assert count_lines([("aaaa aaaa", False)], 2 * w) == 2  # the space does not fit
    assert count_lines([("aaaa aaaa", False)], 2 * w + text_em(" ") + 0.01) == 1
    assert count_lines([("anti-infantry", False)], text_em("infantry") + 0.01) == 2  # after the hyphen
