"""The DMZ catalogue: weapon types and their range steps, the weapons table, armour, the
Move/Fire Ratio conversion and ready-made archetypes.

Numbers come from the DMZ rule book (1990): the WEAPON RANGES table (dots per range step),
the WEAPONS TABLE (base success value, ammunition, damage), the armour values, the Move/Fire
Ratio Conversion Table and the Base Success / Base Defense Value formulas of the Shadowrunning
section.  The book's separate Archetypes booklet is not part of the sources, so every archetype
here is a project-authored role-playing profile (attributes, skills, cyberware, armour, gear)
turned into DMZ numbers with the book's own conversion rules; where the book's examples name an
archetype's ratio (a Street Samurai moves at 2 and fires at 2, a Mercenary moves at 3, a
Bodyguard moves at 2, a Squatter fires at 3) the profile agrees with it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

BANDS = ("short", "medium", "long", "extreme")

#: Success Value change per range step (Shadowrunning: Weapons, Firearms)
BAND_MODIFIER = {"short": 0, "medium": -2, "long": -4, "extreme": -6}

#: WEAPON RANGES (in dots): (first, last) dot of the short, medium, long and extreme steps
WEAPON_RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    # firearms
    "hold-out-pistol": ((1, 3), (4, 8), (9, 15), (16, 25)),
    "light-pistol": ((1, 3), (4, 8), (9, 15), (16, 25)),
    "machine-pistol": ((1, 3), (4, 8), (9, 15), (16, 25)),
    "heavy-pistol": ((1, 3), (4, 10), (11, 20), (21, 30)),
    "shotgun": ((1, 5), (6, 10), (11, 25), (26, 50)),
    "sporting-rifle": ((1, 15), (16, 30), (31, 75), (76, 150)),
    "sniper-rifle": ((1, 20), (21, 40), (41, 100), (101, 200)),
    "assault-rifle": ((1, 8), (9, 20), (21, 50), (51, 125)),
    "smg": ((1, 5), (6, 20), (21, 40), (41, 75)),
    "lmg": ((1, 10), (11, 20), (21, 40), (41, 75)),
    # heavy weapons
    "mmg": ((1, 20), (21, 75), (76, 150), (151, 250)),
    "hmg": ((1, 20), (21, 75), (76, 200), (201, 400)),
    "assault-cannon": ((1, 25), (26, 75), (76, 225), (226, 650)),
    "grenade-launcher": ((10, 25), (26, 50), (51, 75), (76, 150)),
    "missile-launcher": ((10, 35), (36, 75), (76, 225), (226, 750)),
    # impact projectiles
    "bow": ((1, 3), (4, 25), (26, 75), (76, 150)),
    "light-crossbow": ((1, 5), (6, 20), (21, 50), (51, 100)),
    "medium-crossbow": ((1, 10), (11, 30), (31, 75), (76, 125)),
    "heavy-crossbow": ((1, 15), (16, 40), (41, 100), (101, 150)),
}

WEAPON_TYPE_NAMES = {
    "hold-out-pistol": "Hold-Out Pistol", "light-pistol": "Light Pistol",
    "machine-pistol": "Light Pistol (MP)", "heavy-pistol": "Heavy Pistol", "shotgun": "Shotgun",
    "sporting-rifle": "Sporting Rifle", "sniper-rifle": "Sniper Rifle",
    "assault-rifle": "Assault Rifle", "smg": "Submachine Gun (SMG)",
    "lmg": "Light Machine Gun (LMG)", "mmg": "Medium Machine Gun (MMG)",
    "hmg": "Heavy Machine Gun (HMG)", "assault-cannon": "Assault Cannon",
    "grenade-launcher": "Grenade Launcher", "missile-launcher": "Missile Launcher",
    "bow": "Bow", "light-crossbow": "Light Crossbow", "medium-crossbow": "Medium Crossbow",
    "heavy-crossbow": "Heavy Crossbow",
}

WEAPON_GROUPS = {
    "firearms": ("hold-out-pistol", "light-pistol", "machine-pistol", "heavy-pistol", "shotgun",
                 "sporting-rifle", "sniper-rifle", "assault-rifle", "smg", "lmg"),
    "heavy-weapons": ("mmg", "hmg", "assault-cannon", "grenade-launcher", "missile-launcher"),
    "impact-projectiles": ("bow", "light-crossbow", "medium-crossbow", "heavy-crossbow"),
}

#: THE table of other spellings of weapon types (after lower-casing, spaces and underscores as
#: hyphens): scenario files, play and every ruleset's ``--weapon`` read names through
#: :func:`weapon_key`, so one name means one weapon everywhere.  A generic "pistol" is a heavy
#: pistol, a "rifle" an assault rifle, a "crossbow" a medium one; the two-letter forms are the
#: range tables' column heads.
WEAPON_ALIASES = {
    "holdout-pistol": "hold-out-pistol", "hold-out": "hold-out-pistol", "ho": "hold-out-pistol",
    "light-pistol-mp": "machine-pistol", "mp": "machine-pistol", "light-mp": "machine-pistol",
    "submachine-gun": "smg", "light-machine-gun": "lmg", "medium-machine-gun": "mmg",
    "heavy-machine-gun": "hmg", "cannon": "assault-cannon", "sporting": "sporting-rifle",
    "sniper": "sniper-rifle", "assault": "assault-rifle", "heavy": "heavy-pistol",
    "light": "light-pistol", "lp": "light-pistol", "hp": "heavy-pistol", "sh": "shotgun",
    "sr": "sporting-rifle", "sn": "sniper-rifle", "ar": "assault-rifle",
    "gr": "grenade-launcher", "pistol": "heavy-pistol", "rifle": "assault-rifle",
    "crossbow": "medium-crossbow", "thrown-knife": "throwing-knife",
    "standard-grenade": "grenade",
    "pole-arm": "pole-arm", "polearm": "pole-arm", "ares-monosword": "monosword",
    "centurion-laser-axe": "laser-axe", "improved-hand-razor-blade": "improved-hand-razor",
}

#: launchers have fixed Success Values at the four range steps
LAUNCHER_SUCCESS = (20, 18, 16, 14)


#: MELEE WEAPONS of the weapons table: id -> (name, base success value, damage, stun)
MELEE_WEAPONS: dict[str, tuple[str, int, int, bool]] = {
    "monosword": ("Ares Monosword", 7, 2, False), "laser-axe": ("Centurion Laser Axe", 7, 4, False),
    "combat-axe": ("Combat Axe", 8, 4, False), "thrusting-point": ("Thrusting Point", 3, 1, False),
    "katana": ("Katana", 7, 2, False), "knife": ("Knife", 1, 1, False),
    "survival-knife": ("Survival Knife", 3, 1, False), "sword": ("Sword", 5, 2, False),
    "pole-arm": ("Pole Arm", 11, 4, False), "staff": ("Staff", 6, 2, True),
    "club": ("Club", 5, 2, True), "sap": ("Sap", 4, 2, True),
    "forearm-snap-blades": ("Forearm Snap Blades", 4, 2, False),
    "hand-razor": ("Hand Razor", 2, 1, False),
    "improved-hand-razor": ("Improved Hand Razor Blade", 2, 1, False),
    "spurs": ("Spurs", 4, 2, False), "monofilament-whip": ("Monofilament Whip", 20, 4, False),
}
#: THROWING WEAPONS: id -> (name, base success value, damage, aerodynamic)
THROWING_WEAPONS: dict[str, tuple[str, int, int, bool]] = {
    "throwing-knife": ("Throwing Knife", 1, 1, False),
    "shuriken": ("Shuriken", 1, 1, True),
}
#: a throw costs 1 MP per dot (non-aerodynamic) or per 2 dots (aerodynamic) out of 12 MP
MP_PER_TURN = 12


@lru_cache(maxsize=4096)  # (a pure function of a name; play asks it for every shot it weighs)
def weapon_key(name: str) -> str:
    """A weapon name in its one spelling: lower case, runs of spaces and underscores as one
    hyphen, :data:`WEAPON_ALIASES` resolved.  Names the table does not know (grenades, a
    ruleset's own rows) come back spelled that way and unchanged otherwise."""
    key = re.sub(r"[\s_]+", "-", name.strip().lower())
    return WEAPON_ALIASES.get(key, key)


_GRENADE_RE = re.compile(
    r"^(?P<ipe>ipe-)?(?P<kind>offensive|defensive|concussion|smoke)-grenade(?P<aero>-airfoil)?$"
)


@dataclass(frozen=True)
class GrenadeKind:
    """A grenade type's name read as facts: ``ipe-`` Improved Personal Explosives, ``-airfoil``
    aerodynamic (seed 000's grenade rules)."""

    kind: str  # offensive | defensive | concussion | smoke
    ipe: bool
    aerodynamic: bool


@lru_cache(maxsize=4096)
def grenade_kind(kind: str) -> GrenadeKind | None:
    """Parse a grenade weapon type, or None for anything that is not a grenade."""
    m = _GRENADE_RE.match(weapon_key(kind))
    if not m:
        return None
    return GrenadeKind(m["kind"], bool(m["ipe"]), bool(m["aero"]))


def weapon_type(name: str) -> str:
    """The canonical weapon-type id for a name such as ``"Heavy Pistol"``, ``"SMG"`` or
    ``"Katana"`` (ranged types of the range table, melee and throwing weapons)."""
    key = weapon_key(name)
    if key not in WEAPON_RANGES and key not in MELEE_WEAPONS and key not in THROWING_WEAPONS:
        known = [*WEAPON_RANGES, *MELEE_WEAPONS, *THROWING_WEAPONS]
        raise KeyError(f"unknown weapon type {name!r} (known: {', '.join(known)})")
    return key


def range_band(weapon: str, dots: int) -> str | None:
    """The range step (short|medium|long|extreme) of a shot over ``dots``; None if out of range.

    Range counts the target's dot but not the shooter's, so adjacent dots are range 1.
    Launchers have a minimum range: closer than their short step is out of range too.
    Melee weapons reach the adjacent dots only ("melee"); a thrown weapon reaches as far as
    a whole turn's MP can throw it ("thrown": 12 dots, 24 for aerodynamic ones).
    """
    key = weapon_type(weapon)
    if key in MELEE_WEAPONS:
        return "melee" if dots == 1 else None
    if key in THROWING_WEAPONS:
        return "thrown" if 1 <= dots <= max_range(key) else None
    for band, (lo, hi) in zip(BANDS, WEAPON_RANGES[key]):
        if lo <= dots <= hi:
            return band
    return None


def max_range(weapon: str) -> int:
    key = weapon_type(weapon)
    if key in MELEE_WEAPONS:
        return 1
    if key in THROWING_WEAPONS:
        return MP_PER_TURN * (2 if THROWING_WEAPONS[key][3] else 1)
    return WEAPON_RANGES[key][-1][1]


# ------------------------------------------------------------------------- weapons table


@dataclass(frozen=True)
class WeaponModel:
    name: str
    type: str  # canonical weapon type id
    ammo: str
    base: int  # Base Success Value
    damage: int
    shots: int | None = None  # rounds or bursts per clip (the larger figure when two are given)


def _w(name: str, kind: str, ammo: str, base: int, damage: int) -> WeaponModel:
    nums = [int(x) for x in ammo.split()[0].split("/") if x.isdigit()]
    return WeaponModel(name, kind, ammo, base, damage, max(nums) if nums else None)


#: the firearms of the WEAPONS TABLE
WEAPONS: dict[str, WeaponModel] = {w.name: w for w in (
    _w("Streetline Special", "hold-out-pistol", "6 shots", 4, 1),
    _w("Tiffani Self-Defender", "hold-out-pistol", "4 shots", 4, 1),
    _w("Walther Palm Pistol", "hold-out-pistol", "2 shots", 4, 2),
    _w("Ares Light Fire 70", "light-pistol", "16 shots", 6, 2),
    _w("Beretta 200ST", "light-pistol", "26 shots", 6, 2),
    _w("Beretta Model 101T", "light-pistol", "10/12 shots", 6, 2),
    _w("Ceska vz/120", "light-pistol", "18 shots", 6, 2),
    _w("Colt American L36", "light-pistol", "9/11 shots", 6, 2),
    _w("Fichetti Security 500", "light-pistol", "10/22 shots", 6, 2),
    _w("Seco LD-120", "light-pistol", "12/18 shots", 6, 2),
    _w("Ares Crusader MP", "machine-pistol", "13 bursts", 8, 2),
    _w("Ceska Black Scorpion MP", "machine-pistol", "8/11 bursts", 8, 2),
    _w("Ares Predator", "heavy-pistol", "10/15 shots", 8, 3),
    _w("Ares Predator II", "heavy-pistol", "15 shots", 10, 3),
    _w("Ares Viper Slivergun", "heavy-pistol", "30 shots", 8, 3),
    _w("Browning Max-Power", "heavy-pistol", "8/10 shots", 8, 3),
    _w("Browning Ultra-Power", "heavy-pistol", "10/12 shots", 8, 3),
    _w("Colt Manhunter", "heavy-pistol", "16 shots", 8, 3),
    _w("Remington Roomsweeper", "heavy-pistol", "6/8 shots", 9, 3),
    _w("Ruger Super Warhawk", "heavy-pistol", "6 shots", 8, 3),
    _w("AK-97", "assault-rifle", "7/13 bursts", 10, 4),
    _w("AK-98", "assault-rifle", "7/13 bursts", 10, 4),
    _w("Colt M22a2", "assault-rifle", "13 bursts", 10, 4),
    _w("FN HAR", "assault-rifle", "7/12 bursts", 10, 4),
    _w("H & K G12A3z", "assault-rifle", "11 bursts", 10, 4),
    _w("Samopal vz88V", "assault-rifle", "12 bursts", 10, 4),
    _w("Steyr AUG-CSL", "assault-rifle", "13 bursts", 10, 4),
    _w("Remington 750", "sporting-rifle", "5 shots", 11, 4),
    _w("Remington 950", "sporting-rifle", "5 shots", 12, 4),
    _w("Ruger 100", "sporting-rifle", "5 shots", 12, 4),
    _w("Steyr AUG-CSL Carbine", "sporting-rifle", "40 shots", 12, 3),
    _w("Ranger SM-3", "sniper-rifle", "6 shots", 14, 4),
    _w("Walther WA 2100", "sniper-rifle", "8 shots", 14, 4),
    _w("Enfield AS7", "shotgun", "10 shots", 11, 3),
    _w("Defiance T-250", "shotgun", "5 shots", 10, 3),
    _w("Mossberg CMDT", "shotgun", "8 shots", 12, 3),
    _w("AK-97 SMG/Carbine", "smg", "7/10 bursts", 8, 4),
    _w("Beretta Model 70", "smg", "12 bursts", 8, 4),
    _w("H & K HK227", "smg", "7/9 bursts", 10, 4),
    _w("H & K HK227-S", "smg", "5/9 bursts", 10, 4),
    _w("H & K MP-5TX", "smg", "7/10 bursts", 8, 4),
    _w("Ingram Smartgun", "smg", "11 bursts", 10, 4),
    _w("Sandler TMP", "smg", "7/9 bursts", 8, 4),
    _w("SCK Model 100", "smg", "10 bursts", 10, 4),
    _w("Steyr AUG-CSL SMG", "smg", "13 bursts", 8, 4),
    _w("Uzi III", "smg", "5/8 bursts", 8, 4),
    _w("Ares MP-LMG", "lmg", "17 bursts or belt", 14, 4),
    _w("GE Vindicator Minigun", "lmg", "belt", 16, 4),
    _w("Ingram Valiant", "lmg", "17 bursts or belt", 14, 4),
    _w("Steyr AUG-CSL LMG", "lmg", "13 bursts", 12, 4),
    _w("FN MAG-5", "mmg", "17 bursts or belt", 14, 6),
    _w("Heavy MG", "hmg", "13 bursts or belt", 16, 6),
    _w("Medium MG", "mmg", "13 bursts or belt", 14, 6),
    _w("Stoner-Ares M107 GPHMG", "hmg", "13 bursts or belt", 16, 6),
    _w("Assault Cannon", "assault-cannon", "20 shots", 18, 6),
    _w("Panther Assault Cannon", "assault-cannon", "22 shots", 18, 6),
)}

#: CLOTHING AND ARMOR: (impact, ballistic)
ARMOR: dict[str, tuple[int, int]] = {
    "armor-clothing": (0, 1), "armor-jacket": (1, 2), "armor-vest": (0, 1),
    "armor-vest-with-plates": (1, 2), "securetech-clothing": (0, 1),
    "securetech-jacket": (1, 2), "securetech-vest": (0, 1), "securetech-ultra-vest": (1, 1),
    "securetech-long-coat": (1, 2), "lined-coat": (1, 2), "real-leather": (1, 0),
    "synthetic-leather": (0, 0), "form-fitting-1": (0, 1), "form-fitting-2": (0, 1),
    "form-fitting-3": (0, 2), "partial-heavy-armor": (2, 3), "full-heavy-armor": (3, 4),
    "light-security": (2, 3), "medium-security": (2, 3), "heavy-security": (2, 3),
    "security-helmet": (1, 0), "helmet": (0, 0), "small-riot-shield": (0, 0),
    "large-riot-shield": (0, 1),
}

#: extra Success Value for sighting aids
SIGHT_BONUS = {"smartlink": 2, "smart-goggles": 1, "laser": 1}


def weapon_success(firearms_base: int, weapon: str | WeaponModel, sights: tuple[str, ...] = ()
                   ) -> tuple[int, int, int, int]:
    """Success Values at short/medium/long/extreme for a firearm in a character's hands.

    Base Success Value of the model + the character's Base Firearms Value, then 0/-2/-4/-6 per
    range step, plus sighting aids.  Launchers are always 20/18/16/14.
    """
    model = weapon if isinstance(weapon, WeaponModel) else WEAPONS[weapon]
    if model.type in ("grenade-launcher", "missile-launcher"):
        return LAUNCHER_SUCCESS
    bonus = sum(SIGHT_BONUS[s] for s in sights)
    top = model.base + firearms_base + bonus
    return tuple(top + BAND_MODIFIER[b] for b in BANDS)  # type: ignore[return-value]


# --------------------------------------------------------------- converting SR characters

#: MOVE/FIRE RATIO CONVERSION TABLE rows: (reaction range, reflexes, move ratio, fire ratio)
MOVE_FIRE_TABLE = (
    (None, "WR3", 1, 1),
    (None, "BR3/WR2", 1, 2),
    ((9, 99), "BR2/WR1", 2, 2),
    ((5, 8), "BR1", 2, 3),
    ((2, 4), None, 3, 3),
    ((1, 1), None, 4, 3),
)


def move_fire_ratio(reaction: int, wired: int = 0, boosted: int = 0) -> tuple[int, int]:
    """(move ratio, fire ratio) of a role-playing character (Move/Fire Ratio Conversion Table).

    Wired or Boosted Reflexes override the Reaction score; with both, the faster row counts.
    """
    if wired or boosted:
        rows = []
        if wired:
            rows.append({1: (2, 2), 2: (1, 2)}.get(wired, (1, 1)))
        if boosted:
            rows.append({1: (2, 3), 2: (2, 2)}.get(boosted, (1, 2)))
        return min(rows)
    if reaction >= 9:
        return (2, 2)
    if reaction >= 5:
        return (2, 3)
    if reaction >= 2:
        return (3, 3)
    return (4, 3)


def _round_half_up(x: float) -> int:
    return int(math.floor(x + 0.5))


@dataclass(frozen=True)
class Profile:
    """A role-playing character sheet, reduced to what the DMZ conversion reads."""

    body: int
    quickness: int
    strength: int
    willpower: int
    reaction: int
    magic: int = 0
    wired: int = 0
    boosted: int = 0
    skills: dict[str, int] = field(default_factory=dict)
    armor: tuple[str, ...] = ()
    resources: int = 0  # total rating of general power foci (+ totem bonus)
    shaman: bool = False


def success_values(p: Profile) -> dict[str, int]:
    """Base Success Values (Shadowrunning: Base Success Values Table); absent skills omitted."""
    sk = p.skills
    out: dict[str, int] = {}
    if "armed" in sk:
        out["armed"] = sk["armed"] + p.strength + 7
    out["unarmed"] = sk.get("unarmed", 0) + p.strength + 11
    if "firearms" in sk:
        out["firearms"] = sk["firearms"] + 6
    if "throwing" in sk or "projectile" in sk:
        out["ranged"] = _round_half_up((sk.get("throwing", 0) + sk.get("projectile", 0)) / 2) \
            + p.quickness + 6
    if p.magic and "sorcery" in sk:
        base = sk["sorcery"]
        if p.shaman:
            base = _round_half_up((sk["sorcery"] + sk.get("conjuring", 0)) / 2)
        out["sorcery"] = base + p.magic // 2 + p.resources
    return out


def defense_values(p: Profile) -> dict[str, int]:
    """Base Defense Values (Shadowrunning: Base Defense Value Table)."""
    imp = sum(ARMOR[a][0] for a in p.armor)
    bal = sum(ARMOR[a][1] for a in p.armor)
    magic_part = math.ceil(p.magic / 2) + p.skills.get("sorcery", 0) // 2 \
        + math.ceil(p.resources / 2)
    return {
        "ballistic": p.body + p.quickness + bal,
        "impact": p.body + p.quickness + imp,
        "physical_spell": p.body + magic_part,
        "mana_spell": p.willpower + magic_part,
    }


def convert(p: Profile) -> dict[str, Any]:
    """Move/fire ratio, success and defense values of a converted role-playing character."""
    mr, fr = move_fire_ratio(p.reaction, p.wired, p.boosted)
    return {"move_ratio": mr, "fire_ratio": fr, "success": success_values(p),
            "defense": defense_values(p)}


# ------------------------------------------------------------------------------ archetypes

#: vision by metatype (elves and orks see in low light, dwarfs and trolls thermographically)
METATYPE_VISION = {"human": "normal", "elf": "low-light", "ork": "low-light",
                   "dwarf": "thermographic", "troll": "thermographic"}

_ARCHETYPES: dict[str, tuple[str, str, Profile, tuple[tuple[str, tuple[str, ...]], ...], str]] = {
    # id: (title, metatype, profile, ((weapon, sights), ...), vision override or "")
    "street-samurai": ("Street Samurai", "human", Profile(
        body=6, quickness=5, strength=6, willpower=3, reaction=7, wired=1,
        skills={"firearms": 6, "armed": 5, "unarmed": 4}, armor=("armor-jacket",)),
        (("Ares Predator", ("smartlink",)), ("Uzi III", ("smartlink",))), "low-light"),
    "mercenary": ("Mercenary", "human", Profile(
        body=5, quickness=4, strength=5, willpower=4, reaction=4,
        skills={"firearms": 6, "armed": 4, "unarmed": 3, "throwing": 3},
        armor=("armor-vest-with-plates",)),
        (("AK-97", ()), ("Browning Max-Power", ())), ""),
    "bodyguard": ("Bodyguard", "human", Profile(
        body=5, quickness=5, strength=4, willpower=4, reaction=6,
        skills={"firearms": 5, "unarmed": 5}, armor=("armor-clothing",)),
        (("Ares Predator", ("laser",)),), ""),
    "company-man": ("Company Man", "human", Profile(
        body=4, quickness=4, strength=3, willpower=5, reaction=4,
        skills={"firearms": 4, "unarmed": 2}, armor=("securetech-long-coat",)),
        (("Fichetti Security 500", ()),), ""),
    "rigger": ("Rigger", "dwarf", Profile(
        body=4, quickness=3, strength=3, willpower=4, reaction=5,
        skills={"firearms": 3, "unarmed": 1}, armor=("armor-vest",)),
        (("Ingram Smartgun", ()),), ""),
    "decker": ("Decker", "human", Profile(
        body=3, quickness=4, strength=2, willpower=5, reaction=4,
        skills={"firearms": 2}, armor=("armor-clothing",)),
        (("Colt American L36", ()),), ""),
    "combat-mage": ("Combat Mage", "human", Profile(
        body=3, quickness=4, strength=2, willpower=5, reaction=4, magic=6,
        skills={"firearms": 2, "sorcery": 6}, armor=("lined-coat",), resources=2),
        (("Beretta Model 101T", ()),), ""),
    "street-mage": ("Street Mage", "elf", Profile(
        body=3, quickness=5, strength=2, willpower=4, reaction=5, magic=6,
        skills={"firearms": 3, "sorcery": 5}, armor=("armor-clothing",)),
        (("Ares Light Fire 70", ()),), ""),
    "wage-mage": ("Wage Mage", "human", Profile(
        body=2, quickness=3, strength=2, willpower=5, reaction=3, magic=6,
        skills={"sorcery": 6}, armor=("securetech-clothing",), resources=1),
        (), ""),
    "shaman": ("Shaman", "human", Profile(
        body=4, quickness=3, strength=3, willpower=6, reaction=3, magic=6,
        skills={"sorcery": 5, "conjuring": 6, "armed": 2}, armor=("lined-coat",), shaman=True),
        (), ""),
    "street-shaman": ("Street Shaman", "ork", Profile(
        body=5, quickness=3, strength=4, willpower=5, reaction=3, magic=5,
        skills={"sorcery": 4, "conjuring": 5, "firearms": 2},
        armor=("real-leather",), shaman=True),
        (("Streetline Special", ()),), ""),
    "gang-member": ("Gang Member", "ork", Profile(
        body=5, quickness=4, strength=5, willpower=3, reaction=4,
        skills={"firearms": 3, "armed": 3, "unarmed": 3}, armor=("real-leather",)),
        (("Colt Manhunter", ()),), ""),
    "squatter": ("Squatter", "human", Profile(
        body=3, quickness=3, strength=3, willpower=3, reaction=3,
        skills={"firearms": 2, "unarmed": 2}),
        (("Beretta Model 70", ()),), ""),
    "lone-star-officer": ("Lone Star Officer", "human", Profile(
        body=4, quickness=4, strength=4, willpower=4, reaction=5,
        skills={"firearms": 5, "armed": 3, "unarmed": 3},
        armor=("armor-vest-with-plates", "security-helmet")),
        (("Browning Ultra-Power", ("laser",)), ("Defiance T-250", ())), ""),
}


def archetype_names() -> list[str]:
    return list(_ARCHETYPES)


def archetype(name: str) -> dict[str, Any]:
    """A ready-to-use character of an archetype, in the scenario file's character shape.

    Keys: name, archetype, metatype, vision, move_ratio, fire_ratio, success, defense, weapons
    (each with type, name, success at the four range steps, shots, damage).
    """
    key = name.strip().lower().replace(" ", "-").replace("_", "-")
    if key not in _ARCHETYPES:
        raise KeyError(f"unknown archetype {name!r} (known: {', '.join(_ARCHETYPES)})")
    title, meta, prof, weapons, vision = _ARCHETYPES[key]
    conv = convert(prof)
    firearms = conv["success"].get("firearms", 6)
    ws = []
    for wname, sights in weapons:
        model = WEAPONS[wname]
        ws.append({"type": model.type, "name": model.name,
                   "success": list(weapon_success(firearms, model, sights)),
                   "shots": model.shots, "damage": model.damage})
    return {"name": title, "archetype": key, "metatype": meta,
            "vision": vision or METATYPE_VISION[meta], **conv, "weapons": ws}


def archetype_character(name: str, character_name: str | None = None) -> Any:
    """An :class:`engine.model.Character` of an archetype (for the editor's add-character)."""
    from engine import model as m

    d = archetype(name)
    return m.Character(
        name=character_name or d["name"], archetype=d["archetype"], move_ratio=d["move_ratio"],
        fire_ratio=d["fire_ratio"], vision=d["vision"], metatype=d["metatype"],
        success=tuple(d["success"].items()), defense=tuple(d["defense"].items()),
        weapons=tuple(m.Weapon(type=w["type"], name=w["name"], success=tuple(w["success"]),
                               shots=w["shots"], damage=w["damage"]) for w in d["weapons"]),
    )
