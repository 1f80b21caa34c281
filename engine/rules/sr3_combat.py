"""Shadowrun (third-edition era) combat arithmetic: dice pools, target numbers, staging, damage.

Seed 001 (the Combat chapter; digest ``../shared/rules/sr3_combat.md``) resolves every attack
with d6 pools rolled against a target number (TN): each die at or above the TN is a success.
This module holds that arithmetic and nothing else — no board, no game, no Qt — so the
referee (``engine/play/sr3_game.py``), validation and the tests share one copy:

* character and weapon figures read from ``Character.stats`` / ``Weapon.stats`` with the
  chapter's defaults, and :func:`check_character` naming what a sheet lacks;
* Initiative (Reaction + Initiative dice, Combat Phases every 10, ties) l.37-79;
* Success Tests with the Rule of Six l.565, and exact odds for the bots;
* the ranged TN (base TN by range band from :mod:`engine.rules.sr3`, movement, recoil,
  multiple targets, sights, wounds) l.435-560;
* damage codes, staging and the Damage Resistance Test l.569-600, l.1565-1575;
* the Condition Monitor (10 boxes a column, L 1 / M 3 / S 6 / D 10) l.1582-1622;
* melee as an opposed test l.1046-1166, Interception l.232-239, knockdown l.603-612;
* grenades (range, scatter, blast Power by metre from :mod:`engine.rules.sr3`) l.851-933 and
  barriers (Firing Through, Break Through) l.938-994.

Where the chapter leaves a number to another chapter of the book (the Rule of Six's repeated
re-roll, the scatter directions, skills for heavy weapons), the value used is listed in
``ASSUMED`` and in ``docs/rulesets.md`` ("Play: assumed numbers").
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from engine.catalogue import weapon_key
from engine.rules.sr3 import (
    BASE_TN,
    GRENADE_DAMAGE,
    GRENADE_SCATTER,
    MIN_TN,
    STRENGTH_TABLE,
    blast_against_barrier,
    blast_power,
    parse_weapon,
    range_band,
)

# =========================================================================== assumptions
#: numbers the chapter leaves to a book that is not in the seeds (logged as "assumed")
ASSUMED: dict[str, str] = {
    "rule-of-six": "a 6 re-rolled for a TN above 6 is re-rolled again on another 6 and every "
                   "roll is added (Rule of Six is on p. 32, not in seed 001; l.565 shows one "
                   "re-roll)",
    "scatter-direction": "1D6 picks one of six directions 60 degrees apart, 1 straight on "
                         "past the target, 4 back at the thrower (the Scatter Diagram, "
                         "l.886, is missing)",
    "heavy-weapons-skill": "launchers and machine guns use a heavy_weapons skill (the chapter "
                           "names Gunnery only for mounted weapons, l.259)",
    "breach-test": "a shot at a barrier needs 1 success at the range TN to strike it "
                   "(Break Through, l.988-990, gives no test)",
    "pool-split": "a character puts at most half his full Combat Pool (and no more than his "
                  "skill, l.271) into an attack and keeps the rest for Damage Resistance "
                  "(the split is the player's choice in the book)",
    "fa-burst": "full-auto fire shoots one burst at one target per Complex Action, 3 to 10 "
                "rounds (the shooter declares the rounds, l.676; the chapter's examples stop at "
                "10, l.483, l.698); a bot or 'auto' takes the count worth most",
    "intervene": "a delayed character takes his action when an enemy acts in his clear line "
                 "of fire with at least an even chance to hit (the player says when, l.84)",
}

# =========================================================================== damage codes
LEVELS = ("L", "M", "S", "D")
LEVEL_NAMES = {"L": "Light", "M": "Moderate", "S": "Serious", "D": "Deadly"}
#: Damage Level Table, seed 001 l.1589-1596
BOXES = {"L": 1, "M": 3, "S": 6, "D": 10}
#: boxes a column holds before it overflows (l.1600-1604)
MONITOR_BOXES = 10

_CODE_RE = re.compile(
    r"^\s*(?:\(\s*str(?:ength)?\s*(?P<sign>[+-])?\s*(?P<bonus>\d+)?\s*\)|(?P<power>\d+))\s*"
    r"(?P<level>[lmsd])\s*(?P<f>\(f\))?\s*(?P<stun>\(?\s*stun\s*\)?)?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DamageCode:
    """A Damage Code: Power and Damage Level (l.1565-1575), Stun or Physical, flechette."""

    power: int
    level: str
    stun: bool = False
    flechette: bool = False

    def __str__(self) -> str:
        return f"{self.power}{self.level}{'(f)' if self.flechette else ''}" + \
            (" Stun" if self.stun else "")

    def staged(self, levels: int) -> DamageCode | None:
        got = stage_level(self.level, levels)
        return None if got is None else DamageCode(self.power, got, self.stun, self.flechette)


def parse_damage_code(text: str | int, strength: int | None = None) -> DamageCode:
    """``9M``, ``9S(f)``, ``6S Stun``, ``12M (Stun)``, ``(Str+3)M``, ``(Str)M Stun``.

    A Strength-based code (melee and thrown weapons, l.1087) needs the wielder's Strength."""
    m = _CODE_RE.match(str(text))
    if not m:
        raise ValueError(f"damage code {text!r} is not Power + level such as 9M, 10S(f), "
                         f"6S Stun or (Str+3)M")
    if m["power"] is not None:
        power = int(m["power"])
    else:
        if strength is None:
            raise ValueError(f"damage code {text!r} follows the wielder's Strength")
        bonus = int(m["bonus"] or 0) * (-1 if m["sign"] == "-" else 1)
        power = strength + bonus
    return DamageCode(power, m["level"].upper(), bool(m["stun"]), bool(m["f"]))


def stage_level(level: str, levels: int) -> str | None:
    """Shift a Damage Level up (``levels`` > 0) or down; Deadly is the top (l.680), below
    Light is no damage (l.1575) -> None."""
    i = LEVELS.index(level) + levels
    if i < 0:
        return None
    return LEVELS[min(i, len(LEVELS) - 1)]


def staging(net: int) -> int:
    """Levels moved by ``net`` successes: one per two full successes, either way (l.584-590)."""
    return net // 2 if net >= 0 else -((-net) // 2)


# =========================================================================== dice
def p_die(tn: int) -> float:
    """Chance one die reaches ``tn``.  A TN is never below 2 (l.439); above 6 only a 6 may be
    re-rolled and added (Rule of Six, l.565; repeated re-rolls assumed, ``ASSUMED``)."""
    tn = max(MIN_TN, int(tn))
    p = 1.0
    while tn > 6:
        p /= 6.0
        tn -= 6
    return p * (7 - max(tn, 1)) / 6.0 if tn > 1 else p


def open_die(d6: Callable[[], int], tn: int) -> int:
    """One die as read against ``tn``: above 6 a 6 is re-rolled and added (Rule of Six)."""
    v = d6()
    total = v
    if tn > 6:
        while v == 6:
            v = d6()
            total += v
    return total


def roll_pool(d6: Callable[[], int], n: int, tn: int) -> list[int]:
    return [open_die(d6, tn) for _ in range(max(0, n))]


def successes(dice: Iterable[int], tn: int) -> int:
    """Dice at or above the TN (l.563-565); a TN below 2 counts as 2 (l.439)."""
    tn = max(MIN_TN, tn)
    return sum(1 for d in dice if d >= tn)


@lru_cache(maxsize=4096)
def binomial(n: int, tn: int) -> tuple[float, ...]:
    """P(k successes) for k = 0..n with ``n`` dice against ``tn``."""
    p = p_die(tn)
    return tuple(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


def p_any(n: int, tn: int) -> float:
    """Chance of at least one success with ``n`` dice."""
    return 1.0 - (1.0 - p_die(tn)) ** max(n, 0)


# =========================================================================== characters
#: metatypes that run x2 instead of x3 (Running Table, l.221-230)
SLOW_RUNNERS = ("dwarf", "troll")
#: weapon type -> skills tried in order (a weapon's ``skill`` stat overrides)
_SKILLS: dict[str, tuple[str, ...]] = {
    "hold-out-pistol": ("pistols", "firearms"), "light-pistol": ("pistols", "firearms"),
    "machine-pistol": ("pistols", "firearms"), "heavy-pistol": ("pistols", "firearms"),
    "taser": ("pistols", "firearms"),
    "smg": ("smgs", "firearms"), "shotgun": ("shotguns", "firearms"),
    "sporting-rifle": ("rifles", "firearms"), "sniper-rifle": ("rifles", "firearms"),
    "assault-rifle": ("assault_rifles", "rifles", "firearms"), "lmg": ("heavy_weapons", "firearms"),
    "mmg": ("heavy_weapons",), "hmg": ("heavy_weapons",), "assault-cannon": ("heavy_weapons",),
    "grenade-launcher": ("heavy_weapons", "launchers"),
    "missile-launcher": ("heavy_weapons", "launchers"),
    "bow": ("projectile_weapons",), "light-crossbow": ("projectile_weapons",),
    "medium-crossbow": ("projectile_weapons",), "heavy-crossbow": ("projectile_weapons",),
    "throwing-knife": ("throwing_weapons",), "shuriken": ("throwing_weapons",),
    "grenade": ("throwing_weapons",),
}
#: recoil doubles for these (l.481-483)
HEAVY_RECOIL = ("mmg", "hmg", "shotgun")

#: Melee Weapons Table, seed 001 l.1066-1085: type -> (damage code, Reach)
MELEE_TABLE: dict[str, tuple[str, int]] = {
    "katana": ("(Str+3)M", 1), "knife": ("(Str)L", 0), "survival-knife": ("(Str)L", 0),
    "sword": ("(Str+2)M", 1), "monosword": ("(Str+2)M", 1),
    "pole-arm": ("(Str+3)S", 2), "staff": ("(Str+2)M Stun", 2),
    "club": ("(Str+1)M Stun", 1), "sap": ("(Str+2)M Stun", 0), "stun-baton": ("6S Stun", 1),
    "hand-razor": ("(Str)L", 0), "improved-hand-razor": ("(Str)L", 0),
    "forearm-snap-blades": ("(Str)L", 0), "spurs": ("(Str)M", 0),
    "unarmed": ("(Str)M Stun", 0), "monofilament-whip": ("10S", 2),
}
#: Projectile Weapons Table, l.840-849 (a bow is its Strength Minimum + 2, M)
THROWN_TABLE = {"throwing-knife": "(Str)L", "shuriken": "(Str)L", "light-crossbow": "6L",
                "medium-crossbow": "6M", "heavy-crossbow": "8S"}
#: melee weapons that cut: a barrier counts double against them (l.973)
EDGED = ("katana", "knife", "survival-knife", "sword", "monosword", "pole-arm", "hand-razor",
         "improved-hand-razor", "forearm-snap-blades", "spurs", "monofilament-whip")

#: attributes every sr3 character needs, with what they do and where
REQUIRED = {
    "body": "Damage Resistance dice (l.574)",
    "quickness": "walking metres (l.212), Combat Pool (l.267)",
    "strength": "melee and thrown Power (l.1087, l.870)",
    "intelligence": "Reaction (l.44) and Combat Pool (l.267)",
    "willpower": "Combat Pool (l.267)",
}
#: keys a character may carry, with their default when absent
OPTIONAL = {
    "reaction": "(Intelligence + Quickness) / 2, round down (l.44)",
    "initiative_dice": "1 (the base 1D6, l.40)",
    "combat_pool": "(Quickness + Intelligence + Willpower) / 2, round down (l.267), less the "
                   "heavy-armour penalty (l.279)",
    "ballistic": "0 (no armour)", "impact": "0 (no armour)",
    "unarmed_combat": "0 (needed only for a fist fight or an Interception)",
    "armed_combat": "0",
}
SKILL_KEYS = ("firearms", "pistols", "smgs", "shotguns", "rifles", "assault_rifles",
              "heavy_weapons", "launchers", "projectile_weapons", "throwing_weapons",
              "armed_combat", "unarmed_combat")
WEAPON_KEYS = ("damage", "mode", "ammo", "recoil_comp", "reach", "aid", "skill", "grenade",
               "strength_min")
MODES = ("SS", "SA", "BF", "FA")
#: sighting aids and their TN change (Ranged Combat Modifiers Table, l.456-458)
AIDS = {"smartlink": -2, "smart-goggles": -1, "laser": -1}


def _stat(stats: Iterable[tuple[str, int | str]]) -> dict[str, int | str]:
    return {str(k).strip().lower().replace("-", "_"): v for k, v in stats}


def _int(d: dict[str, Any], key: str, default: int | None = None) -> int | None:
    v = d.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        try:
            return int(str(v).strip())
        except ValueError:
            raise ValueError(f"'{key}' must be a whole number, not {v!r}") from None
    return v


@dataclass(frozen=True)
class SR3Stats:
    """A character's sr3 figures, defaults filled in."""

    body: int
    quickness: int
    strength: int
    intelligence: int
    willpower: int
    reaction: int  # adjusted Reaction (l.45)
    natural_reaction: int  # (Intelligence + Quickness) / 2 (l.44), the second tie-breaker
    initiative_dice: int
    combat_pool: int
    ballistic: int
    impact: int
    metatype: str = "human"
    skills: dict[str, int] = field(default_factory=dict)

    def skill(self, keys: tuple[str, ...]) -> int:
        for k in keys:
            if k in self.skills:
                return self.skills[k]
        return 0

    @property
    def walk_m(self) -> float:
        """Walking: Quickness metres a Combat Phase (l.212)."""
        return float(self.quickness)

    @property
    def run_m(self) -> float:
        """Running: Quickness x 3, dwarf and troll x 2 (Running Table, l.221-230)."""
        return float(self.quickness * (2 if self.metatype in SLOW_RUNNERS else 3))

    @property
    def reach(self) -> int:
        """Trolls have a natural Reach of +1 (l.1080)."""
        return 1 if self.metatype == "troll" else 0


def character_stats(stats: Iterable[tuple[str, int | str]], metatype: str = "human"
                    ) -> SR3Stats:
    """The figures of a sheet (``Character.stats``); ValueError names a missing attribute."""
    d = _stat(stats)
    missing = [k for k in REQUIRED if k not in d]
    if missing:
        raise ValueError("missing " + ", ".join(missing))
    body, quick, strength, intel, will = (_int(d, k) for k in REQUIRED)
    natural = (intel + quick) // 2
    reaction = _int(d, "reaction", natural)
    ballistic = _int(d, "ballistic", 0)
    pool = _int(d, "combat_pool")
    if pool is None:
        pool = (quick + intel + will) // 2 - max(0, ballistic - quick)
    skills = {k: _int(d, k) for k in SKILL_KEYS if k in d}
    return SR3Stats(body=body, quickness=quick, strength=strength, intelligence=intel,
                    willpower=will, reaction=reaction, natural_reaction=natural,
                    initiative_dice=_int(d, "initiative_dice", 1), combat_pool=max(0, pool),
                    ballistic=ballistic, impact=_int(d, "impact", 0), metatype=metatype,
                    skills=skills)


def turn_metres(stats: Iterable[tuple[str, int | str]], metatype: str = "human") -> float:
    """Metres an unhurt character covers in a Combat Turn: one run (he may run in one Combat
    Phase only, l.218) and a walk in each further phase, at his average Initiative (Reaction +
    3.5 a die, a phase for each full 10, l.60-75).  What validation and the report's unopposed
    estimate walk with; 0 for a sheet that cannot be read (validation names what is missing)."""
    try:
        st = character_stats(stats, metatype)
    except ValueError:
        return 0.0
    passes = max(1, math.ceil((st.reaction + 3.5 * st.initiative_dice) / 10))
    return st.run_m + st.walk_m * (passes - 1)


@dataclass(frozen=True)
class SR3Weapon:
    """A weapon's sr3 figures: what kind of attack, its code, skill, modes, ammunition."""

    kind: str  # firearm | projectile (bows, thrown) | melee | grenade | smoke
    type: str  # the range-table row (heavy-pistol...), the melee row, or the grenade type
    code: DamageCode | None
    skill_keys: tuple[str, ...]
    modes: tuple[str, ...] = ("SA",)
    ammo: int | None = None
    recoil_comp: int = 0
    reach: int = 0
    aid: str | None = None
    grenade: str | None = None  # offensive | defensive | concussion
    aerodynamic: bool = False
    #: what :func:`engine.rules.sr3.range_band` reads (``heavy-pistol``, ``throwing-knife:4``)
    range_key: str = ""

    @property
    def heavy(self) -> bool:
        return self.type in HEAVY_RECOIL

    @property
    def edged(self) -> bool:
        return self.kind == "melee" and self.type in EDGED


_GRENADE_RE = re.compile(r"^(?:ipe-)?(?P<g>offensive|defensive|concussion|smoke)-grenade"
                         r"(?P<aero>-airfoil|-aerodynamic)?$")


def weapon_stats(wtype: str, stats: Iterable[tuple[str, int | str]], strength: int | None = None
                 ) -> SR3Weapon:
    """The sr3 figures of a weapon (``Weapon.type`` and ``Weapon.stats``); ValueError says what
    is wrong or missing."""
    d = _stat(stats)
    key = weapon_key(wtype)
    override = (str(d["skill"]).strip().lower().replace("-", "_"),) if "skill" in d else None
    g = _GRENADE_RE.match(key)
    if g is not None or key in ("grenade", "aerodynamic-grenade"):
        kind = g["g"] if g is not None else str(d.get("grenade", "offensive")).lower()
        aero = bool(g and g["aero"]) or key == "aerodynamic-grenade"
        if kind == "smoke":
            return SR3Weapon("smoke", key, None, override or _SKILLS["grenade"],
                             aerodynamic=aero, grenade="smoke")
        if kind not in GRENADE_DAMAGE:
            raise ValueError(f"grenade {kind!r} is not one of {', '.join(GRENADE_DAMAGE)}")
        power, level, _per = GRENADE_DAMAGE[kind]
        code = DamageCode(power, level[0], "Stun" in level)
        return SR3Weapon("grenade", key, code, override or _SKILLS["grenade"],
                         modes=(), grenade=kind, aerodynamic=aero)
    if key in MELEE_TABLE:
        code_text, reach = MELEE_TABLE[key]
        code = parse_damage_code(d.get("damage", code_text), strength)
        return SR3Weapon("melee", key, code,
                         override or (("unarmed_combat",) if key == "unarmed" else
                                      ("armed_combat",)),
                         modes=(), reach=_int(d, "reach", reach))
    row = key
    rkey = key
    if weapon_key(key.partition(":")[0]) in STRENGTH_TABLE or key in ("knife", "thrown"):
        # bows and crossbows range by their Strength Minimum, thrown weapons by the
        # thrower's Strength (l.396-426)
        name, _, given = key.partition(":")
        smin = _int(d, "strength_min") or (int(given) if given.isdigit() else strength)
        if smin is None:
            raise ValueError("its ranges follow a Strength: give the wielder's strength")
        row, _s = parse_weapon(f"{name}:{smin}")
        rkey = f"{row}:{smin}"
        default = THROWN_TABLE.get(row, f"{smin + 2}M")
    else:
        row, _s = parse_weapon(key)
        rkey = row
        default = None
    if "damage" not in d and default is None:
        raise ValueError("missing damage (its Damage Code, e.g. 9M; Weapon Ratings Table "
                         "l.731-768)")
    code = parse_damage_code(d.get("damage", default), strength)
    modes = tuple(m.strip().upper() for m in str(d.get("mode", "SA")).split("/"))
    bad = [m for m in modes if m not in MODES]
    if bad:
        raise ValueError(f"mode {d.get('mode')!r}: {', '.join(bad)} is not one of "
                         f"{', '.join(MODES)}")
    aid = d.get("aid")
    if aid is not None and str(aid) not in AIDS:
        raise ValueError(f"aid {aid!r} is not one of {', '.join(AIDS)}")
    kind = "projectile" if default is not None else "firearm"
    return SR3Weapon(kind, row, code, override or _SKILLS.get(row, ("firearms",)),
                     modes=("SS",) if kind == "projectile" else modes, ammo=_int(d, "ammo"), recoil_comp=_int(d, "recoil_comp", 0),
                     aid=None if aid is None else str(aid), range_key=rkey)


def check_character(ch: Any) -> list[str]:
    """What an sr3 sheet lacks or gets wrong, one line each (``ch`` is a
    :class:`engine.model.Character`); empty when it can play."""
    problems: list[str] = []
    d = _stat(ch.stats)
    for k, why in REQUIRED.items():
        if k not in d:
            problems.append(f"sr3 needs stats '{k}' ({why})")
    known = set(REQUIRED) | set(OPTIONAL) | set(SKILL_KEYS)
    for k, v in d.items():
        if k not in known:
            problems.append(f"stats '{k}' is not an sr3 figure (known: "
                            f"{', '.join(sorted(known))})")
        elif isinstance(v, bool) or not isinstance(v, int) or v < 0:
            problems.append(f"stats '{k}' must be a whole number 0 or more, "
                            f"not {v!r}")
    if problems:
        return problems
    st = character_stats(ch.stats, ch.metatype)
    for w in ch.weapons:
        label = f"weapon {w.name or w.type}"
        wd = _stat(w.stats)
        for k in wd:
            if k not in WEAPON_KEYS:
                problems.append(f"{label}: stats '{k}' is not an sr3 weapon figure (known: "
                                f"{', '.join(WEAPON_KEYS)})")
        try:
            sw = weapon_stats(w.type, w.stats, st.strength)
        except ValueError as e:
            problems.append(f"{label}: {e}")
            continue
        if sw.kind in ("firearm", "projectile", "grenade", "smoke") and not any(k in st.skills
                                                                  for k in sw.skill_keys):
            problems.append(f"{label}: sr3 needs stats '{sw.skill_keys[0]}' (the skill it is "
                            f"fired or thrown with, l.556)")
        if sw.kind == "melee" and sw.type != "unarmed" and not any(k in st.skills
                                                                  for k in sw.skill_keys):
            problems.append(f"{label}: sr3 needs stats '{sw.skill_keys[0]}' (l.1098)")
    return problems


# =========================================================================== initiative
def initiative_total(reaction: int, dice: Iterable[int], wound_modifier: int = 0) -> int | None:
    """Reaction (less the wounds' Initiative modifier, l.1612) plus the Initiative dice (l.49);
    None when the wounds bring Reaction to 0 or below: no actions that turn (l.1612)."""
    r = reaction - wound_modifier
    if r <= 0:
        return None
    return r + sum(dice)


def phases(total: int | None) -> list[int]:
    """The Combat Phases a character acts in: his total, then every 10 lower while above 0
    (l.57-70)."""
    out: list[int] = []
    t = total or 0
    while t > 0:
        out.append(t)
        t -= 10
    return out


def pass_order(rolls: dict[str, tuple[int, int, int]]) -> list[tuple[int, str]]:
    """(phase, who) for every action of a Combat Turn, in the order they resolve.

    ``rolls``: who -> (Initiative total, adjusted Reaction, natural Reaction).  The higher
    total acts first; a tie goes to the higher adjusted Reaction, then the higher natural
    Reaction; still tied, the actions are simultaneous (l.75-79) and resolve in the order
    given (the referee shuffles that order with the game's dice)."""
    slots = []
    for i, (who, (total, adj, nat)) in enumerate(rolls.items()):
        for p in phases(total):
            slots.append((-p, -adj, -nat, i, p, who))
    slots.sort()
    return [(s[4], s[5]) for s in slots]


def attack_pool(skill: int, pool_left: int, full_pool: int) -> int:
    """Combat Pool dice put into an attack: never more than the skill (l.271) nor what is
    left; at most half the full pool, the rest kept for Damage Resistance (assumed split,
    ``ASSUMED['pool-split']``)."""
    return max(0, min(skill, pool_left, full_pool // 2))


# =========================================================================== ranged TN
def recoil(mode: str, fired_before: int, rounds: int, comp: int, heavy: bool = False) -> int:
    """Recoil modifier of an attack (l.463-483): semi-automatic +1 for the second shot of the
    phase, burst-fire +3 per burst fired that phase, full-auto +1 per round fired that phase
    (all counted up to and including this attack), less recoil compensation; heavy weapons
    double what is left.  ``fired_before`` counts shots (SA/SS), bursts (BF) or rounds (FA)
    already fired this phase."""
    if mode == "SA":
        raw = 1 if fired_before >= 1 else 0
    elif mode == "BF":
        # +3 a burst; a round-short burst adds +2 (l.661-663)
        raw = 3 * fired_before + (3 if rounds >= 3 else 2 if rounds == 2 else 0)
    elif mode == "FA":
        raw = fired_before + rounds
    else:
        raw = 0
    left = max(0, raw - comp)
    return 2 * left if heavy else left


def burst_code(code: DamageCode, mode: str, rounds: int) -> DamageCode:
    """Damage Code of a burst: burst-fire +3 Power and one level (a 2-round short burst +2
    Power, same level; l.655-664); full-auto +1 Power per round and one level per 3 full rounds,
    Deadly at most (l.676-680)."""
    if mode == "BF":
        if rounds >= 3:
            return DamageCode(code.power + 3, stage_level(code.level, 1), code.stun,
                              code.flechette)
        if rounds == 2:
            return DamageCode(code.power + 2, code.level, code.stun, code.flechette)
        return code
    if mode == "FA":
        return DamageCode(code.power + rounds, stage_level(code.level, rounds // 3), code.stun,
                          code.flechette)
    return code


@dataclass(frozen=True)
class Situation:
    """What changes a ranged TN besides the sight verdict (Ranged Combat Modifiers Table,
    l.448-470)."""

    attacker_pace: str = "still"  # still | walk | run   (+0 / +1 / +4, l.464-467)
    difficult_ground: bool = False  # walk +2, run +6 (l.465-467)
    target_running: bool = False  # +2 (l.460)
    target_stationary: bool = False  # -1 (l.461)
    melee_opponents: int = 0  # +2 each (l.463)
    other_targets: int = 0  # +2 per target engaged before this one this phase (l.459)
    aid: str | None = None  # smartlink / smart-goggles / laser (l.468-470)
    range_m: float = 0.0
    smoke: bool = False  # laser sights fail in mist, smoke, fog, rain (l.545)
    aimed: int = 0  # Take Aim actions: -1 each (l.472)
    recoil: int = 0
    wounds: int = 0  # injury modifier (l.469, l.1614-1622)
    blind_fire: bool = False  # +8 (l.486)
    called: bool = False  # a called shot, +4 (l.620)


def ranged_tn(band: str, sight_total: int, s: Situation) -> tuple[int, dict[str, int]]:
    """(adjusted TN, the modifiers by name): the base TN of the range band (l.391-392) plus the
    sight verdict (cover, visibility, area; :mod:`engine.rules.sr3`) plus the situation, never
    below 2 (l.439, l.443)."""
    mods: dict[str, int] = {"base": BASE_TN[band]}
    if sight_total:
        mods["sight"] = sight_total
    if s.blind_fire:
        mods["blind_fire"] = 8
    pace = {"walk": 2 if s.difficult_ground else 1,
            "run": 6 if s.difficult_ground else 4}.get(s.attacker_pace, 0)
    if pace:
        mods["attacker_" + s.attacker_pace] = pace
    if s.target_running:
        mods["target_running"] = 2
    elif s.target_stationary:
        mods["target_stationary"] = -1
    if s.melee_opponents:
        mods["in_melee"] = 2 * s.melee_opponents
    if s.other_targets:
        mods["multiple_targets"] = 2 * s.other_targets
    if s.aid and not (s.aid == "laser" and (s.range_m > 50 or s.smoke)):
        mods[s.aid.replace("-", "_")] = AIDS[s.aid]
    if s.called:
        mods["called_shot"] = CALLED_SHOT
    if s.aimed:
        mods["aimed"] = -s.aimed
    if s.recoil:
        mods["recoil"] = s.recoil
    if s.wounds:
        mods["wounds"] = s.wounds
    return max(MIN_TN, sum(mods.values())), mods


#: a called shot: +4 to the TN, the Damage Level one higher, Deadly at most (l.617-620);
#: single-shot, semi-automatic and burst fire only (l.624)
CALLED_SHOT = 4
CALLED_MODES = ("SS", "SA", "BF")


def called_code(code: DamageCode) -> DamageCode:
    """The Damage Code of a called shot: one level up, D at most (l.620)."""
    return DamageCode(code.power, stage_level(code.level, 1), code.stun, code.flechette)


def aim_limit(skill: int) -> int:
    """Sequential Take Aim actions a character may take: half his skill with the weapon,
    round down; each takes 1 off the TN (l.174-176, l.549)."""
    return max(0, skill // 2)


def phases_after_delay(trigger: int, own_next: int | None) -> list[int]:
    """The Combat Phases left to a character who takes his delayed action in Combat Phase
    ``trigger``: ten phases later, or his own next phase if that is lower (``own_next``, None
    when he has none left), and every 10 below (l.88, l.94, l.100): Bastion delayed from 25
    and acting at 12 goes again at 2; carried over with a 17 and acting at 29, at 17; at 18,
    at 8."""
    total = trigger - 10 if own_next is None else min(trigger - 10, own_next)
    return phases(total)


def through_rating(ratings: Iterable[int], flechette: bool = False) -> int:
    """What the barriers on a Blind Fire line take off the Power: the sum of their ratings
    (l.967), doubled against flechettes (l.716)."""
    total = sum(max(0, r) for r in ratings)
    return 2 * total if flechette else total


def resistance_tn(power: int, armour: int, barrier: int = 0) -> int:
    """Damage Resistance TN: Power less armour (and the Barrier Rating of a barrier the shot
    went through, l.967), at least 2 (l.570)."""
    return max(MIN_TN, power - armour - barrier)


def armour_against(code: DamageCode, ballistic: int, impact: int, kind: str) -> int:
    """The armour a hit meets: Ballistic against firearms, Impact against blasts, melee and
    thrown weapons (l.917, l.1060); flechettes meet the higher of 2 x Impact and Ballistic
    (l.716)."""
    if kind == "firearm":
        if code.flechette and (ballistic or impact):
            return max(2 * impact, ballistic)
        return ballistic
    return impact


def flechette_code(code: DamageCode, armour: int) -> DamageCode:
    """Flechettes go up a level against an unarmoured target (l.714)."""
    if code.flechette and armour == 0:
        return DamageCode(code.power, stage_level(code.level, 1), code.stun, code.flechette)
    return code


# =========================================================================== outcomes
@dataclass(frozen=True)
class Outcome:
    """An attack against a Damage Resistance Test (l.580-600)."""

    attack: int
    resist: int
    resist_pool: int
    level: str | None  # the staged Damage Level, None = no damage
    miss: str | None = None  # "no successes" | "clean miss" | None

    @property
    def boxes(self) -> int:
        return 0 if self.level is None else BOXES[self.level]

    def to_data(self) -> dict[str, Any]:
        return {"successes": self.attack, "resisted": self.resist,
                "resisted_with_pool": self.resist_pool, "staged": self.level,
                "boxes": self.boxes, **({"miss": self.miss} if self.miss else {})}


def ranged_outcome(attack: int, resist_body: int, resist_pool: int, level: str,
                   clean_miss: bool = True) -> Outcome:
    """Compare the attacker's successes with the target's: more for the attacker stages the
    level up one per two net, more for the target stages it down one per two net, equal is the
    base level (l.584-592).  No attack successes is a miss (l.563); the target's Combat Pool
    successes alone above the attacker's is a clean miss (l.594)."""
    resist = resist_body + resist_pool
    if attack <= 0:
        return Outcome(attack, resist, resist_pool, None, "no successes")
    if clean_miss and resist_pool > attack:
        return Outcome(attack, resist, resist_pool, None, "clean miss")
    return Outcome(attack, resist, resist_pool, stage_level(level, staging(attack - resist)))


@lru_cache(maxsize=1024)
def _odds_terms(na: int, nb: int, nc: int, base: int, clean_miss: bool
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The terms :func:`ranged_odds` sums, in its order: for every attack count ``a`` (1 up),
    resisting Combat Pool count ``c`` (0 up, none above ``a`` with ``clean_miss``: a clean
    miss) and Body count ``b`` (0 up) whose net successes leave some damage, the three counts
    and the boxes of the level they stage ``base`` to (none below Light, Deadly the top).
    They depend on the sizes of the dice pools alone, so one table serves every TN."""
    top = len(LEVELS) - 1
    boxes = [BOXES[lv] for lv in LEVELS]
    rows: list[tuple[int, int, int, float]] = []
    for a in range(1, na):
        for c in range(nc):
            if clean_miss and c > a:
                break
            for b in range(nb):
                i = base + staging(a - b - c)
                if i >= 0:
                    rows.append((a, b, c, float(boxes[min(i, top)])))
    cols = list(zip(*rows, strict=True)) if rows else [(), (), (), ()]
    return (np.array(cols[0], dtype=np.intp), np.array(cols[1], dtype=np.intp),
            np.array(cols[2], dtype=np.intp), np.array(cols[3], dtype=np.float64))


@lru_cache(maxsize=65536)
def ranged_odds(attack_dice: int, tn: int, body: int, pool: int, resist: int, level: str,
                clean_miss: bool = True) -> tuple[float, float]:
    """(chance the attack does any damage, expected boxes) of an attack with ``attack_dice``
    against ``tn`` and a Damage Resistance Test of ``body`` + ``pool`` dice against
    ``resist``: the exact sum over the three binomial counts.

    Every term ``P(a) * P(b) * P(c)`` (and times its boxes) is added one after the other in
    the order of the loops ``for a: for c: for b:`` (:func:`_odds_terms`): numpy multiplies
    each term as Python would and ``cumsum`` adds them one by one (never pairwise), so the
    floats are the ones the plain loops give (tests/play/test_sr3_odds_same.py), for a
    fifth of the time (the bots price a few thousand new shots in their first games)."""
    pa, pb, pc = binomial(attack_dice, tn), binomial(body, resist), binomial(pool, resist)
    a, b, c, boxes = _odds_terms(len(pa), len(pb), len(pc), LEVELS.index(level), clean_miss)
    if not len(a):
        return 0.0, 0.0
    q = np.array(pa)[a] * np.array(pb)[b] * np.array(pc)[c]
    return float(np.cumsum(q)[-1]), float(np.cumsum(q * boxes)[-1])


def melee_outcome(attack: int, defence: int) -> tuple[str, int]:
    """(who hits, net successes): the most successes hits, a tie goes to the attacker
    (l.1054, l.1140)."""
    if attack >= defence:
        return "attacker", attack - defence
    return "defender", defence - attack


def resist_melee(level: str, body_successes: int) -> str | None:
    """Melee Damage Resistance: every 2 successes take a level off (l.1060, l.1160-1166)."""
    return stage_level(level, -(body_successes // 2))


@lru_cache(maxsize=65536)
def melee_odds(att: int, att_tn: int, dfn: int, dfn_tn: int, body: int, resist: int,
               level: str) -> tuple[float, float, float]:
    """(chance the attacker's blow does damage, its expected boxes, chance the defender's
    does) for an opposed melee test and the hit side's resistance (defender's blow uses the
    same ``level`` and ``resist``: callers pass a symmetric estimate)."""
    pa, pd, pr = binomial(att, att_tn), binomial(dfn, dfn_tn), binomial(body, resist)
    hit = exp = back = 0.0
    for a, qa in enumerate(pa):
        for d, qd in enumerate(pd):
            who, net = melee_outcome(a, d)
            lv = stage_level(level, staging(net))
            for r, qr in enumerate(pr):
                got = resist_melee(lv, r) if lv else None
                if got is None:
                    continue
                q = qa * qd * qr
                if who == "attacker":
                    hit += q
                    exp += q * BOXES[got]
                else:
                    back += q
    return hit, exp, back


def melee_tn(wounds: int = 0, reach_diff: int = 0, friends: int = 0, opponent_prone: bool =
             False, superior: bool = False, visibility: int = 0, full_darkness: bool = False,
             other_targets: int = 0) -> tuple[int, dict[str, int]]:
    """Melee TN: 4 (l.1050) and the Melee Modifiers Table (l.1102-1112): reach -1 per point
    longer / +1 shorter, friends -1 / +1 each (max 4), prone opponent -2, superior position
    -1, wounds, visibility at half (round down) except Full Darkness (l.1116)."""
    mods: dict[str, int] = {"base": 4}
    if reach_diff:
        mods["reach"] = -reach_diff
    if friends:
        mods["friends"] = max(-4, min(4, -friends))
    if opponent_prone:
        mods["opponent_prone"] = -2
    if superior:
        mods["superior_position"] = -1
    if visibility:
        mods["visibility"] = visibility if full_darkness else visibility // 2
    if other_targets:
        mods["multiple_targets"] = 2 * other_targets
    if wounds:
        mods["wounds"] = wounds
    return max(MIN_TN, sum(mods.values())), mods


def knockdown(level: str, body_successes: int) -> str:
    """Stopping and Knockdown (l.603-612): ``stands`` above the threshold (1 Light, 2 Moderate,
    3 Serious), ``staggers`` one metre back with some successes, ``falls`` prone with none; a
    Deadly wound always knocks down (l.615)."""
    if level == "D" or body_successes == 0:
        return "falls"
    return "stands" if body_successes > {"L": 1, "M": 2, "S": 3}[level] else "staggers"


# =========================================================================== condition
@dataclass
class SR3Condition:
    """The Condition Monitor: a Physical and a Stun column of 10 boxes (l.1582-1604)."""

    kind: ClassVar[str] = "sr3"  # the tag of its saved data
    body: int = 3
    physical: int = 0
    stun: int = 0
    dead: bool = False

    @staticmethod
    def level_of(boxes: int) -> str | None:
        """The Condition Level a column's boxes reach: 1 L, 3 M, 6 S, 10 D (l.1589-1598)."""
        got = None
        for lv in LEVELS:
            if boxes >= BOXES[lv]:
                got = lv
        return got

    @property
    def unconscious(self) -> bool:
        """Stun at Deadly (l.1584 "Unc."), Physical at Deadly (near death, l.1621)."""
        return self.stun >= MONITOR_BOXES or self.physical >= MONITOR_BOXES

    @property
    def out(self) -> bool:
        # dead or unconscious, read off the fields (asked ~20 000 times a bot game)
        return self.dead or self.stun >= MONITOR_BOXES or self.physical >= MONITOR_BOXES

    @property
    def modifier(self) -> int:
        """Injury modifier to target numbers: the highest level of each column, +1 / +2 / +3
        (Damage Modifiers Table, l.1614-1622); the two columns add."""
        return _column_modifier(self.physical) + _column_modifier(self.stun)

    @property
    def initiative_modifier(self) -> int:
        """The same figure taken off Reaction before Initiative is rolled (l.1612)."""
        return self.modifier

    @property
    def fullest(self) -> int:
        """Boxes filled in the fuller column."""
        return max(self.physical, self.stun)

    @property
    def lowest(self) -> int | None:
        """Boxes left in the fuller column (None unhurt): lower is worse, as DMZ's lowest box."""
        return None if self.fullest == 0 else MONITOR_BOXES - self.fullest

    def strip(self) -> list[str | None]:
        """The monitor as a row of cells for a counter's strip: the Physical column's boxes
        ("physical"), then the Stun column's ("stun"), each 10 wide."""
        return [("physical" if i < self.physical else None) for i in range(MONITOR_BOXES)] + \
            [("stun" if i < self.stun else None) for i in range(MONITOR_BOXES)]

    @property
    def mp(self) -> int:
        """No DMZ Movement Points: the referee's allowance gives metres."""
        return 0

    def apply(self, level: str | None, stun: bool = False) -> dict[str, Any]:
        """Fill the boxes of a wound of ``level`` (see :meth:`apply_boxes`)."""
        return self.apply_boxes(0 if level is None else BOXES[level], stun)

    def apply_boxes(self, add: int, stun: bool = False) -> dict[str, Any]:
        """Fill ``add`` boxes: damage adds up (l.1598); Stun beyond 10 flows into Physical
        (l.1603); Physical beyond 10 + Body is death (l.1604)."""
        was_out = self.out
        overflow = 0
        if stun:
            self.stun += add
            if self.stun > MONITOR_BOXES:
                overflow = self.stun - MONITOR_BOXES
                self.stun = MONITOR_BOXES
                self.physical += overflow
        else:
            self.physical += add
        if self.physical > MONITOR_BOXES + self.body:
            self.dead = True
        return {"filled": add, "stun": stun, "overflow": overflow, "physical_total":
                self.physical, "stun_total": self.stun, "modifier": self.modifier,
                "unconscious": self.unconscious and not was_out, "dead": self.dead}

    def to_data(self) -> dict[str, Any]:
        return {"kind": "sr3", "body": self.body, "physical": self.physical, "stun": self.stun,
                "dead": self.dead}

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> SR3Condition:
        return cls(body=d.get("body", 3), physical=d.get("physical", 0), stun=d.get("stun", 0),
                   dead=bool(d.get("dead", False)))


#: injury modifier of one column's Condition Level (Damage Modifiers Table, l.1614-1622)
_LEVEL_MODIFIER = {"L": 1, "M": 2, "S": 3, "D": 3}


@lru_cache(maxsize=256)
def _column_modifier(boxes: int) -> int:
    """One column's part of :attr:`SR3Condition.modifier`, kept per box count (every shot
    a bot prices asks the shooter's)."""
    return _LEVEL_MODIFIER.get(SR3Condition.level_of(boxes) or "", 0)


# =========================================================================== grenades
def grenade_band(strength: int, metres: float, aerodynamic: bool = False) -> str:
    """Range band of a throw, Str x 3 / 7 / 15 / 30 metres (Grenade Range Table, l.870-875)."""
    return range_band(f"{'aerodynamic-grenade' if aerodynamic else 'grenade'}:{strength}",
                      metres)


def scatter_metres(dice_total: int, thrown_successes: int, kind: str = "standard") -> int:
    """Scatter distance: the scatter dice less 2 m (standard) or 4 m (aerodynamic, launcher)
    per success; 0 or less lands on the target (l.889-891)."""
    _dice, per = GRENADE_SCATTER[kind]
    return max(0, dice_total - per * thrown_successes)


def scatter_dice(kind: str = "standard") -> int:
    """How many d6 the scatter distance rolls: 3D6 standard, 2D6 aerodynamic (l.874)."""
    return int(GRENADE_SCATTER[kind][0][0])


def scatter_direction(roll: int) -> float:
    """Direction of a scatter in radians from the line of the throw: 1 on past the target, 4
    back at the thrower, 60 degrees a step (assumed, ``ASSUMED['scatter-direction']``)."""
    return math.radians(60 * ((roll - 1) % 6))


def blast_power_at(grenade: str, metres: float) -> int:
    """Power left ``metres`` from the blast point (0 beyond it; l.905-915)."""
    return int(blast_power(grenade, metres, GRENADE_DAMAGE)["power"])


def blast_code(grenade: str, metres: float) -> DamageCode | None:
    """The blast's Damage Code at ``metres`` (Grenade Damage Table l.905-915); None beyond."""
    b = blast_power(grenade, metres, GRENADE_DAMAGE)
    if not b["reaches"]:
        return None
    _p, level, _per = GRENADE_DAMAGE[grenade]
    return DamageCode(b["power"], level[0], "Stun" in level)


# =========================================================================== barriers
def through_barrier(power: int, rating: int) -> dict[str, Any]:
    """Firing Through (l.964-969): the Barrier Rating comes off the Power; a rating above the
    Power stops the shot."""
    return {"stopped": rating > power, "power_left": power - rating, "barrier_rating": rating}


def break_through(power: int, rating: int, edged_melee: bool = False,
                  kind: str = "firearm") -> dict[str, Any]:
    """Attack a barrier to open it (Break Through, l.988-994): firearms and edged melee meet
    twice its rating, blunt melee the rating itself; the base Power, unmodified for bursts,
    is read on the Barrier Effect Table (:func:`engine.rules.sr3.blast_against_barrier`)."""
    if kind == "melee" and not edged_melee:
        # blunt: the table read at the normal rating
        half = rating / 2
        if power < half:
            effect, holes = "holds", 0
        elif power <= rating:
            effect, holes = "damaged", 0
        else:
            effect, holes = "holed", max(1, int((power - rating) // max(half, 1)))
        after = rating - (1 if effect == "damaged" else holes)
        return {"power": power, "barrier_rating": rating, "adjusted_rating": rating,
                "effect": effect, "holes_half_m": holes, "rating_after": max(after, 0),
                "falls": effect == "holed", "rule": "Break Through, seed 001 l.971, l.982-986"}
    return {**blast_against_barrier(power, rating),
            "rule": "Break Through, seed 001 l.988-994 (twice the rating against firearms)"}


def door_opens(rating_after: int, rating: int, security: bool = False) -> bool:
    """A regular door breaks open at half its rating, a security door at 0 (l.992)."""
    return rating_after <= (0 if security else rating / 2)


__all__ = [
    "ASSUMED", "BOXES", "CALLED_MODES", "CALLED_SHOT", "aim_limit", "attack_pool", "called_code",
    "phases_after_delay", "through_rating", "DamageCode", "LEVELS", "Outcome", "SR3Condition", "SR3Stats",
    "SR3Weapon", "Situation", "blast_code", "blast_power_at", "break_through", "burst_code", "character_stats",
    "check_character", "initiative_total", "melee_odds", "melee_outcome", "melee_tn",
    "p_die", "parse_damage_code", "pass_order", "phases", "ranged_odds", "ranged_outcome",
    "ranged_tn", "recoil", "resist_melee", "resistance_tn", "roll_pool", "scatter_metres",
    "stage_level", "staging", "successes", "through_barrier", "weapon_stats",
]
