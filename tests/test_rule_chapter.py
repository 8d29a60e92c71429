"""Numbered rules chapters (11th edition core rules), edition cues and parse warnings, on
Documents built here (no shared files needed)."""
from __future__ import annotations

from ruleslawyer.ingest.document import HEADING, LIST_ITEM, PARAGRAPH, Block, Document, DocumentOrigin, Span
from ruleslawyer.ingest.load.pdf_glyphs import font_style
from ruleslawyer.ingest.parse.parsing import ParseContext, edition_from_path, guess_edition, parse_document


def _block(kind, text, page=1, column=1, size=8.5, top=0.0, bold=False, italic=False, **attrs):
    a = {"size": str(size), "top": str(top), **attrs}
    return Block(kind, spans=(Span(text, bold=bold, italic=italic),), page=page, column=column, attrs=a,
                 level=1 if kind == HEADING else 0)


def _doc(blocks, path="/books/chapter.pdf", meta=None):
    origin = DocumentOrigin(path=path, name=path.rsplit("/", 1)[-1], format="pdf", sha256="0" * 64)
    return Document(origin=origin, blocks=tuple(blocks), meta=meta or {})


CHAPTER = [
    _block(PARAGRAPH, "During a battle you will move your models; the principles are explained here.",
           size=9, top=30, bold=True),
    _block(HEADING, "MOVING UNITS 03.01", size=20, top=60),
    _block(PARAGRAPH, "Each time you move a unit, you can move one or more of its models in a straight line.",
           top=90),
    _block(PARAGRAPH, "Each time you move a model, unless otherwise stated:", top=110),
    _block(LIST_ITEM, "It can be moved through friendly models.", top=120, marker="▪"),
    _block(HEADING, "ROTATING A MODEL", size=12, top=140, bold=True),
    _block(PARAGRAPH, "Each time you rotate a model, turn it around the centre of its base.", top=160),
    _block(PARAGRAPH, "03", size=40, top=540, bold=True),
    _block(PARAGRAPH, "12", size=14, top=618),
    _block(PARAGRAPH, "++ WE WILL PREVAIL ++", size=8, top=622),
    # page 2: a sidebar in column 1 beside two rules in column 2, and a navigation box
    _block(HEADING, "WHAT IS COHERENCY?", page=2, column=1, size=8, top=230, bold=True),
    _block(PARAGRAPH, "Coherency keeps the models of a unit close together while they fight.", page=2,
           column=1, size=7, top=240, italic=True),
    _block(HEADING, "SET UP 03.02", page=2, column=2, size=20, top=30),
    _block(PARAGRAPH, "Whenever a rule instructs you to set up a unit, place its models on the battlefield.",
           page=2, column=2, top=55),
    _block(HEADING, "COHERENCY 03.03", page=2, column=2, size=20, top=228),
    _block(PARAGRAPH, "A unit that contains more than one model must end any kind of move in coherency.",
           page=2, column=2, top=250),
    _block(HEADING, "SEE ALSO", page=2, column=3, size=20, top=30, bold=True),
    _block(LIST_ITEM, "Frame 17.02", page=2, column=3, top=50, marker="▪"),
    _block(LIST_ITEM, "Terrain 13.00", page=2, column=3, top=60, marker="▪"),
    _block(LIST_ITEM, "Transports 18.00", page=2, column=3, top=70, marker="▪"),
    # page 3: a diagram panel that illustrates 03.01 (its title shares "rotating")
    _block(HEADING, "ROTATING", page=3, size=10, top=30, bold=True),
    _block(PARAGRAPH, "This model moves in a series of straight lines and rotations.", page=3, size=7,
           top=50, italic=True),
    _block(PARAGRAPH, '3"', page=3, size=14, top=80, bold=True),
]


def _rules(doc):
    ctx = ParseContext(doc=doc, edition=guess_edition(doc))
    records = [r for r in parse_document(doc, ctx) if r.kind == "rule"]
    return {r.name: r for r in records}, ctx


def test_numbered_rules_get_number_section_sidebars_and_panels():
    doc = _doc(CHAPTER, meta={"vertical_titles": "1\t48\tMOVING\n2\t48\tMOVING"})
    rules, ctx = _rules(doc)
    assert ctx.edition == 11  # numbered headings
    assert set(rules) == {"Moving Units", "Set Up", "Coherency"}  # the intro is no rule
    moving = rules["Moving Units"]
    assert moving.number == "03.01" and moving.section == ("Moving",) and moving.edition == 11
    assert "- It can be moved through friendly models." in moving.text
    assert "Rotating a Model" in moving.text  # a sub-heading stays as a line of the rule
    assert "series of straight lines" in moving.text  # the diagram panel it illustrates
    for furniture in ("++", "03\n", '3"', "\n12"):
        assert furniture not in moving.text
    # The sidebar sits level with 03.03 in the other column: it goes there, not to 03.02.
    assert "keeps the models of a unit close" in rules["Coherency"].text
    assert "keeps the models" not in rules["Set Up"].text
    assert all("Frame" not in r.text for r in rules.values())  # the SEE ALSO box is navigation


def test_unmapped_glyph_in_a_rule_is_warned_about():
    blocks = CHAPTER[:3] + [_block(PARAGRAPH, "Roll one \ufffd and add it to the result of the roll.", top=100)]
    doc = _doc(blocks + CHAPTER[12:16], meta={"vertical_titles": "1\t48\tMOVING"})
    rules, ctx = _rules(doc)
    assert "\ufffd" in rules["Moving Units"].text
    assert any("\\ufffd" in w and w.startswith("p.1:") for w in ctx.warnings)


def test_warn_formats_the_page():
    ctx = ParseContext(doc=_doc([]))
    ctx.warn("could not place a block", page=3)
    ctx.warn("no page")
    assert ctx.warnings == ["p.3: could not place a block", "no page"]


def test_edition_cues():
    insv = _doc([_block(PARAGRAPH, "M T Sv W Ld OC InSv"), _block(PARAGRAPH, "InSv 4+"),
                 _block(HEADING, "SUPPORT"), _block(PARAGRAPH, "This model can support Intercessors.")])
    assert guess_edition(insv) == 11
    plain = _doc([_block(PARAGRAPH, "If your Army Faction is ORKS, once per battle you can call a Waaagh!.")],
                 path="/data/e11/pdf/Waaagh.txt")
    assert guess_edition(plain) == 11
    assert edition_from_path("/x/BSData__wh40k-10e/Necrons.cat") == 10
    assert edition_from_path("/x/9th_ed_battle_primer.pdf") == 9
    assert edition_from_path("/x/core11_03_Moving.pdf") is None  # a number inside a word says nothing
    assert edition_from_path("/x/15_Stratagems.pdf") is None


def test_short_italic_style_suffix():
    assert font_style("ABCDEF+MinionPro-It") == (False, True)
    assert font_style("ABCDEF+Garamond-BoldIt") == (True, True)
    assert font_style("ABCDEF+Unit-Regular") == (False, False)


def test_numbered_stratagem_card_keeps_its_number_and_steps():
    from ruleslawyer.ingest.formats import load_bytes

    text = ("EXPLOSIVES 15.05\n1CP\nCore – Stratagem\n"
            "WHEN: Your Shooting phase.\nTARGET: One friendly unit that is eligible to shoot.\n"
            "EFFECT: Resolve the following sequence:\n"
            "1. Select one model in your unit.\n2. Select one enemy unit within 8\u2011inches of it.\n"
            "3. Roll six D6: for each 4+, that enemy unit suffers 1 mortal wound.\n")
    doc = load_bytes(text.encode(), __import__("pathlib").Path("strats.txt"), sha256="1" * 64)
    (card,) = [r for r in parse_document(doc) if r.kind == "stratagem"]
    assert card.number == "15.05" and card.name == "Explosives"
    assert card.effect.splitlines() == ["Resolve the following sequence:", "1. Select one model in your unit.",
                                        "2. Select one enemy unit within 8-inches of it.",
                                        "3. Roll six D6: for each 4+, that enemy unit suffers 1 mortal wound."]


def test_bracketed_weapon_ability_headings_are_rules():
    blocks = [
        _block(HEADING, "WEAPON ABILITIES 24.01", size=20, top=30),
        _block(PARAGRAPH, "Some weapons have abilities, shown in brackets after their name on a datasheet.", top=60),
        _block(HEADING, "[LETHAL HITS] 24.02", size=20, top=100),
        _block(PARAGRAPH, "Each time an attack is made with this weapon, a critical hit automatically wounds.",
               top=130),
        _block(HEADING, "[PRECISION]", size=12, top=200, bold=True),
        _block(PARAGRAPH, "Each time an attack made with this weapon hits, you can allocate it to a character.",
               top=220),
    ]
    rules, ctx = _rules(_doc(blocks, meta={"vertical_titles": "1\t48\tWEAPON ABILITIES"}))
    assert rules["Lethal Hits"].number == "24.02" and "critical hit" in rules["Lethal Hits"].text
    assert rules["Precision"].section == ("Weapon Abilities",) and "allocate it" in rules["Precision"].text
    assert "allocate it" not in rules["Lethal Hits"].text


def test_bracketed_heading_in_a_popup_page_is_a_rule():
    from ruleslawyer.ingest.formats import load_bytes

    text = ("# [LETHAL HITS]\n\nEach time an attack is made with this weapon, a critical hit automatically "
            "wounds the target.\n\n# [PRECISION]\n\nEach time an attack made with this weapon hits a unit, "
            "you can allocate it to a visible character model in that unit.\n")
    doc = load_bytes(text.encode(), __import__("pathlib").Path("abilities.md"), sha256="2" * 64)
    names = {r.name for r in parse_document(doc) if r.kind == "rule"}
    assert {"Lethal Hits", "Precision"} <= names


def test_sidebars_beside_the_first_rule_and_below_a_see_also_box_are_kept():
    """Page 1: the intro and its sidebar sit above the first heading; a sidebar in the narrow
    column level with the first heading is that rule's. Page 2: a SEE ALSO list and, further
    down the same column, a sidebar that belongs to the rule level with it."""
    blocks = [
        _block(PARAGRAPH, "Whenever models attack, follow the sequence detailed in this section.", column=1,
               size=9, top=30, bold=True),
        _block(HEADING, "WHEN DOES IT END?", column=1, size=8, top=70, bold=True),
        _block(PARAGRAPH, "When all attacks are resolved the sequence ends.", column=1, size=7, top=80),
        _block(HEADING, "CRITICAL HITS", column=1, size=8, top=205, bold=True),
        _block(PARAGRAPH, "Critical hits are still hits, and can trigger other rules.", column=1, size=7, top=215),
        _block(HEADING, "1. HIT ROLLS 05.01", column=2, size=20, top=197),
        _block(PARAGRAPH, "Make one hit roll for each attack dice by rolling one D6 for each of them.", column=2,
               top=220),
        _block(HEADING, "2. SAVE ROLLS 05.02", page=2, column=1, size=20, top=32),
        _block(PARAGRAPH, "The opposing player makes one save roll for each attack that wounded.", page=2,
               column=1, top=55),
        _block(HEADING, "3. INFLICT DAMAGE 05.03", page=2, column=1, size=20, top=274),
        _block(PARAGRAPH, "The opposing player resolves the following sequence for each save roll.", page=2,
               column=1, top=296),
        _block(HEADING, "SEE ALSO", page=2, column=2, size=20, top=32),
        _block(LIST_ITEM, "Destroyed", page=2, column=2, top=55, marker="►"),
        _block(LIST_ITEM, "Modified Characteristics", page=2, column=2, top=66, marker="►"),
        _block(LIST_ITEM, "Random Characteristics", page=2, column=2, top=77, marker="►"),
        _block(HEADING, "CURRENT GROUP", page=2, column=2, size=8, top=282, bold=True),
        _block(PARAGRAPH, "The first group in the allocation order begins as the current group.", page=2,
               column=2, size=7, top=299),
    ]
    rules, _ = _rules(_doc(blocks, meta={"vertical_titles": "1\t48\tATTACK SEQUENCE"}))
    assert set(rules) == {"Hit Rolls", "Save Rolls", "Inflict Damage"}
    assert "Critical hits are still hits" in rules["Hit Rolls"].text
    assert all("sequence ends" not in r.text for r in rules.values())  # the intro's sidebar
    assert "begins as the current group" in rules["Inflict Damage"].text
    assert all("Destroyed" not in r.text for r in rules.values())


def test_pages_under_another_sideways_title_are_no_rules_text():
    """Worked-example pages under their own sideways title ("… EXAMPLES") and the next chapter's
    divider hold no numbered rule: none of their text joins a rule, and a warning says so."""
    blocks = CHAPTER[:5] + [
        _block(HEADING, "SET UP 03.02", size=20, top=300),
        _block(PARAGRAPH, "Whenever a rule instructs you to set up a unit, place its models on the battlefield.",
               top=330),
        _block(HEADING, "MOVING UNITS", page=2, size=10, top=30, bold=True),
        _block(PARAGRAPH, "The unit moves up to its full distance around the ruin in this example.", page=2,
               size=7, top=50),
        _block(PARAGRAPH, "THE BATTLE ROUND", page=3, size=76, top=300),
    ]
    meta = {"vertical_titles": "1\t48\tMOVING\n2\t36\tMOVING\x08EXAMPLES\n3\t76\tTHE BATTLE ROUND", "pages": "3"}
    rules, ctx = _rules(_doc(blocks, meta=meta))
    assert set(rules) == {"Moving Units", "Set Up"}
    assert "this example" not in rules["Set Up"].text and "BATTLE ROUND" not in rules["Set Up"].text
    assert "this example" not in rules["Moving Units"].text and "BATTLE ROUND" not in rules["Moving Units"].text
    assert any("another sideways title" in w for w in ctx.warnings), ctx.warnings


def test_one_rule_chapter_xref_boxes_and_datasheet_words_as_rule_names():
    """A chapter with a single numbered rule under its sideways title; a box whose heading
    carries another chapter's numbers ("LEADER 24.22 / SUPPORT 24.34") is no rule; a numbered
    rule named like a datasheet section ("3. ABILITIES 02.03") is still a rule."""
    one = [
        _block(HEADING, "PERFORMING ACTIONS 16.01", size=20, top=60),
        _block(PARAGRAPH, "Some rules let a unit perform an action; it does so as described below.", top=90),
        _block(HEADING, "Starting an Action", size=12, top=120, bold=True),
        _block(PARAGRAPH, "Select one unit from your army that is eligible to start that action.", top=140),
    ]
    doc = _doc(one, meta={"vertical_titles": "1\t48\tACTIONS"})
    ctx = ParseContext(doc=doc, edition=11)  # the book's other chapters say 11th edition
    rules = {r.name: r for r in parse_document(doc, ctx) if r.kind == "rule"}
    assert set(rules) == {"Performing Actions"} and rules["Performing Actions"].number == "16.01"
    assert "Select one unit" in rules["Performing Actions"].text
    attached = [
        _block(HEADING, "FORMING ATTACHED UNITS 19.01", size=20, top=60),
        _block(PARAGRAPH, "Leader and bodyguard units can be joined together to form attached units.", top=90),
        _block(HEADING, "LEADER 24.22 / SUPPORT 24.34", size=10, top=196, bold=True),
        _block(PARAGRAPH, "These abilities say which units a model can join or support in a battle.", top=210),
        _block(HEADING, "3. ABILITIES 19.02", size=20, top=300),
        _block(PARAGRAPH, "Many units have abilities that may apply during the game, described here.", top=330),
    ]
    rules, _ = _rules(_doc(attached, meta={"vertical_titles": "1\t48\tATTACHED UNITS"}))
    assert set(rules) == {"Forming Attached Units", "Abilities"}
    assert rules["Abilities"].number == "19.02"


def test_text_chapter_heading_gives_the_section():
    """A text digest of numbered rules has no sideways title: the heading above its first rule
    is the section."""
    from ruleslawyer.ingest.formats import load_bytes

    text = ("A digest of a few numbered rules.\n\nWEAPON AND UNIT ABILITIES\n\n"
            "Each ability's rule is given below under its number.\n\n[LETHAL HITS] 24.07\n\n"
            "Each critical hit scored with this weapon wounds the target automatically.\n\n"
            "FEEL NO PAIN 24.12\n\nEach time this model would lose a wound, roll one D6 to ignore it.\n")
    doc = load_bytes(text.encode(), __import__("pathlib").Path("digest.txt"), sha256="2" * 64)
    rules = {r.name: r for r in parse_document(doc) if r.kind == "rule"}
    assert set(rules) == {"Lethal Hits", "Feel No Pain"}
    assert all(r.section == ("Weapon and Unit Abilities",) for r in rules.values())
    assert rules["Feel No Pain"].number == "24.12"


def test_flavour_line_under_a_numbered_heading_goes_to_fluff_in_both_columns():
    flavour = "Open ground offers little protection to the troops who cross it."
    blocks = [
        _block(HEADING, "OPEN GROUND 13.03", column=1, size=20, top=60),
        _block(PARAGRAPH, flavour, column=1, top=80, italic=True),
        _block(PARAGRAPH, "Examples: Craters, scattered debris.", column=1, top=100),
        # column 2: the loader joined the italic flavour line to the upright text after it
        Block(PARAGRAPH, spans=(Span("Broken ground slows an enemy's advance ", italic=True),
                                Span("and shelters the desperate.", italic=True),
                                Span("Examples: ", bold=True), Span("Barricades, low walls.")),
              page=1, column=2, attrs={"size": "8.5", "top": "80"}),
        _block(HEADING, "COVER 13.05", column=2, size=20, top=200),
        _block(PARAGRAPH, "Each time a ranged attack targets a unit in cover, add 1 to the save roll.",
               column=2, top=220),
    ]
    blocks.insert(3, _block(HEADING, "BROKEN GROUND 13.04", column=2, size=20, top=60))
    rules, _ = _rules(_doc(blocks))
    assert rules["Open Ground"].fluff == flavour
    assert rules["Open Ground"].text == "Examples: Craters, scattered debris."
    assert rules["Broken Ground"].fluff == "Broken ground slows an enemy's advance and shelters the desperate."
    assert rules["Broken Ground"].text == "Examples: Barricades, low walls."
    assert rules["Cover"].fluff is None  # upright rules text is never flavour


def test_a_bar_heading_citing_another_chapter_heads_an_unnumbered_rule():
    """A heading printed in white on a coloured bar ("LEADER 24.22 / SUPPORT 24.34"), over a
    flavour line and text of its own, is a rule of the chapter like the chapter's own bar rules;
    the numbers it cites (chapter 24) are not its number nor part of its name. The same heading
    with no text under it stays out."""
    def bar(text, top):
        return Block(HEADING, spans=(Span(text, bold=True, color="#ffffff"),), page=1, column=1,
                     attrs={"size": "10", "top": str(top)}, level=4)

    blocks = [
        _block(HEADING, "FORMING ATTACHED UNITS 19.01", size=20, top=60),
        _block(PARAGRAPH, "Leader and bodyguard units can be joined together to form attached units.", top=90),
        bar("LEADER 24.22 / SUPPORT 24.34", 196),
        _block(PARAGRAPH, "Mighty heroes fight at the forefront of battle.", top=208, italic=True),
        _block(PARAGRAPH, "Before the battle, select one bodyguard unit each leader unit can lead.", top=230),
        _block(HEADING, "ATTACKING ATTACHED UNITS 19.02", size=20, top=300),
        _block(PARAGRAPH, "Each time an attack targets an attached unit, use the bodyguard's toughness.", top=330),
        bar("FEEL NO PAIN 24.12", 400),
        _block(HEADING, "KEYWORDS IN ATTACHED UNITS 19.03", size=20, top=420),
        _block(PARAGRAPH, "An attached unit has all of the keywords of all of its component units.", top=450),
    ]
    rules, _ = _rules(_doc(blocks, meta={"vertical_titles": "1\t48\tATTACHED UNITS"}))
    assert set(rules) == {"Forming Attached Units", "Leader / Support", "Attacking Attached Units",
                          "Keywords in Attached Units"}
    bar_rule = rules["Leader / Support"]
    assert bar_rule.number is None and bar_rule.section == ("Attached Units",)
    assert bar_rule.fluff == "Mighty heroes fight at the forefront of battle."
    assert bar_rule.text == "Before the battle, select one bodyguard unit each leader unit can lead."
    assert "Before the battle" not in rules["Forming Attached Units"].text
