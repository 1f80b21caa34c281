"""Reaction arcs: their geometry and the Fire Ratio accounting of Reaction Fire.

Geometry: an arc is a wedge of 45 (narrow, 2 MP), 90 (intermediate, 4 MP) or 180 (wide,
6 MP) degrees centred on a direction from the reacting character's dot.  It is a plan-view
wedge: it reaches every level above and below (the book's arcs are three-dimensional), and a
dot exactly on an edge counts as inside.

Accounting (:class:`ReactionTally`, one per reacting character and moving character): each
time the mover reaches a dot inside the arc, or spends a group of MP there (drop prone, a
shot, opening a door), those MP are added to his unresolved total; every full Fire Ratio in it
is one attack and the remainder carries over to his next expenditure in this turn.  A mover
who began his phase inside the arc and gets clear without drawing a single attack still draws
one "free" attack; any attack earned the normal way overrides it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

#: arc name -> (MP cost, width in degrees)
ARCS: dict[str, tuple[int, float]] = {
    "narrow": (2, 45.0),
    "intermediate": (4, 90.0),
    "wide": (6, 180.0),
}
ARC_BY_COST = {cost: name for name, (cost, _w) in ARCS.items()}

#: how many arcs a character may hold at once, by Move Ratio (the Reaction Arc Table)
ARCS_ALLOWED = {4: 1, 3: 1, 2: 2, 1: 3}

_EPS = 1e-9


def arc_cost(kind: str) -> int:
    return ARCS[kind][0]


def arcs_allowed(move_ratio: int) -> int:
    return ARCS_ALLOWED.get(move_ratio, 1)


@dataclass(frozen=True)
class Arc:
    """A reaction arc laid at ``origin`` (a point) pointing along ``direction`` degrees.

    Degrees follow the sheet's axes (x right, y down), so 0 points right and 90 points down
    the page.
    """

    kind: str
    origin: tuple[float, float]
    direction: float
    #: :meth:`contains` per point asked: the referee asks every reactor's arcs at every step
    #: of every mover, the bots at every dot of every way they weigh (the same few points all
    #: turn long); not part of the arc's value
    _seen: dict[tuple[float, float], bool] = field(default_factory=dict, init=False,
                                                   repr=False, compare=False, hash=False)

    @property
    def width(self) -> float:
        return ARCS[self.kind][1]

    @property
    def cost(self) -> int:
        return ARCS[self.kind][0]

    def contains(self, point: tuple[float, float]) -> bool:
        """Is ``point`` inside the wedge?  The arc's own origin is not.  Each point is worked
        out once (:meth:`inside`, kept in ``_seen``)."""
        if point.__class__ is not tuple:
            return self.inside(point)
        seen = self._seen
        got = seen.get(point)
        if got is None:
            got = seen[point] = self.inside(point)
        return got

    def inside(self, point: tuple[float, float]) -> bool:
        """:meth:`contains` worked out."""
        o = self.origin
        dx, dy = point[0] - o[0], point[1] - o[1]
        if -_EPS < dx < _EPS and -_EPS < dy < _EPS:
            return False
        # angle_between and width inlined: the referee asks this for every reactor at every
        # step, and the bots for every dot of every path they weigh
        d = (math.degrees(math.atan2(dy, dx)) - self.direction) % 360.0
        return min(d, 360.0 - d) <= ARCS[self.kind][1] / 2.0 + _EPS

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "origin": list(self.origin), "direction": self.direction}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Arc:
        return cls(data["kind"], tuple(data["origin"]), float(data["direction"]))


def angle_between(a: float, b: float) -> float:
    """Smallest absolute difference of two directions in degrees (0..180)."""
    d = (a - b) % 360.0
    return min(d, 360.0 - d)


def direction_to(origin: tuple[float, float], point: tuple[float, float]) -> float:
    """Direction in degrees from ``origin`` to ``point`` (x right, y down)."""
    return math.degrees(math.atan2(point[1] - origin[1], point[0] - origin[0]))


def spend_tally(data: dict[str, Any], mp: float) -> int:
    """:meth:`ReactionTally.spend` on a tally's data (its ``to_data``), in place: the
    referee counts every reactor's tally at every step and action of a mover, and building
    the tally from its data and back each time cost more than the count."""
    if mp < 0:
        raise ValueError("MP spent cannot be negative")
    fire_ratio = data["fire_ratio"]
    unresolved = data["unresolved"] + mp
    shots = int(unresolved // fire_ratio)  # metres may be fractional
    data["unresolved"] = unresolved - shots * fire_ratio
    data["attacks"] += shots
    return shots


def owes_free_shot(data: dict[str, Any]) -> bool:
    """Would :meth:`ReactionTally.free_shot` give an attack on a tally with this data (its
    ``to_data``): he began in the arc, and no attack was earned or given yet?  The referee
    asks the arcs about a free shot only while one is owed: most tallies drew an attack at
    the first step or action in the arc, and the rest of the phase cannot owe one again."""
    return data["started_in_arc"] and data["attacks"] == 0 and not data["free_used"]


@dataclass
class ReactionTally:
    """Fire Ratio bookkeeping of one reacting character against one moving character."""

    fire_ratio: int
    started_in_arc: bool = False
    unresolved: int = 0
    attacks: int = 0  # attacks earned so far this phase (normal and free)
    free_used: bool = False

    def spend(self, mp: int) -> int:
        """The mover spent ``mp`` inside the arc (reaching a dot, or an action there).

        Returns the number of attacks this earns now; the remainder is carried over.
        """
        if mp < 0:
            raise ValueError("MP spent cannot be negative")
        self.unresolved += mp
        shots = int(self.unresolved // self.fire_ratio)  # metres may be fractional
        self.unresolved -= shots * self.fire_ratio
        self.attacks += shots
        return shots

    def free_shot(self) -> int:
        """The mover got clear (or ended his phase) without drawing an attack.

        One attack if he began his phase in the arc and none was earned; 0 otherwise.  It is
        given at most once.
        """
        if owes_free_shot(self.to_data()):
            self.free_used = True
            self.attacks += 1
            return 1
        return 0

    def to_data(self) -> dict[str, Any]:
        return {
            "fire_ratio": self.fire_ratio, "started_in_arc": self.started_in_arc,
            "unresolved": self.unresolved, "attacks": self.attacks, "free_used": self.free_used,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ReactionTally:
        return cls(**data)
