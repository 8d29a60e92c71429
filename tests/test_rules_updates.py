"""The Rules Updates page of a faction pack read as errata (no page references)."""
from __future__ import annotations

from ruleslawyer.ingest.document import Block, Document, DocumentOrigin, Span, heading, paragraph
from ruleslawyer.ingest.parse.parsing import ParseContext, parse_document


def bold(text):
    return Block("paragraph", spans=(Span(text, bold=True),), page=7)


def pack(*blocks):
    head = (heading("IRON WARDENS", page=1), paragraph("FACTION PACK: VERSION 1.2", page=1))
    return Document(origin=DocumentOrigin(path="p.pdf", name="p.pdf", format="pdf", sha256="0"),
                    blocks=head + tuple(blocks), title="IRON WARDENS")


def errata_of(doc):
    ctx = ParseContext(doc=doc, edition=11)
    return [r for r in parse_document(doc, ctx) if r.kind == "errata"], ctx


def test_updates_without_pages_target_what_they_name():
    doc = pack(heading("RULES UPDATES", level=3, page=7), heading("ARMY RULES", level=6, page=7),
               bold("Oath of Stone, Unyielding"), paragraph("Change to:", page=7),
               paragraph("'This unit has +1 to charge rolls.'", page=7),
               heading("DATASHEETS", level=6, page=7),
               bold("Gate Captain, Hold the Line Ability"), paragraph('Change 9" to 8".', page=7),
               bold("Rampart Walker"), Block("list_item", spans=(Span("Keywords: ", bold=True),
                                                                 Span("Remove 'FLY'.")), page=7),
               bold("Wall Guard Squad"), paragraph("Add the following ability:", page=7),
               paragraph("'Shield Wall: this unit has a 4+ invulnerable save.'", page=7))
    errata, _ = errata_of(doc)
    got = {(e.target, e.location): e for e in errata}
    oath = got[("Oath of Stone, Unyielding", None)]
    assert (oath.operation, oath.text, oath.page, oath.version) == ("replace", "This unit has +1 to charge rolls.",
                                                                    None, "1.2")
    assert oath.faction_heading == "Army Rules" and oath.document == "Iron Wardens Faction Pack"
    value = got[("Gate Captain, Hold the Line Ability", None)]
    assert (value.operation, value.old_text, value.text) == ("replace", '9"', '8"')
    keywords = got[("Rampart Walker, Keywords", None)]  # the bullet's label joins the target
    assert keywords.operation == "delete"
    added = got[("Wall Guard Squad", None)]
    assert added.operation == "add" and added.text.startswith("Shield Wall")
    assert all(e.edition == 11 for e in errata)


def test_a_document_without_a_rules_updates_section_gives_none():
    doc = pack(bold("Oath of Stone"), paragraph("Change to:", page=7), paragraph("'x'", page=7))
    assert not [e for e in errata_of(doc)[0] if e.document == "Iron Wardens Faction Pack"]


def test_a_titled_update_that_prints_a_new_rule_is_an_add():
    doc = pack(heading("RULES UPDATES", level=3, page=7),
               heading("STEADFAST GARRISON", level=5, page=7),
               paragraph("Each time a unit from your army is selected to shoot, it can re-roll a hit roll.", page=7),
               heading("FAQS", level=3, page=8))
    errata, _ = errata_of(doc)
    (added,) = errata
    assert (added.operation, added.title, added.target) == ("add", "Steadfast Garrison", "Steadfast Garrison")
    assert added.text.startswith("Each time a unit") and added.page is None


def test_a_heading_printed_with_dashes_is_one_target_path():
    doc = pack(heading("RULES UPDATES", level=3, page=7), heading("DATASHEETS", level=6, page=7),
               bold("Gate Wardens – Shieldbearer – Bastion Icon Wargear Ability"),
               paragraph("Change to:", page=7), paragraph("'The bearer\u2019s unit has the Stealth ability.'", page=7),
               bold("Rampart Walker, Siege Tank – Keywords Section"), paragraph("Add 'FRAME'.", page=7))
    errata, _ = errata_of(doc)
    got = {e.target: e for e in errata}
    icon = got["Gate Wardens, Shieldbearer, Bastion Icon Wargear Ability"]
    assert icon.location is None and icon.operation == "replace" and icon.text.endswith("Stealth ability.")
    frame = got["Rampart Walker, Siege Tank, Keywords Section"]
    assert (frame.location, frame.operation, frame.text) == (None, "add", "FRAME")


def test_a_bullet_label_joins_the_target_and_the_instruction_names_the_place():
    doc = pack(heading("RULES UPDATES", level=3, page=7), heading("DATASHEETS", level=6, page=7),
               bold("Storm Hawk"),
               Block("list_item", spans=(Span("Profile: ", bold=True), Span("Change M to 14\" and OC to '1'.")),
                     page=7),
               Block("list_item", spans=(Span("Keywords: ", bold=True), Span("Remove 'HOVER'.")), page=7))
    errata, _ = errata_of(doc)
    got = sorted((e.target, e.location, e.operation, e.text) for e in errata)
    assert got == [("Storm Hawk, Keywords", None, "delete", "HOVER"),
                   ("Storm Hawk, Profile", "M", "replace", '14"'),
                   ("Storm Hawk, Profile", "OC", "replace", "1")]


def test_updates_and_faqs_of_one_pack_name_the_same_document():
    doc = pack(heading("RULES UPDATES", level=3, page=7), heading("ARMY RULES", level=6, page=7),
               bold("Oath of Stone, Unyielding"), paragraph("Change to:", page=7),
               paragraph("'This unit has +1 to charge rolls.'", page=7),
               heading("FAQS", level=3, page=8),
               paragraph("Q: Can a unit use Oath of Stone twice in one phase?", page=8),
               paragraph("A: No.", page=8),
               paragraph("Q: Does Unyielding apply to attached Characters?", page=8),
               paragraph("A: Yes.", page=8))
    ctx = ParseContext(doc=doc, edition=11)
    records = parse_document(doc, ctx)
    documents = {(r.kind, r.document, r.version) for r in records if r.kind in ("errata", "faq")}
    assert documents == {("errata", "Iron Wardens Faction Pack", "1.2"), ("faq", "Iron Wardens Faction Pack", "1.2")}


def test_wording_opened_on_the_instruction_line_runs_on_to_its_closing_quote():
    doc = pack(heading("RULES UPDATES", level=3, page=7), heading("DATASHEETS", level=6, page=7),
               bold("Siege Hound, Scent of Stone Ability"),
               paragraph("Change to:'In the Charge phase, when this unit declares a charge:", page=7),
               Block("list_item", spans=(Span('If an enemy unit is within 6" of this unit, add 1 to the roll.'),),
                     page=7),
               Block("list_item", spans=(Span("Otherwise, add nothing.'"),), page=7),
               bold("Gate Captain, Hold the Line Ability"), paragraph('Change 9" to 8".', page=7))
    errata, _ = errata_of(doc)
    got = {e.target: e for e in errata}
    lines = got["Siege Hound, Scent of Stone Ability"].text.splitlines()
    assert lines[0] == "In the Charge phase, when this unit declares a charge:"
    assert lines[1:] == ['- If an enemy unit is within 6" of this unit, add 1 to the roll.', "- Otherwise, add nothing."]
    assert got["Gate Captain, Hold the Line Ability"].text == '8"'


def _named_by(*title):
    doc = Document(origin=DocumentOrigin(path="p.pdf", name="p.pdf", format="pdf", sha256="0"),
                   blocks=tuple(title) + (heading("RULES UPDATES", level=3, page=7), heading("ARMY RULES", level=6, page=7),
                                          bold("Oath of Stone, Unyielding"), paragraph("Change to:", page=7),
                                          paragraph("'This unit has +1 to charge rolls.'", page=7)))
    errata, _ = errata_of(doc)
    return {(e.document, e.version) for e in errata}


def test_a_pack_is_named_with_its_kind_last_however_its_title_block_prints_it():
    pack_name = {("Iron Wardens Faction Pack", "1.3")}
    assert _named_by(heading("FACTION PACK: IRON WARDENS", page=1), paragraph("VERSION 1.3", page=1)) == pack_name
    assert _named_by(heading("IRON WARDENS", page=1), heading("FACTION PACK", page=1),
                     paragraph("VERSION 1.3", page=1)) == pack_name
    assert _named_by(heading("IRON WARDENS \u2013 FACTION PACK", page=1), paragraph("Version 1.3", page=1)) == pack_name
    # a subtitle on the version line is no kind of document: the title alone names it
    assert _named_by(heading("IRON WARDENS", page=1), paragraph("Siege Edition Version 1.3", page=1)) == \
        {("Iron Wardens", "1.3")}
