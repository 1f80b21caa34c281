"""Weapon facts play needs: range bands, rate of fire, defense type, grenade kinds.

A scenario's weapon carries its Success Values at short/medium/long/extreme range; the range
bands in dots and the rate of fire come from its type (the book's Weapon Ranges and Rate of
Fire tables).  Grenades are weapons whose type names the grenade: ``defensive-grenade``,
``ipe-offensive-grenade``, ``smoke-grenade-airfoil`` (``ipe-`` for Improved Personal
Explosives, ``-airfoil`` for aerodynamic ones); ``shots`` is how many are carried.
"""

from __future__ import annotations

from engine.catalogue import MELEE_WEAPONS, WEAPON_RANGES, weapon_key
from engine.catalogue import GrenadeKind as GrenadeKind  # re-exported: play reads them here
from engine.catalogue import grenade_kind as grenade_kind

RANGE_STEPS = ("short", "medium", "long", "extreme")

#: lowest range at all, then the upper bound in dots of short, medium, long and extreme range,
#: derived from the one Weapon Ranges table in engine.catalogue
_BANDS: dict[str, tuple[int, int, int, int, int]] = {
    kind: (steps[0][0], *(hi for _lo, hi in steps)) for kind, steps in WEAPON_RANGES.items()
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

def normalise(kind: str) -> str:
    """The weapon type in its one spelling (:func:`engine.catalogue.weapon_key`); grenades
    and unknown types keep their own name."""
    return weapon_key(kind)


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
    k = normalise(kind)
    if k in MELEE_WEAPONS:
        return MELEE_WEAPONS[k][2]
    return _DAMAGE.get(k, 3)

