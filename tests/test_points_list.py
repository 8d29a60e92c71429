"""Printed points lists (Munitorum Field Manual as text or PDF) read into `points` records."""
from __future__ import annotations

import pytest

from ruleslawyer.ingest.formats import load_bytes, load_file
from ruleslawyer.ingest.parse import points_list
from ruleslawyer.ingest.parse.parsing import ParseContext, parse_document
from ruleslawyer.library.points import in_force

# The shape of a points list, made up: a contents table, a faction name bar, units with one
# price and with several, a name wrapped over two lines, a model added for points, and a
# detachment's enhancements.
MANUAL = """\
POINTS MANUAL

VERSION 2.3

CONTENTS

Iron Wardens .............. 2
Star Reavers .............. 3

1

IRON WARDENS

Gate Captain
1 model ........................ 95 pts

Wall Guard Squad
5 models ....................... 80 pts
10 models ..................... 160 pts

Gate Captain
in Siege Armour
1 model ....................... 120 pts

Servo Thrall ............... +10 pts

Rampart Walker
1 model ....................... 150 pts

DETACHMENT ENHANCEMENTS
Bastion Host
Lantern of Vigil ............... 25 pts
Unbroken Oath .................. 15 pts

2

Reaver Skiff
1 model ....................... 140 pts
"""


def read(text: str):
    doc = load_bytes(text.encode(), "manual.txt")
    ctx = ParseContext(doc=doc, edition=10)
    return [r for r in parse_document(doc, ctx) if r.kind == "points"], ctx


def by_name(records):
    return {r.name: r for r in records}


def test_units_with_one_and_several_sizes_are_read_with_faction_and_version():
    records, _ = read(MANUAL)
    got = by_name(records)
    assert [(c.models, c.points) for c in got["Gate Captain"].costs] == [("1", 95)]
    assert [(c.models, c.points) for c in got["Wall Guard Squad"].costs] == [("5", 80), ("10", 160)]
    assert got["Wall Guard Squad"].faction == "Iron Wardens"
    assert {r.version for r in records} == {"2.3"}
    assert all(r.edition == 10 and r.target_kind in ("datasheet", "detachment") for r in records)


def test_wrapped_name_added_model_and_enhancements():
    got = by_name(read(MANUAL)[0])
    armoured = got["Gate Captain in Siege Armour"]
    assert [(c.models, c.points) for c in armoured.costs] == [("1", 120)]
    assert [(i.name, i.points) for i in armoured.wargear_costs] == [("Servo Thrall", 10)]
    host = got["Bastion Host"]
    assert host.target_kind == "detachment" and not host.costs
    assert [(i.name, i.points) for i in host.wargear_costs] == [("Lantern of Vigil", 25), ("Unbroken Oath", 15)]


def test_the_faction_of_a_page_comes_from_the_contents_table():
    # "Reaver Skiff" is printed on page 3 before any name bar: the contents say page 3 is Star Reavers.
    assert by_name(read(MANUAL)[0])["Reaver Skiff"].faction == "Star Reavers"


def test_a_document_with_few_prices_is_not_a_points_list():
    doc = load_bytes(b"# Rule\n\nA unit of 5 models ..... 90 pts is mentioned once.\n", "note.md")
    assert not points_list.is_points_list(doc)
    ctx = ParseContext(doc=doc)
    assert not list(points_list.parse(doc, ctx))


def test_points_join_other_versions_by_identity():
    older, _ = read(MANUAL)
    newer, _ = read(MANUAL.replace("VERSION 2.3", "VERSION 2.4").replace("95 pts", "90 pts"))
    current = in_force(older + newer)
    captains = [p for p in current.values() if p.name == "Gate Captain"]
    assert len(captains) == 1 and captains[0].version == "2.4" and captains[0].costs[0].points == 90


@pytest.mark.realdata
def test_mfm_pdf_and_its_text_version_agree(shared):
    from tests.conftest import shared_file

    pdf = shared_file(shared, "realdata/nov26/mfm10_v1.0_oF1iWIkNsvlUHByM.pdf")
    text = shared_file(shared, "realdata/nov26/mfm10_v1.0_text.txt")

    def prices(path):
        doc = load_file(path)
        ctx = ParseContext(doc=doc, edition=10)
        return {(r.faction, r.target_kind, r.name): tuple((c.models, c.points) for c in r.costs)
                for r in points_list.parse(doc, ctx)}

    a, b = prices(pdf), prices(text)
    assert len(a) > 900 and len(b) > 900
    same = sum(1 for k in a if a.get(k) == b.get(k))
    assert same >= 0.95 * len(b)  # the rest are units the PDF's column layout puts out of reach
    assert a[("Adeptus Custodes", "datasheet", "Custodian Guard")] == (("4", 180), ("5", 225), ("9", 405), ("10", 450))
