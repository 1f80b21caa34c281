"""Dark Conspiracy supplemental rules (seed 003): direct-fire modifiers from LOS facts.

Dark Conspiracy rolls a d20 under a target built from skill and attribute, so a modifier is
added to that target and **a positive number helps the shooter** — the opposite sign to DMZ
and Shadowrun.  Its maps use 2 m squares, the same as one dot.  From the digest
``../shared/rules/darkcon_sr1.md`` Part 1 (``Lnnn`` is the seed line it cites):

* range: the weapon's printed range R is short; medium 2R, long 4R, extreme 8R; +4 at short,
  0 at medium (an Average task), -4 long, -6 extreme (§1.8, L400);
* target obscured -2 / -4 / -6 and target prone -4 (§1.8, L402-411);
* cover does not change the roll: a hit on a body part behind an obstacle does nothing unless
  it penetrates the obstacle (§1.14, L644), so ``cover`` is 0 and ``covered_locations`` says
  which parts the crossed obstacles hide;
* no elevation rule for fire (§1.15, L666-668): 0.

The supplement's weapon charts and its Armor Values of Cover Chart are not in the sources, so a
weapon is given by its printed short range and no barrier has a rating here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.los import Fan, LosFacts
from engine.rules.base import METERS_PER_DOT, METERS_PER_STORY, Movement

BANDS = ("short", "medium", "long", "extreme")
BAND_FACTOR = {"short": 1, "medium": 2, "long": 4, "extreme": 8}  # §1.8, L400
RANGE_MODIFIER = {"short": 4, "medium": 0, "long": -4, "extreme": -6}  # §1.8, L400
PRONE = -4  # §1.8, L410

#: Target obscured rows (§1.8, L406-409)
OBSCURED = {
    "fog, haze, rain, snow, dusk/dawn": -2,
    "moderate smoke, moonlit night": -4,
    "thick smoke, moonless night": -6,
}
_HAZE, _MODERATE, _THICK = OBSCURED
#: the engine's conditions -> an Obscured row per vision (project decision, docs/rulesets.md):
#: low-light amplification compensates dim light, thermographic sight compensates darkness and
#: sees dimly through smoke; None means no penalty
VISIBILITY_ROWS: dict[str, dict[str, str | None]] = {
    "partial-darkness": {"normal": _MODERATE, "low-light": None, "thermographic": None},
    "full-darkness": {"normal": _THICK, "low-light": _MODERATE, "thermographic": None},
    "smoke": {"normal": _THICK, "low-light": _THICK, "thermographic": _HAZE},
}
VISIONS = ("normal", "low-light", "thermographic")

#: obstacles that hide the legs of a standing target, all of a prone one (project decision);
#: doorways, holes, foliage and branches hide without stopping a round
SOLID_KINDS = ("low-wall", "obstacle", "window")
LOCATIONS = ("head", "chest", "left-arm", "right-arm", "left-leg", "right-leg")  # L74-80
LEGS = ("left-leg", "right-leg")


def parse_weapon(weapon: str) -> tuple[str, int]:
    """``"40"`` or ``"m16:40"`` -> ("direct", 40): printed short range in meters;
    ``"thrown:5"`` -> ("thrown", 20): throw range 4 x Strength (§1.11, L84, L507)."""
    name, _, num = weapon.rpartition(":") if ":" in weapon else ("", "", weapon)
    num = num.strip()
    if not num.isdigit() or int(num) < 1:
        raise ValueError(f"weapon {weapon!r}: give the printed short range in meters (e.g. 40 "
                         f"or pistol:15), or thrown:STR")
    if name.strip().lower() == "thrown":
        return "thrown", 4 * int(num)
    return "direct", int(num)


def range_band(weapon: str, meters: float) -> str:
    """short|medium|long|extreme for direct fire, normal|long for a throw, or out-of-range."""
    mode, r = parse_weapon(weapon)
    if mode == "thrown":
        return "normal" if meters <= r else ("long" if meters <= 2 * r else "out-of-range")
    for band in BANDS:
        if meters <= BAND_FACTOR[band] * r:
            return band
    return "out-of-range"


def visibility_modifier(conditions: list[str], vision: str) -> tuple[int, str | None]:
    """The worst Obscured row met for this vision (the rows grade one scene; they do not add)."""
    if vision not in VISIONS:
        raise ValueError(f"vision {vision!r} is not one of {', '.join(VISIONS)}")
    worst: str | None = None
    for c in conditions:
        row = VISIBILITY_ROWS[c][vision]
        if row is not None and (worst is None or OBSCURED[row] < OBSCURED[worst]):
            worst = row
    return (0 if worst is None else OBSCURED[worst]), worst


def squares(straight: int, diagonal: int) -> int:
    """2 m squares of a move or a count: every other diagonal square counts double (L128)."""
    return straight + diagonal + diagonal // 2


def range_squares(facts: LosFacts) -> int:
    """Squares from firer to target, height included (two squares per 4 m story, counted as
    one more axis with the same every-other-diagonal rule; project decision)."""
    dc, dr = abs(facts.a[0] - facts.b[0]), abs(facts.a[1] - facts.b[1])
    # a square lattice counts king moves; on a hex lattice every step is one square
    flat = squares(max(dc, dr) - min(dc, dr), min(dc, dr)) if facts.range == max(dc, dr) \
        else facts.range
    up = facts.elevation_stories * METERS_PER_STORY // METERS_PER_DOT
    return squares(max(flat, up) - min(flat, up), min(flat, up))


#: Incidental Fire Zone width per band, metres (seed 003 l.434)
INCIDENTAL_WIDTH_M = {"short": 2, "medium": 4, "long": 6, "extreme": 8}


def incidental_fire_zone(a: tuple[float, float], b: tuple[float, float], band: str
                         ) -> list[tuple[float, float]]:
    """The zone of an autofire burst as a polygon in board units (1 = one 2 m dot spacing;
    ``a``, ``b`` are the dots' points, so hex rows land where they are drawn): a path
    from shooter to target as wide as the band says, running on behind the target as far as
    it is wide (seed 003 l.434).  The editor draws it; play asks who stands in it."""
    if band not in INCIDENTAL_WIDTH_M:
        raise ValueError(f"band {band!r} is not one of {', '.join(INCIDENTAL_WIDTH_M)}")
    w = INCIDENTAL_WIDTH_M[band] / METERS_PER_DOT
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = (dx * dx + dy * dy) ** 0.5
    if n == 0:
        return []
    ux, uy = dx / n, dy / n
    px, py = -uy * w / 2, ux * w / 2
    ex, ey = b[0] + ux * w, b[1] + uy * w
    return [(round(a[0] + px, 3), round(a[1] + py, 3)), (round(ex + px, 3), round(ey + py, 3)),
            (round(ex - px, 3), round(ey - py, 3)), (round(a[0] - px, 3), round(a[1] - py, 3))]


class DarkCon:
    """Dark Conspiracy direct-fire modifiers (roll-under: positive is easier)."""

    name = "darkcon"
    has_barriers = False  # its Armor Values of Cover Chart is not in the sources
    movement = Movement("m", None, (("crawl", 0.5), ("walk", 1.0), ("trot", 2.0), ("run", 4.0)),
                        "8 m walking for a human; crawl x1/2, trot x2, run x4; every other "
                        "diagonal square doubled, seed 003 l.126-146")
    base_rate = 8  # metres a human walks in an action (seed 003 l.143)

    def path_metres(self, straight: int, diagonal: int, stories: int) -> float:
        """2 m squares, every other diagonal doubled (l.128), 4 m per story climbed."""
        return float(squares(straight, diagonal) * METERS_PER_DOT + stories * METERS_PER_STORY)

    def range_m(self, facts: LosFacts) -> float:
        return float(range_squares(facts) * METERS_PER_DOT)

    def fall(self, stories: int, agility: int = 0, metres: int | None = None) -> dict[str, Any]:
        """2D6 per metre fallen less Agility D6 (seed 003 l.666; 6 m, Agility 6: 6D6, l.668)."""
        metres = stories * METERS_PER_STORY if metres is None else metres
        return {"metres": metres, "damage": f"{max(2 * metres - agility, 0)}D6",
                "rule": "Falls, seed 003 l.664-668"}

    def custom_barrier(self, value: int, armor: int, kind: str = "wall") -> tuple[int, int]:
        return self.barrier("custom")

    def fan_verdict(self, fan: Fan, vision: str = "normal", light: str = "day"
                    ) -> tuple[np.ndarray, np.ndarray]:
        """What the firer cannot see (geometry, a closed door) is no target for direct fire."""
        if vision not in VISIONS:
            raise ValueError(f"vision {vision!r} is not one of {', '.join(VISIONS)}")
        closed = np.asarray(fan.closed_doors) if fan.closed_doors is not None else 0
        return np.asarray(fan.blocked) | (closed > 0), np.asarray(fan.cover)

    def barrier(self, cls: str) -> tuple[int, int]:
        raise ValueError(f"darkcon has no barrier ratings: the supplement's Armor Values of Cover "
                         f"Chart is not in the sources (class {cls!r})")

    def modifiers(self, facts: LosFacts, vision: str = "normal",
                  weapon: str | None = None, *, text: bool = True) -> dict[str, Any]:
        """Every number of the verdict, and with ``text`` the interruptions, reasons and
        notes citing the rules (play reads the numbers alone: :data:`engine.rules.base.TEXT_KEYS`
        are left out without ``text``, every other key is the same)."""
        notes: list[str] = []
        reasons: list[str] = []
        vis, row = visibility_modifier(facts.visibility, vision)
        door = next((i for i in facts.interruptions
                     if i["kind"] == "door" and i.get("state") == "closed"), None)
        blocked = facts.blocked or door is not None
        blocked_by = facts.blocked_by
        if door is not None and not facts.blocked:
            blocked_by = {**door, "reason": f"closed door {door['feature']} hides the target"}
        items = []
        if text:
            if blocked_by:
                reasons.append(f"blocked: {blocked_by.get('reason', blocked_by.get('kind'))}: no direct fire at what the firer "
                               f"cannot see (seed 003 l.346)")
            if row:
                notes.append(f"target obscured ({row}) {vis:+d} for {vision} vision")
                reasons.append(f"target obscured ({row}) {vis:+d} for {vision} vision "
                               f"(seed 003 l.402-409)")
            items = [{"kind": i["kind"], "feature": i.get("feature"),
                      "reason": i["reason"] + (" (hides legs, seed 003 l.644)"
                                               if i["kind"] in SOLID_KINDS else " (hides, no roll)")}
                     for i in facts.interruptions]
        prone = PRONE if facts.posture_b == "prone" else 0
        solid = sorted({i["kind"] for i in facts.interruptions if i["kind"] in SOLID_KINDS})
        covered: tuple[str, ...] = ()
        if solid:
            covered = LOCATIONS if facts.posture_b == "prone" else LEGS
            if text:
                notes.append(f"{', '.join(solid)} hide(s) {', '.join(covered)}: a hit there "
                             f"must penetrate the obstacle")
        # a DMZ-style area modifier makes the shot harder: it is subtracted here
        area = -facts.target_modifier
        total = prone + vis + area
        meters = self.range_m(facts)
        band = rmod = hit = None
        difficulty = "Average"
        if weapon:
            band = range_band(weapon, meters)
            if band in RANGE_MODIFIER and parse_weapon(weapon)[0] == "direct":
                rmod = RANGE_MODIFIER[band]
            elif band == "normal":
                rmod = 0
            elif band == "long":  # a throw at long range is a Difficult task (L507)
                rmod, difficulty = 0, "Difficult"
            if rmod is not None and not blocked:
                hit = rmod + total
        if text:
            if blocked:
                notes.append("the shooter cannot see the target: no direct fire (L346)")
            if prone:
                reasons.append(f"target prone {prone:+d} (seed 003 l.410)")
        out: dict[str, Any] = {"blocked": blocked, "blocked_by": blocked_by}
        if text:
            out.update(interruptions=items, reasons=reasons)
        out.update({
            "visibility_result": "clear" if vis == 0 else "obscured",
            "cover": 0,
            "prone": prone,
            "elevation": 0,
            "visibility": vis,
            "target_modifier": area,
            "total": total,
            "covered_locations": list(covered),
            "incidental_fire_zone": (incidental_fire_zone(*(facts.ends or (facts.a[:2], facts.b[:2])),
                                                          band)
                                     if band in INCIDENTAL_WIDTH_M else None),
            "range_m": meters,
            "range_band": band,
            "range_modifier": rmod,
            "difficulty": difficulty,
            "hit_modifier": hit,
        })
        if text:
            out["notes"] = notes
        return out


__all__ = ["DarkCon", "OBSCURED", "VISIBILITY_ROWS", "parse_weapon", "range_band",
           "visibility_modifier"]
