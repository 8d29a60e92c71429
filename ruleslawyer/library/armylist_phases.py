"""Which phase a rule acts in, read from its text, for the army sheet's reminder table.

The order of the tests is the order a player reads a rule in: "once per battle" first (it is
the thing to remember), then a phase the rule names as its moment ("at the start of your
Command phase", "in your Shooting phase"; a phase named only in an "as if it were" clause is
not a moment), then the first action the text triggers on (a ranged attack, being selected to
fight, a Charge move, a Normal move, arriving from Reserves, deployment). A rule with none of
these (a save, a characteristic, "each time a model makes an attack") applies in any phase.

For the sheet, `moment_of` places a rule in its phase (a "once per battle" rule too) and in the
step of the phase the rule names: its start, each time a unit is selected (to shoot, fight, move),
each attack, its end, else during it. Rules about attacks made or received apply in the Shooting
and Fight phases, not in every phase: they get their own rows (`attacking`, `attacked`). Only
explanations are read: examples and designer's notes are left out (library.operative).
"""
from __future__ import annotations

import re

from .operative import operative_sentences, operative_text

# Phase keys in table order, with their printed labels.
PHASES = {
    "before battle": "Before the battle",
    "command": "Command phase",
    "movement": "Movement phase",
    "shooting": "Shooting phase",
    "charge": "Charge phase",
    "fight": "Fight phase",
    "attacking": "Making attacks (Shooting and Fight phases)",
    "attacked": "Being attacked (Shooting and Fight phases)",
    "any": "Any phase",
    "once per battle": "Once per battle",
}
# Steps of a phase in table order, with their printed labels.
STEPS = {
    "start": "Start of the phase",
    "selected": "Each time a unit is selected",
    "attacks": "Each attack",
    "during": "During the phase",
    "end": "End of the phase",
}
_START = re.compile(r"\bstart of (?:your |the |each |any |either player['’]s |your opponent['’]s |the opponent['’]s )?"
                    r"(?:command|movement|shooting|charge|fight|\w+)? ?phase\b", re.IGNORECASE)
_END = re.compile(r"\bend of (?:your |the |each |any |either player['’]s |your opponent['’]s |the opponent['’]s )?"
                  r"(?:command|movement|shooting|charge|fight|\w+)? ?phase\b", re.IGNORECASE)
_SELECTED = re.compile(r"\bselected to (?:shoot|fight|make an? [\w ]{0,20}move|charge)\b|\bmakes? an? "
                       r"(?:normal|advance|fall back|charge) move\b|\bdeclares? a charge\b|\bafter (?:this|that) "
                       r"unit has (?:shot|fought)\b|\bstart or end of (?:this|that) unit['’]s move\b", re.IGNORECASE)
_ATTACKS = re.compile(r"\beach time an? (?:\w+ )?attack (?:is )?made\b|\beach time (?:this|a|that) (?:unit|model)"
                      r"[\w ]{0,30} makes an? (?:\w+ )?attack\b|\battacks? (?:made by|made with)\b|"
                      r"\b(?:ranged|melee) attacks\b", re.IGNORECASE)
_ATTACKED = re.compile(r"\b(?:targets?|targeting|allocated to) (?:this|that|your|a friendly) (?:unit|model)\b|"
                       r"\battack (?:targets|is allocated to) (?:this|that|a) (?:unit|model)\b|\bsaving throw\b|"
                       r"\binvulnerable save\b|\bwould lose a wound\b|\bfeel no pain\b|\bbenefit of cover\b",
                       re.IGNORECASE)
_MAKING = re.compile(r"\b(?:this|that|the bearer['’]s|this model['’]s|this unit['’]s) (?:unit|model)?\s*"
                     r"(?:makes? an? attack|attacks?)\b|\beach time (?:a|this) model[\w ]{0,30}makes an? attack\b|"
                     r"\b(?:hit|wound) rolls?\b", re.IGNORECASE)

_ONCE = re.compile(r"\bonce per battle\b(?!\s+round)", re.IGNORECASE)
_NAMED = re.compile(r"(?<!as if it were )(?<!as if it were your )(?<!as if it were the )"
                    r"\b(command|movement|shooting|charge|fight)\s+phases?\b", re.IGNORECASE)
_ANY_PHASE = re.compile(r"\b(?:start|end) of any phase\b|\bany phase\b", re.IGNORECASE)
# Actions a rule triggers on, by phase; the earliest in the text wins.
_CUES = {
    "shooting": r"\branged attacks?\b|\bselected to shoot\b|\bhas shot\b|\bshoots\b|\branged weapons?\b",
    "fight": r"\bmelee attacks?\b|\bselected to fight\b|\bhas fought\b|\bfights\b|\bmelee weapons?\b|"
             r"\bpile[- ]in\b|\bconsolidat",
    # "if this unit made a Charge move this turn" is a condition, not the moment
    "charge": r"(?<!made a )\bcharge (?:move|roll)s?\b|\bdeclares? a charge\b|\beligible to charge\b|\bcharges\b",
    "movement": r"\b(?:normal|advance|fall back)\b[^.]{0,30}?\bmoves?\b|\bends a move\b|\badvances\b|"
                r"\bfrom (?:strategic )?reserves\b|\breinforcements step\b",
    "command": r"\bbattle-shock step\b|\bcommand points? \(cp\) at the start\b",
    "before battle": r"\bdeclare battle formations\b|\bdeployment\b|\bdeploy\b|\bstart of the battle\b|"
                     r"\bbefore the (?:battle|first battle round)\b|\bredeploy",
}
_CUE_RES = {k: re.compile(v, re.IGNORECASE) for k, v in _CUES.items()}


def phase_of(text: str, once: bool = True) -> str:
    """The phase key (see PHASES) a rule's text acts in; with `once` False, a "once per battle" rule
    gets the phase of its moment like any other."""
    text = operative_text(text or "")
    if once and _ONCE.search(text):
        return "once per battle"
    named = _NAMED.search(text)
    if named:
        return named.group(1).lower()
    if _ANY_PHASE.search(text):
        return "any"
    best, where = "any", len(text) + 1
    for phase, pattern in _CUE_RES.items():
        m = pattern.search(text)
        if m and m.start() < where:
            best, where = phase, m.start()
    return best


def moment_of(text: str, weapon: str | None = None) -> tuple[str, str, int]:
    """(phase, step, sentence) for the sheet's reminder table: the sentence is the index, among
    the rule's operative sentences, of the one that names the moment (library.operative). `weapon`
    ("ranged", "melee") places a weapon ability in the phase its weapon attacks in, at each attack."""
    if weapon is not None:
        return ("shooting" if weapon == "ranged" else "fight"), "attacks", 0
    body = operative_text(text or "")
    phase = phase_of(body, once=False)
    if phase == "any":
        if _ATTACKED.search(body):
            return "attacked", "attacks", 0
        if _MAKING.search(body) or _ATTACKS.search(body):
            return "attacking", "attacks", 0
        return "any", "during", 0
    sentences = operative_sentences(body)
    at = next((i for i, one in enumerate(sentences) if phase_of(one, once=False) == phase), 0)
    return phase, step_of(sentences[at] if sentences else body), at


def step_of(text: str) -> str:
    """The step of its phase a rule's text names (see STEPS): start, selected, attacks, end or during."""
    found = [(m.start(), step) for step, pattern in (("start", _START), ("end", _END), ("selected", _SELECTED),
                                                      ("attacks", _ATTACKS)) if (m := pattern.search(text or ""))]
    return min(found)[1] if found else "during"


def is_once_per_battle(text: str, name: str = "") -> bool:
    """Whether the rule (its name or text) can be used once per battle."""
    return bool(_ONCE.search(name or "") or _ONCE.search(operative_text(text or "")))
