"""Dark Conspiracy supplemental rules (seed 003): direct-fire modifiers from LOS facts.

Dark Conspiracy rolls a d20 under a target built from skill and attribute, so a modifier is
added to that target and **a positive number helps the shooter** — the opposite sign to DMZ
and Shadowrun.  Its maps use 2 m squares, the same as one dot.  From the digest
``/work/shared/rules/darkcon_sr1.md`` Part 1 (``Lnnn`` is the seed line it cites):

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

from engine.los import LosFacts

METERS_PER_DOT = 2  # 2 m squares (§1.1, L126) = 1 dot

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


def range_band(weapon: str, meters: int) -> str:
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


class DarkCon:
    """Dark Conspiracy direct-fire modifiers (roll-under: positive is easier)."""

    name = "darkcon"

    def barrier(self, cls: str) -> tuple[int, int]:
        raise ValueError(f"darkcon has no barrier ratings: the supplement's Armor Values of Cover "
                         f"Chart is not in the sources (class {cls!r})")

    def modifiers(self, facts: LosFacts, vision: str = "normal",
                  weapon: str | None = None) -> dict[str, Any]:
        notes: list[str] = []
        vis, row = visibility_modifier(facts.visibility, vision)
        if row:
            notes.append(f"target obscured ({row}) {vis:+d} for {vision} vision")
        prone = PRONE if facts.posture_b == "prone" else 0
        solid = sorted({i["kind"] for i in facts.interruptions if i["kind"] in SOLID_KINDS})
        covered: tuple[str, ...] = ()
        if solid:
            covered = LOCATIONS if facts.posture_b == "prone" else LEGS
            notes.append(f"{', '.join(solid)} hide(s) {', '.join(covered)}: a hit there must "
                         f"penetrate the obstacle")
        # a DMZ-style area modifier makes the shot harder: it is subtracted here
        area = -facts.target_modifier
        total = prone + vis + area
        meters = facts.range * METERS_PER_DOT
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
            if rmod is not None and not facts.blocked:
                hit = rmod + total
        if facts.blocked:
            notes.append("the shooter cannot see the target: no direct fire (L346)")
        return {
            "blocked": facts.blocked,
            "visibility_result": "clear" if vis == 0 else "obscured",
            "cover": 0,
            "prone": prone,
            "elevation": 0,
            "visibility": vis,
            "target_modifier": area,
            "total": total,
            "covered_locations": list(covered),
            "range_m": meters,
            "range_band": band,
            "range_modifier": rmod,
            "difficulty": difficulty,
            "hit_modifier": hit,
            "notes": notes,
        }


__all__ = ["DarkCon", "OBSCURED", "VISIBILITY_ROWS", "parse_weapon", "range_band",
           "visibility_modifier"]
