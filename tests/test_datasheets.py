"""Unit tests of the datasheet parser on small Documents built here, one per tricky case.

The cards below are written for these tests (made-up units), in the shapes the loaders
produce: tab tables, one block per line, a flattened 10th-edition stat grid.
"""
from __future__ import annotations

from pathlib import Path

from ruleslawyer.ingest.parse import datasheets
from ruleslawyer.ingest.document import TABLE, Block, Document, DocumentOrigin, Span, heading, paragraph
from ruleslawyer.ingest.parse.parsing import ParseContext
from ruleslawyer.ingest.load.text import load_text

STATS_9 = ("No.", "NAME", "M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv")
WEAPONS_9 = ("WEAPON", "RANGE", "TYPE", "S", "AP", "D", "Abilities")


def make_doc(*blocks: Block, title: str | None = None) -> Document:
    origin = DocumentOrigin(path="test.txt", name="test.txt", format="text", sha256="0" * 64)
    return Document(origin=origin, blocks=tuple(blocks), title=title)


def table(*rows: tuple[str, ...]) -> Block:
    return Block(TABLE, rows=tuple(rows))


def parse(doc: Document, edition: int | None = 9):
    ctx = ParseContext(doc=doc, edition=edition)
    return list(datasheets.parse(doc, ctx)), ctx


def card_9(name: str = "GLOOM WARDENS", *middle: Block, stats=None, weapons=None, abilities=()) -> list[Block]:
    """A 9th-edition card: title, power, keywords, stat table, weapon table, abilities."""
    blocks = [heading(name)] + ([] if "POWER" in name else [heading("POWER 3")]) + [
              paragraph("FACTION KEYWORDS: IMPERIUM, ADEPTUS ASTARTES, <CHAPTER>"),
              paragraph("KEYWORDS: INFANTRY, GLOOM WARDENS")]
    blocks.append(table(STATS_9, *(stats or [("3", "Gloom Warden", '6"', "3+", "3+", "4", "4", "2", "2", "7", "3+")])))
    blocks.extend(middle)
    blocks.append(table(WEAPONS_9, *(weapons or [("Gloom blade", "Melee", "Melee", "User", "-1", "1", "-")])))
    if abilities:
        blocks.append(heading("ABILITIES"))
        blocks.extend(abilities)
    return blocks


def test_basic_card_fields():
    (ds,), ctx = parse(make_doc(*card_9()))
    assert ds.name == "Gloom Wardens"
    assert ds.edition == 9 and ds.power == 3 and ds.faction == "Space Marines"
    assert ds.faction_keywords == ("IMPERIUM", "ADEPTUS ASTARTES", "<CHAPTER>")
    assert ds.keywords == ("INFANTRY", "GLOOM WARDENS")
    (p,) = ds.profiles
    assert (p.name, p.models, p.stats["M"], p.stats["Sv"]) == ("Gloom Warden", "3", '6"', "3+")
    (w,) = ds.weapons
    assert (w.name, w.range, w.type, w.S, w.AP, w.D, w.abilities) == ("Gloom blade", "Melee", "Melee", "User", "-1",
                                                                      "1", ())
    assert ds.source.file == "test.txt"
    assert ctx.claimed == set(range(6))


def test_multi_profile_weapon_gives_one_entry_per_profile():
    weapons = [("Ember pistol", "Before selecting targets, select a profile to make attacks with:", "", "", "", "", ""),
               ("- Low", '12"', "Pistol 1", "7", "-3", "1", "-"),
               ("- High", '12"', "Pistol 1", "8", "-3", "2", "On an unmodified hit roll of 1, the bearer is slain."),
               ("Gloom blade", "Melee", "Melee", "User", "-1", "1", "-")]
    (ds,), _ = parse(make_doc(*card_9(weapons=weapons)))
    names = [w.name for w in ds.weapons]
    assert names == ["Ember pistol - Low", "Ember pistol - High", "Gloom blade"]
    assert ds.weapons[1].D == "2" and ds.weapons[1].abilities == ("On an unmodified hit roll of 1, the bearer is slain.",)
    assert ds.weapons[0].abilities == ()


def test_ten_edition_profiles_named_with_bracket_keywords():
    blocks = [paragraph("Gloom Warden"), paragraph("(⌀32mm)")]
    for label, value in (("M", '6"'), ("T", "4"), ("Sv", "3+"), ("W", "2"), ("Ld", "6+"), ("OC", "1")):
        blocks += [paragraph(label), paragraph(value)]
    blocks += [heading("RANGED WEAPONS")] + [paragraph(x) for x in ("RANGE", "A", "BS", "S", "AP", "D")]
    blocks += [paragraph(x) for x in ("Ember gun – focused [heavy, melta 2]", "Ember gun – focused [heavy, melta 2]",
                                      '18"', "1", "3+", "9", "-4", "D6")]
    blocks += [heading("MELEE WEAPONS")] + [paragraph(x) for x in ("RANGE", "A", "WS", "S", "AP", "D")]
    blocks += [paragraph(x) for x in ("Close combat weapon", "Melee", "3", "3+", "4", "0", "1")]
    blocks += [heading("ABILITIES"), paragraph("CORE: Deep Strike, Leader"),
               paragraph("Shadow Step: Once per battle, this unit can move again.")]
    blocks += [paragraph("KEYWORDS: INFANTRY, GLOOM WARDEN"), heading("FACTION KEYWORDS:"), heading("ADEPTUS ASTARTES"),
               heading("STRATAGEMS"), paragraph("Not part of the card.")]
    (ds,), ctx = parse(make_doc(*blocks), edition=None)
    assert ds.edition == 10 and ds.base == "32mm"
    assert ds.profiles[0].stats == {"M": '6"', "T": "4", "Sv": "3+", "W": "2", "Ld": "6+", "OC": "1"}
    ranged, melee = ds.weapons
    assert (ranged.name, ranged.A, ranged.skill, ranged.D) == ("Ember gun - focused", "1", "3+", "D6")
    assert ranged.abilities == ("heavy", "melta 2") and ranged.type is None
    assert (melee.range, melee.skill, melee.abilities) == ("Melee", "3+", ())
    assert [(a.name, a.text, a.category) for a in ds.abilities][:2] == [("Deep Strike", "", "core"), ("Leader", "", "core")]
    assert ds.abilities[2].text == "Once per battle, this unit can move again."
    assert ds.faction_keywords == ("ADEPTUS ASTARTES",) and ds.faction == "Space Marines"
    stratagems_heading = len(blocks) - 2
    assert stratagems_heading not in ctx.claimed and stratagems_heading - 1 in ctx.claimed


def test_wrapped_ability_text_joins_its_lines():
    abilities = [paragraph("Gloom Shroud"),
                 paragraph("In your command phase, you can pick 1"),
                 paragraph("GLOOM WARDENS unit within 6\" of this unit (that unit cannot be picked twice)."),
                 paragraph("Dark Purpose"), paragraph("Each time this unit fights, add 1 to its A and to the"),
                 paragraph("roll of the attack, as long as it has not"),
                 paragraph("moved.")]
    (ds,), _ = parse(make_doc(*card_9("GLOOM WARDENS", abilities=abilities)))
    assert [a.name for a in ds.abilities] == ["Gloom Shroud", "Dark Purpose"]
    assert ds.abilities[0].text == ("In your command phase, you can pick 1 GLOOM WARDENS unit within 6\" of this unit "
                                    "(that unit cannot be picked twice).")
    assert ds.abilities[1].text.endswith("as long as it has not moved.")


def test_zero_to_one_model_rows_and_equipment_sentences():
    stats = [("4-9", "Gloom Warden", '6"', "3+", "3+", "4", "4", "2", "2", "7", "3+"),
             ("0-1", "Gloom Sergeant", '6"', "3+", "3+", "4", "4", "2", "3", "8", "3+")]
    note = paragraph("If this unit contains 6 or more models, its PR is 6. Every model is equipped with a gloom blade.")
    (ds,), _ = parse(make_doc(*card_9("GLOOM WARDENS", note, stats=stats)))
    assert [(p.name, p.models) for p in ds.profiles] == [("Gloom Warden", "4-9"), ("Gloom Sergeant", "0-1")]
    assert ds.composition == ("Every model is equipped with a gloom blade.",)
    assert ds.power == 3  # the PR note is not the unit's power


def test_per_model_keyword_lines_are_merged():
    blocks = card_9()
    blocks[3] = paragraph("KEYWORDS [GLOOM WARDEN]: INFANTRY, GLOOM WARDENS")
    blocks.insert(4, paragraph("KEYWORDS [SHADE]: INFANTRY, SHADE"))
    (ds,), _ = parse(make_doc(*blocks))
    assert ds.keywords == ("INFANTRY", "GLOOM WARDENS", "SHADE")


def test_missing_characteristic_dash_is_kept():
    stats = [("3-6", "Gloom Mite", '10"', "4+", "-", "3", "3", "4", "4", "10", "6+")]
    (ds,), _ = parse(make_doc(*card_9(stats=stats)))
    assert ds.profiles[0].stats["BS"] == "-" and ds.profiles[0].stats["WS"] == "4+"


def test_textless_shared_ability_and_its_full_rule_is_left_unclaimed():
    abilities = [paragraph("Gloom Shroud"), paragraph("Re-roll hit rolls of 1."), paragraph("Shadow Pact")]
    blocks = card_9(abilities=abilities) + [heading("SHADOW PACT"), paragraph("The full text of the shared rule.")]
    (ds,), ctx = parse(make_doc(*blocks))
    assert [(a.name, a.text) for a in ds.abilities] == [("Gloom Shroud", "Re-roll hit rolls of 1."), ("Shadow Pact", "")]
    assert len(blocks) - 2 not in ctx.claimed and len(blocks) - 1 not in ctx.claimed
    assert len(blocks) - 3 in ctx.claimed


def test_invulnerable_save_only_from_unconditional_own_ability():
    abilities = [paragraph("Shade Field"), paragraph("4+ invulnerable save."),
                 paragraph("Parry"), paragraph("5+ invulnerable save against melee weapons.")]
    (ds,), _ = parse(make_doc(*card_9(abilities=abilities)))
    assert ds.invulnerable_save == "4+"
    abilities = [paragraph("Parry"), paragraph("5+ invulnerable save against melee weapons."),
                 heading("OTHER WARGEAR"), paragraph("Shade shield"), paragraph("The bearer has a 4+ invulnerable save.")]
    (ds,), _ = parse(make_doc(*card_9(abilities=abilities)))
    assert ds.invulnerable_save is None
    assert (ds.abilities[-1].name, ds.abilities[-1].category) == ("Shade shield", "wargear")


def test_name_with_power_on_one_line_and_two_cards_in_a_row():
    blocks = card_9("GLOOM WARDENS POWER 4") + card_9("SHADE LORD")
    (a, b), _ = parse(make_doc(*blocks))
    assert (a.name, a.power, b.name, b.power) == ("Gloom Wardens", 4, "Shade Lord", 3)
    assert len(a.weapons) == 1 and len(b.weapons) == 1


def test_space_separated_rows_from_a_text_file():
    text = "\n".join([
        "GLOOM WARDENS", "POWER 3", "FACTION KEYWORDS: NECRONS, <DYNASTY>", "KEYWORDS: INFANTRY, GLOOM WARDENS",
        "No.\tNAME\tM\tWS\tBS\tS\tT\tW\tA\tLd\tSv", "5\tGloom Warden\t5\"\t3+\t3+\t4\t4\t1\t1\t10\t4+",
        "WEAPON\tRANGE\tTYPE\tS\tAP\tD\tAbilities", "Gloom flayer\t24\"\tRapid Fire 1\t4\t-1\t1\t-",
        "ABILITIES", "Gloom Shroud", "Re-roll hit rolls of 1.",
        "WARGEAR OPTIONS", "Any model can be equipped with 1 gloom reaper instead of 1 gloom flayer."])
    origin = DocumentOrigin(path="t.txt", name="t.txt", format="text", sha256="0" * 64)
    (ds,), _ = parse(load_text(text.encode(), origin))
    assert ds.faction == "Necrons" and ds.profiles[0].models == "5"
    assert ds.weapons[0].type == "Rapid Fire 1"
    assert ds.wargear_options == ("Any model can be equipped with 1 gloom reaper instead of 1 gloom flayer.",)


def test_no_stat_header_no_datasheet():
    doc = make_doc(heading("MOVEMENT PHASE"), paragraph("Move units."), table(("M", "Move"), ("T", "Toughness")))
    records, ctx = parse(doc)
    assert records == [] and not ctx.claimed


def test_bold_ability_names_from_a_styled_loader():
    abilities = [Block("paragraph", spans=(Span("Gloom Shroud", bold=True),)),
                 paragraph("Re-roll hit rolls of 1, or of 2 if the attacking model is within 6\" of an objective"),
                 Block("paragraph", spans=(Span("Dark Purpose", bold=True),)),
                 paragraph("Add 1 to its A.")]
    (ds,), _ = parse(make_doc(*card_9(abilities=abilities)))
    assert [a.name for a in ds.abilities] == ["Gloom Shroud", "Dark Purpose"]


# ---------------------------------------------------------------- other layouts, through the real loaders
FIXTURES = Path(__file__).parent / "fixtures" / "datasheets"


def _parse_file(name: str):
    from ruleslawyer.ingest.formats import load_file
    from ruleslawyer.ingest.parse.parsing import guess_edition

    doc = load_file(FIXTURES / name)
    ctx = ParseContext(doc=doc, edition=guess_edition(doc))
    return list(datasheets.parse(doc, ctx)), ctx, doc


def test_plain_semantic_html_card():
    (ds,), ctx, doc = _parse_file("plain_semantic.html")
    assert (ds.name, ds.edition, ds.faction, ds.invulnerable_save) == ("Shade Lord", 10, "Gloom Court", "5+")
    assert ds.profiles[0].stats == {"M": '5"', "T": "4", "Sv": "3+", "W": "5", "Ld": "6+", "OC": "1"}
    assert [(w.name, w.range, w.D, w.abilities) for w in ds.weapons] == [("Shade staff", '18"', "1", ("blast",)),
                                                                        ("Shade staff", "Melee", "2", ())]
    assert ds.leader.attaches_to == ("Shade Warriors",)
    assert ds.keywords == ("Infantry", "Character", "Shade Lord") and ds.faction_keywords == ("Gloom Court",)
    stratagems = next(i for i, b in enumerate(doc.blocks) if b.text.strip() == "Stratagems")
    assert stratagems not in ctx.claimed and stratagems + 1 not in ctx.claimed


def test_markdown_pipe_tables_card():
    (ds,), _, _ = _parse_file("pipe_table.md")
    assert (ds.name, ds.power, ds.edition, ds.faction) == ("Gloom Wardens", 4, 9, "Gloom Court")
    assert [(p.name, p.models) for p in ds.profiles] == [("Gloom Warden", "4-9"), ("Gloom Sergeant", "1")]
    assert ds.weapons[1].abilities == ("Each hit roll of 6 scores 1 additional hit.",)
    assert [(a.name, a.text) for a in ds.abilities] == [
        ("Gloom Shroud", "Subtract 1 from hit rolls for ranged attacks that target this unit."), ("Shadow Pact", "")]
    assert ds.wargear_options == ("The Gloom Sergeant can be equipped with 1 gloom pistol instead of 1 gloom rifle.",)


def test_second_stat_grid_profiles_another_model_of_the_same_unit():
    def grid(values):
        out = []
        for label, value in zip(("M", "T", "Sv", "W", "Ld", "OC"), values):
            out += [paragraph(label), paragraph(value)]
        return out
    blocks = [heading("Gloom Squad")] + grid(('6"', "4", "3+", "2", "6+", "2"))
    blocks += [heading("Gloom Champion", level=3)] + grid(('6"', "4", "3+", "3", "6+", "1"))
    blocks += [table(("RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"), ("Gloom rifle", '24"', "2", "3+", "4", "-1", "1"))]
    blocks += [paragraph("KEYWORDS: INFANTRY, GLOOM SQUAD")]
    (ds,), ctx = parse(make_doc(*blocks), edition=None)
    assert [(p.name, p.stats["W"]) for p in ds.profiles] == [("Gloom Squad", "2"), ("Gloom Champion", "3")]
    assert len(ds.weapons) == 1 and ctx.claimed == set(range(len(blocks)))


def test_ability_panel_beside_weapons_and_weapon_names_wrapped_over_rows():
    """A PDF card whose weapon table shares its rows with the ability panel on the right."""
    header = ("RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D", "ABILITIES")
    rows = [header,
            ("Ember gun [HEAVY]", '24"', "2", "3+", "6", "-1", "2", "CORE: Deep Strike"),
            ("Gloom chamber – wide", '12"', "D6", "N/A", "5", "0", "1", "Shade Step: Once per battle, this unit"),
            ("beam [TORRENT]", "", "", "", "", "", "", "can move again."),
            ("Gloom chamber – focused", "", "", "", "", "", "", ""),
            ("[LANCE]", '36"', "1", "3+", "9", "-3", "D6", ""),
            ("MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D", "FACTION: Shadow Pact")]
    blocks = [heading("SHADE ENGINE")]
    for label, value in (("M", '8"'), ("T", "9"), ("Sv", "3+"), ("W", "12"), ("Ld", "7+"), ("OC", "3")):
        blocks += [paragraph(label), paragraph(value)]
    blocks += [table(*rows), table(("Crushing bulk", "Melee", "3", "4+", "6", "0", "1", "")),
               paragraph("KEYWORDS: VEHICLE, SHADE ENGINE"), paragraph("FACTION KEYWORDS: GLOOM COURT")]
    (ds,), _ = parse(make_doc(*blocks), edition=None)
    assert [(w.name, w.range, w.abilities) for w in ds.weapons] == [
        ("Ember gun", '24"', ("HEAVY",)), ("Gloom chamber - wide beam", '12"', ("TORRENT",)),
        ("Gloom chamber - focused", '36"', ("LANCE",)), ("Crushing bulk", "Melee", ())]
    assert [(a.name, a.text, a.category) for a in ds.abilities] == [
        ("Deep Strike", "", "core"), ("Shade Step", "Once per battle, this unit can move again.", "unit"),
        ("Shadow Pact", "", "faction")]


def test_a_profile_line_alone_is_not_a_datasheet():
    """An erratum that reprints one characteristic line (title, then the stats) is left alone."""
    blocks = [paragraph("Gloom Dreadnought – Profile line"),
              table(("M", "T", "SV", "W", "LD", "OC"), ('6"', "9", "2+", "8", "6+", "3")),
              paragraph("Change the OC characteristic to 3.")]
    records, ctx = parse(make_doc(*blocks), edition=10)
    assert records == [] and not ctx.claimed


def test_weapon_rows_left_as_loose_lines():
    """A PDF weapon table whose later rows came out as separate name, value and keyword lines."""
    blocks = [heading("SHADE ENGINE"), table(("M", "T", "SV", "W", "LD", "OC"), ('8"', "9", "3+", "12", "7+", "3")),
              table(("RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"),
                    ("Ember gun [HEAVY]", '24"', "2", "3+", "6", "-1", "2")),
              paragraph("Gloom chamber – wide"), paragraph('12" D6+3 N/A 6 -1 2'), paragraph("beam [TORRENT]"),
              paragraph("Gloom chamber – focused"), paragraph('36"'), paragraph("D3 3+ 9 -3 D6+1"),
              heading("[LANCE]", level=4),
              paragraph("Before selecting targets for this weapon, select one of its profiles to make attacks with."),
              paragraph("KEYWORDS: VEHICLE, SHADE ENGINE")]
    (ds,), ctx = parse(make_doc(*blocks), edition=None)
    assert [(w.name, w.range, w.A, w.D, w.abilities) for w in ds.weapons] == [
        ("Ember gun", '24"', "2", "2", ("HEAVY",)), ("Gloom chamber - wide beam", '12"', "D6+3", "2", ("TORRENT",)),
        ("Gloom chamber - focused", '36"', "D3", "D6+1", ("LANCE",))]
    assert ds.keywords == ("VEHICLE", "SHADE ENGINE") and ctx.claimed == set(range(len(blocks)))


def test_weapon_keywords_that_lost_their_brackets():
    """A loader that drops the brackets of weapon keywords: words the document prints in brackets
    elsewhere (its keyword tooltips) are split off the name, each once; other words stay."""
    blocks = [heading("Gloom Squad"), table(("M", "T", "Sv", "W", "Ld", "OC"), ('6"', "3", "4+", "1", "7+", "1")),
              table(("RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"),
                    ("Bolt pistol PISTOL", '12"', "1", "3+", "4", "0", "1"),
                    ("Ember gun melta 2", '12"', "1", "3+", "9", "-4", "D6"),
                    ("Bright lance", '36"', "1", "3+", "12", "-3", "D6+2")),
              paragraph("KEYWORDS: INFANTRY, GLOOM SQUAD"), heading("STRATAGEMS"),
              paragraph("Weapons with [PISTOL] can shoot in close combat."),
              paragraph("Weapons with [MELTA X] deal more damage up close.")]
    (ds,), _ = parse(make_doc(*blocks), edition=None)
    assert [(w.name, w.abilities) for w in ds.weapons] == [
        ("Bolt pistol", ("PISTOL",)), ("Ember gun", ("melta 2",)), ("Bright lance", ())]
