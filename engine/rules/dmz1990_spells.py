"""The DMZ combat spells (seed 000 l.1501-1640 spell list, l.2926-2960 conversion rules).

A mage's sheet lists each spell he knows with its Maximum Force (``spells: {mana-bolt: 6}``);
Minimum Force is always 1 (l.2926).  Everything else follows from the spell list:

* Damage = Force / 2 (rounded down) + the spell's modifier, at least 1 (l.2936-2942).
* Success Value = the mage's base Sorcery Success Value + Force (l.2946).
* Target Value = the target's Mana or Physical Spell Defense (l.2950) plus the ranged fire
  modifiers except elevation, which is for non-magical combat only (l.812).
* Drain Target Value = Damage + the spell's drain modifier (l.2954); the Drain Resistance test
  rolls the mage's Mana Defense against it, and a failure marks half the Damage, rounded off,
  as stun (l.1487-1489).
* Area spells reach three dots round the aimed dot (l.1447); touch spells need an Unarmed
  Combat test at Target Value - 3 first and an adjoining target (l.1479).

Wrecker and Urban Renewal work on vehicles and objects, which play has none of.

Non-Combat spells (l.1469-1473, l.1651-1800) with numbers the board can use are
:data:`NON_COMBAT`: the four Heal Wound spells (1/2/4/6 boxes of physical damage back, Target
Value the boxes filled, Sustained a turn a box before they are permanent, l.1699-1719), Armor
(+Force/2 to Impact, Ballistic and Physical Spell Defense while Sustained, Target Value 5,
l.1777-1782) and Invisibility (unseen by eyes without thermographic vision while Sustained,
Target Value 5, l.1737-1742).  They cost 3 MP, 3 MP more for each -1 to the Target Value
(l.1471); their Drain Value is Force plus the spell's modifier, at least 1, and a failed Drain
test marks half the Force, rounded off, at least 1 (l.1489, l.1505).  Every spell a mage
Sustains adds 1 to the Target Value of every Success Test he makes (l.1495).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Area Effect radius in dots (l.1447)
AREA_RADIUS = 3
#: the Unarmed Combat test of a touch spell is 3 easier (l.1479)
TOUCH_EASIER = 3


@dataclass(frozen=True)
class Spell:
    """One combat spell of the list: Mana (M) or Physical (P), single target or area, stun or
    physical damage, its damage and drain modifiers, touch or line of sight."""

    key: str
    kind: str  # "M" or "P"
    damage_mod: int
    drain_mod: int
    area: bool = False
    stun: bool = False
    touch: bool = False

    @property
    def defense(self) -> str:
        """The defense the target resists with (l.692-693)."""
        return "mana_spell" if self.kind == "M" else "physical_spell"

    def damage(self, force: int) -> int:
        return max(1, force // 2 + self.damage_mod)

    def drain_value(self, force: int) -> int:
        return max(1, self.damage(force) + self.drain_mod)

    def drain_damage(self, force: int) -> int:
        """Stun boxes a failed Drain test marks: half the Damage, rounded off (halves up)."""
        return max(1, (self.damage(force) + 1) // 2)


#: the combat spells of seed 000 l.1501-1640: key -> Spell
SPELLS: dict[str, Spell] = {s.key: s for s in (
    Spell("death-touch", "M", +1, 0, touch=True),
    Spell("mana-bolt", "M", +1, 0),
    Spell("power-bolt", "P", +1, 0),
    Spell("mana-dart", "M", -1, 0),
    Spell("power-dart", "P", -1, 0),
    Spell("mana-missile", "M", 0, 0),
    Spell("power-missile", "P", 0, 0),
    Spell("manaball", "M", +1, +2, area=True),
    Spell("powerball", "P", 0, +2, area=True),
    Spell("stun-bolt", "M", +1, -1, stun=True),
    Spell("stun-cloud", "M", -1, +1, area=True, stun=True),
    Spell("stun-missile", "M", 0, -1, stun=True),
    Spell("stun-touch", "M", +1, -2, stun=True, touch=True),
    Spell("stunball", "M", 0, +1, area=True, stun=True),
    Spell("stunblast", "M", +1, +1, area=True, stun=True),
)}


def spell_key(name: str) -> str:
    """A spell name as the sheet may write it ("Mana Bolt", "mana_bolt", "Sleep") -> its key."""
    key = "-".join(name.strip().lower().replace("_", " ").split())
    return {"sleep": "stunblast", "manabolt": "mana-bolt", "powerbolt": "power-bolt",
            "stunbolt": "stun-bolt"}.get(key, key)


def spell(name: str) -> Spell | None:
    return SPELLS.get(spell_key(name))


def force_of(max_force: int, level: str) -> int:
    """The Force cast: the sheet's Maximum, or the Minimum of 1 (l.1409, l.2926)."""
    if level == "min":
        return 1
    return max_force


def success_value(sorcery: int, force: int) -> int:
    """Base Sorcery Success Value + Force (l.2946)."""
    return sorcery + force


# ============================================================================ non-combat


@dataclass(frozen=True)
class NonCombat:
    """A Non-Combat spell play resolves: Mana or Physical, Sustained ("S") or Permanent ("P"),
    touch or line of sight, the Drain modifier on Force, the Target Value (None: the boxes the
    target has filled), and what it does (``heal`` boxes, ``armor``, ``invisible``)."""

    key: str
    kind: str
    duration: str
    drain_mod: int
    target_value: int | None
    effect: str
    heal: int = 0
    touch: bool = True

    def drain_value(self, force: int) -> int:
        """Force plus the spell's modifier, at least 1 (l.1489)."""
        return max(1, force + self.drain_mod)

    @staticmethod
    def drain_damage(force: int) -> int:
        """Half the Force, rounded off (halves up), at least 1 (l.1505)."""
        return max(1, (force + 1) // 2)


#: the Non-Combat spells with an effect on the board and numbers for it (l.1699-1782)
NON_COMBAT: dict[str, NonCombat] = {s.key: s for s in (
    NonCombat("heal-light-wound", "M", "P", -1, None, "heal", heal=1),
    NonCombat("heal-moderate-wound", "M", "P", 0, None, "heal", heal=2),
    NonCombat("heal-serious-wound", "M", "P", +1, None, "heal", heal=4),
    NonCombat("heal-deadly-wound", "M", "P", +2, None, "heal", heal=6),
    NonCombat("armor", "P", "S", 0, 5, "armor"),
    NonCombat("invisibility", "P", "S", -1, 5, "invisible"),
)}
#: what the Armor spell raises (l.1782)
ARMORED = ("impact", "ballistic", "physical_spell")
#: MP of a Non-Combat spell, and the MP more for each -1 to its Target Value (l.1471)
NON_COMBAT_MP = 3


def non_combat(name: str) -> NonCombat | None:
    key = spell_key(name)
    return NON_COMBAT.get({"heal-light-wounds": "heal-light-wound",
                           "heal-moderate-wounds": "heal-moderate-wound",
                           "heal-serious-wounds": "heal-serious-wound",
                           "heal-deadly-wounds": "heal-deadly-wound",
                           "armour": "armor"}.get(key, key))


def armor_bonus(force: int) -> int:
    """Half the Force, rounded down, at least 1 (l.1782)."""
    return max(1, force // 2)


def effort_mp(extra: int) -> int:
    """MP of a Non-Combat spell cast ``extra`` steps easier: 3, 6, 9, 12 (l.1471-1473)."""
    return NON_COMBAT_MP * (1 + extra)
