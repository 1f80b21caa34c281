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

The other Non-Combat spells of the list are in :data:`NON_COMBAT` too, each with how far it
reaches (``reach``: touch, self, line of sight, an aimed area, a ring round the caster, a
barrier) and what it does on the board (``effect``): Combat Sense and Increase/Decrease
Reaction change Move and Fire Ratios (l.1643-1653, l.1687-1697), Chaos and Chaotic World add +2
to every test of their victims (l.1725-1735), the Detect spells make enemies known
(l.1655-1681), Levitate Person moves a character (l.1753-1766), Poltergeist fills an area with
debris (l.1768-1773), the Barriers raise a force-field (l.1784-1796), Petrify turns a victim to
stone (l.1798-1805).  :data:`NOT_ON_THE_BOARD` lists the ones play refuses, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

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


def castings(known: dict[str, int], lookup: Callable[[str], Any] = spell
              ) -> Iterator[tuple[Any, str, int]]:
    """(spell, "max"|"min", Force) for every spell in ``known`` (name -> Maximum Force) that
    ``lookup`` knows, at Maximum then Minimum Force: what a caster may choose among."""
    for name, top in known.items():
        sp = lookup(name)
        if sp is None:
            continue
        for level in ("max", "min"):
            yield sp, level, force_of(top, level)


def success_value(sorcery: int, force: int) -> int:
    """Base Sorcery Success Value + Force (l.2946)."""
    return sorcery + force


# ============================================================================ non-combat


@dataclass(frozen=True)
class NonCombat:
    """A Non-Combat spell play resolves: Mana or Physical, Sustained ("S") or Permanent ("P"),
    the Drain modifier on Force, the Target Value (a number; a defense such as
    ``"physical_spell"``; None: the boxes the target has filled), what it does (``effect``) and
    how far it reaches (``reach``):

    * ``touch`` himself or a willing friend on an adjoining dot (l.1479);
    * ``self`` the caster alone (the Personal spells);
    * ``los`` any character the caster sees (l.1427);
    * ``area`` everyone within :data:`AREA_RADIUS` dots of an aimed dot he sees (l.1447);
    * ``around`` a ring of ``radius`` dots round the caster (the Detect spells, range 0);
    * ``barrier`` a dome round the caster or a wall in front of him (l.1794).
    """

    key: str
    kind: str
    duration: str
    drain_mod: int
    target_value: int | str | None
    effect: str
    heal: int = 0
    reach: str = "touch"
    #: Move and Fire Ratio change while Sustained (Combat Sense, Increase/Decrease Reaction)
    move: int = 0
    fire: int = 0
    #: Target Value modifier of the victim's own tests (Chaos +2, Poltergeist +1)
    distract: int = 0
    #: Detect spells: ring radius in dots, and which characters they find
    radius: int = 0
    finds: str = ""
    #: Target Value against an unwilling (enemy) subject (Levitate: 9, l.1766)
    unwilling: int | None = None

    @property
    def touch(self) -> bool:
        return self.reach == "touch"

    def drain_value(self, force: int) -> int:
        """Force plus the spell's modifier, at least 1 (l.1489)."""
        return max(1, force + self.drain_mod)

    @staticmethod
    def drain_damage(force: int) -> int:
        """Half the Force, rounded off (halves up), at least 1 (l.1505)."""
        return max(1, (force + 1) // 2)


#: the Non-Combat spells with an effect on the board and numbers for it (l.1634-1805)
NON_COMBAT: dict[str, NonCombat] = {s.key: s for s in (
    NonCombat("heal-light-wound", "M", "P", -1, None, "heal", heal=1),
    NonCombat("heal-moderate-wound", "M", "P", 0, None, "heal", heal=2),
    NonCombat("heal-serious-wound", "M", "P", +1, None, "heal", heal=4),
    NonCombat("heal-deadly-wound", "M", "P", +2, None, "heal", heal=6),
    NonCombat("armor", "P", "S", 0, 5, "armor"),
    NonCombat("invisibility", "P", "S", -1, 5, "invisible"),
    # l.1643-1653: Fire Ratio -1, at least 1; a voluntary subject; TV 5
    NonCombat("combat-sense", "P", "S", 0, 5, "ratios", fire=-1),
    NonCombat("personal-combat-sense", "P", "S", -1, 5, "ratios", reach="self", fire=-1),
    # l.1687-1697: Move and Fire Ratios +1 (to his detriment) or -1; LOS; TV 5
    NonCombat("increase-reaction", "P", "S", 0, 5, "ratios", reach="los", move=+1, fire=+1),
    NonCombat("decrease-reaction", "P", "S", 0, 5, "ratios", reach="los", move=-1, fire=-1),
    # l.1725-1735: +2 to every test he attempts; TV his Physical (Spell) Defense
    NonCombat("chaos", "P", "S", +1, "physical_spell", "distract", reach="los", distract=2),
    NonCombat("chaotic-world", "P", "S", +2, "physical_spell", "distract", reach="area",
              distract=2),
    # l.1655-1681: range 0, a six-dot ring round the caster
    NonCombat("detect-enemies", "M", "S", -1, "mana_spell", "detect", reach="around",
              radius=6, finds="enemies"),
    NonCombat("detect-life", "M", "S", -2, 5, "detect", reach="around", radius=6,
              finds="life"),
    *(NonCombat(f"detect-{m}", "M", "S", -2, 5, "detect", reach="around", radius=6, finds=m)
      for m in ("human", "elf", "dwarf", "ork", "troll")),
    # l.1753-1766: TV 5 willing, 9 unwilling; LOS (himself: no range)
    NonCombat("levitate-person", "P", "S", 0, 5, "levitate", reach="los", unwilling=9),
    # l.1768-1773: an area; TV 5; +1 to tests inside, a one-box stun attack at Force x 5
    NonCombat("poltergeist", "P", "S", +1, 5, "poltergeist", reach="area", distract=1),
    # l.1784-1796: a dome of three dots or a wall six dots long three dots ahead; TV 5
    NonCombat("mana-barrier", "M", "S", 0, 5, "barrier", reach="barrier"),
    NonCombat("physical-barrier", "P", "S", +1, 5, "barrier", reach="barrier"),
    # l.1798-1805: unconscious stone, Defense 25 against everything, no stun; TV Physical
    NonCombat("petrify", "P", "S", +1, "physical_spell", "petrify", reach="los"),
)}
#: spells of the list play refuses, and why (docs/play.md, Spells)
NOT_ON_THE_BOARD: dict[str, str] = {
    "clairvoyance": "Clairvoyance shows what lies behind walls, and DMZ's board hides nothing: "
                    "every counter is in plain view (seed 000 l.1001), and no spell may be "
                    "cast at what it shows (l.1639)",
    "levitate-item": "play has no loose items or objects to lift (l.1748); Levitate Person "
                     "moves characters",
    "detect-object": "play has no objects to find (l.1676-1681); Detect Enemies or Detect "
                     "Life find characters",
    "wrecker": "Wrecker works only against vehicles (l.1626), and play has none",
    "urban-renewal": "Urban Renewal is checked against walls and vehicles only (l.1620); play "
                     "has no vehicles and breaks walls by fire",
}
#: a Petrified character's Defense against every attack (l.1805)
PETRIFIED_DEFENSE = 25
#: Poltergeist's stun attack: Success Value = Force x this, one box (l.1773)
POLTERGEIST_SV_PER_FORCE = 5
#: Levitation: MP a dot moved and a story climbed or lowered, at most a turn (l.1758)
LEVITATE_DOT_MP = 3
LEVITATE_STORY_MP = 4
LEVITATE_MP_PER_TURN = 12
#: Barriers: dome radius, wall length and distance ahead, in dots (l.1794)
DOME_RADIUS = 3
WALL_LENGTH = 6
WALL_AHEAD = 3
#: a Detect Enemies target behind a blocked line is 5 harder to find (l.1660)
DETECT_BLOCKED = 5


#: what the Armor spell raises (l.1782)
ARMORED = ("impact", "ballistic", "physical_spell")
#: MP of a Non-Combat spell, and the MP more for each -1 to its Target Value (l.1471)
NON_COMBAT_MP = 3


def ratio_after(ratio: int, change: int) -> int:
    """A Move or Fire Ratio under a spell: changed by ``change``, never below 1 (l.1653)."""
    return max(1, ratio + change)


def refused(name: str) -> str | None:
    """Why play refuses the book's spell ``name`` (None: it does not)."""
    key = spell_key(name)
    if key.startswith("detect-") and non_combat(key) is None:
        return NOT_ON_THE_BOARD["detect-object"]
    return NOT_ON_THE_BOARD.get(key)


def non_combat(name: str) -> NonCombat | None:
    key = spell_key(name)
    if key.startswith("detect-") and key not in NON_COMBAT and key[:-1] in NON_COMBAT:
        key = key[:-1]  # "Detect Orks": the Detect (Life Form) spell of that race
    return NON_COMBAT.get({"levitate": "levitate-person", "combat-sense-personal":
                           "personal-combat-sense", "detect-enemy": "detect-enemies",
                           "mana-barriers": "mana-barrier", "physical-barriers": "physical-barrier",
                           "heal-light-wounds": "heal-light-wound",
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
