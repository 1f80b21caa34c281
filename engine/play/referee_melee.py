"""Melee by the book: who can reach whom, and with what.

DMZ melee happens only between opponents on adjoining dots (seed 000 l.1044).  Play reads
"adjoining" as a dot one legal step away on the same level: a wall, a floor or a closed door
or window between the two dots keeps them apart, so nobody punches or swings a katana through
one.  The same test decides the free move-by attack (seed 000 l.1060) of a defender whose dot
a mover passes.

An armed melee attack uses the ready melee weapon (katana, club, pole-arm ...): its Success
Value from the character sheet (or the Armed Combat Success Value plus the weapon's base from
the Melee Weapons table when the sheet gives none), its damage, and Stun damage for the blunt
weapons the table marks (club, sap, staff).  Without one ready, a character fights unarmed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.catalogue import MELEE_WEAPONS
from engine.lattice import Dot3
from engine.play.board_view import BoardView
from engine.play.condition import PHYSICAL, STUN
from engine.play.state import CharacterState, WeaponState
from engine.play.weapons import normalise

#: boxes of Stun an unarmed blow does
UNARMED_DAMAGE = 2


@dataclass(frozen=True)
class MeleeAttack:
    """What one character fights with in melee."""

    name: str
    success: int
    damage: int
    kind: str  # physical | stun


def is_melee_weapon(w: WeaponState | None) -> bool:
    return w is not None and normalise(w.type) in MELEE_WEAPONS


def melee_contact(board: BoardView, a: Dot3 | None, b: Dot3 | None) -> bool:
    """True when a melee blow can pass between dots ``a`` and ``b``: adjoining, on one level,
    a legal step apart, and no closed door or window between them."""
    if a is None or b is None or a[2] != b[2]:
        return False
    if board.lattice.distance(a[:2], b[:2]) != 1:
        return False
    if board.step(a, b, 1) is None:
        return False
    return all(op.state != "closed" for op in board.openings_on(a, b))


def melee_attack(ch: CharacterState) -> MeleeAttack:
    """The attack ``ch`` makes in melee: his ready melee weapon, else his bare hands."""
    w = ch.ready_weapon
    if is_melee_weapon(w):
        key = normalise(w.type)
        _name, base, table_damage, stun = MELEE_WEAPONS[key]
        success = w.success[0] if w.success else ch.success_value("armed") + base
        return MeleeAttack(w.name or key, success, w.damage or table_damage,
                           STUN if stun else PHYSICAL)
    return MeleeAttack("unarmed", ch.success_value("unarmed"), UNARMED_DAMAGE, STUN)


def melee_weapon_index(ch: CharacterState) -> int | None:
    """The carried melee weapon with the best Success Value, if any."""
    best = None
    for i, w in enumerate(ch.weapons):
        if not is_melee_weapon(w):
            continue
        ma = melee_attack_with(ch, w)
        if best is None or ma.success > best[0]:
            best = (ma.success, i)
    return None if best is None else best[1]


def melee_attack_with(ch: CharacterState, w: WeaponState) -> MeleeAttack:
    """The attack ``ch`` would make with weapon ``w`` readied."""
    saved = ch.ready
    ch.ready = ch.weapons.index(w)
    try:
        return melee_attack(ch)
    finally:
        ch.ready = saved
