"""Datasheets from real documents in ../shared/realdata (see its SOURCES.md), through the real loaders.

The expected values are facts read off the pages by hand (characteristics, weapon counts,
invulnerable saves), not copied from parser output. These tests need the PDF and HTML
loaders (ingest/pdf.py, ingest/html.py) as much as the datasheet parser.
"""
from __future__ import annotations

import re

from functools import lru_cache
from pathlib import Path

import pytest

from ruleslawyer.ingest.parse import datasheets
from ruleslawyer.ingest.formats import load_file
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition

from .conftest import shared_file

GRIMLOG = "realdata/AndrewDeWitt__GrimLog"
IA_NECRONS = "realdata/Overcharged-Plasma__warhammer-pdfs/imperial_armour_necrons_Mcu6QBdzRs8yWqCW.pdf"
ORKS = "realdata/GregSQT__40k/Armageddon_Datasheets_Orks.pdf"


@lru_cache(maxsize=None)
def _sheets(path: Path) -> dict:
    doc = load_file(path)
    return {d.name: d for d in datasheets.parse(doc, ParseContext(doc=doc, edition=guess_edition(doc)))}


@pytest.fixture
def sheets(shared):
    return lambda relative: _sheets(shared_file(shared, relative))


def stats(sheet) -> dict:
    return {k.upper(): v for k, v in sheet.profiles[0].stats.items()}


def test_wahapedia_kasrkin_many_weapon_profiles(sheets):
    (kasrkin,) = sheets(f"{GRIMLOG}/astra-militarum_Kasrkin.html").values()
    assert kasrkin.name == "Kasrkin" and kasrkin.edition == 10 and kasrkin.faction == "Astra Militarum"
    assert stats(kasrkin) == {"M": '6"', "T": "3", "SV": "4+", "W": "1", "LD": "7+", "OC": "1"}
    assert kasrkin.invulnerable_save is None and kasrkin.base == "28.5mm"
    # 10 weapons, three of them with two profiles each: 16 entries, 3 of them melee.
    assert len(kasrkin.weapons) == 16
    assert sum(w.range == "Melee" for w in kasrkin.weapons) == 3
    names = [w.name for w in kasrkin.weapons]
    assert "Plasma pistol - supercharge" in names and "Grenade launcher - krak" in names
    meltagun = next(w for w in kasrkin.weapons if w.name == "Meltagun")
    assert (meltagun.range, meltagun.S, meltagun.AP, meltagun.D) == ('12"', "9", "-4", "D6")
    assert [k.lower() for k in meltagun.abilities] == ["melta 2"]
    assert [(c.models, c.points) for c in kasrkin.points] == [("10", 110)]


def test_wahapedia_baneblade_damaged_profile(sheets):
    (baneblade,) = sheets(f"{GRIMLOG}/astra-militarum_Baneblade.html").values()
    assert stats(baneblade) == {"M": '12"', "T": "13", "SV": "2+", "W": "24", "LD": "7+", "OC": "8"}
    assert len(baneblade.weapons) == 8
    assert baneblade.damaged and "1-8 WOUNDS REMAINING" in baneblade.damaged
    assert "VEHICLE" in baneblade.keywords and baneblade.faction_keywords == ("ASTRA MILITARUM",)


def test_wahapedia_hive_tyrant_invulnerable_save_and_leader(sheets):
    (tyrant,) = sheets(f"{GRIMLOG}/tyranids_Hive_Tyrant.html").values()
    assert stats(tyrant) == {"M": '8"', "T": "10", "SV": "2+", "W": "10", "LD": "7+", "OC": "3"}
    assert tyrant.invulnerable_save == "4+" and tyrant.base == "60mm"
    assert len(tyrant.weapons) == 4
    assert tyrant.leader is not None and tyrant.leader.attaches_to == ("Tyrant Guard",)
    assert any(o.startswith("This model’s monstrous bonesword and lash whip") for o in tyrant.wargear_options)


def test_wahapedia_faction_page_has_no_datasheet(sheets):
    assert sheets(f"{GRIMLOG}/necrons_faction_page.html") == {}


def test_imperial_armour_necrons_pdf(sheets):
    found = sheets(IA_NECRONS)
    assert set(found) >= {"Canoptek Tomb Stalker", "Canoptek Tomb Sentinel", "Canoptek Acanthrites",
                          "Tesseract Ark", "Seraptek Heavy Construct"}
    stalker = found["Canoptek Tomb Stalker"]
    assert stats(stalker) == {"M": '10"', "T": "9", "SV": "3+", "W": "9", "LD": "8+", "OC": "3"}
    assert stalker.invulnerable_save == "4+" and len(stalker.weapons) == 2
    assert found["Seraptek Heavy Construct"].invulnerable_save == "5+"
    assert found["Canoptek Acanthrites"].invulnerable_save is None
    assert len(found["Tesseract Ark"].weapons) == 6  # two of them the chamber's two profiles


def test_imperial_armour_necrons_pdf_faction_keywords(sheets):
    stalker = sheets(IA_NECRONS)["Canoptek Tomb Stalker"]
    assert stalker.faction_keywords == ("Necrons",) and stalker.faction == "Necrons"


def test_armageddon_orks_pdf_values_under_their_header(sheets):
    found = sheets(ORKS)
    warboss = found["Warboss"]
    assert stats(warboss) == {"M": '6"', "T": "5", "SV": "4+", "W": "6", "LD": "6+", "OC": "1"}
    assert warboss.invulnerable_save == "5+"
    assert [w.name for w in warboss.weapons] == ["Kustom shoota", "Kustom choppa"]
    choppa = warboss.weapons[1]
    assert (choppa.range, choppa.A, choppa.skill, choppa.S, choppa.AP, choppa.D) == ("Melee", "6", "2+", "8", "-2", "2")
    assert warboss.leader.attaches_to == ("BOYZ", "BREAKA BOYZ", "NOBZ")
    boyz = found["Boyz"]
    assert [p.name for p in boyz.profiles] == ["Boyz", "Boss Nob"]
    assert [p.stats["W"] for p in boyz.profiles] == ["1", "2"]
    assert len(boyz.weapons) == 7


def test_armageddon_orks_pdf_every_card(sheets):
    found = sheets(ORKS)
    assert set(found) == {"Warboss", "Bigboss", "Bannernob", "Painboy", "Weirdboy", "Boyz", "Gretchin", "Wartrakk",
                          "Big Mek Dakkarig"}
    assert found["Gretchin"].invulnerable_save is None and found["Wartrakk"].invulnerable_save == "6+"


def test_armageddon_orks_keywords_keep_their_first_letter(sheets):
    """The keyword line's space glyphs overlap the first letter of the next font's run; the
    loader once ordered them after it ("I NFANTRY", "V EHICLE")."""
    found = sheets(ORKS)
    assert found["Painboy"].keywords[0] == "INFANTRY"
    assert found["Big Mek Dakkarig"].keywords[0] == "VEHICLE"
    assert not [k for s in found.values() for k in s.keywords if re.match(r"[A-Z] [A-Z]", k)]
