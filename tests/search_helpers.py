"""Made-up records for the search tests, and a helper that stores them."""
from __future__ import annotations

from ruleslawyer.records import Datasheet, Profile, Rule, Source, Stratagem, Weapon
from ruleslawyer.store import Store

SRC = Source(file="made-up.txt")

# Made-up records in the shape of the real ones (wording written for these tests).
RECORDS = [
    Rule(name="Feel No Pain", source=SRC, edition=10,
         text="Roll one D6 each time a model with this ability would lose a wound; on x+ it is not lost."),
    Rule(name="Pain Engine", source=SRC, edition=10,
         text="A model that can feel the pain of others gains 1 attack."),
    Rule(name="Deep Strike", source=SRC, edition=10,
         text="Set the unit up anywhere more than 9 inches from every enemy unit at the end of a Movement phase."),
    Rule(name="Overwatch", source=SRC, edition=9, section=("Charge Phase", "Charges"),
         text="The charged unit can shoot at the charging unit, hitting only on unmodified 6s."),
    Rule(name="Reanimation Protocols", source=SRC, edition=10, faction="Necrons",
         text="At the end of the Command phase each unit with this rule reanimates wounds."),
    Stratagem(name="Protocol of the Hungry Void", source=SRC, edition=10, faction="Necrons", cp=1,
              group="Awakened Dynasty", category="Battle Tactic", when="Fight phase.",
              target="One NECRONS unit from your army.", effect="Add 1 to the Strength of melee weapons."),
    Stratagem(name="Targeting Algorithms", source=SRC, edition=10, faction="Necrons", cp=2,
              group="Canoptek Harvesters", when="Your Shooting phase.", target="One FLY unit.",
              effect="Ranged weapons gain ignores cover."),
    Stratagem(name="Fire Overwatch", source=SRC, edition=10, cp=1, group="Core",
              when="Your opponent's Movement or Charge phase.", target="One unit from your army.",
              effect="The unit can shoot at that enemy unit as if it were your Shooting phase."),
    Datasheet(name="Necron Warriors", source=SRC, edition=9, faction="Necrons",
              keywords=("INFANTRY", "NECRON WARRIORS"), faction_keywords=("NECRONS",),
              profiles=(Profile("Necron Warrior", {"M": '5"', "T": "4", "Sv": "4+"}),),
              weapons=(Weapon("Gauss flayer", range='24"', type="Rapid Fire 1", S="4", AP="-1", D="1"),)),
    Datasheet(name="Canoptek Scarab Swarms", source=SRC, edition=9, faction="Necrons",
              keywords=("SWARM", "FLY", "CANOPTEK SCARAB SWARMS"), faction_keywords=("NECRONS",)),
]


def fill(store: Store, records) -> None:
    store.replace_file(path="made-up.txt", name="made-up.txt", sha256=str(len(records)), format="text", size=0,
                       records=records)
