"""What a referee works out before a shot is rolled, in a form every ruleset shares.

:meth:`engine.play.game.Game.plan_shot` returns a :class:`ShotPlan`: the chance the attack
lands, the damage it is expected to do in the ruleset's own units (DMZ boxes, Shadowrun boxes
of the Condition Monitor, Dark Conspiracy wound points) and the figures the log shows.  Bots
rank options by ``expected`` and the editor's preview prints ``numbers``, so neither needs to
know how a ruleset rolls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: P(2D6 <= n) for n = 2..12
_AT_MOST = {n: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= n) / 36
            for n in range(2, 13)}


def p_success(chance: int) -> float:
    """Probability of passing a DMZ Success Test with ``chance`` = Success - Target Value
    (2 always succeeds, 12 always fails, below -10 never)."""
    if chance < -10:
        return 0.0
    if chance >= 11:
        return 35 / 36  # 12 always fails
    if chance < 2:
        return 1 / 36  # 2 always succeeds
    return _AT_MOST[chance]


@dataclass
class ShotPlan:
    """One planned shot: ``p_hit`` the probability it lands at all, ``expected`` the damage it
    is expected to do (ruleset units), ``numbers`` what the log and the preview show (DMZ:
    ``success_value``, ``target_value``, ``modifiers``; sr3: ``target_number``, ``pool``,
    ``damage_code``...)."""

    p_hit: float
    expected: float
    numbers: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, i: int) -> Any:
        """DMZ plans also read as the old (Success Value, Target Value, modifiers) triple."""
        n = self.numbers
        return (n["success_value"], n["target_value"], n["modifiers"])[i]

    def __iter__(self) -> Any:
        return iter((self[0], self[1], self[2]))
