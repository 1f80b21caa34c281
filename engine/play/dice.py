"""Seeded dice and the 2D6 Success Test.

DMZ resolves everything with one test: roll 2D6 and succeed on a total at or below the success
chance (Success Value minus Target Value).  A 2 always succeeds and a 12 always fails, but a
chance below -10 cannot succeed at all, so no dice are rolled.  All randomness of a game comes
from one :class:`random.Random` seeded at the start, so a game replays exactly, and every roll
is written to the event log.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.play.events import EventLog

#: the lowest success chance that may still be rolled for (a 2 always succeeds)
CHANCE_FLOOR = -10
AUTO_SUCCESS = 2
AUTO_FAILURE = 12


@dataclass(frozen=True)
class TestResult:
    """The outcome of one Success Test, with everything needed to explain it."""

    success_value: int
    target_value: int
    chance: int
    roll: int | None  # None when the chance was below the floor and no dice were rolled
    success: bool
    why: str  # "rolled", "automatic success", "automatic failure", "no chance"

    def to_data(self) -> dict[str, Any]:
        return {
            "success_value": self.success_value, "target_value": self.target_value,
            "chance": self.chance, "roll": self.roll, "success": self.success, "why": self.why,
        }


def judge(success_value: int, target_value: int, roll: int | None) -> TestResult:
    """Apply the Success Test rule to a given roll (``roll`` is ignored below the floor)."""
    chance = success_value - target_value
    if chance < CHANCE_FLOOR:
        return TestResult(success_value, target_value, chance, None, False, "no chance")
    if roll is None:
        raise ValueError("a roll is needed when the chance is -10 or better")
    if roll == AUTO_SUCCESS:
        return TestResult(success_value, target_value, chance, roll, True, "automatic success")
    if roll == AUTO_FAILURE:
        return TestResult(success_value, target_value, chance, roll, False, "automatic failure")
    return TestResult(success_value, target_value, chance, roll, roll <= chance, "rolled")


def needs_roll(success_value: int, target_value: int) -> bool:
    return success_value - target_value >= CHANCE_FLOOR


class Dice:
    """The game's only source of randomness: a seeded RNG that logs every roll."""

    def __init__(self, seed: int, log: EventLog | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.log = log if log is not None else EventLog()

    def d6(self) -> int:
        return self.rng.randint(1, 6)

    def pair(self) -> tuple[int, int]:
        """Two dice; the one place a test may script the fall of the dice."""
        return self.d6(), self.d6()

    def roll_2d6(self, purpose: str, **context: Any) -> int:
        a, b = self.pair()
        self.log.record("roll", purpose=purpose, dice=[a, b], total=a + b, **context)
        return a + b

    def test(
        self, purpose: str, success_value: int, target_value: int,
        modifiers: dict[str, int] | None = None, **context: Any,
    ) -> TestResult:
        """Make a logged Success Test; ``modifiers`` (already inside ``target_value``) are
        recorded so the log shows how the Target Value was built."""
        roll = None
        if needs_roll(success_value, target_value):
            a, b = self.pair()
            roll = a + b
        result = judge(success_value, target_value, roll)
        self.log.record(
            "test", purpose=purpose, modifiers=dict(modifiers or {}), **result.to_data(),
            **context,
        )
        return result

    # -- save/load: the RNG state is plain data so a game in progress can be resumed exactly
    def get_state(self) -> list[Any]:
        version, internal, gauss = self.rng.getstate()
        return [version, list(internal), gauss]

    def set_state(self, data: list[Any]) -> None:
        version, internal, gauss = data
        self.rng.setstate((version, tuple(internal), gauss))
