"""Which phase a rule acts in, read from its text, for the army sheet's reminder table.

The order of the tests is the order a player reads a rule in: "once per battle" first (it is
the thing to remember), then a phase the rule names as its moment ("at the start of your
Command phase", "in your Shooting phase"; a phase named only in an "as if it were" clause is
not a moment), then the first action the text triggers on (a ranged attack, being selected to
fight, a Charge move, a Normal move, arriving from Reserves, deployment). A rule with none of
these (a save, a characteristic, "each time a model makes an attack") applies in any phase.
"""
from __future__ import annotations

import re

# Phase keys in table order, with their printed labels.
PHASES = {
    "before battle": "Before the battle",
    "command": "Command phase",
    "movement": "Movement phase",
    "shooting": "Shooting phase",
    "charge": "Charge phase",
    "fight": "Fight phase",
    "any": "Any phase",
    "once per battle": "Once per battle",
}

_ONCE = re.compile(r"\bonce per battle\b(?!\s+round)", re.IGNORECASE)
_NAMED = re.compile(r"(?<!as if it were )(?<!as if it were your )(?<!as if it were the )"
                    r"\b(command|movement|shooting|charge|fight)\s+phases?\b", re.IGNORECASE)
_ANY_PHASE = re.compile(r"\b(?:start|end) of any phase\b|\bany phase\b", re.IGNORECASE)
# Actions a rule triggers on, by phase; the earliest in the text wins.
_CUES = {
    "shooting": r"\branged attacks?\b|\bselected to shoot\b|\bhas shot\b|\bshoots\b|\branged weapons?\b",
    "fight": r"\bmelee attacks?\b|\bselected to fight\b|\bhas fought\b|\bfights\b|\bmelee weapons?\b|"
             r"\bpile[- ]in\b|\bconsolidat",
    "charge": r"\bcharge (?:move|roll)s?\b|\bdeclares? a charge\b|\beligible to charge\b|\bcharges\b",
    "movement": r"\b(?:normal|advance|fall back)\b[^.]{0,30}?\bmoves?\b|\bends a move\b|\badvances\b|"
                r"\bfrom (?:strategic )?reserves\b|\breinforcements step\b",
    "command": r"\bbattle-shock step\b|\bcommand points? \(cp\) at the start\b",
    "before battle": r"\bdeclare battle formations\b|\bdeployment\b|\bdeploy\b|\bstart of the battle\b|"
                     r"\bbefore the (?:battle|first battle round)\b|\bredeploy",
}
_CUE_RES = {k: re.compile(v, re.IGNORECASE) for k, v in _CUES.items()}


def phase_of(text: str) -> str:
    """The phase key (see PHASES) a rule's text acts in."""
    text = text or ""
    if _ONCE.search(text):
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


def phase_label(key: str) -> str:
    """The printed label of a phase key ("shooting" -> "Shooting phase")."""
    return PHASES.get(key, key)
