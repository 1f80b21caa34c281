"""Shadowrun 1st edition combat as ConcisionRun gives it (seed 004): the pure rules play needs.

Qt-free and play-free: character and weapon figures read from ``Character.stats`` /
``Weapon.stats``, initiative and Action Phases, d6 Success Tests with the Rule of Six and their
exact odds, target numbers of a shot, damage codes with staging and resistance, the two
10-box tracks of the Condition Monitor, melee, grenades.  ``engine/play/sr1_game.py`` wires
them to the referee.  Lines cited as "l.N" are seed 004's (``../shared/seeds/004_*.txt``).

The sight numbers (base TN by range band, cover, visibility, barrier ratings) are
:mod:`engine.rules.sr1`'s; this module never restates them.  Where ConcisionRun sends the
reader to a page of the Shadowrun book that is not in the sources, the value used here is
listed in :data:`ASSUMED` (and in docs/rulesets.md, "Play: assumed numbers"), and every result
that rests on one says so under ``assumed``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from engine.catalogue import MELEE_WEAPONS, THROWING_WEAPONS, weapon_key
from engine.rules import sr3
from engine.rules.sr1 import GRENADE_DAMAGE, GRENADE_SCATTER, MIN_TN, SHORT_BASE_TN, SR1

# ============================================================================ assumed numbers

#: every number play uses that seed 004 leaves to a book not in the sources
ASSUMED: dict[str, str] = {
    "range": "base TN 5/6/9 at medium/long/extreme and the weapon range table: SR1 p. 213 is "
             "not in the sources; engine.rules.sr1's borrowed table (sr3's) is used",
    "grenade-range": "grenade range bands (SR1 p. 69, l.1300): Strength x 3/7/15/30 m with base "
                     "TN 4/5/6/9, the borrowed table of engine.rules.sr1",
    "scatter-direction": "the scatter diagram (l.1285) is missing: six directions 60 degrees "
                         "apart, 1 along the throw, 4 back at the thrower",
    "target-movement": "no TN modifier for a moving target: SR1 pp. 65-67 are not in the "
                       "sources",
    "actions": "SR1 p. 64's list of actions is not in the sources: firing, readying a weapon, "
               "reloading, standing up, melee and throwing are Actions; dropping prone and "
               "opening a door are Free Actions",
    "deadly": "a full Physical track (Deadly) knocks the character out; he dies when the boxes "
              "beyond it exceed his Body (SR1's overflow rule is not in the sources)",
    "stun-overflow": "Stun beyond a full Mental track becomes Physical at once (l.1498 says "
                     "'after K.O.'; the surplus of the K.O. hit carries over)",
    "interception": "a dot is 2 m: an enemy on an adjoining dot counts as 'within 1 meter' "
                    "(l.1088)",
    "zero-phase": "an Initiative of 0 or less (wounds) still acts once, last",
    "barrier-damage": "damaging a barrier (SR1 p. 68) is not in the sources: a shot whose Power "
                      "beats the barrier's rating takes 1 off it, a hole opens at 0",
    "grenade-cover": "a grenade's blast behind hard cover: the cover's rating adds automatic "
                     "successes, as for a shot (l.1398); a wall between blocks it (l.1396)",
    "skill-default": "a character without a skill rolls no dice for it (SR1's defaulting is not "
                     "in the sources)",
    "hard-cover": "hard cover with no class of its own (a car, a desk) has rating 4, average "
                  "material (SR1 p. 68 is not in the sources)",
    "fall": "no falling rule in seed 004: a fall does no damage",
}

# ============================================================================ dice


def die_total(d6: Callable[[], int]) -> int:
    """One die of a Test with the Rule of Six: a 6 is rolled again and added, repeatedly
    (l.194-196).  ``d6`` supplies the faces."""
    total = face = d6()
    while face == 6:
        face = d6()
        total += face
    return total


@dataclass(frozen=True)
class TestRoll:
    """One Success Test: the dice (each an exploded total), the TN and what they made."""

    pool: int
    target_number: int
    dice: tuple[int, ...]
    auto: int = 0  # automatic (free) successes: armor, hard cover (l.1398, l.1460)

    @property
    def rolled(self) -> int:
        """Dice at or above the TN (l.160); a first face of 1 never counts (l.200)."""
        return sum(1 for d in self.dice if d >= self.target_number and d != 1)

    @property
    def successes(self) -> int:
        return self.rolled + self.auto

    @property
    def glitch(self) -> bool:
        """All dice came up 1: a Critical Glitch (l.202)."""
        return bool(self.dice) and all(d == 1 for d in self.dice)

    def to_data(self) -> dict[str, Any]:
        return {"pool": self.pool, "target_number": self.target_number, "dice": list(self.dice),
                "auto": self.auto, "successes": self.successes,
                **({"critical_glitch": True} if self.glitch else {})}


def test(pool: int, tn: int, d6: Callable[[], int], auto: int = 0) -> TestRoll:
    """Roll ``pool`` dice against ``tn`` (at least 2: no TN of 1 exists, l.200)."""
    tn = max(MIN_TN, tn)
    return TestRoll(max(pool, 0), tn, tuple(die_total(d6) for _ in range(max(pool, 0))), auto)


def net_successes(successes: int, threshold: int) -> int:
    """Successes over a Threshold: meeting it counts as one success (l.184-192)."""
    return 0 if successes < threshold else successes - threshold + 1


@cache
def p_die(tn: int) -> float:
    """Chance one exploding die reaches ``tn``: (7 - TN)/6 up to 6; past 6 the die must show
    a 6 and the next roll reach TN - 6, so TN 7 is as likely as TN 6 (l.196)."""
    tn = max(MIN_TN, tn)
    if tn <= 6:
        return (7 - tn) / 6
    rest = tn - 6
    return (1 / 6) * (1.0 if rest <= 1 else p_die_any(rest))


def p_die_any(tn: int) -> float:
    """As :func:`p_die` for a re-rolled die, where any face adds (a 1 counts as 1)."""
    if tn <= 1:
        return 1.0
    return p_die(tn)


@cache
def distribution(pool: int, tn: int) -> tuple[float, ...]:
    """P(k successes) for k = 0..pool: a binomial of :func:`p_die`."""
    p = p_die(tn)
    dist = [1.0]
    for _ in range(max(pool, 0)):
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return tuple(dist)


def p_at_least(pool: int, tn: int, k: int = 1) -> float:
    return sum(distribution(pool, tn)[k:]) if k > 0 else 1.0


# ============================================================================ damage codes

LEVELS = ("L", "M", "S", "D")
LEVEL_NAMES = {"L": "Light", "M": "Moderate", "S": "Serious", "D": "Deadly"}
#: boxes a wound fills (l.1372)
BOXES = {"L": 1, "M": 3, "S": 6, "D": 10}
TRACK = 10  # two tracks of 10 boxes (l.368)
#: Wound Modifiers Table (l.1218-1222): level -> (TN penalty, Initiative penalty)
WOUND_MODIFIERS = {"L": (1, -1), "M": (2, -2), "S": (3, -3)}

_CODE = re.compile(r"^\s*\(?\s*(?P<power>\d+|str(?:\s*[+-]\s*\d+)?)\s*\)?\s*(?P<level>[LMSD])"
                   r"\s*(?P<staging>\d+)\s*(?P<kind>stun|mental|physical)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class DamageCode:
    """Power Level, Wound Category, Staging Number, Physical or Stun (l.1138-1152)."""

    power: int
    level: str
    staging: int
    stun: bool = False

    def __str__(self) -> str:
        return f"{self.power}{self.level}{self.staging}" + (" Stun" if self.stun else "")

    def with_power(self, power: int) -> DamageCode:
        return DamageCode(power, self.level, self.staging, self.stun)


@lru_cache(maxsize=4096)
def parse_code(text: str | int, strength: int | None = None) -> DamageCode:
    """``"6M3"``, ``"4M4 Stun"``, ``"(STR)M1 Stun"``, ``"(STR+2)L2"``; ValueError otherwise.
    Kept per (text, strength): a code is frozen, and the referee reads each weapon's code
    for every shot a bot prices."""
    m = _CODE.match(str(text))
    if not m:
        raise ValueError(f"damage code {text!r} is not Power, Wound Category and Staging, "
                         f"e.g. 6M3 or 4M4 Stun (seed 004 l.1138-1152)")
    raw = m["power"].lower().replace(" ", "")
    if raw.startswith("str"):
        if strength is None:
            power = 0
        else:
            power = strength + (int(raw[3:]) if len(raw) > 3 else 0)
    else:
        power = int(raw)
    staging = int(m["staging"])
    if staging < 1:
        raise ValueError(f"damage code {text!r}: the Staging Number must be at least 1")
    return DamageCode(power, m["level"].upper(), staging, (m["kind"] or "").lower() in
                      ("stun", "mental"))


def unarmed_code(strength: int) -> DamageCode:
    """(Strength)M1 Stun (l.1178)."""
    return DamageCode(strength, "M", 1, True)


@dataclass(frozen=True)
class Staged:
    """What a hit does after staging up and resisting (l.1156-1168)."""

    code: DamageCode
    attack_successes: int
    staged_up: int
    level_after_attack: str
    resistance_successes: int
    staged_down: int
    level: str | None  # None: staged to no damage
    above_deadly: int  # stages beyond Deadly: armor points lost (l.1168)

    @property
    def boxes(self) -> int:
        return BOXES[self.level] if self.level else 0

    def to_data(self) -> dict[str, Any]:
        return {"damage_code": str(self.code), "staged_up": self.staged_up,
                "staged_code": f"{self.code.power}{self.level_after_attack}{self.code.staging}",
                "resisted": self.resistance_successes, "staged_down": self.staged_down,
                "wound": LEVEL_NAMES.get(self.level or "", "none"), "boxes": self.boxes,
                **({"armor_lost": self.above_deadly} if self.above_deadly else {})}


def stage(code: DamageCode, attack_successes: int, resistance_successes: int,
          stage_up: bool = True) -> Staged:
    """Up once per full Staging Number of *extra* successes (the first success is the hit),
    at most Deadly; down once per full Staging Number of *all* resistance successes, to no
    damage (l.1156-1168).  Grenades do not stage up (l.1311): ``stage_up=False``."""
    base = LEVELS.index(code.level)
    up = (max(attack_successes - 1, 0) // code.staging) if stage_up else 0
    raw = base + up
    after = min(raw, len(LEVELS) - 1)
    down = max(resistance_successes, 0) // code.staging
    final = after - down
    return Staged(code, attack_successes, up, LEVELS[after], resistance_successes, down,
                  LEVELS[final] if final >= 0 else None, max(raw - (len(LEVELS) - 1), 0))


def dodged(code: DamageCode, level_after_attack: str, dodge_successes: int) -> bool:
    """A Successful Dodge: the Dodge Pool's successes alone stage the hit to nothing
    (l.1250); otherwise they still count in the Resistance Test (l.1254)."""
    return dodge_successes // code.staging > LEVELS.index(level_after_attack)


@cache
def expected_boxes(code: DamageCode, attack_pool: int, attack_tn: int, resist_pool: int,
                   auto: int = 0, stage_up: bool = True, hit_needed: bool = True
                   ) -> tuple[float, float]:
    """(P(the attack lands), expected boxes filled) from the exact dice odds: what the bots
    weigh a shot by.  ``hit_needed=False`` for a blast, which needs no attack test."""
    resist = distribution(resist_pool, code.power)
    if hit_needed:
        att = distribution(attack_pool, attack_tn)
        p_hit = 1 - att[0]
    else:
        att, p_hit = (0.0, 1.0), 1.0
    exp = 0.0
    # _staged_boxes(code, a, r + auto, stage_up) inlined (the inner loop runs ~40 times a
    # call): the level the attack's successes stage up to, less the resistance's stages;
    # the same boxes, multiplied and summed in the same order (the same floats)
    staging, top = code.staging, len(LEVELS) - 1
    level = LEVELS.index(code.level)
    for a, pa in enumerate(att):
        if a == 0 and hit_needed:
            continue
        high = min(level + ((max(a - 1, 0) // staging) if stage_up else 0), top)
        for r, pr in enumerate(resist):
            final = high - max(r + auto, 0) // staging
            exp += pa * pr * (BOXES[LEVELS[final]] if final >= 0 else 0)
    return p_hit, exp


def _staged_boxes(code: DamageCode, attack_successes: int, resistance_successes: int,
                  stage_up: bool) -> int:
    """``stage(...).boxes`` without making the :class:`Staged` (the odds above ask it for
    every pair of attack and resistance successes)."""
    up = (max(attack_successes - 1, 0) // code.staging) if stage_up else 0
    final = min(LEVELS.index(code.level) + up, len(LEVELS) - 1) - \
        max(resistance_successes, 0) // code.staging
    return BOXES[LEVELS[final]] if final >= 0 else 0


# ============================================================================ condition monitor


@lru_cache(maxsize=256)
def _track_modifier(boxes: int) -> int:
    """One track's part of :attr:`SR1Condition.modifier`, kept per box count (every shot a
    bot prices asks the shooter's)."""
    return WOUND_MODIFIERS.get(wound_level(boxes) or "", (0, 0))[0]


def wound_level(boxes: int) -> str | None:
    """The marker a track has passed: 1 box Light, 3 Moderate, 6 Serious, 10 Deadly
    (l.1172, l.1372)."""
    level = None
    for lv in LEVELS:
        if boxes >= BOXES[lv]:
            level = lv
    return level


@dataclass
class SR1Condition:
    """The Physical and Mental tracks of 10 boxes (l.368), with the effects play needs, and
    the sheet they belong to: the character's sr1 figures (``stats``), his weapons' figures
    (``arms``, in the order of his weapons) and what he has used of his turn (``turn``: Dodge
    Pool dice spent, whether he ran, metres moved...), so a saved game carries them."""

    body: int = 3
    physical: int = 0
    mental: int = 0
    overflow: int = 0  # Physical boxes beyond Deadly
    stats: dict[str, Any] = field(default_factory=dict)
    arms: list[dict[str, Any]] = field(default_factory=list)
    turn: dict[str, Any] = field(default_factory=dict)
    kind = "sr1"  # the tag in saved data (class attribute, not a field)

    @property
    def unconscious(self) -> bool:
        """K.O. on a full Mental track (l.1496); out on a full Physical one (assumed)."""
        return self.mental >= TRACK or self.physical >= TRACK

    @property
    def dead(self) -> bool:
        return self.overflow > self.body

    @property
    def out(self) -> bool:
        # unconscious or dead, read off the fields (asked ~20 000 times a bot game)
        return self.mental >= TRACK or self.physical >= TRACK or self.overflow > self.body

    @property
    def modifier(self) -> int:
        """Wound Modifier to every TN: the two tracks stack (l.1172, l.1218-1222)."""
        return _track_modifier(self.physical) + _track_modifier(self.mental)

    @property
    def initiative_penalty(self) -> int:
        """Subtracted from Initiative (l.1174)."""
        return self.modifier

    @property
    def lowest(self) -> int | None:
        """How far from out the worse track is, on the 12 (scratched) .. 0 (out) scale the
        bots read; None if unhurt."""
        worst = max(self.physical, self.mental)
        return None if worst == 0 else max(TRACK - worst, 0) * 12 // TRACK

    @property
    def mp(self) -> int:
        """DMZ's Movement Points have no meaning here: wounds slow nobody in seed 004."""
        return 0

    def strip(self) -> list[str | None]:
        """The boxes as a counter draws them: 10 Physical, then 10 Mental (stun)."""
        return ([("physical" if i < self.physical else None) for i in range(TRACK)]
                + [("stun" if i < self.mental else None) for i in range(TRACK)])

    def apply(self, boxes: int, stun: bool) -> dict[str, Any]:
        """Fill ``boxes`` on the Mental (stun) or Physical track (l.1372, l.1494-1498)."""
        was = (self.unconscious, self.dead)
        physical = 0 if stun else boxes
        if stun:
            room = max(TRACK - self.mental, 0)
            self.mental += min(boxes, room)
            physical = boxes - min(boxes, room)  # assumed: the surplus carries over
        room = max(TRACK - self.physical, 0)
        self.physical += min(physical, room)
        self.overflow += physical - min(physical, room)
        return {"physical": self.physical, "mental": self.mental, "overflow": self.overflow,
                "wound_modifier": self.modifier, "unconscious": self.unconscious and not was[0],
                "dead": self.dead and not was[1]}

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "body": self.body, "physical": self.physical,
                "mental": self.mental, "overflow": self.overflow, "stats": dict(self.stats),
                "arms": [dict(a) for a in self.arms], "turn": dict(self.turn)}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> SR1Condition:
        return cls(int(d.get("body", 3)), int(d.get("physical", 0)), int(d.get("mental", 0)),
                   int(d.get("overflow", 0)), dict(d.get("stats") or {}),
                   [dict(a) for a in d.get("arms") or []], dict(d.get("turn") or {}))


# ============================================================================ characters

ATTRIBUTES = ("body", "quickness", "strength", "charisma", "intelligence", "willpower")
#: what play cannot do without, and why (seed line)
REQUIRED = {
    "body": "Body: resists damage (l.744)",
    "quickness": "Quickness: metres per Action Phase and the Dodge Pool (l.786-788, l.814)",
    "strength": "Strength: unarmed damage (Strength)M1 Stun (l.1178)",
    "intelligence": "Intelligence: Reaction = (Quickness + Intelligence) / 2 (l.780)",
}
SKILLS = ("firearms", "armed_combat", "unarmed_combat", "throwing", "projectiles", "gunnery")
#: optional keys and their values when left out
DEFAULTS: dict[str, int] = {
    "charisma": 3, "willpower": 3, "unarmed_combat": 0, "armed_combat": 0, "firearms": 0,
    "throwing": 0, "projectiles": 0, "gunnery": 0, "ballistic": 0, "impact": 0, "helmet": 0,
    "dermal": 0, "initiative_dice": 1, "reaction_bonus": 0,
}
CHARACTER_KEYS = (*ATTRIBUTES, *SKILLS, "reaction", "reaction_bonus", "initiative_dice",
                  "dodge_pool", "ballistic", "impact", "helmet", "dermal")
WEAPON_KEYS = ("damage", "mode", "ammo", "range", "skill", "reach", "laser", "recoil_comp",
               "payload", "scatter")
MODES = ("SS", "SA", "FA")
MAX_AUTO_SHOTS = 7  # l.1382


#: engine.rules.sr1's movement rates by name (a Fighter's run is asked for every budget)
_RATES: dict[str, float] = dict(SR1.movement.rates)


@dataclass(frozen=True)
class Fighter:
    """A character's sr1 figures, defaults filled in."""

    body: int
    quickness: int
    strength: int
    intelligence: int
    willpower: int = 3
    charisma: int = 3
    metatype: str = "human"
    skills: tuple[tuple[str, int], ...] = ()
    reaction: int = 0
    initiative_dice: int = 1
    dodge_pool: int = 0
    ballistic: int = 0
    impact: int = 0
    dermal: int = 0

    def skill(self, name: str) -> int:
        return dict(self.skills).get(name, 0)

    @property
    def speed(self) -> float:
        """Quickness metres per Action Phase (l.786-788, l.1084)."""
        return float(self.quickness)

    @property
    def run_multiplier(self) -> float:
        """x4, dwarf and troll x3 (l.1132-1136): engine.rules.sr1's movement rates."""
        return _RATES.get(f"run-{self.metatype}", _RATES["run"])

    @property
    def run(self) -> float:
        return self.speed * self.run_multiplier

    @property
    def resist_dice(self) -> int:
        """Body, plus dermal armor's extra dice (l.1470)."""
        return self.body + self.dermal

    def defense_pool(self, armed: bool) -> int:
        """Armed Combat with a weapon, Unarmed Combat without (l.818)."""
        return self.skill("armed_combat" if armed else "unarmed_combat")


def _as_dict(stats: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> dict[str, Any]:
    return dict(stats.items() if isinstance(stats, Mapping) else stats)


def _int(d: Mapping[str, Any], key: str, default: int) -> int:
    v = d.get(key, default)
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def fighter(stats: Iterable[tuple[str, Any]] | Mapping[str, Any], metatype: str = "human"
            ) -> Fighter:
    """Figures from ``Character.stats``; missing ones take :data:`DEFAULTS` (run
    :func:`check_character` first to name what a scenario left out)."""
    return _fighter(tuple(sorted(_as_dict(stats).items())), metatype)


def turn_metres(stats: Iterable[tuple[str, Any]] | Mapping[str, Any], metatype: str = "human"
                ) -> float:
    """Metres an unhurt character covers in a turn of two Action Phases: one run (x4, dwarf
    and troll x3, l.1132-1136) and one walk (Quickness metres, l.786-788).  What validation and
    the report's unopposed estimate walk with (decision: two phases, the common case)."""
    f = fighter(stats, metatype)
    return f.run + f.speed


@cache
def _fighter(items: tuple[tuple[str, Any], ...], metatype: str) -> Fighter:
    d = dict(items)
    q, i = _int(d, "quickness", 3), _int(d, "intelligence", 3)
    reaction = _int(d, "reaction", (q + i) // 2) + _int(d, "reaction_bonus", 0)
    helmet = _int(d, "helmet", 0)
    return Fighter(
        body=_int(d, "body", 3), quickness=q, strength=_int(d, "strength", 3), intelligence=i,
        willpower=_int(d, "willpower", 3), charisma=_int(d, "charisma", 3), metatype=metatype,
        skills=tuple((s, _int(d, s, 0)) for s in SKILLS), reaction=reaction,
        initiative_dice=max(1, _int(d, "initiative_dice", 1)),
        dodge_pool=_int(d, "dodge_pool", q),
        # armor does not stack, except helmets (l.1464-1466)
        ballistic=_int(d, "ballistic", 0) + helmet, impact=_int(d, "impact", 0) + helmet,
        dermal=_int(d, "dermal", 0),
    )


@dataclass(frozen=True)
class Arm:
    """A weapon's sr1 figures."""

    name: str
    kind: str  # firearm | melee | grenade | thrown
    code: str  # damage code as written (melee codes may hold STR)
    mode: str = "SA"
    ammo: int | None = None
    range_row: str = ""
    skill: str = "firearms"
    reach: int = 0
    laser: bool = False
    recoil_comp: int = 0
    payload: str = ""  # grenades: offensive | defensive | concussion
    scatter: str = ""  # grenades: non-aerodynamic | aerodynamic | launched

    def damage(self, strength: int | None = None) -> DamageCode:
        return parse_code(self.code, strength)


_GRENADE = re.compile(r"(offensive|defensive|concussion)")


def weapon_kind(wtype: str) -> str:
    """firearm, melee, grenade or thrown, from the weapon's type name."""
    key = weapon_key(wtype)
    if "grenade" in key and "launcher" not in key:
        return "grenade"
    if key in MELEE_WEAPONS:
        return "melee"
    if key in THROWING_WEAPONS or key == "thrown":
        return "thrown"
    return "firearm"


_SKILL_OF = {"firearm": "firearms", "melee": "armed_combat", "grenade": "throwing",
             "thrown": "throwing"}


def arm(wtype: str, stats: Iterable[tuple[str, Any]] | Mapping[str, Any], name: str = "",
        shots: int | None = None) -> Arm:
    """A weapon's figures from ``Weapon.stats`` (``shots`` is the model's magazine)."""
    d = _as_dict(stats)
    kind = weapon_kind(wtype)
    payload = scatter = ""
    if kind == "grenade":
        m = _GRENADE.search(wtype)
        payload = str(d.get("payload") or (m.group(1) if m else "offensive"))
        scatter = str(d.get("scatter") or ("aerodynamic" if "airfoil" in wtype or "aero" in wtype
                                           else "non-aerodynamic"))
    ammo = d.get("ammo", shots)
    return Arm(
        name=name or wtype, kind=kind, code=str(d.get("damage", "")),
        mode=str(d.get("mode", "SA")).upper(), ammo=ammo if isinstance(ammo, int) else None,
        range_row=str(d.get("range", wtype)), skill=str(d.get("skill", _SKILL_OF[kind])),
        reach=_int(d, "reach", 0), laser=bool(_int(d, "laser", 0)),
        recoil_comp=_int(d, "recoil_comp", 0), payload=payload, scatter=scatter,
    )


def check_character(ch: Any) -> list[str]:
    """What an sr1 game needs and ``ch`` (a :class:`engine.model.Character`) lacks or gets
    wrong, one message per key naming the character and the key."""
    who = ch.name or ch.id or "a character"
    d = _as_dict(ch.stats)
    out: list[str] = []
    for key, why in REQUIRED.items():
        if key not in d:
            out.append(f"{who}: sr1 needs stats.{key} ({why}, seed 004)")
    for key, v in d.items():
        if key not in CHARACTER_KEYS:
            out.append(f"{who}: stats.{key} is not an sr1 figure (known: "
                       f"{', '.join(CHARACTER_KEYS)})")
        elif not isinstance(v, int) or isinstance(v, bool):
            out.append(f"{who}: stats.{key} must be a whole number, not {v!r}")
        elif key in ATTRIBUTES and v < 1:
            out.append(f"{who}: stats.{key} is {v}; an attribute of 0 is garbage (seed 004 "
                       f"l.228)")
        elif v < 0:
            out.append(f"{who}: stats.{key} cannot be negative")
    for w in ch.weapons:
        label = w.name or w.type
        wd = _as_dict(w.stats)
        a = arm(w.type, wd, label, w.shots)
        for key in wd:
            if key not in WEAPON_KEYS:
                out.append(f"{who}'s {label}: stats.{key} is not an sr1 weapon figure (known: "
                           f"{', '.join(WEAPON_KEYS)})")
        if "damage" not in wd:
            out.append(f"{who}'s {label}: sr1 needs stats.damage, a damage code such as 6M3 "
                       f"(seed 004 l.1138-1152)")
        else:
            try:
                a.damage(1)
            except ValueError as e:
                out.append(f"{who}'s {label}: {e}")
        if a.mode not in MODES:
            out.append(f"{who}'s {label}: stats.mode {a.mode!r} is not one of "
                       f"{', '.join(MODES)}")
        if a.skill not in SKILLS:
            out.append(f"{who}'s {label}: stats.skill {a.skill!r} is not one of "
                       f"{', '.join(SKILLS)}")
        elif a.skill not in d and a.skill != "unarmed_combat":
            out.append(f"{who}: sr1 needs stats.{a.skill} to use the {label} (seed 004 "
                       f"l.1346-1364)")
        if a.kind == "firearm":
            try:
                sr3.parse_weapon(a.range_row)
            except ValueError as e:
                out.append(f"{who}'s {label}: stats.range: {e}")
        if a.kind == "grenade":
            if a.payload not in GRENADE_DAMAGE:
                out.append(f"{who}'s {label}: stats.payload {a.payload!r} is not one of "
                           f"{', '.join(GRENADE_DAMAGE)}")
            if a.scatter not in GRENADE_SCATTER:
                out.append(f"{who}'s {label}: stats.scatter {a.scatter!r} is not one of "
                           f"{', '.join(GRENADE_SCATTER)}")
    return list(dict.fromkeys(out))


# ============================================================================ initiative

#: Extra Action Phases Table (l.1028-1034): lowest score for 2, 3, 4 phases
EXTRA_PHASES = (11, 17, 23)
PHASE_STEP = 7  # l.1036


def initiative(f: Fighter, dice: Iterable[int], wound_modifier: int = 0) -> int:
    """(Initiative dice)d6 + Reaction, less the Wound Modifier (l.1018-1024, l.1174)."""
    return sum(dice) + f.reaction - wound_modifier


def phases(score: int) -> list[int]:
    """The Action Phases of a score: 1-10 one, 11-16 two, 17-22 three, 23+ four, each 7
    after the one before (l.1028-1044).  A score of 0 or less still acts once (assumed)."""
    n = 1 + sum(1 for t in EXTRA_PHASES if score >= t)
    return [score - PHASE_STEP * k for k in range(n)]


def order(entries: Iterable[tuple[str, int, int, int]]) -> list[tuple[str, int, int]]:
    """Who acts when: ``entries`` are (id, Initiative score, Reaction, tie die); the answer is
    (id, phase score, phase number from 1) from first to last.  Ties go to the higher
    Reaction, then the tie die (l.1048); a character's first phase goes before another's
    second on the same score (l.1050)."""
    rows = []
    for cid, score, reaction, tie in entries:
        for n, at in enumerate(phases(score), start=1):
            rows.append((-at, n, -reaction, -tie, cid, at))
    rows.sort()
    return [(cid, at, n) for (_a, n, _r, _t, cid, at) in rows]


# ============================================================================ shooting


@dataclass(frozen=True)
class ShotNumbers:
    """The TN of one attack and how it was built."""

    target_number: int
    base: int
    modifiers: tuple[tuple[str, int], ...]

    def to_data(self) -> dict[str, Any]:
        return {"target_number": self.target_number, "base_target_number": self.base,
                "modifiers": dict(self.modifiers)}


def range_band(row: str, metres: float) -> str:
    """short .. extreme, ``too-close`` or ``out-of-range``: the borrowed table (assumed)."""
    return sr3.range_band(row, metres)


def base_tn(band: str) -> int | None:
    """4 at short range (l.1414-1420); the others assumed (engine.rules.sr1's table)."""
    if band == "short":
        return SHORT_BASE_TN
    return sr3.BASE_TN.get(band)


def target_number(base: int, situational: int = 0, *, moved: bool = False, wound: int = 0,
                  recoil: int = 0, rough: bool = False, laser: bool = False,
                  melee_attackers: int = 0, extra: Mapping[str, int] | None = None
                  ) -> ShotNumbers:
    """Base TN plus modifiers, never below 2 (l.200).  ``situational`` is the sight verdict's
    cover + visibility (engine.rules.sr1); moving while acting +1 (l.1112-1114), rough ground
    while moving +2 (l.1124-1126), melee attackers this turn +1 each (l.1120-1122), wounds
    (l.1218-1222), recoil = shots (l.1378), laser sight -1 (l.1410-1412)."""
    mods: list[tuple[str, int]] = []
    if situational:
        mods.append(("cover_visibility", situational))
    if moved:
        mods.append(("moving", 1))
        if rough:
            mods.append(("rough_ground", 2))
        if melee_attackers:
            mods.append(("melee_attackers", melee_attackers))
    if wound:
        mods.append(("wounds", wound))
    if recoil:
        mods.append(("recoil", recoil))
    if laser:
        mods.append(("laser_sight", -1))
    mods.extend((k, v) for k, v in (extra or {}).items() if v)
    return ShotNumbers(max(MIN_TN, base + sum(v for _k, v in mods)), base, tuple(mods))


def auto_shots(skill: int, rounds: int | None) -> int:
    """Skill + 1 shots, at most 7 or the rounds in the weapon (l.1382)."""
    n = min(skill + 1, MAX_AUTO_SHOTS)
    return max(0, min(n, rounds) if rounds is not None else n)


def recoil(shots: int, compensation: int = 0, machine_gun: bool = False) -> int:
    """Autofire's TN penalty: the number of shots (l.1378), doubled for medium and heavy
    machine guns (l.1446-1448), less compensation but not below 0 (l.1422-1428)."""
    r = shots * (2 if machine_gun else 1)
    return max(r - compensation, 0)


def autofire_code(code: DamageCode) -> DamageCode:
    """Autofire raises the Power Level by 1 (l.1380)."""
    return code.with_power(code.power + 1)


def best_burst(code: DamageCode, skill: int, tn: int, resist_pool: int, auto: int,
               rounds: int | None, compensation: int = 0, machine_gun: bool = False
               ) -> tuple[int, float]:
    """(shots, expected boxes) of the best choice between one shot and every burst the
    shooter may fire: each bullet is its own attack at TN + recoil (l.1378-1384)."""
    best = (1, expected_boxes(code, skill, tn, resist_pool, auto)[1])
    for n in range(2, auto_shots(skill, rounds) + 1):
        c = autofire_code(code)
        e = n * expected_boxes(c, skill, tn + recoil(n, compensation, machine_gun),
                               resist_pool + 0, auto)[1]
        if e > best[1] + 1e-12:
            best = (n, e)
    return best


# ============================================================================ melee

MELEE_BASE_TN = 4  # l.1196, l.1208, l.1230
INTERCEPTION_TN = (5, 6)  # still / has moved this turn (l.1090)


def melee_tn(reach_advantage: bool = False, superior_position: bool = False,
             wound: int = 0) -> ShotNumbers:
    """Base 4; superior reach and superior position each -1 (l.1196)."""
    extra = {"superior_reach": -1 if reach_advantage else 0,
             "superior_position": -1 if superior_position else 0}
    return target_number(MELEE_BASE_TN, wound=wound, extra=extra)


def interception_tn(moved: bool, wound: int = 0) -> ShotNumbers:
    """TN 5, 6 if the interceptor moved this turn; only his wounds apply (l.1086-1090)."""
    return target_number(INTERCEPTION_TN[1 if moved else 0], wound=wound)


def opposed(attacker: int, defender: int) -> tuple[str | None, int]:
    """Who won an Opposed Test and by how many net successes (l.172-176)."""
    if attacker > defender:
        return "attacker", attacker - defender
    if defender > attacker:
        return "defender", defender - attacker
    return None, 0


# ============================================================================ grenades

SCATTER_FACES = 6


def grenade_band(strength: int, metres: float) -> str:
    """Range band of a throw: the borrowed grenade table, Strength x 3/7/15/30 (assumed)."""
    return sr3.range_band(f"grenade:{max(strength, 1)}", metres)


def scatter_direction(face: int) -> float:
    """Degrees from the direction of the throw: 1 along it, 4 back at the thrower, the
    others 60 degrees apart (l.1285; the diagram is missing, assumed)."""
    if not 1 <= face <= SCATTER_FACES:
        raise ValueError(f"a scatter die shows 1-6, not {face}")
    return (face - 1) * 60.0


def scatter_metres(max_scatter: int, successes: int, kind: str) -> int:
    """Max scatter less 3 m (non-aerodynamic) or 5 m per success, at least 0 (l.1289-1309)."""
    per = GRENADE_SCATTER[kind][1]
    return max(max_scatter - per * successes, 0)


def scatter_dice(kind: str) -> int:
    """2d6, 3d6, 4d6 (l.1289-1294): how many d6 are summed."""
    return int(GRENADE_SCATTER[kind][0].upper().split("D")[0])


def blast_code(code: DamageCode, payload: str, metres: float) -> DamageCode | None:
    """The code a victim resists at ``metres`` from the burst: -1 Power per 2 m (offensive)
    or per metre (defensive, concussion) (l.1313-1322); None at the safe distance, where the
    Power has fallen to 1 or less (l.1330-1332)."""
    per = GRENADE_DAMAGE[payload][2]
    power = code.power - (int(metres // per) if metres >= 1 else 0)
    return code.with_power(power) if power > 1 else None


def blast_radius(code: DamageCode, payload: str) -> float:
    """The safe distance in metres: where the Power reaches 1 (l.1330-1332)."""
    per = GRENADE_DAMAGE[payload][2]
    return (code.power - 1) * per


# ============================================================================ barriers


def barrier_hit(power: int, rating: int) -> dict[str, Any]:
    """A shot at a barrier (assumed, see :data:`ASSUMED` ``barrier-damage``): a Power above
    the rating takes 1 off it; at 0 it is holed ("a Rating of 0 is garbage", l.228)."""
    harmed = power > rating
    after = rating - 1 if harmed else rating
    return {"power": power, "barrier_rating": rating, "damaged": harmed,
            "rating_after": max(after, 0), "holed": harmed and after <= 0,
            "assumed": ASSUMED["barrier-damage"]}


__all__ = [
    "ASSUMED", "BOXES", "DamageCode", "Fighter", "Arm", "SR1Condition", "Staged", "TestRoll",
    "arm", "auto_shots", "autofire_code", "barrier_hit", "base_tn", "best_burst", "blast_code",
    "blast_radius", "check_character", "die_total", "distribution", "dodged", "expected_boxes",
    "fighter", "grenade_band", "initiative", "interception_tn", "melee_tn", "net_successes",
    "opposed", "order", "p_at_least", "p_die", "parse_code", "phases", "range_band", "recoil",
    "scatter_dice", "scatter_direction", "scatter_metres", "stage", "target_number", "test",
    "unarmed_code", "wound_level",
]
