"""DMZ (FASA, 1990): cover, prone, elevation and visibility modifiers from LOS facts.

Numbers from the DMZ tables: +1 per level of cover; a prone target more than one dot away is
+1, within one dot -2; +1 per full 4 stories of elevation difference (or, as the advanced
option, per the Elevation Table's stories for the weapon type); darkness and smoke by the
Visibility Table for the viewer's vision, counted once.
"""

from __future__ import annotations

from typing import Any

from engine.board import DMZ_BARRIERS
from engine.catalogue import weapon_key
from engine.los import VISIBILITY_ORDER, LosFacts

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

    def barrier(self, cls: str) -> tuple[int, int]:
        return DMZ_BARRIERS[cls]

    def modifiers(self, facts: LosFacts, vision: str = "normal",
                  weapon: str | None = None) -> dict[str, Any]:
        vis = visibility_result(facts.visibility, vision)
        blocked = facts.blocked or vis == "blocked"
        cover = facts.cover
        prone = 0
        if facts.posture_b == "prone":
            prone = 1 if facts.range > 1 else -2
        elevation = elevation_modifier(facts.elevation_stories, weapon)
        visibility = 1 if vis == "interrupted" else 0
        total = cover + prone + elevation + visibility + facts.target_modifier
        return {
            "blocked": blocked,
            "visibility_result": vis,
            "cover": cover,
            "prone": prone,
            "elevation": elevation,
            "visibility": visibility,
            "target_modifier": facts.target_modifier,
            "total": total,
        }


__all__ = ["DMZ1990", "VISIBILITY_TABLE", "VISIBILITY_ORDER", "elevation_modifier",
           "visibility_result"]
