"""The small hand-made corpus of the site tests (a datasheet, rules, an amended rule, errata,
tables, a FAQ, hostile names) and its build. Not a test module: tests and conftest import it."""
from __future__ import annotations

from pathlib import Path

from ruleslawyer.amend.apply import Outcome
from ruleslawyer.library.corpus import Corpus
from ruleslawyer.records import (Ability, Change, Datasheet, Erratum, Faq, Note, Profile, RefTable, Rule, Source,
                                 Stratagem, TableRow, Weapon)
from ruleslawyer.site.build import get_context
from ruleslawyer.site.writer import write_site

SRC = Source("small.txt", 1, "text", "0" * 64)
LOS_OLD = "Models cannot target a CHARACTER with a ranged weapon while it is within 3\" of a friendly unit."
LOS_NEW = ("Models cannot target a unit that contains any CHARACTER models with a ranged weapon while "
           "that CHARACTER unit is within 3\" of a friendly unit.")


def small_corpus(*, blast_text: str = "Add 1 to the Attacks for every five models in the target unit.") -> Corpus:
    """A corpus shaped like the seeds: a datasheet, rules, an amended rule, errata, tables, FAQ."""
    los_original = Rule("Look Out, Sir", SRC, edition=9, section=("Shooting Phase",), text=LOS_OLD)
    change = Change("Core Book", "1.7", "219", "replace", None, LOS_OLD, LOS_NEW)
    los = Rule("Look Out, Sir", SRC, edition=9, section=("Shooting Phase",), text=LOS_NEW, changes=(change,))
    erratum = Erratum("Core Book", "1.7", "219", "Look Out, Sir", Source("faq.txt"), text=LOS_NEW, edition=9)
    lost = Erratum("Core Book", "1.7", "400", "Nowhere Rule", Source("faq.txt"), text="New words.", edition=9)
    chrono = Datasheet(
        "Chronomancer", SRC, edition=10, faction="Necrons", base="40mm",
        keywords=("INFANTRY", "CHARACTER", "CRYPTEK"), faction_keywords=("NECRONS",),
        profiles=(Profile("Chronomancer", {"M": '5"', "T": "4", "Sv": "4+", "W": "4", "Ld": "6+", "OC": "1"}),),
        invulnerable_save="4+",
        weapons=(Weapon("Aeonstave", range='18"', A="D6", skill="4+", S="5", AP="-1", D="1", abilities=("blast",)),
                 Weapon("Aeonstave", range="Melee", A="3", skill="4+", S="5", AP="-1", D="1")),
        abilities=(Ability("Leader"), Ability("Reanimation Protocols"),
                   Ability("Timesplinter Mantle", "Subtract 1 from the Hit roll.")))
    originals = [
        los_original,
        Rule("Shooting Phase", SRC, edition=9, text="Pick a unit to shoot with."),
        Rule("Reanimation Protocols", SRC, edition=10, faction="Necrons", text="Reanimate destroyed models."),
        Rule("Blast", SRC, edition=10, text=blast_text),
        Rule("Blast", Source("old.txt"), edition=5, section=("Additional Characteristics",), text="Place the marker."),
        Rule("Leader", SRC, edition=10, text="Attach this model to a Bodyguard unit."),
        Rule("Sneaky <script>", SRC, edition=10, text='Before <script>alert("pwned")</script> after & more.'),
        Rule("../../etc/passwd", SRC, edition=10, text="A hostile name."),
        chrono,
        Stratagem("Protocol of the Sudden Storm", SRC, edition=10, faction="Necrons", cp=1,
                  category="Strategic Ploy", group="Awakened Dynasty", when="Your Movement phase.",
                  target="One INFANTRY unit from your army.", effect="Until the end of the phase, move 1\" more."),
        Stratagem("Fire Overwatch", SRC, edition=10, cp=1, category="Strategic Ploy", group="Core",
                  when="Your opponent's Movement or Charge phase.", target="One unit from your army.",
                  effect="Shoot that unit."),
        RefTable("To Wound", SRC, edition=5, columns=("1", "2", "3"), rows=(TableRow("1", ("4+", "5+", "6+")),
                 TableRow("2", ("3+", "4+", "5+"))), row_header="Strength", column_header="Toughness"),
        Faq("Does Blast apply to Overwatch?", "Yes.", Source("faq.txt"), document="Core Book", version="1.7", page="12"),
        Note("Blast and Multiple Dice Rolls", Source("faq.txt"), document="Core Book", version="1.7", text="An example."),
        erratum, lost,
    ]
    records = [los if r is los_original else r for r in originals]
    outcomes = [Outcome(erratum, True, "Look Out, Sir"), Outcome(lost, False, reason="no rule named 'Nowhere Rule'")]
    return Corpus(records=records, originals=originals, outcomes=outcomes)


def build_small(out: Path, **kw):
    return write_site(get_context(small_corpus(**kw)), out, workers=1)
