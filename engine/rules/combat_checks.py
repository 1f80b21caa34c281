"""Which figures a character must carry to be played under a ruleset, for validation.

Each ruleset's combat module (``engine/rules/<name>_combat.py``) owns its key list, defaults
and ``check_character(ch) -> list[str]``: one problem per entry, naming the missing or bad key
(``"body is missing"``, ``"weapon Ares Predator: damage '9X' is not a damage code"``).  This
registry maps a ruleset name to that function so :mod:`engine.scenario_checks` reports the
problems (one error finding per problem, naming the character) without knowing the rulesets,
and without play and validation importing each other.  A ruleset not listed (dmz1990) needs
nothing beyond the DMZ fields every character has.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.model import Character

# Ruleset lanes: replace your comment line below by the import of your module, and add your
# entry to CHECKS on your own line (apart from the others' so merges do not collide).
# isort: split
from engine.rules import sr3_combat

# isort: split
from engine.rules import sr1_combat

# isort: split
from engine.rules import darkcon_combat

#: ruleset name -> check of one character (problems, empty when he can be played)
CHECKS: dict[str, Callable[[Character], list[str]]] = {

    "sr3": sr3_combat.check_character,

    "sr1": sr1_combat.check_character,

    "darkcon": darkcon_combat.check_character,
}


def character_problems(ruleset: str, ch: Character) -> list[str]:
    """What ``ch`` lacks to be played under ``ruleset`` (nothing if it has no check)."""
    check = CHECKS.get(ruleset)
    return list(check(ch)) if check is not None else []
