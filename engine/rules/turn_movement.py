"""How far a character walks in a whole turn under each metre ruleset, for validation.

Validation's timing checks ("objective X needs N turns, limit L") and the tempo lens walk the
scenario's own movement: DMZ counts MP at a character's Move Ratio (12 MP a turn, seed 000);
sr3, sr1 and darkcon walk metres, and how many a turn holds depends on the character's sheet
(Quickness, Initiative passes, pace).  Each combat module owns its formula
(``turn_metres(stats, metatype)``); this registry maps a ruleset to it so validation never
imports play, and play's referees (``Game.turn_budget``) ask the same functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.model import Character

# isort: split
from engine.rules import sr3_combat

# isort: split
from engine.rules import sr1_combat

# isort: split
from engine.rules import darkcon_combat

#: ruleset name -> metres an unhurt character covers in a turn, from his sheet
TURN_METRES: dict[str, Callable[[Iterable[tuple[str, int | str]], str], float]] = {

    "sr3": sr3_combat.turn_metres,

    "sr1": sr1_combat.turn_metres,

    "darkcon": darkcon_combat.turn_metres,
}


def turn_metres(ruleset: str, ch: Character) -> float | None:
    """Metres ``ch`` walks in a turn under ``ruleset``; None where movement is not in metres
    (dmz1990 counts MP by Move Ratio)."""
    f = TURN_METRES.get(ruleset)
    return None if f is None else float(f(ch.stats, ch.metatype))
