"""Weapon facts play needs: range bands, rate of fire, defense type, grenade kinds.

A scenario's weapon carries its Success Values at short/medium/long/extreme range; the range
bands in dots and the rate of fire come from its type (the book's Weapon Ranges and Rate of
Fire tables).  Grenades are weapons whose type names the grenade: ``defensive-grenade``,
``ipe-offensive-grenade``, ``smoke-grenade-airfoil`` (``ipe-`` for Improved Personal
Explosives, ``-airfoil`` for aerodynamic ones); ``shots`` is how many are carried.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RANGE_STEPS = ("short", "medium", "long", "extreme")

#: upper bound in dots of short, medium, long and extreme range, and the lowest range at all
_BANDS: dict[str, tuple[int, int, int, int, int]] = {
    "hold-out-pistol": (1, 3, 8, 15, 25),
    "light-pistol": (1, 3, 8, 15, 25),
    "machine-pistol": (1, 3, 8, 15, 25),
    "heavy-pistol": (1, 3, 10, 20, 30),
    "shotgun": (1, 5, 10, 25, 50),
    "sporting-rifle": (1, 15, 30, 75, 150),
    "sniper-rifle": (1, 20, 40, 100, 200),
    "assault-rifle": (1, 8, 20, 50, 125),
    "smg": (1, 5, 20, 40, 75),
    "lmg": (1, 10, 20, 40, 75),
    "mmg": (1, 20, 75, 150, 250),
    "hmg": (1, 20, 75, 200, 400),
    "assault-cannon": (1, 25, 75, 225, 650),
    "grenade-launcher": (10, 25, 50, 75, 150),
    "missile-launcher": (10, 35, 75, 225, 750),
    "bow": (1, 3, 25, 75, 150),
    "light-crossbow": (1, 5, 20, 50, 100),
    "medium-crossbow": (1, 10, 30, 75, 125),
    "heavy-crossbow": (1, 15, 40, 100, 150),
}
_ALIASES = {
    "holdout-pistol": "hold-out-pistol", "hold-out": "hold-out-pistol",
    "light-pistol-mp": "machine-pistol", "submachine-gun": "smg",
    "light-machine-gun": "lmg", "medium-machine-gun": "mmg", "heavy-machine-gun": "hmg",
    "pistol": "heavy-pistol", "rifle": "assault-rifle", "cannon": "assault-cannon",
    "sniper": "sniper-rifle", "sporting": "sporting-rifle", "crossbow": "medium-crossbow",
}
_AUTOFIRE = {"machine-pistol", "smg", "assault-rifle", "lmg", "mmg", "hmg"}
_SINGLE_SHOT = {"sniper-rifle", "assault-cannon", "missile-launcher", "grenade-launcher"}
_IMPACT = {"bow", "light-crossbow", "medium-crossbow", "heavy-crossbow"}
#: default damage boxes by type when the scenario gives none (the Weapons Table's usual value)
_DAMAGE = {
    "hold-out-pistol": 1, "light-pistol": 2, "machine-pistol": 2, "heavy-pistol": 3,
    "shotgun": 3, "sporting-rifle": 4, "sniper-rifle": 4, "assault-rifle": 4, "smg": 4,
    "lmg": 4, "mmg": 6, "hmg": 6, "assault-cannon": 6, "bow": 2, "light-crossbow": 1,
    "medium-crossbow": 2, "heavy-crossbow": 4,
}

_GRENADE_RE = re.compile(
    r"^(?P<ipe>ipe-)?(?P<kind>offensive|defensive|concussion|smoke)-grenade(?P<aero>-airfoil)?$"
)


def normalise(kind: str) -> str:
    k = re.sub(r"[\s_]+", "-", kind.strip().lower())
    return _ALIASES.get(k, k)


def is_firearm_type(kind: str) -> bool:
    return normalise(kind) in _BANDS


def range_step(kind: str, dots: int) -> int | None:
    """Index into the Success Values (0 short .. 3 extreme), or None when out of range.

    Launchers fire inside their minimum range at short range (with +5, see
    :func:`minimum_range_penalty`).
    """
    k = normalise(kind)
    bands = _BANDS.get(k)
    if bands is None:
        return None
    _low, short, medium, long_, extreme = bands
    for i, top in enumerate((short, medium, long_, extreme)):
        if dots <= top:
            return i
    return None


def range_limit(kind: str) -> int:
    """The far end of extreme range, in dots (0 for unknown types)."""
    bands = _BANDS.get(normalise(kind))
    return 0 if bands is None else bands[4]


def minimum_range_penalty(kind: str, dots: int) -> int:
    """+5 to the Target Value inside a launcher's minimum range."""
    bands = _BANDS.get(normalise(kind))
    return 5 if bands is not None and dots < bands[0] else 0


def max_shots_per_turn(kind: str) -> int:
    """Rate of fire: 15 bursts (autofire) or shots (semi-automatic); 5 for single-shot."""
    return 5 if normalise(kind) in _SINGLE_SHOT else 15


def is_autofire(kind: str) -> bool:
    return normalise(kind) in _AUTOFIRE


def defense_type(kind: str) -> str:
    """Which Defense Value a weapon is resisted with."""
    return "impact" if normalise(kind) in _IMPACT else "ballistic"


def default_damage(kind: str) -> int:
    return _DAMAGE.get(normalise(kind), 3)


@dataclass(frozen=True)
class GrenadeKind:
    kind: str  # offensive | defensive | concussion | smoke
    ipe: bool
    aerodynamic: bool


def grenade_kind(kind: str) -> GrenadeKind | None:
    """Parse a grenade weapon type, or None for anything that is not a grenade."""
    m = _GRENADE_RE.match(normalise(kind))
    if not m:
        return None
    return GrenadeKind(m["kind"], bool(m["ipe"]), bool(m["aero"]))
