"""The search relevance set: questions a player would type, and the record that must come up.

Each entry is (query, kind, name, edition): the record of that kind and name (and edition,
when not None) must be among the top 3 hits. The answers are the records the seed documents
hold (the gold files name them); nothing here is read from the search output.
"""
from __future__ import annotations

RELEVANCE_SET: list[tuple[str, str, str, int | None]] = [
    # movement, charge and fight
    ("how far can I consolidate", "rule", "Consolidate", None),
    ("how far do I pile in", "rule", "Pile In", 9),
    ("can I shoot after falling back", "rule", "Fall Back Moves", 10),  # the newest edition the seeds hold
    ("advance roll add to move", "rule", "Advance", 9),
    ("charge range 12 inches", "rule", "Charges", 9),
    ("how far is a heroic intervention", "rule", "Heroic Interventions", 9),
    ("what counts as engagement range", "rule", "Engagement Range", None),
    ("unit coherency distance", "rule", "Unit Coherency", 9),
    ("sweeping advance", "rule", "Sweeping Advance", 5),
    ("dangerous terrain test", "rule", "Dangerous Terrain Test", 5),
    ("fight first stratagem after enemy fought", "stratagem", "Counter-offensive", None),
    # shooting and attacks
    ("which models can throw grenades", "rule", "Grenade", 9),
    ("can I shoot a character hiding behind a unit", "rule", "Look Out, Sir", 9),
    ("blast weapon minimum number of attacks", "rule", "Blast Weapons", 9),
    ("rapid fire half range", "rule", "Rapid Fire", 9),
    ("strength vs toughness wound chart", "table", "Wound Roll", None),
    ("what does AP do to my save", "rule", "Saving Throw", None),
    ("invuln save", "rule", "Invulnerable Saves", None),
    ("mortal wounds", "rule", "Mortal Wounds", None),
    ("dev wounds", "rule", "Devastating Wounds", 10),
    ("sustained hits extra hits on a 6", "rule", "Sustained Hits", 10),
    ("fnp", "rule", "Feel No Pain", None),
    ("hazardous weapons", "rule", "Hazardous", 10),
    ("ignores cover", "rule", "Ignores Cover", 10),
    ("can precision attacks target a character in an attached unit", "rule", "Precision", 10),
    ("gets hot", "rule", "Gets Hot!", 5),
    ("twin-linked re-roll", "rule", "Twin-Linked", 5),
    ("power fist strike last", "rule", "Power Fists/Claws", 5),
    ("fire overwatch stratagem", "stratagem", "Fire Overwatch", 10),
    ("reroll one dice for 1 CP", "stratagem", "Command Re-roll", None),
    # psychic, morale, missions
    ("deny the witch range", "rule", "Psychic Phase", 9),
    ("smite mortal wounds", "rule", "Smite", 9),
    ("perils of the warp", "rule", "Perils of the Warp", 9),
    ("combat attrition", "rule", "Combat Attrition", 9),
    ("battle-shock test", "rule", "Battle-shock", 10),
    ("who controls an objective marker", "rule", "Objectives", 9),
    ("ds 9 inches away", "rule", "Deep Strike", 10),
    ("infiltrators deployment", "rule", "Infiltrators", 10),
    ("what happens when a transport is destroyed", "rule", "Transports", 9),
    ("disembark from a destroyed transport", "note", "Setting Up Units Disembarking from a Destroyed Transport", None),
    ("blast with two dice for attacks", "note", "Blast and Multiple Dice Rolls", None),
    ("embark errata", "errata", "Embark", 9),
    # units and army rules
    ("necron warrior toughness", "datasheet", "Necron Warriors", 9),
    ("skorpekh lord invulnerable save", "datasheet", "Skorpekh Lord", 9),
    ("chronomancer", "datasheet", "Chronomancer", 10),
    ("eradicators melta rifle", "datasheet", "Eradicator Squad", 9),
    ("judiciar tempormortis", "datasheet", "Judiciar", 9),
    ("reanimaton protocols", "rule", "Reanimation Protocols", None),
    ("bolter discipline", "rule", "Bolter Discipline", 9),
    ("shock assault extra attack", "rule", "Shock Assault", 9),
    ("space marine doctrines", "rule", "Combat Doctrines", 9),
    ("bring back a necron character that was destroyed", "stratagem", "Protocol of the Eternal Revenant", 10),
    ("necron enhancement feel no pain", "enhancement", "Enaegic Dermal Bond", 10),
    ("veil of darkness", "enhancement", "Veil of Darkness", 10),
    ("hypercrypt legion detachment rule", "detachment_rule", "Hyperphasing", 10),
    ("rapid ingress", "stratagem", "Rapid Ingress", 10),
    ("jump pack infantry", "rule", "Jump Pack Infantry", 5),
]

# 11th edition core rules (../shared/realdata/e11/pdf/core11_*.pdf) and army-list use (the
# Armageddon datasheet PDF and army rules beside them). The answers are the numbered rules that
# hold those passages (an unnumbered sub-heading such as "Rotating a Model" stays inside its
# numbered rule, as the real-document gold has it); editions are left open (None).
RELEVANCE_SET_11: list[tuple[str, str, str, int | None]] = [
    # core concepts
    ("how do I make a battle-shock roll", "rule", "Battle-shock Rolls", None),
    ("leadership roll 2D6", "rule", "Leadership Rolls", None),
    ("how do I measure distances", "rule", "Measuring Distances", None),
    ("who is the active player", "rule", "Active Player and Opposing Player", None),
    # moving
    ("rotate a model around the centre of its base", "rule", "Moving Units", None),
    ("regain coherency at the end of the turn", "rule", "Coherency", None),
    ("engagement range 2 inches horizontally 5 vertically", "rule", "Engagement", None),
    ("different move characteristics in one unit", "rule", "Different Move Characteristics", None),
    ("surge move", "rule", "Surge Moves", None),
    ("can flying models move over enemy models", "rule", "Flying Models", None),
    # attacks
    ("split melee attacks between two units", "rule", "Resolve Attacks", None),
    ("identical attacks same characteristics", "rule", "Resolve Attacks", None),
    ("mortal wounds mixed with normal damage", "rule", "Mortal Wounds", None),
    ("hazard roll fails on a 1-2", "rule", "Hazard Rolls", None),
    ("when is a model fully visible", "rule", "Visibility", None),
    ("benefit of cover against ranged attacks", "rule", "Benefit of Cover", None),
    ("hidden infantry in terrain", "rule", "Hidden", None),
    ("obscuring terrain line of sight", "rule", "Obscuring", None),
    # objectives, actions, transports, reserves, aircraft
    ("level of control of an objective", "rule", "Level of Control", None),
    ("secured objectives", "rule", "Secured Objectives", None),
    ("range of an objective marker", "rule", "Objectives Not Within a Terrain Area", None),
    ("invuln", "rule", "Profiles", None),  # 02.02 defines "Invulnerable Save (InSv)"
    ("OC", "rule", "Profiles", None),  # and "Objective Control (OC)"
    ("which units can start an action", "rule", "Starting an Action", None),
    ("transport capacity", "rule", "Transport Capacity", None),
    ("how does a unit embark in a transport", "rule", "Embarking", None),
    ("strategic reserves", "rule", "Placing Units in Strategic Reserves", None),
    ("aircraft deployment in strategic reserves", "rule", "Deployment", None),
    ("revive destroyed models", "rule", "Revived", None),
    ("hazard roll 06.03", "rule", "Hazard Rolls", None),
    ("06.03", "rule", "Hazard Rolls", None),
    ("21.02", "rule", "Surge Move", None),
    ("can I embark after a scout move", "faq", "Can a unit embark within a TRANSPORT after making a scout move?", None),
    # army lists: forming attached units, army rules, datasheets
    ("attach a leader to a bodyguard unit", "rule", "Forming Attached Units", None),
    ("keywords of an attached unit", "rule", "Keywords in Attached Units", None),
    ("adding a new unit to your army during the battle", "rule", "Adding a New Unit to Your Army", None),
    ("an army is made of units", "rule", "Armies", None),
    ("oath of moment", "rule", "Oath of Moment", None),
    ("waaagh once per battle", "rule", "Waaagh!", None),
    ("intercessor squad", "datasheet", "Intercessor Squad", None),
    ("captain with relic shield", "datasheet", "Captain with Relic Shield", None),
    ("how many points is a land speeder", "datasheet", "Land Speeder", None),
    ("which units can a chaplain with jump pack lead", "datasheet", "Chaplain with Jump Pack", None),
]


# Query shapes beyond plain questions: phrases, fields, boolean operators, negation, synonyms
# (for tests that compare two indexes of the same records).
SHAPES = [
    '"feel no pain"', '"a unit"', "fnp", "deep strike", "kind:stratagem overwatch", "faction:necrons protocol",
    "cp:1 fight", "phase:shooting", "edition:10 wound", "keyword:fly", 'group:"awakened dynasty" strength',
    "overwatch OR reanimation", "pain AND model", "pain NOT engine", "(deep OR fire) AND unit",
    'name:"deep strike"', "text:wound", "unit", "the unit", "shoot", "models within 6 inches",
    "warrior toughness", "gauss flayer", "NOT overwatch unit",
]


# The whole real pile (../shared/realdata, conftest `real_pile`), whose newest edition is the
# 11th: words and abbreviations players type, and the 11th edition record that answers each
# (written from the 11th edition core rules chapters and the BSData game system, not from search
# output). Each entry is (query, kind, name): the first hit must be that 11th edition record, and
# no older edition's rule, FAQ or erratum may come before it.
PILE_CURRENT_FIRST: list[tuple[str, str, str]] = [
    ("invuln", "rule", "Profiles"),  # 02.02 defines "Invulnerable Save (InSv)"
    ("fnp", "rule", "Feel No Pain"),
    ("OC", "rule", "Profiles"),  # 02.02 defines "Objective Control (OC)"
    ("DS", "rule", "Deep Strike"),
    ("deep strike", "rule", "Deep Strike"),
    ("what does deep strike do", "rule", "Deep Strike"),
    ("5+++", "rule", "Feel No Pain"),
    ("shoot after falling back", "rule", "Fall-back Move"),
    ("can a unit shoot after falling back", "rule", "Fall-back Move"),
    ("engagement range", "rule", "Engagement"),  # 03.04
    ("starting strength", "rule", "Starting Strength and Half-strength"),
    ("battle-shock", "rule", "Battle-shock"),
    ("lone operative", "rule", "Lone Operative"),
    ("overwatch", "stratagem", "Fire Overwatch"),  # 15.08
    ("range of an objective marker", "rule", "Objectives Not Within a Terrain Area"),  # rules appendix
]
# Words whose answer is any of several 11th edition rules: the first hit must be of the 11th.
PILE_CURRENT_EDITION: list[str] = ["objective", "invulnerable save", "objective control", "feel no pain"]
