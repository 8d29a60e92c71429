"""A text dump that printed each card's weapon table column by column (tests/fixtures/datasheets/
column_dump.txt, written here in the structure of such dumps): the cards are read, not left out."""
from __future__ import annotations

from pathlib import Path

from ruleslawyer.ingest.document import DocumentOrigin
from ruleslawyer.ingest.load.text import load_text
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document

FIXTURE = Path(__file__).parent / "fixtures" / "datasheets" / "column_dump.txt"


def _sheets():
    data = FIXTURE.read_bytes()
    doc = load_text(data, DocumentOrigin(str(FIXTURE), FIXTURE.name, "text", "0" * 64, len(data)))
    ctx = ParseContext(doc=doc, edition=guess_edition(doc))
    records = parse_document(doc, ctx)
    return {r.name: r for r in records if r.kind == "datasheet"}, ctx


def test_every_card_is_read_and_none_is_left_out():
    sheets, ctx = _sheets()
    assert set(sheets) == {"Warden Captain", "Warden Squad", "Warden Strider"}
    assert not [w for w in ctx.warnings if "could not be read" in w]


def test_weapon_rows_are_put_back_together_from_their_columns():
    sheets, _ = _sheets()
    captain = {w.name: w for w in sheets["Warden Captain"].weapons}
    assert (captain["Warden pistol"].range, captain["Warden pistol"].A, captain["Warden pistol"].skill,
            captain["Warden pistol"].S, captain["Warden pistol"].AP, captain["Warden pistol"].D) == \
        ('12"', "1", "2+", "5", "-1", "2")
    assert (captain["Storm carbine"].range, captain["Storm carbine"].A, captain["Storm carbine"].D) == ('24"', "2", "1")
    assert (captain["Warden blade"].range, captain["Warden blade"].A, captain["Warden blade"].skill,
            captain["Warden blade"].S, captain["Warden blade"].AP) == ("Melee", "5", "2+", "6", "-2")
    strider = {w.name: w for w in sheets["Warden Strider"].weapons}
    # a value split from its column by a blank line, and keywords wrapped onto their own line
    assert strider["Siege mortar"].A == "D6+3" and strider["Siege mortar"].abilities == ("BLAST", "INDIRECT FIRE")
    assert strider["Lance cannon - focused"].D == "D6"


def test_stats_abilities_and_keywords():
    sheets, _ = _sheets()
    captain = sheets["Warden Captain"]
    stats = captain.profiles[0].stats
    assert (stats["M"], stats["T"], stats["Sv"], stats["W"], stats["Ld"], stats["OC"]) == ('6"', "4", "3+", "5", "6+", "1")
    assert captain.invulnerable_save == "4+"
    assert [a.name for a in captain.abilities] == ["Leader", "Steadfast Guard", "Hold the Line", "Rally Point"]
    assert captain.leader.attaches_to == ("Warden Squad",)
    assert sheets["Warden Strider"].keywords == ("Vehicle", "Walker", "Warden Strider")
    assert sheets["Warden Squad"].faction_keywords == ("Iron Wardens",)
