"""Grenades: throw cost, accuracy, scatter, blast target values with falloff, smoke.

A grenade always goes off.  The Accuracy test only decides whether it lands on the aimed dot;
on a failure it scatters half the thrown distance (rounded down) in a direction rolled on 2D6
relative to the throw.  At the end of the thrower's team phase each grenade makes one Blast
test against everything near ground zero: the Blast Success Value of its type against the
target's Impact Defense (a barrier's Barrier Value) plus cover plus the falloff per dot from
ground zero.  The blast reaches as far as that chance stays at -10 or better.  Smoke fills the
landing dot and every adjoining dot, one story up, for the rest of the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.lattice import Dot3, Lattice


@dataclass(frozen=True)
class GrenadeType:
    """One line of the Grenade Blast Success Values table."""

    name: str
    standard: int  # blast Success Value, standard issue
    ipe: int  # blast Success Value, Improved Personal Explosive
    per_dot: int | None  # Target Value added per dot from ground zero (None: no blast)
    damage: int  # boxes
    damage_kind: str | None  # physical | stun | None

    def success_value(self, ipe: bool) -> int:
        return self.ipe if ipe else self.standard


GRENADE_TYPES: dict[str, GrenadeType] = {
    "offensive": GrenadeType("offensive", 20, 24, 4, 4, "physical"),
    "defensive": GrenadeType("defensive", 20, 24, 8, 4, "physical"),
    "concussion": GrenadeType("concussion", 16, 20, 8, 4, "stun"),
    "smoke": GrenadeType("smoke", 16, 20, None, 0, None),
}

#: the longest throw we allow, in dots (the book gives no limit beyond the MP it costs)
MAX_THROW = 20

#: 2D6 scatter roll -> direction relative to the throw, degrees clockwise (y down).  6-8 carry
#: the grenade on along the throw (the book's Liam example); the rest fan out symmetrically.
SCATTER_DIRECTION: dict[int, float] = {
    2: 180.0, 3: -135.0, 4: -90.0, 5: -45.0, 6: 0.0, 7: 0.0, 8: 0.0,
    9: 45.0, 10: 90.0, 11: 135.0, 12: 180.0,
}


def grenade_type(name: str) -> GrenadeType:
    try:
        return GRENADE_TYPES[name]
    except KeyError:
        raise ValueError(
            f"unknown grenade type {name!r} (known: {', '.join(GRENADE_TYPES)})"
        ) from None


def throw_mp(dots: int, aerodynamic: bool = False) -> int:
    """MP to throw ``dots`` dots: 1 per 2 dots, or 1 per 3 for aerodynamic (airfoil) ones.

    Partial steps round up and any throw costs at least 1 MP.
    """
    if dots < 0:
        raise ValueError("a throw distance cannot be negative")
    per = 3 if aerodynamic else 2
    return max(1, math.ceil(dots / per))


def accuracy_target_value(dots: int, cover: int, aerodynamic: bool = False) -> int:
    """Thrown grenades: only range (= the MP spent throwing) and cover make the Target Value."""
    return throw_mp(dots, aerodynamic) + cover


def scatter_distance(thrown: int, rangefinder: bool = False) -> int:
    """Half the distance thrown (a quarter with a rangefinder link), rounded down."""
    return thrown // 4 if rangefinder else thrown // 2


def blast_target_value(defense: int, distance: int, per_dot: int, cover: int = 0) -> int:
    """Defense (Impact, or Barrier Value) + cover (smoke/darkness excluded) + falloff."""
    return defense + cover + per_dot * distance


def blast_modifiers(defense: int, distance: int, per_dot: int, cover: int = 0) -> dict[str, int]:
    return {"defense": defense, "cover": cover, "distance": per_dot * distance}


def step_towards(lattice: Lattice, start: tuple[int, int], direction: float,
                 dots: int) -> tuple[int, int]:
    """Walk ``dots`` steps from ``start``, each to the neighbour best matching ``direction``.

    Walking neighbour by neighbour keeps the scatter distance exact on either lattice.
    """
    cur = start
    for _ in range(dots):
        p = lattice.point(cur)
        best, best_d = cur, 1e9
        for n in lattice.neighbours(cur):
            q = lattice.point(n)
            ang = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
            diff = abs((ang - direction + 180.0) % 360.0 - 180.0)
            if diff < best_d - 1e-9:
                best, best_d = n, diff
        cur = best
    return cur


def scatter_point(lattice: Lattice, thrower: tuple[int, int], aim: tuple[int, int],
                  roll: int, thrown: int, rangefinder: bool = False) -> tuple[int, int]:
    """Where a grenade that missed lands, given the 2D6 direction roll."""
    p, q = lattice.point(thrower), lattice.point(aim)
    if p == q:
        base = 0.0
    else:
        base = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
    return step_towards(lattice, aim, base + SCATTER_DIRECTION[roll],
                        scatter_distance(thrown, rangefinder))


def smoke_dots(lattice: Lattice, at: Dot3) -> list[Dot3]:
    """The landing dot and each adjoining dot, on its level and one story up."""
    c, r, lv = at
    flat = [(c, r)] + lattice.neighbours((c, r))
    return [(x, y, level) for level in (lv, lv + 1) for (x, y) in flat]
