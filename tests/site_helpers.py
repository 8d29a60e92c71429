"""A small corpus shaped like an 11th edition faction beside its 10th edition, for the site tests
of faction pages, search, errata and the home page (tests/test_site_codex.py and the browser tests).

Not a test module: both import `codex_corpus` and `build_codex` from here.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from ruleslawyer.amend.outcome import Outcome
from ruleslawyer.library.corpus import Corpus
from ruleslawyer.records import (Ability, Datasheet, DetachmentRule, Enhancement, Erratum, ItemCost, Points, Profile,
                                 Rule, Source, Stratagem, UnitCost)
from ruleslawyer.site.build import get_context
from ruleslawyer.site.writer import write_site

SRC = Source("testers_codex_with_a_long_file_name_that_does_not_break_easily_v1.2.json", None, "battlescribe",
             "0" * 64)
CORE = Source("core_rules_11th_edition_with_an_equally_long_name_for_the_table.pdf", 1, "pdf", "1" * 64)
MFM = Source("munitorum_field_manual_11th_edition_points_v1.1.yaml", version="1.1")


def unit(name: str, keywords: tuple[str, ...], *, edition: int = 11, role: str | None = None,
         abilities: tuple[str, ...] = (), stats=("6\"", "5", "4+", "2")) -> Datasheet:
    """A Testers datasheet with a key line and the named abilities."""
    m, t, sv, w = stats
    return Datasheet(name, SRC, edition=edition, faction="Testers", keywords=keywords, role=role,
                     faction_keywords=("TESTERS",), profiles=(Profile(name, {"M": m, "T": t, "Sv": sv, "W": w}),),
                     abilities=tuple(Ability(a) for a in abilities))


def codex_corpus(*, legends: int = 1) -> Corpus:
    """Testers in 11th and 10th edition: datasheets of every keyword role, a Legends unit and a
    variant, one detachment (rule, enhancement priced by the points list, two stratagems), core
    rules named and numbered in both editions, and errata with every outcome."""
    datasheets = [
        unit("Grand Tester", ("INFANTRY", "CHARACTER", "EPIC HERO"), stats=("6\"", "5", "2+", "7")),
        unit("Test Captain", ("INFANTRY", "CHARACTER")),
        unit("Test Warriors", ("INFANTRY", "BATTLELINE"), abilities=("Deep Strike",)),
        unit("Test Warriors (Armageddon)", ("INFANTRY", "BATTLELINE")),
        unit("Test Wagon", ("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"), stats=("12\"", "9", "3+", "10")),
        unit("Test Tank", ("VEHICLE",), stats=("10\"", "11", "2+", "14")),
        *(unit(f"Old Tank {n} [Legends]", ("VEHICLE",)) for n in range(legends)),
        unit("Test Jumpers", ("INFANTRY", "JUMP PACK"), abilities=("Deep Strike",)),
        unit("Kayvaan Shrike", ("INFANTRY", "CHARACTER"), edition=10),
        unit("Test Warriors", ("INFANTRY", "BATTLELINE"), edition=10, role="Troops"),
    ]
    points = [
        Points("Test Warriors", MFM, edition=11, faction="Testers", version="1.1",
               costs=(UnitCost("10", 80, "1st-2nd"), UnitCost("20", 160, "1st-2nd"), UnitCost("10", 90, "3rd+"))),
        Points("Grand Tester", MFM, edition=11, faction="Testers", version="1.1", costs=(UnitCost("1", 135),)),
        Points("Test Host", MFM, edition=11, faction="Testers", version="1.1", target_kind="detachment",
               detachment_points=2, wargear_costs=(ItemCost("Relic of Testing", 25),)),
    ]
    detachment = [
        DetachmentRule("Testing Doctrine", SRC, edition=11, faction="Testers", group="Test Host",
                       text="Each time a unit from your army is selected to shoot, re-roll one Hit roll.",
                       force_disposition="Purge the Foe"),
        Enhancement("Relic of Testing", SRC, edition=11, faction="Testers", group="Test Host",
                    restriction="TESTERS model only.", text="The bearer has the Feel No Pain 5+ ability."),
        Stratagem("Rapid Test", SRC, edition=11, faction="Testers", cp=1, category="Battle Tactic",
                  group="Test Host", when="Your Shooting phase.", target="One TESTERS unit.",
                  effect="Improve the Strength characteristic of its ranged weapons by 1."),
        Stratagem("Last Test", SRC, edition=11, faction="Testers", cp=2, category="Strategic Ploy",
                  group="Test Host", when="Fight phase.", target="One TESTERS unit.", effect="Fight first."),
    ]
    rules = [
        Rule("Feel No Pain", CORE, edition=11, number="24.12", section=("Abilities",),
             text="Each time this model would lose a wound, roll one D6: on a 5+ that wound is not lost."),
        Rule("Feel No Pain", SRC, edition=10, text="Roll one D6 each time a wound would be lost."),
        Rule("Deep Strike", CORE, edition=11, number="24.05", section=("Abilities",),
             text="This unit can be set up in Reserves and arrive more than 9\" from every enemy unit."),
        Rule("Deep Strike", SRC, edition=10, text="Set this unit up in Reserves instead of on the battlefield."),
        Rule("Strike Hard", SRC, edition=10, text="A rule about deep cuts and strikes."),
    ]
    applied = Erratum("Tester FAQ", "1.1", "3", "Testing Doctrine", Source("faq.txt"), text="Newer words.",
                      edition=11)
    superseded = Erratum("Tester FAQ", "1.0", "3", "Testing Doctrine", Source("faq_old.txt"), text="Old words.",
                         edition=11)
    lost = Erratum("Tester FAQ", "1.1", "4", "Nowhere Rule", Source("faq.txt"), text="New words.", edition=11)
    odd = Erratum("Tester FAQ", "1.1", "5", "Test Tank", Source("faq.txt"), text="Add a flamer.", edition=11)
    outcomes = [Outcome(applied, True, "Testing Doctrine"),
                Outcome(superseded, False, "Testing Doctrine", "superseded by version 1.1 of Tester FAQ"),
                Outcome(lost, False, "Nowhere Rule", "target not in the corpus"),
                Outcome(odd, False, "Test Tank", "adds the Flamer profile to a card: reported, not applied")]
    records = [*datasheets, *points, *detachment, *rules, applied, superseded, lost, odd]
    return Corpus(records=records, originals=list(records), outcomes=outcomes)


def stored_files() -> list[SimpleNamespace]:
    """Rows like the store's `files()` for the home page's documents table (long names on purpose)."""
    return [SimpleNamespace(name=src.file, title=title, edition=11, format=src.format, record_count=n)
            for src, title, n in ((SRC, "Testers: Codex Supplement of the Long Titles, Second Printing", 30),
                                  (CORE, "Core Rules", 5), (MFM, "Munitorum Field Manual", 3))]


def build_codex(out: Path, **kw) -> Path:
    """The site of `codex_corpus(**kw)` written to `out` (one process)."""
    write_site(get_context(codex_corpus(**kw), stored_files()), out, workers=1)
    return out
