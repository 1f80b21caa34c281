"""DMZ (FASA, 1990): cover, prone, elevation and visibility modifiers from LOS facts.

Numbers from the DMZ tables: +1 per level of cover; a prone target more than one dot away is
+1, within one dot -2; +1 per full 4 stories of elevation difference (or, as the advanced
option, per the Elevation Table's stories for the weapon type); darkness and smoke by the
Visibility Table for the viewer's vision, counted once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.catalogue import weapon_key
from engine.los import VISIBILITY_ORDER, Fan, LosFacts
from engine.rules.base import METERS_PER_DOT, Movement, barrier_of, light_index

#: Barrier Table (seed 000 l.1380-1387): class -> (Barrier Value, Armor Rating).  Walls and
#: doors are Average and windows Standard unless a sheet says otherwise (l.1376).
BARRIERS: dict[str, tuple[int, int]] = {
    "thin": (8, 0),
    "average": (12, 1),
    "thick": (18, 3),
    "standard": (6, 0),
    "reinforced": (14, 2),
}
BARRIER_LINE = {"thin": 1383, "average": 1384, "thick": 1385, "standard": 1386, "reinforced": 1387}
#: Movement Cost Table (seed 000 l.518-535): extra MP per thing crossed or done.  The one
#: opening-cost table: movement and play both read it.
MOVEMENT_COSTS: dict[str, int] = {
    "through-door": 1,  # Move Through Open Door, l.526
    "through-window": 2,  # Move Through Open Window, l.527
    "open-door": 2,  # Open Closed Door, l.528
    "open-window": 4,  # Open Closed Window, l.529
    "hole": 1,  # a blasted hole moves like a door (l.1378)
    "stairs": 3,  # Climb One Flight of Stairs, l.530
    "elevator": 3,  # project decision: the table has no elevator row, priced as stairs
    "climb-up": 6, "climb-up-assisted": 4,  # l.531-532
    "climb-down": 4, "climb-down-assisted": 2,  # l.533-534
    "drop": 2,  # Drop From One Story, l.535
}

#: Grenade Blast Success Values (seed 000 l.1152-1158): type -> (standard SV, IPE SV, Target
#: Value added per dot from ground zero, boxes); smoke has no blast
GRENADES: dict[str, tuple[int, int, int | None, int]] = {
    "offensive": (20, 24, 4, 4),
    "defensive": (20, 24, 8, 4),
    "concussion": (16, 20, 8, 4),
    "smoke": (16, 20, None, 0),
}

#: the seed line each kind of interruption is +1 by (Interrupted LOS: Cover, l.790-798)
COVER_LINE = {"door": 796, "window": 796, "hole": 796, "stairs": 797, "canopy": 798,
              "foliage": 719, "obstacle": 719, "low-wall": 719}
#: Visibility Table: condition -> result per vision type
VISIBILITY_TABLE: dict[str, dict[str, str]] = {
    "full-darkness": {"normal": "blocked", "low-light": "interrupted", "thermographic": "clear"},
    "partial-darkness": {"normal": "interrupted", "low-light": "clear", "thermographic": "clear"},
    "smoke": {"normal": "blocked", "low-light": "blocked", "thermographic": "interrupted"},
}
VISIONS = ("normal", "low-light", "thermographic")

#: advanced Elevated Combat rule: full stories of difference per +1, by weapon family
ELEVATION_TABLE: dict[str, int] = {
    "pistol": 3, "rifle": 10, "grenade-launcher": 10, "bow": 10, "crossbow": 10,
    "smg": 6, "lmg": 6, "machine-gun": 25, "assault-cannon": 60, "missile-launcher": 60,
    "thrown": 1,
}
#: weapon type (as :func:`engine.catalogue.weapon_key` spells it) -> its Elevation Table row;
#: a row's own name ("pistol", "machine-gun", "thrown") is accepted as the weapon too
_WEAPON_FAMILY = {
    "hold-out-pistol": "pistol", "light-pistol": "pistol", "heavy-pistol": "pistol",
    "machine-pistol": "pistol", "shotgun": "rifle", "sporting-rifle": "rifle",
    "sniper-rifle": "rifle", "assault-rifle": "rifle", "mmg": "machine-gun", "hmg": "machine-gun",
    "light-crossbow": "crossbow", "medium-crossbow": "crossbow", "heavy-crossbow": "crossbow",
    "grenade": "thrown", "knife": "thrown", "throwing-knife": "thrown", "shuriken": "thrown",
}


def _table(table: dict[str, Any], key: str) -> Any:
    if key not in table:
        raise ValueError(f"unknown grenade type {key!r} (known: {', '.join(table)})")
    return table[key]


def visibility_result(conditions: list[str], vision: str) -> str:
    """Worst Visibility Table result over the conditions met: clear, interrupted or blocked."""
    if vision not in VISIONS:
        raise ValueError(f"vision {vision!r} is not one of {', '.join(VISIONS)}")
    worst = "clear"
    rank = {"clear": 0, "interrupted": 1, "blocked": 2}
    for c in conditions:
        r = VISIBILITY_TABLE[c][vision]
        if rank[r] > rank[worst]:
            worst = r
    return worst


def elevation_modifier(stories: int, weapon: str | None = None) -> int:
    """+1 per full 4 stories, or per the advanced table's stories for the weapon's family."""
    per = 4
    if weapon:
        key = weapon_key(weapon)
        fam = _WEAPON_FAMILY.get(key, key)
        if fam not in ELEVATION_TABLE:
            raise ValueError(f"weapon {weapon!r} has no row in the Elevation Table")
        per = ELEVATION_TABLE[fam]
    return stories // per


class DMZ1990:
    name = "dmz1990"
    movement = Movement("MP", 1.0, (), "Movement Cost Table, seed 000 l.504-534")

    def blast(self, grenade: str, dots: int, ipe: bool = False) -> dict[str, Any]:
        """Blast Success Value and the Target Value added at ``dots`` from ground zero (the
        target's Impact Defense, or a barrier's Barrier Value, is added to it; l.1150-1158)."""
        sv, sv_ipe, per_dot, boxes = _table(GRENADES, grenade)
        return {"success_value": sv_ipe if ipe else sv, "range_modifier":
                None if per_dot is None else per_dot * dots, "damage_boxes": boxes,
                "rule": "Grenade Blast Success Values, seed 000 l.1152-1158"}

    def scatter(self, grenade: str = "offensive", thrown_dots: int = 0) -> dict[str, Any]:
        """A failed Accuracy test: half the distance thrown, rounded down, in a 2D6 direction
        (l.1140, the Liam example l.1183)."""
        return {"distance_m": thrown_dots // 2 * METERS_PER_DOT, "direction_dice": "2D6",
                "rule": "Scatter, seed 000 l.1140, l.1183"}

    def fall(self, stories: int) -> dict[str, Any]:
        """Damage From Falling (advanced, l.1362-1366): an Impact test against 4 x stories;
        a failure costs one box per story."""
        return {"target_value": 4 * stories, "damage": f"{stories} boxes",
                "rule": "Damage From Falling, seed 000 l.1364"}

    def path_metres(self, straight: int, diagonal: int, stories: int) -> float:
        """DMZ counts dots, two metres apart, diagonal or not (seed 000 l.376)."""
        return float((straight + diagonal) * METERS_PER_DOT + stories * 4)

    def barrier(self, cls: str, kind: str = "wall") -> tuple[int, int]:
        if cls in BARRIERS:
            return BARRIERS[cls]
        return BARRIERS["standard" if kind == "window" else "average"]

    def custom_barrier(self, value: int, armor: int, kind: str = "wall") -> tuple[int, int]:
        return (value, armor)  # an author's explicit numbers are DMZ Barrier Values

    def _barrier_text(self, fact: dict[str, Any]) -> str:
        got = barrier_of(self, fact)
        if got is None:
            return ""
        line = BARRIER_LINE.get(fact.get("class", ""), 1376)
        return f"Barrier Value {got[0]}, Armor {got[1]}, seed 000 l.{line}"

    def cover_items(self, facts: LosFacts) -> list[dict[str, Any]]:
        """Each interruption with its +1 and the rule it comes from.  Whatever a door's or a
        window's state, it interrupts (l.796).  A prone target on a dot next to an obstacle,
        shot at from a level above, gets no cover from it (l.826)."""
        above = facts.a[2] > facts.b[2] and facts.posture_b == "prone"
        out = []
        for i in facts.interruptions:
            counts = not (above and i.get("adjacent"))
            line = COVER_LINE.get(i["kind"], 719)
            why = f"+1, seed 000 l.{line}" if counts else \
                "no cover: prone next to it and shot at from above, seed 000 l.826"
            bar = self._barrier_text(i)
            item = {k: i[k] for k in ("kind", "feature") if k in i}
            item.update({"reason": f"{i['reason']} ({why}" + (f"; {bar})" if bar else ")"),
                         "cover": 1 if counts else 0})
            b = barrier_of(self, i)
            if b is not None:
                item["barrier"], item["armor"] = b
            out.append(item)
        return out

    def modifiers(self, facts: LosFacts, vision: str = "normal",
                  weapon: str | None = None, *, text: bool = True) -> dict[str, Any]:
        """Every number of the verdict, and with ``text`` the interruptions and reasons citing
        the rules (play reads the numbers alone: :data:`engine.rules.base.TEXT_KEYS` are left
        out without ``text``, every other key is the same)."""
        vis = visibility_result(facts.visibility, vision)
        blocked = facts.blocked or vis == "blocked"
        if not text:
            return self._numbers(facts, vis, blocked, weapon)
        items = self.cover_items(facts)
        cover = sum(i["cover"] for i in items)
        prone = 0
        reasons = []
        if facts.blocked_by:
            bar = self._barrier_text(facts.blocked_by)
            reasons.append(f"blocked: {facts.blocked_by.get('reason', facts.blocked_by.get('kind'))}" + (f" ({bar})" if bar else ""))
        elif vis == "blocked":
            reasons.append(f"blocked: {', '.join(facts.visibility)} for {vision} vision "
                           f"(Visibility Table, seed 000 l.865-867)")
        reasons += [i["reason"] for i in items]
        if facts.posture_b == "prone":
            prone = 1 if facts.range > 1 else -2
            reasons.append(f"prone target {prone:+d} (seed 000 l.794)")
        elevation = elevation_modifier(facts.elevation_stories, weapon)
        if elevation:
            reasons.append(f"elevation {facts.elevation_stories} stories {elevation:+d} "
                           f"(seed 000 l.812)")
        visibility = 1 if vis == "interrupted" else 0
        if visibility:
            reasons.append(f"{', '.join(facts.visibility)} interrupts {vision} vision +1 "
                           f"(Visibility Table, seed 000 l.865-871)")
        if facts.target_modifier:
            reasons.append(f"area modifier {facts.target_modifier:+d} (the map's own note)")
        return self._verdict(facts, vis, blocked, (cover, prone, elevation, visibility),
                             {"interruptions": items, "reasons": reasons})

    def _numbers(self, facts: LosFacts, vis: str, blocked: bool, weapon: str | None
                 ) -> dict[str, Any]:
        """:meth:`modifiers` without its text: the same numbers worked out the same way (each
        interruption's cover as :meth:`cover_items` counts it, each barrier asked as it is)."""
        above = facts.a[2] > facts.b[2] and facts.posture_b == "prone"
        cover = 0
        for i in facts.interruptions:
            barrier_of(self, i)  # (asked of each: a class it cannot rate raises either way)
            cover += 0 if above and i.get("adjacent") else 1
        prone = (1 if facts.range > 1 else -2) if facts.posture_b == "prone" else 0
        elevation = elevation_modifier(facts.elevation_stories, weapon)
        visibility = 1 if vis == "interrupted" else 0
        return self._verdict(facts, vis, blocked, (cover, prone, elevation, visibility), {})

    def _verdict(self, facts: LosFacts, vis: str, blocked: bool,
                 numbers: tuple[int, int, int, int], text: dict[str, Any]) -> dict[str, Any]:
        """The modifiers' dict from (cover, prone, elevation, visibility), with ``text`` (the
        interruptions and reasons, or nothing) after the numbers and before the barrier."""
        cover, prone, elevation, visibility = numbers
        out = {
            "blocked": blocked,
            "visibility_result": vis,
            "cover": cover,
            "prone": prone,
            "elevation": elevation,
            "visibility": visibility,
            "target_modifier": facts.target_modifier,
            "total": cover + prone + elevation + visibility + facts.target_modifier,
            "range_m": self.range_m(facts),
            **text,
        }
        b = barrier_of(self, facts.blocked_by)
        if b is not None:
            out["barrier"], out["armor"] = b
        return out

    def fan_verdict(self, fan: Fan, vision: str = "normal", light: str = "day"
                    ) -> tuple[np.ndarray, np.ndarray]:
        if vision not in VISIONS:
            raise ValueError(f"vision {vision!r} is not one of {', '.join(VISIONS)}")
        vis = np.maximum(np.asarray(fan.visibility), light_index(light))
        blocks, interrupts = _fan_table(vision)
        return np.asarray(fan.blocked) | blocks[vis], np.asarray(fan.cover) + interrupts[vis]

    def range_m(self, facts: LosFacts) -> float:
        """DMZ counts dots (seed 000 l.376: two metres apart); metres are shown for reference."""
        return float(facts.range * METERS_PER_DOT)


_FAN_TABLES: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _fan_table(vision: str) -> tuple[np.ndarray, np.ndarray]:
    """Per visibility condition (:data:`VISIBILITY_ORDER`): does it block ``vision``, does it
    interrupt it; made once per vision (every bot fan asks it)."""
    got = _FAN_TABLES.get(vision)
    if got is None:
        res = ["clear"] + [VISIBILITY_TABLE[c][vision] for c in VISIBILITY_ORDER[1:]]
        got = _FAN_TABLES[vision] = (np.array([r == "blocked" for r in res]),
                                     np.array([r == "interrupted" for r in res]))
        for a in got:
            a.flags.writeable = False
    return got


__all__ = ["DMZ1990", "VISIBILITY_TABLE", "VISIBILITY_ORDER", "elevation_modifier",
           "visibility_result"]
