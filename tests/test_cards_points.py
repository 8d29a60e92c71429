"""Cards give a unit's current points (library.prices: the newest dated source of its edition,
a points list or a datasheet's own), per unit size and 11th edition tier, with its wargear
costs; and the edition of the card.

Small made-up records check the rules (newest version, tiers, same edition only); the real
11th edition files (BSData Orks.json and the MFM YAML folder) check a rendered PDF, its expected
points read from the YAML itself.
"""
from __future__ import annotations

import re

from ruleslawyer.records import Datasheet, ItemCost, Points, Profile, Source, UnitCost


def _sheet(edition=11, name="Test Boyz", faction="Testers", points=None):
    return Datasheet(name=name, source=Source(file="sheet.json"), edition=edition, faction=faction,
                     points=points, profiles=(Profile("Boy", {"M": '6"', "T": "5", "Sv": "5+", "W": "1"}),),
                     keywords=("INFANTRY",))


def _points(version, costs, wargear=(), name="Test Boyz", faction="Testers", edition=11):
    return Points(name=name, source=Source(file="testers.yaml", version=version), edition=edition, faction=faction,
                  version=version, costs=tuple(costs), wargear_costs=tuple(wargear))


OLD = _points("1.0", [UnitCost("10", 70), UnitCost("20", 140)])
NEW = _points("1.1", [UnitCost("10", 75, "1st-3rd"), UnitCost("20", 160, "1st-3rd"),
                      UnitCost("10", 85, "4th+"), UnitCost("20", 170, "4th+")], [ItemCost("big shoota", 5)])


def _meta(sheet, corpus):
    """The card's meta line, priced as `cards` prices it: library.prices over the corpus."""
    from ruleslawyer.cards.content import build_content
    from ruleslawyer.library.corpus import Corpus
    from ruleslawyer.library.prices import PriceIndex

    prices = PriceIndex(Corpus(records=list(corpus), originals=list(corpus)))
    return build_content([sheet], corpus, prices)[0].meta


def test_card_gives_the_newest_points_by_tier_and_wargear():
    sheet = _sheet(points=(UnitCost("10", 90), UnitCost("20", 180)))
    meta = " | ".join(_meta(sheet, [sheet, NEW, OLD]))  # order in the store does not matter
    assert "11th ed." in meta
    assert "v1.1 10: 75 \u00b7 20: 160; 4th+: 85 \u00b7 170 pts" in meta  # one line for every tier
    assert "Wargear big shoota +5 pts" in meta
    # neither the datasheet's own points (90) nor the older version's (70, 140)
    assert not re.search(r"\b(90|70|140)\b", meta)


def test_card_of_an_older_datasheet_gives_the_current_editions_points_and_names_it():
    """As `show` does: a 10th edition datasheet priced by an 11th edition points list says so."""
    tenth = _sheet(edition=10, points=(UnitCost("10", 90),))
    meta = " | ".join(_meta(tenth, [tenth, NEW]))
    assert "10th ed." in meta and "11th ed. v1.1 10: 75" in meta and "90" not in meta
    alone = " | ".join(_meta(tenth, [tenth]))  # no points list prices it: its own points
    assert "90 pts" in alone and "v1.1" not in alone
    other_faction = _sheet(faction="Others", points=(UnitCost("10", 90),))
    assert "v1.1" not in " | ".join(_meta(other_faction, [other_faction, NEW]))


def test_card_of_a_carried_datasheet_gives_the_older_editions_price_as_show_does():
    """An 11th edition printing an update carried over, priced by no 11th edition list: the card
    gives the 10th edition points list's price, named as such (what `show` gives it too)."""
    from ruleslawyer.library.corpus import Corpus
    from ruleslawyer.library.pick_price import shown_price

    carried = _sheet(edition=11)
    tenth_list = _points("1.2", [UnitCost("10", 80)], edition=10)
    meta = " | ".join(_meta(carried, [carried, tenth_list]))
    assert "10th ed. v1.2 10: 80 pts" in meta, meta
    corpus = Corpus(records=[carried, tenth_list], originals=[carried, tenth_list])
    price, _ = shown_price(corpus, carried, newest=True)
    assert price is not None and price.edition == 10 and [c.points for c in price.costs] == [80]


def test_card_gives_a_datasheets_own_points_when_dated_after_the_points_list():
    dated = _points("1.1", [UnitCost("10", 75)])
    dated = Points(**{**dated.__dict__, "source": Source(file="testers.yaml", version="1.1", date="2026-07-22")})
    newer = Datasheet(**{**_sheet(points=(UnitCost("10", 90),)).__dict__,
                         "source": Source(file="Datasheets.csv", date="2026-09-13")})
    assert "90 pts" in " | ".join(_meta(newer, [newer, dated]))
    older = Datasheet(**{**newer.__dict__, "source": Source(file="Datasheets.csv", date="2026-07-01")})
    assert "v1.1 10: 75 pts" in " | ".join(_meta(older, [older, dated]))


def test_stratagem_card_says_its_edition_and_number():
    from ruleslawyer.cards.content import build_content
    from ruleslawyer.records import Stratagem

    s = Stratagem(name="Test Gambit", source=Source(file="s.json"), edition=11, cp=1, effect="Do it.", number="15.04")
    assert build_content([s], [s])[0].meta == ("Rule 15.04", "11th ed.")


def test_points_index_matches_name_faction_and_edition():
    from ruleslawyer.library.points import PointsIndex, costs_text

    index = PointsIndex([OLD, NEW, _points("1.1", [UnitCost("1", 50)], name="Test Boyz", faction="Others")])
    assert index.of("test boyz", "Testers", edition=11) is NEW
    assert index.of("Test Boyz", "Testers", edition=10) is None
    assert index.of("Test Boyz") is None  # two factions price a unit of that name: not a guess
    assert costs_text(OLD.costs) == "10 models: 70 pts; 20 models: 140 pts"


def test_points_list_names_a_tagged_catalogue_unit_without_its_tag():
    """BSData names "Anrakyr the Traveller [Legends]"; the points list "Anrakyr The Traveller"."""
    from ruleslawyer.library.points import PointsIndex

    lord = _points("1.1", [UnitCost("1", 95)], name="Anrakyr The Traveller")
    index = PointsIndex([lord])
    assert index.of("Anrakyr the Traveller [Legends]", "Testers", edition=11) is lord
    assert index.of("Anrakyr the Traveller (Armageddon)", "Testers", edition=11) is None


def _yaml_costs(shared, unit: str) -> list[tuple[str, int]]:
    """(models, points) of `unit` in the v1.1 YAML, read here with PyYAML (not through ruleslawyer)."""
    import yaml

    data = yaml.safe_load((shared / "realdata" / "e11" / "mfm" / "orks.yaml").read_text(encoding="utf-8"))
    entry = next(u for u in data["units"] if u["name"] == unit)
    return [(str(c["models"]), c["points"]) for p in entry["pricing"] for c in p["costs"]]


def test_real_orks_cards_show_the_mfm_points(e11_orks_store, shared, tmp_path):
    """Unit and faction cards of real 11th edition Orks give the MFM v1.1 points, not the
    catalogue's own, and the edition."""
    import pdfplumber

    from ruleslawyer.cards import write_cards
    from ruleslawyer.store import Store

    out = tmp_path / "orks.pdf"
    with Store(e11_orks_store) as store:
        write_cards(store, ["Boyz", "Battlewagon"], out=out)
    with pdfplumber.open(out) as pdf:
        text = re.sub(r"\s+", " ", " ".join(p.extract_text() or "" for p in pdf.pages))
    assert "11th ed." in text and "v1.1" in text
    boyz = _yaml_costs(shared, "Boyz")
    assert len({m for m, _ in boyz}) < len(boyz)  # priced per tier: the same size twice
    sizes = list(dict.fromkeys(m for m, _ in boyz))
    first = " \u00b7 ".join(f"{m}: {p}" for m, p in boyz[:len(sizes)])
    assert first in text.replace(" · ", " \u00b7 ")  # the first tier with its sizes, on one line
    (models, pts), = _yaml_costs(shared, "Battlewagon")
    assert f"v1.1 {pts} pts" in text


def test_real_faction_cards_use_the_current_price(e11_orks_store, tmp_path):
    """`cards --faction` prices every unit as `show` and `points` do (library.prices, one index
    for the whole faction): the card's meta line carries the current price's tiers."""
    from ruleslawyer.cards.content import build_content, tiers_line
    from ruleslawyer.cards.select import select_records
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.library.prices import PriceIndex
    from ruleslawyer.store import Store

    with Store(e11_orks_store) as store:
        corpus = load_corpus(store)
    chosen = select_records(corpus.records, [], faction="Orks").records
    prices = PriceIndex(corpus)
    priced = {d.name: prices.current(d.name, d.faction, d.edition) for d in chosen if d.kind == "datasheet"}
    priced = {name: p for name, p in priced.items() if p is not None and p.costs}
    assert len(priced) > 30
    for d, c in zip(chosen, build_content(chosen, corpus.records, prices)):
        if d.name in priced:
            assert any(tiers_line(priced[d.name].costs) in m for m in c.meta), (d.name, c.meta)