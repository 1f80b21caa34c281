"""Dark Conspiracy combat by the supplemental rules (seed 003): the numbers play rolls with.

Qt-free and play-free: every function takes the dice it needs as arguments (or gives exact
odds), so the referee (:mod:`engine.play.darkcon_game`) only wires them to its logged dice.
The sight numbers (range bands and their +4/0/-4/-6, target obscured, prone, covered body
parts, the Incidental Fire Zone) stay in :mod:`engine.rules.darkcon`; this module adds who
fights how well and what a hit does.

The supplement augments the Dark Conspiracy 1st-edition rulebook, which is not in the seeds.
Where it leaves a number to that book the value here is marked **assumed** (``ASSUMED`` lists
them; docs/rulesets.md "Play: assumed numbers" explains each).

Character sheet (``stats:`` in the scenario): ``strength``, ``constitution``, ``agility``,
``initiative`` (the rating: how many D6 a character rolls, l.174) and one skill per weapon
kind carried: ``small_arms_pistol``, ``small_arms_rifle``, ``heavy_weapons``,
``melee_armed``, ``melee_unarmed``, ``thrown_weapons``; armour per body part
``armor_head``, ``armor_chest``, ``armor_arms``, ``armor_legs`` (default 0).

Weapon (``stats:`` of a weapon): ``skill`` (pistol | rifle | heavy | armed | unarmed |
thrown); a firearm adds ``damage`` (DAM: D6 rolled, l.632), ``pen`` (``Nil``, ``2-Nil``,
``1-2-Nil``; l.636), ``range`` (printed short range in m, l.400), ``rof`` (SS, BA, LA, PA,
DAR, SA or the burst size, l.354-360), ``mag`` (rounds, l.364), ``recoil`` (and
``burst_recoil`` for a burst weapon, l.417); a melee weapon ``damage`` and ``reach``
(short | long, l.246); a grenade ``concussion`` (D6 at contact, l.521-525) and ``burst``
(primary fragment radius in m, l.529).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.rules.darkcon import BANDS, LOCATIONS, DarkCon

# =========================================================================== assumed numbers

#: every number the supplement leaves to the 1st-edition book, with the value used
ASSUMED: dict[str, str] = {
    "hit-location": "1D20 Human Hit Location Chart (not in seed 003, l.630): 1-2 head, 3-10 "
                    "chest, 11-12 left arm, 13-14 right arm, 15-17 left leg, 18-20 right leg",
    "rounding": "halved and quartered task targets drop fractions (l.112, l.116 give no "
                "rounding; l.525 rounds concussion down)",
    "controlling-attribute": "Small Arms and Heavy Weapons, Melee Combat: Strength (Small Arms "
                             "by l.60); Thrown Weapons: Agility",
    "skill-critical": "a natural 1 on a skill roll succeeds even when the target is below 1",
    "cover": "a hit on a body part behind a low wall, obstacle or window sill is stopped by it "
             "(the Armor Values of Cover Chart, l.644, is not in the seeds)",
    "critical-unconscious": "a critical wound outside the head knocks out until the end of the "
                            "game (medical attention within 10 min, l.761, is beyond a fight)",
    "limbs": "a leg at serious or worse: crawl only; both arms at serious or worse: no fire, "
             "throw or armed melee (l.760 'loss of use of that limb')",
    "scatter-direction": "D10 deviation direction: 36 degrees a face, 1 = straight beyond the "
                         "target, clockwise (the scatter diagram of l.495 is not in the seeds)",
    "incidental-rounds": "half the missed rounds, fractions dropped (l.436)",
    "concussion-squares": "the explosion's own 8 m square reaches 4 m from it; each further "
                          "8 m ring is the next square (l.525)",
    "concussion-remainder": "the points left after dividing by seven go to the chest (l.523)",
    "target-movement": "target moving at a walk -2, trot -4, run -6: the table of l.403-405 "
                       "(l.471 gives trot -2, run -4)",
    "melee-damage": "a melee weapon's damage is D6 rolled, like a firearm's DAM (the Melee "
                    "Weapons Chart of l.250 is not in the seeds)",
    "open-door": "opening or closing a door or window costs 2 m of the move",
    "ambush-several": "with several ambushers the ambush opens at the highest ambusher's "
                      "score and each ambusher acts at his own (l.184 gives one ambusher)",
    "aim-kept": "an aim lasts until the aimer does anything else (moves, fires, readies...) "
                "or loses sight of what he aims at (l.381: visible 'all time in between')",
    "opportunity-fire": "an attack of opportunity by fire is one shot or one burst; it is "
                        "aimed only at the character aimed at, or at a character on the very "
                        "square aimed at (l.200)",
    "charge-straight": "a charge runs a path no more than 2 m longer than the straight line "
                       "to the square next to the target, within 16 m (l.256-258)",
    "charge-backlash": "half the damage absorbed from a charge, rounded up, goes to the "
                       "charger split over two rolled locations, the odd point to the first "
                       "(l.264 gives no rounding; as l.236 and l.286)",
    "suppression-expiry": "a Suppression Fire zone lasts until the shooter's next activation "
                          "or the end of the turn (action segment 0), whichever comes first "
                          "(l.449)",
}

# =========================================================================== character sheet

ATTRIBUTES = ("strength", "constitution", "agility", "initiative")
#: weapon ``skill`` -> (sheet key, controlling attribute)
SKILLS: dict[str, tuple[str, str]] = {
    "pistol": ("small_arms_pistol", "strength"),
    "rifle": ("small_arms_rifle", "strength"),
    "heavy": ("heavy_weapons", "strength"),
    "armed": ("melee_armed", "strength"),
    "unarmed": ("melee_unarmed", "strength"),
    "thrown": ("thrown_weapons", "agility"),
}
MARKSMANSHIP = ("pistol", "rifle", "heavy")  # 17-20 always fail (l.116)
ARMOR_KEYS = {"head": "armor_head", "chest": "armor_chest", "left-arm": "armor_arms",
              "right-arm": "armor_arms", "left-leg": "armor_legs", "right-leg": "armor_legs"}
#: keys a sheet may leave out, with the value used then
DEFAULTS: dict[str, int] = {"melee_unarmed": 0, "armor_head": 0, "armor_chest": 0,
                            "armor_arms": 0, "armor_legs": 0}
ROF_CODES = {"SS": 1, "BA": 1, "LA": 1, "PA": 3, "DAR": 3, "SA": 5}  # shots an action, l.356-360
MAX_BURSTS = 5  # "up to either five individual shots or five bursts per action" (l.360)
FIREARM_KEYS = ("damage", "pen", "range", "rof", "mag", "recoil")
GRENADE_KEYS = ("concussion", "burst")


def _as_int(v: Any) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and re.fullmatch(r"-?\d+", v.strip()):
        return int(v)
    return None


def parse_pen(pen: Any) -> tuple[int | None, ...]:
    """``"1-2-Nil"`` -> (1, 2, None): PEN at short/medium, long, extreme (l.636); ``Nil`` is
    None.  A single number applies at every range."""
    if isinstance(pen, int) and not isinstance(pen, bool):
        return (pen,)
    if not isinstance(pen, str) or not pen.strip():
        raise ValueError(f"pen {pen!r}: give Nil, a number, or ratings such as 2-Nil or 1-2-Nil")
    out: list[int | None] = []
    for part in pen.strip().split("-"):
        p = part.strip()
        if p.lower() == "nil":
            out.append(None)
        elif p.isdigit():
            out.append(int(p))
        else:
            raise ValueError(f"pen {pen!r}: give Nil, a number, or ratings such as 2-Nil")
    if len(out) > 3:
        raise ValueError(f"pen {pen!r}: at most three ratings (short/medium, long, extreme)")
    return tuple(out)


def pen_at(pen: tuple[int | None, ...], band: str) -> int | None:
    """The PEN rating at a range band: the first for short and medium, the second for long,
    the third for extreme; a missing rating repeats the last; Nil stays Nil (l.636)."""
    idx = {"short": 0, "medium": 0, "long": 1, "extreme": 2}[band]
    vals = [pen[min(i, len(pen) - 1)] for i in range(idx + 1)]
    return None if None in vals else vals[-1]


def armor_piercing(damage: int, pen: tuple[int | None, ...]) -> tuple[int, tuple[int | None, ...]]:
    """AP ammunition: one PEN category better, one DAM less (l.477-483)."""
    s, lo, x = (pen_at(pen, b) for b in ("short", "long", "extreme"))
    if s is None:
        s = 2
    elif s > 1:
        s -= 1
    elif lo is None:
        lo = 2
    elif lo > 1:
        lo -= 1
    out: list[int | None] = [s, lo, x]
    while len(out) > 1 and out[-1] is None and out[-2] is None:
        out.pop()
    return damage - 1, tuple(out)


def hollow_point(damage: int) -> tuple[str, tuple[int | None, ...]]:
    """Hollow point: PEN Nil, +1 for each die (l.485): 2 DAM -> 2d6+2."""
    return f"{damage}d6+{damage}", (None,)


@dataclass(frozen=True)
class Dice:
    """``n`` D6 plus ``plus`` (a DAM of -1 is one die less one, l.632); ``floor`` is the least a
    hit does (the Unarmed Damage table's Min column, l.90-101)."""

    n: int
    plus: int = 0
    floor: int = 0

    @property
    def mean(self) -> float:
        if self.n <= 0:
            return float(max(self.plus, self.floor))
        return _mean_floor(self.n, self.plus, self.floor)

    def roll(self, d6: Callable[[], int]) -> tuple[list[int], int]:
        rolls = [d6() for _ in range(max(self.n, 0))]
        return rolls, max(sum(rolls) + self.plus, self.floor)

    def __str__(self) -> str:
        d = "D" if self.n == 1 else f"{self.n}D"
        return d + (f"{self.plus:+d}" if self.plus else "")


@lru_cache(maxsize=512)
def _mean_floor(n: int, plus: int, floor: int) -> float:
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for s, p in dist.items():
            for f in range(1, 7):
                nxt[s + f] = nxt.get(s + f, 0.0) + p / 6
        dist = nxt
    return sum(max(s + plus, floor) * p for s, p in dist.items())


def parse_dice(code: Any) -> Dice:
    """``3`` -> 3D6; ``-1`` -> D6-1 (l.632); ``2D6+2``, ``2d+2``, ``D-3`` -> as written."""
    n = _as_int(code)
    if n is not None:
        return Dice(1, -1) if n == -1 else Dice(n)
    m = re.fullmatch(r"\s*(\d*)\s*[dD]6?\s*([+-]\s*\d+)?\s*", str(code))
    if not m:
        raise ValueError(f"damage {code!r}: give the D6 to roll (3), -1, or a code such as 2D6+2")
    return Dice(int(m[1] or 1), int((m[2] or "0").replace(" ", "")))


@dataclass(frozen=True)
class WeaponProfile:
    """A weapon's darkcon figures, parsed from ``Weapon.stats``."""

    skill: str
    damage: Dice = Dice(0)
    pen: tuple[int | None, ...] = (None,)
    range: int = 0
    rof: str = "SA"
    burst: int = 0  # rounds a burst (0: no automatic fire)
    mag: int | None = None
    recoil: int = 0
    burst_recoil: int = 0
    reach: str = "short"
    concussion: int = 0
    burst_radius: int = 0

    @property
    def is_grenade(self) -> bool:
        return self.skill == "thrown" and self.concussion > 0

    @property
    def is_firearm(self) -> bool:
        return self.skill in MARKSMANSHIP

    @property
    def is_melee(self) -> bool:
        return self.skill in ("armed", "unarmed")

    @property
    def max_shots(self) -> int:
        """Shots (or bursts) one action may fire (l.356-360)."""
        return MAX_BURSTS if self.burst else ROF_CODES.get(self.rof, 1)


def weapon_profile(stats: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> WeaponProfile:
    """Parse a weapon's stats (raises ``ValueError`` on a bad figure; see
    :func:`check_character` for what is missing)."""
    s = dict(stats)
    skill = str(s.get("skill", "")).strip().lower()
    if skill not in SKILLS:
        raise ValueError(f"skill {s.get('skill')!r} is not one of {', '.join(SKILLS)}")
    rof = str(s.get("rof", "SA")).strip().upper()
    burst = _as_int(s.get("rof"))
    if burst is None and rof not in ROF_CODES:
        raise ValueError(f"rof {s.get('rof')!r}: give SS, BA, LA, PA, DAR, SA or the burst size")
    reach = str(s.get("reach", "short")).strip().lower()
    if reach not in ("short", "long"):
        raise ValueError(f"reach {s.get('reach')!r}: short or long")
    return WeaponProfile(
        skill=skill,
        damage=parse_dice(s["damage"]) if "damage" in s else Dice(0),
        pen=parse_pen(s.get("pen", "Nil")),
        range=_as_int(s.get("range")) or 0,
        rof="AUTO" if burst else rof, burst=burst or 0,
        mag=_as_int(s.get("mag")),
        recoil=_as_int(s.get("recoil")) or 0, burst_recoil=_as_int(s.get("burst_recoil")) or 0,
        reach=reach,
        concussion=_as_int(s.get("concussion")) or 0, burst_radius=_as_int(s.get("burst")) or 0,
    )


def check_character(ch: Any) -> list[str]:
    """What a character sheet lacks (or gets wrong) for darkcon play, one line per key
    (validation names the character)."""
    out: list[str] = []
    stats = dict(ch.stats)
    for key in ATTRIBUTES:
        v = _as_int(stats.get(key))
        if key not in stats:
            out.append(f"'{key}' is missing from stats")
        elif v is None or v < 0:
            out.append(f"'{key}' must be a whole number >= 0, not {stats[key]!r}")
    for key in DEFAULTS:
        if key in stats and (_as_int(stats[key]) is None or _as_int(stats[key]) < 0):
            out.append(f"'{key}' must be a whole number >= 0, not {stats[key]!r}")
    for w in ch.weapons:
        wn = w.name or w.type
        ws = dict(w.stats)
        if "skill" not in ws:
            out.append(f"weapon {wn}: 'skill' is missing from stats ({' | '.join(SKILLS)})")
            continue
        try:
            prof = weapon_profile(ws)
        except ValueError as e:
            out.append(f"weapon {wn}: {e}")
            continue
        need: tuple[str, ...] = ()
        if prof.is_firearm:
            need = FIREARM_KEYS + (("burst_recoil",) if prof.burst else ())
        elif prof.skill == "thrown":
            need = GRENADE_KEYS
        elif prof.skill == "armed":
            need = ("damage",)
        for key in need:
            if key not in ws:
                out.append(f"weapon {wn}: '{key}' is missing from stats")
        skill_key = SKILLS[prof.skill][0]
        if skill_key not in stats and skill_key not in DEFAULTS:
            out.append(f"'{skill_key}' is missing from stats (to use the {wn})")
    return out


@dataclass(frozen=True)
class Fighter:
    """A character's darkcon figures (defaults filled in)."""

    strength: int
    constitution: int
    agility: int
    initiative: int
    skills: Mapping[str, int] = field(default_factory=dict)
    armor: Mapping[str, int] = field(default_factory=dict)

    def skill(self, kind: str) -> int:
        return self.skills.get(SKILLS[kind][0], 0)

    def attribute(self, kind: str, strength: int | None = None) -> int:
        """The skill's controlling attribute; ``strength`` is the effective Strength (halved
        by a serious wound, l.760)."""
        attr = SKILLS[kind][1]
        if attr == "strength":
            return self.strength if strength is None else strength
        return self.agility

    def armor_at(self, loc: str) -> int:
        return self.armor.get(loc, 0)


def fighter(stats: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> Fighter:
    s = {**DEFAULTS, **dict(stats)}
    ints = {k: (_as_int(v) or 0) for k, v in s.items()}
    return Fighter(
        strength=ints.get("strength", 0), constitution=ints.get("constitution", 0),
        agility=ints.get("agility", 0), initiative=ints.get("initiative", 0),
        skills={key: ints.get(key, 0) for key, _a in SKILLS.values()},
        armor={loc: ints.get(key, 0) for loc, key in ARMOR_KEYS.items()},
    )


# =========================================================================== tasks

DIFFICULTY = {"Easy": 2.0, "Average": 1.0, "Difficult": 0.5, "Formidable": 0.25}  # l.112, l.116


def _scaled(base: int, difficulty: str) -> int:
    if difficulty not in DIFFICULTY:
        raise ValueError(f"difficulty {difficulty!r} is not one of {', '.join(DIFFICULTY)}")
    return math.floor(base * DIFFICULTY[difficulty])  # assumed: fractions dropped


def skill_target(skill: int, attribute: int, difficulty: str = "Average", modifier: int = 0) -> int:
    """Skill + controlling attribute, doubled/halved/quartered by difficulty, plus modifiers
    (positive helps); roll a d20 at or under it (l.116)."""
    return _scaled(skill + attribute, difficulty) + modifier


def ability_target(attribute: int, difficulty: str = "Average", modifier: int = 0) -> int:
    """An attribute doubled/halved/quartered; roll 2D6-1 at or under it (l.112)."""
    return _scaled(attribute, difficulty) + modifier


@dataclass(frozen=True)
class Outcome:
    success: bool
    critical: bool
    why: str
    margin: int  # target - roll (how far the roll beat the target; negative when over)


def judge_skill(target: int, roll: int, marksmanship: bool = False, band: str | None = None
                ) -> Outcome:
    """A d20 skill roll (l.116-118) or a marksmanship roll (l.400): 19-20 always fail (17-20
    for Small Arms and Heavy Weapons); a natural 1 is critical; with marksmanship a natural
    2 always hits, except at extreme range, where only a 1 hits and it is critical only if a
    2 would have hit."""
    margin = target - roll
    if not 1 <= roll <= 20:
        raise ValueError(f"a d20 roll is 1..20, not {roll}")
    if roll >= (17 if marksmanship else 19):
        return Outcome(False, False, "automatic failure", margin)
    if marksmanship and band == "extreme":
        if roll == 1:
            return Outcome(True, target >= 2, "automatic hit", margin)
        return Outcome(roll <= target, False, "rolled", margin)
    if roll == 1:
        return Outcome(True, True, "critical", margin)
    if marksmanship and roll == 2:
        return Outcome(True, False, "automatic hit", margin)
    return Outcome(roll <= target, False, "rolled", margin)


@lru_cache(maxsize=4096)
def p_skill(target: int, marksmanship: bool = False, band: str | None = None) -> float:
    """Exact chance a d20 roll succeeds."""
    return sum(judge_skill(target, r, marksmanship, band).success for r in range(1, 21)) / 20


def judge_ability(target: int, roll: int) -> Outcome:
    """2D6-1 at or under the target; 11 always fails, 1 always succeeds (l.112)."""
    if not 1 <= roll <= 11:
        raise ValueError(f"a 2D6-1 roll is 1..11, not {roll}")
    if roll == 11:
        return Outcome(False, False, "automatic failure", target - roll)
    if roll == 1:
        return Outcome(True, False, "automatic success", target - roll)
    return Outcome(roll <= target, False, "rolled", target - roll)


# =========================================================================== initiative

def turn_metres(stats: Mapping[str, Any] | Iterable[tuple[str, Any]], metatype: str = "human"
                ) -> float:
    """Metres an unhurt character covers in a turn: a run (8 m x 4, l.142-145) in each action
    an average Initiative roll (3.5 a point) gives him (l.174).  What validation, the tempo
    lens and the report's unopposed estimate walk with."""
    rates = dict(DarkCon.movement.rates)
    n = fighter(stats).initiative
    return DarkCon.base_rate * rates["run"] * len(action_scores(round(3.5 * n)))


def action_scores(combat_initiative: int) -> list[int]:
    """The segments a character acts on: his score and every 10 less while above 0; a 0 still
    acts on 0, a 10 or 20 does not also act on 0 (l.174-176)."""
    if combat_initiative <= 0:
        return [0]
    return list(range(combat_initiative, 0, -10))


def initiative_dice(rating: int, wound_penalty: int = 0) -> int:
    """D6 rolled for Combat Initiative: the rating (l.174) less the wound penalty (l.759-761),
    never below 0."""
    return max(rating + wound_penalty, 0)


def panic_initiative(initiative: int, roll: int) -> int:
    """A Panic Check (1D6): the Initiative drops by what the roll exceeds it by, to 0 (l.214)."""
    return max(initiative - max(roll - initiative, 0), 0)


AMBUSH_INITIATIVE = 6  # an unseen attacker who opens fire (l.184)


def ambush_schedule(scores: Mapping[str, int], ambusher: str | Iterable[str]
                    ) -> list[tuple[int, str]]:
    """Turn one of an ambush (l.184, worked example l.186-192): actions before the ambusher's
    first are ignored; anyone who rolled higher acts straight after him, and at every 10
    less from there.  Returns (segment, who) in order of play.

    With several ambushers the ambush opens at the highest ambusher's score; each ambusher
    acts at his own (assumed ``ambush-several``)."""
    ambushers = {ambusher} if isinstance(ambusher, str) else set(ambusher)
    first = max(scores[a] for a in ambushers)
    order: list[tuple[int, int, str]] = []
    for who, score in scores.items():
        start = score if who in ambushers else min(score, first - 1)
        order += [(-s, 0 if who in ambushers else 1, who) for s in action_scores(start)]
    order.sort()
    return [(-s, who) for s, _t, who in order]


def ambush_initiative(rating: int, ambusher: bool, panic_roll: int | None = None) -> int:
    """Initiative for turn one of an ambush (l.184): 6 for an unseen attacker; everyone else
    loses what his Panic Check (1D6) exceeds his rating by (l.214)."""
    if ambusher:
        return AMBUSH_INITIATIVE
    return rating if panic_roll is None else panic_initiative(rating, panic_roll)


# =========================================================================== hit location

#: d20 -> body part; assumed (see ASSUMED["hit-location"])
HIT_LOCATION: tuple[tuple[int, str], ...] = (
    (2, "head"), (10, "chest"), (12, "left-arm"), (14, "right-arm"), (17, "left-leg"),
    (20, "right-leg"),
)
LOCATION_WEIGHT = {loc: (hi - lo) / 20 for (lo, _), (hi, loc) in
                   zip(((0, ""),) + HIT_LOCATION[:-1], HIT_LOCATION, strict=True)}


def hit_location(roll: int) -> str:
    if not 1 <= roll <= 20:
        raise ValueError(f"a d20 roll is 1..20, not {roll}")
    return next(loc for hi, loc in HIT_LOCATION if roll <= hi)


def hit_capacity(strength: int, constitution: int) -> dict[str, int]:
    """Base Hit Capacity per region: Strength + Constitution, the chest twice (l.72-80)."""
    base = strength + constitution
    return {loc: 2 * base if loc == "chest" else base for loc in LOCATIONS}


# =========================================================================== fire

QUICK_SHOT = -4  # a shot without an aiming action (l.383)
MAX_AIM_BONUS = 4  # +1 an aiming action after the first, at most +4 (l.381)
#: target moving in its last action (assumed: table of l.403-405, see ASSUMED)
TARGET_MOVING = {"walk": -2, "trot": -4, "run": -6}


def aim_modifier(aim_actions: int) -> int:
    """No aim: a quick shot, -4; one aiming action: 0; +1 each further one, to +4 (l.381-383)."""
    if aim_actions <= 0:
        return QUICK_SHOT
    return min(aim_actions - 1, MAX_AIM_BONUS)


def shot_aims(aim_actions: int, shots: int, moving: bool = False) -> list[int]:
    """The aim modifier of each shot (or burst) of one fire action: only the first can be
    aimed (l.383, l.433), never while walking or trotting (l.461); the rest are quick."""
    first = QUICK_SHOT if moving else aim_modifier(aim_actions)
    return [first] + [QUICK_SHOT] * (shots - 1)


#: a charge: melee with a run at half speed (l.256), after at least 4 m (two empty squares)
#: between the two (l.256); +1 damage each 4 m run (l.264)
CHARGE_M = 16.0
CHARGE_GAP_M = 4.0
CHARGE_STEP_M = 4.0
#: attacks of opportunity at a charging character: +2 to hit (l.260)
CHARGER_TARGET = 2


def charge_damage(rolled: int, metres: float, critical: bool = False) -> int:
    """A charge's damage (l.264): the weapon's roll + 1 for every 4 m of the charge, at most
    twice the roll (three times on a critical success)."""
    bonus = int(metres // CHARGE_STEP_M)
    return min(rolled + bonus, rolled * (3 if critical else 2))


def charge_backlash(absorbed: int) -> tuple[int, int]:
    """Half the damage armour or cover absorbed from a charge goes back to the charger, over
    two rolled hit locations (l.264); halves round up (as l.236) and the odd point goes to the
    first location (as the diving blow, l.286): assumed ``charge-backlash``."""
    half = math.ceil(absorbed / 2)
    return half - half // 2, half // 2


def effective_strength(strength: int, pace: str | None = None, wounded: bool = False,
                       two_weapons: bool = False) -> int:
    """Strength for recoil: halved by a serious wound (l.760); walking -1, trotting halved
    (l.461); a weapon in each hand -1 (l.423)."""
    s = strength // 2 if wounded else strength
    if pace == "walk":
        s -= 1
    elif pace == "trot":
        s //= 2
    if two_weapons:
        s -= 1
    return max(s, 0)


def recoil_modifiers(recoil: int, shots: int, strength: int) -> list[int]:
    """The recoil modifier of each shot or burst of one action (l.417-419): the first carries
    only its own recoil beyond Strength; the later ones the action's total beyond Strength."""
    first = -max(recoil - strength, 0)
    rest = -max(recoil * shots - strength, 0)
    return [first] + [rest] * (shots - 1)


def steady_shots(recoil: int, strength: int, most: int) -> int:
    """How many shots (bursts) keep the action's recoil within Strength: at least 1."""
    if recoil <= 0:
        return most
    return max(1, min(most, strength // recoil))


def burst_hits(target: int, roll: int, burst: int, band: str | None = None) -> int:
    """Rounds of one burst that hit (l.429-431): one for the hit, one more for every 2 points
    the roll beat the target by; after a natural 1 (not at extreme range) one more for every
    point; never more than the burst."""
    out = judge_skill(target, roll, True, band)
    if not out.success:
        return 0
    beat = max(target - roll, 0)
    extra = beat if (roll == 1 and band != "extreme") else beat // 2
    return min(1 + extra, burst)


@lru_cache(maxsize=4096)
def expected_burst_hits(target: int, burst: int, band: str | None = None) -> float:
    return sum(burst_hits(target, r, burst, band) for r in range(1, 21)) / 20


def incidental_rounds(missed: int) -> int:
    """Incidental Rounds: half the missed rounds (l.436; fractions dropped, assumed)."""
    return max(missed, 0) // 2


INCIDENTAL_RANGE = {"short": 0, "medium": 1, "long": 2, "extreme": 3}  # l.438-443


def incidental_target(agility: int, metres_from_target: float, band: str, prone: bool = False
                      ) -> int:
    """The Difficult Agility check of a bystander in the Incidental Fire Zone (l.436-443):
    +1 per 2 m from the primary target, +1/+2/+3 at medium/long/extreme range, +1 prone."""
    mod = int(metres_from_target // 2) + INCIDENTAL_RANGE[band] + (1 if prone else 0)
    return ability_target(agility, "Difficult", mod)


def allocate_incidental(rounds: int, failures: Iterable[tuple[str, int]],
                        d6: Callable[[], int]) -> dict[str, int]:
    """Hand out Incidental Rounds one at a time, the worst failure first (ties in the given
    order), each a D6 that hits on 5 or 6; nobody gets more dice than he failed by; leftover
    rounds are lost (l.436, l.445-447).  Returns hits per bystander."""
    left = {who: by for who, by in failures if by > 0}
    order = sorted(left, key=lambda w: -left[w])
    hits = {w: 0 for w in order}
    while rounds > 0 and any(left[w] > 0 for w in order):
        for w in order:
            if rounds <= 0:
                break
            if left[w] <= 0:
                continue
            left[w] -= 1
            rounds -= 1
            if d6() >= 5:
                hits[w] += 1
    return hits


# =========================================================================== damage and wounds

def penetrate(dice: int, armor: int, pen: int | None) -> tuple[int, int]:
    """(dice rolled for the wound, dice absorbed): armour x PEN dice are lost; Nil stops at
    any armour (l.636-638)."""
    if armor <= 0:
        return dice, 0
    if pen is None:
        return 0, dice
    absorbed = min(dice, armor * pen)
    return dice - absorbed, absorbed


def blunt_trauma(absorbed: int) -> int:
    """One point of damage per die the body armour absorbed (l.640-642)."""
    return absorbed


def fall_split(total: int, locations: tuple[str, str, str]) -> dict[str, int]:
    """A fall's damage over three rolled locations: half, a quarter, the rest (l.666-668:
    19 over chest, left arm, left leg -> 10, 5, 4)."""
    first = math.ceil(total / 2)
    second = math.ceil((total - first) / 2)
    out: dict[str, int] = {}
    for loc, pts in zip(locations, (first, second, total - first - second), strict=True):
        out[loc] = out.get(loc, 0) + pts
    return out


SEVERITY = ("none", "scratch", "slight", "serious", "critical")
INITIATIVE_PENALTY = {"none": 0, "scratch": 0, "slight": -1, "serious": -3, "critical": -5}


def wound_level(damage: int, capacity: int) -> str:
    """Wounds Table (l.755-761): scratch to half Hit Capacity, slight to Hit Capacity, serious
    to twice it, critical beyond."""
    if damage <= 0:
        return "none"
    if 2 * damage <= capacity:
        return "scratch"
    if damage <= capacity:
        return "slight"
    if damage <= 2 * capacity:
        return "serious"
    return "critical"


def stun_rounds(target: int, roll: int) -> int:
    """Rounds stunned after a head wound above Constitution: by how much the check missed
    (l.749: needs 6, rolls 8 -> 2 rounds)."""
    return max(roll - target, 0)


@dataclass
class Wounds:
    """Damage per body part against its Hit Capacity: the darkcon condition.

    ``out``: unconscious (a serious head wound, any critical wound) or dead (a critical head
    wound, l.760-761)."""

    capacity: dict[str, int]
    damage: dict[str, int] = field(default_factory=dict)
    dead: bool = False
    knocked_out: bool = False
    stunned: int = 0  # rounds left stunned (l.749)

    kind = "darkcon"

    def _kept(self) -> tuple:
        """(copies of the damage and capacity, wound level per body part, the worst, a
        serious head or any critical wound, arms lost, legs lost, Strength halved): asked
        hundreds of thousands of times a bot game (every "is he out?", every shot priced),
        worked out again only when the damage (or the capacity) changed."""
        got = self.__dict__.get("_memo")
        # (copies of the two dicts, compared as dicts: no key tuple built per question)
        if got is None or got[0] != self.damage or got[1] != self.capacity:
            lv = {loc: wound_level(self.damage.get(loc, 0), self.capacity[loc])
                  for loc in self.capacity}
            parts = [lv[loc] for loc in LOCATIONS]
            rank = SEVERITY.index
            worst = max(parts, key=rank)
            got = (dict(self.damage), dict(self.capacity), lv, worst,
                   lv["head"] == "serious" or "critical" in parts,
                   sum(rank(lv[loc]) >= 3 for loc in ("left-arm", "right-arm")),
                   sum(rank(lv[loc]) >= 3 for loc in ("left-leg", "right-leg")),
                   rank(worst) >= rank("serious"))
            self.__dict__["_memo"] = got
        return got

    def _levels(self) -> tuple[dict[str, str], str, bool]:
        """(wound level per body part, the worst, a serious head or any critical wound)."""
        got = self._kept()
        return got[2], got[3], got[4]

    def level(self, loc: str) -> str:
        return self._levels()[0][loc]

    @property
    def worst(self) -> str:
        return self._levels()[1]

    @property
    def unconscious(self) -> bool:
        return not self.dead and (self.knocked_out or self._levels()[2])

    @property
    def out(self) -> bool:
        """``dead or unconscious`` (the question of every bot loop over characters: the
        kept levels read here without the two properties' calls)."""
        if self.dead or self.knocked_out:
            return True
        got = self.__dict__.get("_memo")
        if got is None or got[0] != self.damage or got[1] != self.capacity:
            got = self._kept()
        return got[4]

    @property
    def modifier(self) -> int:
        """How hurt he is, bigger is worse: the size of the worst wound's Initiative penalty
        (0, 1, 3, 5; l.759-761)."""
        return -INITIATIVE_PENALTY[self.worst]

    @property
    def strength_halved(self) -> bool:
        """A serious or critical wound (l.760; kept with the levels: every shot priced asks)."""
        return self._kept()[7]

    @property
    def lowest(self) -> int | None:
        """Health left on the DMZ monitor's 12..0 scale, lower is worse (the bots' "finish the
        wounded"): None unhurt, 9 scratch, 6 slight, 3 serious, 0 critical."""
        w = self.worst
        return None if w == "none" else 12 - 3 * SEVERITY.index(w)

    @property
    def boxes(self) -> dict[int, str | None]:
        """A DMZ-style strip of boxes 12..0 for displays: three boxes marked for each wound
        level of the worst body part (scratch 3 ... critical 12), all 13 when dead."""
        n = 13 if self.dead else 3 * SEVERITY.index(self.worst)
        return {b: ("physical" if i < n else None) for i, b in enumerate(range(12, -1, -1))}

    @property
    def legs_lost(self) -> int:
        """Legs with a serious or critical wound (kept with the levels)."""
        return self._kept()[6]

    @property
    def arms_lost(self) -> int:
        """Arms with a serious or critical wound (kept with the levels)."""
        return self._kept()[5]

    def describe(self) -> str:
        """The state in the book's words for a display: the worst wound, where, and the
        Initiative penalty it brings (l.755-761)."""
        if self.dead:
            return "dead"
        w = self.worst
        if w == "none":
            return "unhurt"
        hurt = ", ".join(f"{loc} {self.damage[loc]}/{self.capacity[loc]}" for loc in LOCATIONS
                         if self.damage.get(loc))
        tail = " unconscious" if self.unconscious else ""
        return f"{w} wound ({hurt}), Initiative {INITIATIVE_PENALTY[w]:+d}{tail}"

    @property
    def mp(self) -> float:
        """DMZ's MP: not used under darkcon (the referee's allowance gives metres)."""
        return 0.0

    def wound(self, loc: str, points: int) -> dict[str, Any]:
        """Add ``points`` to a body part; returns what it did."""
        if loc not in self.capacity:
            raise ValueError(f"no body part {loc!r}")
        was_out, before = self.out, self.level(loc)
        self.damage[loc] = self.damage.get(loc, 0) + max(points, 0)
        after = self.level(loc)
        if loc == "head" and after == "critical":
            self.dead = True
        return {"location": loc, "points": points, "total": self.damage[loc],
                "capacity": self.capacity[loc], "wound": after, "was": before,
                "unconscious": self.unconscious and not was_out, "dead": self.dead}

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "capacity": dict(self.capacity),
                "damage": {k: v for k, v in self.damage.items() if v},
                "dead": self.dead, "knocked_out": self.knocked_out, "stunned": self.stunned}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> Wounds:
        return cls(capacity=dict(d["capacity"]), damage=dict(d.get("damage") or {}),
                   dead=bool(d.get("dead")), knocked_out=bool(d.get("knocked_out")),
                   stunned=int(d.get("stunned", 0)))

    @classmethod
    def for_fighter(cls, f: Fighter) -> Wounds:
        return cls(capacity=hit_capacity(f.strength, f.constitution))


def expected_wound(dam: Dice, pen: int | None, armor: Mapping[str, int],
                   covered: Iterable[str] = ()) -> float:
    """Mean damage points one round does over the hit locations: penetrating dice plus blunt
    trauma; a covered part takes nothing (assumed)."""
    return _expected_wound(dam, pen, tuple(sorted(armor.items())), frozenset(covered))


@lru_cache(maxsize=4096)
def _expected_wound(dam: Dice, pen: int | None, armor_items: tuple[tuple[str, int], ...],
                    cov: frozenset[str]) -> float:
    """(the bots weigh every shot they consider with it: one answer per weapon and armour)"""
    armor = dict(armor_items)
    total = 0.0
    for loc, w in LOCATION_WEIGHT.items():
        if loc in cov:
            continue
        left, absorbed = penetrate(dam.n, armor.get(loc, 0), pen)
        mean = Dice(left, dam.plus if left else 0, dam.floor).mean if left else 0.0
        total += w * (mean + blunt_trauma(absorbed))
    return total


# =========================================================================== melee

#: (Unarmed Combat Base below, damage dice) (l.90-101); 30.0 and above: 2D+3
UNARMED_TABLE: tuple[tuple[float, str], ...] = (
    (6.0, "D-3"), (9.0, "D-2"), (12.0, "D-1"), (15.0, "D"), (18.0, "2D-3"), (21.0, "2D-2"),
    (24.0, "2D-1"), (26.0, "2D"), (28.0, "2D+1"), (30.0, "2D+2"),
)


def unarmed_base(strength: int, skill: int) -> float:
    """(Strength x Unarmed Melee Skill) / 10 + Strength + skill (l.86)."""
    return strength * skill / 10 + strength + skill


def unarmed_rating(strength: int, skill: int) -> Dice:
    """Unarmed Damage Rating (l.88-101); every hit does at least 1 (the table's Min)."""
    base = unarmed_base(strength, skill)
    code = next((c for top, c in UNARMED_TABLE if base < top), "2D+3")
    d = parse_dice(code)
    return Dice(d.n, d.plus, 1)


MELEE_REACH_M = {"short": 2, "long": 4}  # l.224, l.246
AIMED_STRIKE = {"chest": -2, "arm": -2, "leg": -2, "head": -4}  # l.313-318


def melee_armor(armor: int, armed: bool) -> int:
    """Points armour takes off a blow: its value unarmed, twice it armed (l.236, l.252)."""
    return 2 * armor if armed else armor


def melee_damage(rolled: int, armor: int, armed: bool, critical: bool = False) -> tuple[int, int]:
    """(points through, points absorbed) of a blow; a critical doubles the roll (l.226)."""
    pts = rolled * (2 if critical else 1)
    stop = min(pts, melee_armor(armor, armed))
    return pts - stop, stop


# =========================================================================== thrown and blast

def throw_range(strength: int, weight_kg: float = 1.0) -> float:
    """4 x Strength metres (l.84), divided by the weight over 1 kg (l.507)."""
    r = 4 * strength
    return r / weight_kg if weight_kg > 1 else float(r)


def throw_difficulty(metres: float, strength: int, weight_kg: float = 1.0) -> str | None:
    """Average within throw range, Difficult to twice it, None beyond (l.507)."""
    r = throw_range(strength, weight_kg)
    if metres <= r:
        return "Average"
    if metres <= 2 * r:
        return "Difficult"
    return None


def grenade_deviation(target: int, roll: int, difficulty: str, metres: float) -> float:
    """Metres a missed grenade lands off: what the roll exceeded the target by, x1 m within
    throw range, x2 m at long range, never more than half the distance (l.495, l.513)."""
    over = max(roll - target, 1)
    return min(over * (2 if difficulty == "Difficult" else 1), metres / 2)


def deviation_bearing(d10: int) -> float:
    """Degrees clockwise from straight on past the target (assumed: 36 degrees a face)."""
    return ((d10 - 1) % 10) * 36.0


def concussion_at(concussion: int, metres: float, contact: bool = False) -> int:
    """Concussion dice at a distance (l.525): full in contact, half in the explosion's own 8 m
    square, a quarter in the next, and so on down (fractions dropped)."""
    if contact:
        return concussion
    ring = 0 if metres <= 4 else math.ceil((metres - 4) / 8)
    return concussion >> (ring + 1)


def concussion_split(total: int, prone: bool = False, covered: Iterable[str] = ()
                     ) -> dict[str, int]:
    """Concussion points over the body (l.521-527): total // 7 to every part, the chest
    twice; the remainder to the chest (assumed); nothing to covered parts; prone halves."""
    each, rest = divmod(total, 7)
    cov = set(covered)
    out: dict[str, int] = {}
    for loc in LOCATIONS:
        if loc in cov:
            continue
        pts = 2 * each + rest if loc == "chest" else each
        out[loc] = pts // 2 if prone else pts
    return out


def fragments(d10: int, primary: bool, d6: int) -> int:
    """Fragments hitting a character in the burst radius (l.529-535): primary 1-3 1D6, 4-6
    one; secondary 1-2 1D6, 3-5 one; otherwise none (a D10 0 is 10)."""
    d10 = 10 if d10 == 0 else d10
    many, one = (3, 6) if primary else (2, 5)
    if d10 <= many:
        return d6
    return 1 if d10 <= one else 0


FRAGMENT = {True: (Dice(2), (1,)), False: (Dice(1), (0,))}  # (damage, PEN) l.533-534


def burst_zone(metres: float, radius: int) -> str | None:
    """primary | secondary | None for a character ``metres`` from a burst of ``radius``."""
    if radius <= 0:
        return None
    if metres <= radius:
        return "primary"
    return "secondary" if metres <= 2 * radius else None


__all__ = [
    "ASSUMED", "BANDS", "Dice", "Fighter", "Outcome", "WeaponProfile", "Wounds", "ability_target",
    "action_scores", "check_character", "fighter", "judge_ability", "judge_skill",
    "skill_target", "weapon_profile",
]
