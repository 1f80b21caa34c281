"""What every ruleset offers, and the few helpers they share.

The compiled board holds physical facts (a wall's class, a door's state, heights, positions);
a ruleset is the one place those facts get numbers: barrier values, cover, visibility, range
measure, movement units and costs.  :mod:`engine.sight` asks a ruleset for its verdict, and
every caller (CLI, validation, editor, play) asks :mod:`engine.sight`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from engine.los import Fan, LosFacts

METERS_PER_DOT = 2  # SPEC: one dot is 2 m (seed 000 l.376)
METERS_PER_STORY = 4  # seed 000 l.808: "one building story being about 4 meters high"


@dataclass(frozen=True)
class Movement:
    """How a ruleset measures a move: in MP (dmz1990) or in metres (the others).

    ``diagonal`` is the length of a diagonal step of a square lattice in dots (``None``: every
    other diagonal counts double, Dark Conspiracy's rule); ``rates`` names the paces a
    character may use with the factor each applies to the base rate.
    """

    units: str  # "MP" | "m"
    diagonal: float | None = 1.0
    rates: tuple[tuple[str, float], ...] = ()
    rule: str = ""


#: the keys of :meth:`Ruleset.modifiers` that only say why (left out without ``text``): play
#: reads the numbers alone, and a bot game asks thousands of new lines
TEXT_KEYS = ("interruptions", "reasons", "notes")


class Ruleset(Protocol):
    name: str
    movement: Movement

    def modifiers(self, facts: LosFacts, vision: str = "normal",
                  weapon: str | None = None, *, text: bool = True) -> dict[str, Any]:
        """Target modifiers for a shot along ``facts`` (``blocked`` says no shot at all),
        with ``reasons``: one line per number, citing the rule it comes from.  Without
        ``text`` the keys of :data:`TEXT_KEYS` are left out and every other is the same (a
        ruleset registered without the keyword is asked for them all)."""
        ...

    def barrier(self, cls: str, kind: str = "wall") -> tuple[int, int]:
        """(barrier value, armor) for a class name on a wall/fence, door or window."""
        ...

    def fan_verdict(self, fan: Fan, vision: str = "normal", light: str = "day"
                    ) -> tuple[np.ndarray, np.ndarray]:
        """(blocked, cover levels) per fan target, the same verdict :meth:`modifiers` gives."""
        ...

    def range_m(self, facts: LosFacts) -> float:
        """The range as this book measures it, in metres."""
        ...


def terrain_words(ruleset: Any, cost: int = 1) -> str:
    """What crossing rubble or undergrowth costs under ``ruleset``, as a legend says it: DMZ
    adds the feature's extra MP (seed 000 l.504-534); a ruleset that measures moves in metres
    counts the metres walked and nothing more (its ``movement``)."""
    mv = ruleset.movement
    if mv.units == "MP":
        return f"+{cost} MP"
    return f"{'metres' if mv.units == 'm' else mv.units} walked, no extra"


def straight_metres(facts: LosFacts) -> float:
    """Metres along the straight line, height included: 2 m per dot, 4 m per story."""
    flat = (facts.range if facts.span is None else facts.span) * METERS_PER_DOT
    up = facts.elevation_stories * METERS_PER_STORY
    return math.hypot(flat, up)


def barrier_of(ruleset: Any, fact: dict[str, Any] | None) -> tuple[int, int] | None:
    """(value, armor) a ruleset gives the barrier a fact describes, or None if it has none."""
    if not fact or fact.get("class") is None or not getattr(ruleset, "has_barriers", True):
        return None
    kind = fact.get("kind", "wall")
    if fact["class"] == "custom":
        return ruleset.custom_barrier(*fact["custom"], kind=kind)
    return ruleset.barrier(fact["class"], kind)


def light_index(light: str) -> int:
    """The scenario's light as the fan's visibility index (0 day, 1 partial, 2 full)."""
    return {"partial-darkness": 1, "full-darkness": 2}.get(light, 0)
