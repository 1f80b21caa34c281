"""Shadowrun, third-edition era (seed 001, the Combat chapter): target numbers from LOS facts.

Shadowrun works in meters and target numbers (TN): a range band gives the base TN, situational
modifiers are added to it, and the TN never drops below 2.  The engine's facts map onto the
chapter like this (digest ``../shared/rules/sr3_combat.md``; ``Lnnn`` is the seed line the
digest cites):

* any interruption (doorway, window, hole, crates, low wall, foliage, branches, stairwell) is
  Partial Cover, +4 once: the chapter has one level of cover only (digest §6.2, L489);
* darkness and smoke come from the Visibility Table by vision type (digest §7.1, L500-511);
* a prone target and a height difference change nothing for ranged fire: the chapter has no
  such rule (digest §8 and §23), so both are 0;
* a target behind an opaque barrier can still be shot at with Blind Fire, +8 (digest §6.2,
  L486; Firing Through §14.3, L965-969), reported beside the normal ``blocked`` verdict.

Decisions beyond the book are in ``docs/rulesets.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.catalogue import weapon_key
from engine.los import Fan, LosFacts
from engine.rules.base import Movement, barrier_of, straight_metres

BANDS = ("short", "medium", "long", "extreme")
#: base TN per range band (digest §5.2, L391-392)
BASE_TN = {"short": 4, "medium": 5, "long": 6, "extreme": 9}
#: a TN is never below 2 (digest §6, L439/L443)
MIN_TN = 2

PARTIAL_COVER = 4  # digest §6.1/§6.2, L489
BLIND_FIRE = 8  # digest §6.1/§6.2, L486

#: Weapon Range Table, firearms and heavy weapons: upper meter bound of short, medium, long,
#: extreme (digest §5.3, L396-422); launchers also have a minimum range (§5.4, L428-429)
RANGE_TABLE: dict[str, tuple[int, int, int, int]] = {
    "hold-out-pistol": (5, 15, 30, 50),
    "light-pistol": (5, 15, 30, 50),
    "heavy-pistol": (5, 20, 40, 60),
    "smg": (10, 40, 80, 150),
    "taser": (5, 10, 12, 15),
    "shotgun": (10, 20, 50, 100),
    "sporting-rifle": (30, 60, 150, 300),
    "sniper-rifle": (40, 80, 200, 400),
    "assault-rifle": (15, 40, 100, 250),
    "lmg": (20, 40, 80, 150),
    "mmg": (40, 150, 300, 500),
    "hmg": (40, 150, 400, 800),
    "assault-cannon": (50, 150, 450, 1300),
    "grenade-launcher": (50, 100, 150, 300),
    "missile-launcher": (70, 150, 450, 1500),
}
MIN_RANGE = {"grenade-launcher": 5, "missile-launcher": 20}  # digest §5.4, L428-429

#: weapons whose bands are multiples of a Strength (the bow's or crossbow's Strength Minimum,
#: the thrower's Strength): short, medium, long, extreme multipliers (digest §5.3, L410-422;
#: grenades §13.2, L870-875)
STRENGTH_TABLE: dict[str, tuple[int, int, int, int]] = {
    "bow": (1, 10, 30, 60),
    "light-crossbow": (2, 8, 20, 40),
    "medium-crossbow": (3, 12, 30, 50),
    "heavy-crossbow": (5, 15, 40, 60),
    "throwing-knife": (1, 2, 3, 5),
    "shuriken": (1, 2, 5, 7),
    "grenade": (3, 7, 15, 30),
    "aerodynamic-grenade": (3, 7, 15, 30),
}

#: the table's row for a weapon type it has no row of (names are first spelled by
#: :func:`engine.catalogue.weapon_key`, the one alias table): a machine pistol ranges as a
#: light pistol, a knife (or any thrown weapon) as a throwing knife
_ROW_OF = {"machine-pistol": "light-pistol", "knife": "throwing-knife",
           "thrown": "throwing-knife"}

#: Visibility Table (digest §7.1, L500-511): condition -> vision -> modifier.  A pair is
#: (cybernetic/electronic, natural metahuman) as the slash entries read (L494).
SR_VISIBILITY: dict[str, dict[str, int | tuple[int, int]]] = {
    "Full Darkness": {"normal": 8, "low-light": (8, 8), "thermographic": (4, 2)},
    "Minimal Light": {"normal": 5, "low-light": (4, 2), "thermographic": (4, 2)},
    "Partial Light": {"normal": 2, "low-light": (1, 0), "thermographic": (2, 1)},
    "Glare": {"normal": 2, "low-light": (2, 0), "thermographic": 0},
    "Mist": {"normal": 4, "low-light": (4, 2), "thermographic": 0},
    "Light Smoke/Fog/Rain": {"normal": 4, "low-light": (4, 2), "thermographic": 0},
    "Heavy Smoke/Fog/Rain": {"normal": 6, "low-light": (6, 4), "thermographic": (1, 0)},
}
#: the engine's conditions -> the table's rows (project decision, docs/rulesets.md)
CONDITION_ROW = {
    "partial-darkness": "Partial Light",
    "full-darkness": "Full Darkness",
    "smoke": "Heavy Smoke/Fog/Rain",
}
_LIGHTING = ("partial-darkness", "full-darkness")
#: vision names: the table's column and whether the eyes are natural (second slash value)
VISIONS: dict[str, tuple[str, bool]] = {
    "normal": ("normal", False),
    "low-light": ("low-light", False),
    "thermographic": ("thermographic", False),
    "low-light-natural": ("low-light", True),
    "thermographic-natural": ("thermographic", True),
}

#: Barrier Rating Table (digest §14.1, L946-958)
BARRIER_RATINGS: dict[str, int] = {
    "Standard Glass": 2, "Cheap Material": 3, "Average Material": 4, "Heavy Material": 6,
    "Reinforced/Armored Glass": 8, "Structural Material": 12, "Heavy Structural Material": 16,
    "Armored/Reinforced Material": 24, "Hardened Material": 32,
}
#: DMZ barrier classes -> the closest material, by what the feature is (docs/rulesets.md)
CLASS_MATERIAL: dict[str, dict[str, str]] = {
    "wall": {"thin": "Average Material", "average": "Structural Material",
             "thick": "Heavy Structural Material"},
    "door": {"thin": "Cheap Material", "average": "Average Material", "thick": "Heavy Material"},
    "window": {"standard": "Standard Glass", "reinforced": "Reinforced/Armored Glass"},
}
_KIND_TABLE = {"wall": "wall", "fence": "wall", "low-wall": "wall", "door": "door",
               "window": "window"}
#: blockers Firing Through applies to (a whole building or a dead zone is not one barrier)
FIRE_THROUGH_KINDS = ("wall", "fence", "door", "window", "obstacle", "trunk", "floor")


#: Grenade Damage Table (seed 001 l.905-911): type -> (Power, Damage Level, metres per -1 Power)
GRENADE_DAMAGE: dict[str, tuple[int, str, float]] = {
    "offensive": (10, "S", 1.0), "defensive": (10, "S", 0.5), "concussion": (12, "M (Stun)", 1.0),
}
#: Grenade Range Table scatter dice and the metres each success takes off (seed 001 l.870-891)
GRENADE_SCATTER: dict[str, tuple[str, int]] = {
    "standard": ("3D6", 2), "aerodynamic": ("2D6", 4), "launcher": ("2D6", 4),
}


def blast_power(grenade: str, metres: float, table: dict[str, tuple[int, str, float]]
                ) -> dict[str, Any]:
    """Power left at ``metres`` from the blast point; the blast stops where it reaches 0."""
    if grenade not in table:
        raise ValueError(f"unknown grenade type {grenade!r} (known: {', '.join(table)})")
    power, level, per = table[grenade]
    left = power - int(metres // per)
    return {"power": max(left, 0), "damage": f"{max(left, 0)}{level}", "reaches": left > 0,
            "radius_m": power * per}


def parse_weapon(weapon: str) -> tuple[str, int | None]:
    """``"heavy-pistol"`` -> (key, None); ``"bow:5"`` -> ("bow", 5) for Strength-based bands."""
    name, _, strength = weapon.partition(":")
    key = weapon_key(name)
    key = _ROW_OF.get(key, key)
    if key not in RANGE_TABLE and key not in STRENGTH_TABLE:
        known = ", ".join([*RANGE_TABLE, *STRENGTH_TABLE])
        raise ValueError(f"weapon {weapon!r} has no row in the Weapon Range Table (known: {known})")
    if key in STRENGTH_TABLE:
        if not strength.strip().isdigit() or int(strength) < 1:
            raise ValueError(f"weapon {weapon!r}: its ranges follow a Strength; write {key}:STR "
                             f"(e.g. {key}:4)")
        return key, int(strength)
    if strength:
        raise ValueError(f"weapon {weapon!r}: a {key} takes no Strength")
    return key, None


def range_bounds(weapon: str) -> tuple[int, tuple[int, int, int, int]]:
    """(minimum meters, upper meter bound of each band) for a weapon."""
    key, strength = parse_weapon(weapon)
    if strength is not None:
        return 0, tuple(strength * k for k in STRENGTH_TABLE[key])  # type: ignore[return-value]
    return MIN_RANGE.get(key, 0), RANGE_TABLE[key]


def range_band(weapon: str, meters: float) -> str:
    """short|medium|long|extreme, ``too-close`` under a launcher's minimum, or ``out-of-range``.

    Metres are measured along the straight line and not rounded: a band holds every range up
    to and including its upper bound, so 5.0 m is short for a 0-5 m band and 5.7 m is medium.
    """
    lo, bounds = range_bounds(weapon)
    if meters < lo - 1e-9:
        return "too-close"
    for band, hi in zip(BANDS, bounds):
        if meters <= hi + 1e-9:
            return band
    return "out-of-range"


def visibility_modifier(conditions: list[str], vision: str) -> tuple[int, list[str]]:
    """TN modifier for the conditions on the line, and the table rows it came from.

    The worst lighting row counts (the light is one condition) and smoke adds to it, as the
    table's rows are separate situations (L500-511).  The book states no cap, so none is
    applied: darkness and heavy smoke together cost more than Blind Fire's +8.
    """
    if vision not in VISIONS:
        raise ValueError(f"vision {vision!r} is not one of {', '.join(VISIONS)}")
    column, natural = VISIONS[vision]

    def value(row: str) -> int:
        v = SR_VISIBILITY[row][column]
        return v[1 if natural else 0] if isinstance(v, tuple) else v

    light = [c for c in conditions if c in _LIGHTING]
    rows: list[str] = []
    total = 0
    if light:
        row = max((CONDITION_ROW[c] for c in light), key=value)
        rows.append(row)
        total += value(row)
    if "smoke" in conditions:
        rows.append(CONDITION_ROW["smoke"])
        total += value(CONDITION_ROW["smoke"])
    return total, rows


def blast_against_barrier(power: int, rating: int) -> dict[str, Any]:
    """A blast of ``power`` (what is left of it at the barrier) against a barrier of ``rating``:
    the Barrier Effect Table read at twice the rating (seed 001 l.920, l.982-986).  Below half
    the doubled rating the barrier holds unharmed; up to it the barrier holds with its rating 1
    lower; above it the blast opens a half-metre hole (and takes a point off the rating) for
    every full increment of half the doubled rating it exceeds it by, at least one, and goes on
    with its Power less the original rating (l.924).  That the barrier falls exactly when a hole
    opens, and the "at least one", are project decisions (docs/rulesets.md)."""
    adjusted = 2 * rating
    if power < adjusted / 2:
        effect, holes = "holds", 0
    elif power <= adjusted:
        effect, holes = "damaged", 0
    else:
        effect, holes = "holed", max(1, (power - adjusted) // max(rating, 1))
    after = rating - (1 if effect == "damaged" else holes)
    falls = effect == "holed"
    return {"power": power, "barrier_rating": rating, "adjusted_rating": adjusted,
            "effect": effect, "holes_half_m": holes, "rating_after": max(after, 0),
            "falls": falls, "power_beyond": power - rating if falls else 0,
            "rule": "Blast against Barriers, seed 001 l.920-924, Barrier Effect Table l.982-986"}


def opaque_door(facts: LosFacts) -> dict[str, Any] | None:
    """The first closed door on the line: an opaque barrier (L486), or None."""
    for i in facts.interruptions:
        if i["kind"] == "door" and i.get("state") == "closed":
            return i
    return None


def barrier_rating(cls: str, kind: str = "wall") -> int:
    """Barrier Rating of a DMZ class for a wall/fence, door or window."""
    table = CLASS_MATERIAL[_KIND_TABLE.get(kind, "wall")]
    if cls not in table:
        # a window class on a wall (or the reverse): look the class up where it lives
        table = next((t for t in CLASS_MATERIAL.values() if cls in t), None)
        if table is None:
            known = sorted({c for t in CLASS_MATERIAL.values() for c in t})
            raise ValueError(f"barrier class {cls!r} is not one of {', '.join(known)}")
    return BARRIER_RATINGS[table[cls]]


def barrier_total(ruleset: Any, facts: LosFacts) -> tuple[int | None, list[dict[str, Any]]]:
    """(sum of the ratings, each barrier with its rating) of every barrier the line meets:
    Firing Through subtracts each one it passes (L967-969)."""
    items = []
    for b in facts.barriers:
        got = barrier_of(ruleset, b)
        if got is not None:
            items.append({"kind": b["kind"], "feature": b["feature"], "rating": got[0]})
    return (sum(i["rating"] for i in items) if items else None), items


class SR3:
    """Shadowrun 3rd-edition-era target numbers from the engine's LOS facts."""

    name = "sr3"
    movement = Movement("m", 2 ** 0.5, (("walk", 1.0), ("run", 3.0), ("run-dwarf", 2.0),
                                         ("run-troll", 2.0)),
                        "Quickness metres per Combat Phase walking, x3 running (x2 dwarf, "
                        "troll), seed 001 l.209-230")

    def blast(self, grenade: str, metres: float) -> dict[str, Any]:
        """Power at a distance: 3 m from an offensive grenade is 7S, 6 m 4S; a defensive one
        4S at 3 m and nothing at 6 m (seed 001 l.915)."""
        return {**blast_power(grenade, metres, GRENADE_DAMAGE),
                "rule": "Grenade Damage Table, seed 001 l.905-915"}

    def blast_through(self, grenade: str, metres: float,
                      barriers: list[tuple[float, int]]) -> dict[str, Any]:
        """The blast at ``metres`` from the burst, past ``barriers`` ((metres from the burst,
        Barrier Rating) each): every barrier meets the Power left at it (l.920); one that holds
        stops the blast there (channelling, l.924-930, is the referee's), one that falls takes
        its original rating off the Power from there on (l.924)."""
        base = blast_power(grenade, metres, GRENADE_DAMAGE)
        power, level, per = GRENADE_DAMAGE[grenade]
        spent, steps = 0, []
        for at, rating in sorted(barriers):
            left = power - int(at // per) - spent
            if left <= 0:
                break
            step = blast_against_barrier(left, rating)
            steps.append({"metres": at, **step})
            if not step["falls"]:
                return {**base, "power": 0, "damage": f"0{level}", "reaches": False,
                        "barriers": steps, "stopped": True,
                        "rule": "Blast against Barriers, seed 001 l.920-924"}
            spent += rating
        left = max(base["power"] - spent, 0)
        return {**base, "power": left, "damage": f"{left}{level}", "reaches": left > 0,
                "barriers": steps, "stopped": False,
                "rule": "Grenade Damage Table l.905-915, Blast against Barriers l.920-924, "
                        "seed 001"}

    def scatter(self, grenade: str = "standard") -> dict[str, Any]:
        if grenade not in GRENADE_SCATTER:
            raise ValueError(f"grenade {grenade!r} is not one of {', '.join(GRENADE_SCATTER)}")
        dice, per = GRENADE_SCATTER[grenade]
        return {"distance_dice": dice, "metres_per_success": per, "direction_dice": "1D6",
                "rule": "Determine Scatter, seed 001 l.870-891"}

    def fall(self, stories: int) -> dict[str, Any]:
        """The chapter has no falling rule (not applicable; docs/rulesets.md)."""
        return {"metres": stories * 4, "damage": None, "rule": "no falling rule in seed 001"}

    def path_metres(self, straight: int, diagonal: int, stories: int) -> float:
        """Metres walked: 2 m a step, 2.83 m a diagonal, 4 m per story (stairs, climbs)."""
        return straight * 2.0 + diagonal * 2 * 2 ** 0.5 + stories * 4.0

    def barrier(self, cls: str, kind: str = "wall") -> tuple[int, int]:
        """(Barrier Rating, armor): one number plays both roles in Shadowrun — it must be beaten
        to damage the barrier and it comes off the Power of a shot through it (L967-969)."""
        r = barrier_rating(cls, kind)
        return (r, r)

    def custom_barrier(self, value: int, armor: int, kind: str = "wall") -> tuple[int, int]:
        """An author's DMZ-scale numbers: the rating of the DMZ class nearest its value."""
        dmz = {"thin": 8, "average": 12, "thick": 18} if kind != "window" else \
            {"standard": 6, "reinforced": 14}
        cls = min(dmz, key=lambda c: (abs(dmz[c] - value), dmz[c]))
        return self.barrier(cls, kind)

    def range_m(self, facts: LosFacts) -> float:
        """Metres along the straight line, height included (L385: count the metres)."""
        return round(straight_metres(facts), 2)

    def modifiers(self, facts: LosFacts, vision: str = "normal",
                  weapon: str | None = None, *, text: bool = True) -> dict[str, Any]:
        """Every number of the verdict, and with ``text`` the interruptions, reasons and
        notes citing the rules (play reads the numbers alone: :data:`engine.rules.base.TEXT_KEYS`
        are left out without ``text``, every other key is the same)."""
        notes: list[str] = []
        reasons: list[str] = []
        vis, rows = visibility_modifier(facts.visibility, vision)
        door = opaque_door(facts)
        blocked = facts.blocked or door is not None
        blocked_by = facts.blocked_by
        if door is not None and not facts.blocked:
            blocked_by = {**door, "reason": f"closed door {door['feature']} is an opaque barrier"}
        seen = [i for i in facts.interruptions if i is not door]
        cover = PARTIAL_COVER if seen and not blocked else 0
        items = []
        for i in facts.interruptions:
            b = barrier_of(self, i)  # (asked of each: a class it cannot rate raises either way)
            if not text:
                continue
            why = i["reason"]
            if b is not None:
                why += f" (Barrier Rating {b[0]}, seed 001 l.946-962)"
            items.append({"kind": i["kind"], "feature": i.get("feature"), "reason": why,
                          **({"barrier_rating": b[0]} if b is not None else {})})
        if text:
            if blocked_by:
                b = barrier_of(self, blocked_by)
                reasons.append(f"blocked: {blocked_by.get('reason', blocked_by.get('kind'))}"
                               + (f" (Barrier Rating {b[0]}, seed 001 l.946-962)" if b else ""))
            if not blocked:
                reasons += [i["reason"] for i in items if "barrier_rating" in i]
            if cover:
                kinds = ", ".join(sorted({i["kind"] for i in seen}))
                notes.append(f"partial cover +{PARTIAL_COVER} ({kinds}); one level only")
                reasons.append(f"partial cover +{PARTIAL_COVER} ({kinds}), once (seed 001 "
                               f"l.488-489)")
            if rows:
                notes.append(f"visibility +{vis} ({' + '.join(rows)}, {vision} vision)")
                reasons.append(f"visibility +{vis} ({' + '.join(rows)}, {vision} vision; "
                               f"Visibility Table, seed 001 l.494-511)")
            if facts.posture_b == "prone":
                notes.append("prone target: no ranged modifier in this chapter")
            if facts.elevation_stories:
                notes.append("height difference: no ranged modifier in this chapter")
        total = cover + vis + facts.target_modifier
        meters = self.range_m(facts)
        rating, through = barrier_total(self, facts)
        band = base = tn = blind_tn = None
        if weapon:
            band = range_band(weapon, meters)
            if band in BASE_TN:
                base = BASE_TN[band]
                tn = max(MIN_TN, base + total)
                blind_tn = max(MIN_TN, base + BLIND_FIRE + facts.target_modifier)
        blind = 0
        kind = (blocked_by or {}).get("kind")
        if blocked and kind in FIRE_THROUGH_KINDS:
            blind = BLIND_FIRE
            if text:
                why = (f"no sight through the {kind}: Blind Fire +{BLIND_FIRE} (seed 001 l.486); "
                       f"the Barrier Rating comes off the Power (Firing Through, seed 001 "
                       f"l.964-968)")
                notes.append(why)
                reasons.append(why + (f": barriers on the line total {rating}" if rating else ""))
        else:
            blind_tn = None
        if blocked:
            tn = None
        out = {
            "blocked": blocked,
            "blocked_by": blocked_by,
            "visibility_result": "clear" if vis == 0 else ("blind" if vis >= BLIND_FIRE
                                                           else "impaired"),
            "cover": cover,
            "prone": 0,
            "elevation": 0,
            "visibility": vis,
            "target_modifier": facts.target_modifier,
            "total": total,
            "range_m": meters,
            "range_band": band,
            "base_target_number": base,
            "target_number": tn,
            "blind_fire": blind,
            "blind_fire_target_number": blind_tn,
            "barrier_rating": rating,
            "barriers": through,
        }
        if text:
            out.update(interruptions=items, reasons=reasons, notes=notes)
        return out

    def fan_verdict(self, fan: Fan, vision: str = "normal", light: str = "day"
                    ) -> tuple[np.ndarray, np.ndarray]:
        """Blocked by geometry or a closed door; one level of cover for any interruption."""
        if vision not in VISIONS:
            raise ValueError(f"vision {vision!r} is not one of {', '.join(VISIONS)}")
        closed = np.asarray(fan.closed_doors) if fan.closed_doors is not None else 0
        blocked = np.asarray(fan.blocked) | (closed > 0)
        return blocked, (np.asarray(fan.cover) > 0).astype(np.int64)


__all__ = ["SR3", "BARRIER_RATINGS", "CLASS_MATERIAL", "SR_VISIBILITY", "barrier_rating",
           "barrier_total", "blast_against_barrier", "opaque_door", "parse_weapon", "range_band",
           "visibility_modifier"]
