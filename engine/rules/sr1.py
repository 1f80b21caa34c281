"""Shadowrun 1st edition as ConcisionRun restates it (seed 004): target numbers from LOS facts.

ConcisionRun keeps the rules' shape but points to the Shadowrun book's pages for nearly every
number a map needs (digest ``../shared/rules/darkcon_sr1.md`` §2.4 and §2.12; ``Lnnn`` is
the seed line the digest cites).  What it does say, and this ruleset follows:

* three kinds of cover (L1392-1400): impenetrable (total protection), hard (its rating is added
  as automatic successes to the target's Resistance Test, like ballistic armor) and soft (only
  affects visibility); attacking a target behind cover carries a visibility TN penalty;
* a TN is never 1 (Rule of One, L198-202), so 2 is the least; short range has base TN 4 (a scope
  "can't reduce the base TN below 4", L1414-1420);
* no rule for a prone target or for height in ranged fire, so both are 0.

The numbers ConcisionRun leaves to the Shadowrun book (medium/long/extreme base TNs and the
range table, p. 213; the cover and visibility penalties, pp. 65-66; hard cover ratings, p. 68)
are not in the project's sources.  They are taken from the sr3 ruleset, the same game's later
chapter, and every result lists them under ``borrowed`` so nobody mistakes them for SR1's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.los import Fan, LosFacts
from engine.rules import sr3
from engine.rules.base import Movement, barrier_of, straight_metres

MIN_TN = 2  # no TN of 1 (darkcon_sr1.md §2.0, L198-202)
SHORT_BASE_TN = 4  # darkcon_sr1.md §2.4, L1414-1420

#: interruptions that are hard cover (solid things a round must go through); the rest only
#: hide the target (soft cover).  A closed door or window is hard cover too: a round must go
#: through it.  Project decision, docs/rulesets.md.
HARD_COVER_KINDS = ("low-wall", "obstacle")


def is_hard(item: dict[str, Any]) -> bool:
    return item["kind"] in HARD_COVER_KINDS or (
        item["kind"] in ("door", "window") and item.get("state") == "closed")

#: what this ruleset takes from sr3 because ConcisionRun does not print it
BORROWED = (
    "base TN 5/6/9 for medium/long/extreme and the weapon range table (SR1 p. 213; sr3 §5.2-5.3)",
    "cover visibility penalty +4 (SR1 p. 65; sr3 Partial Cover)",
    "visibility table for darkness and smoke (SR1 p. 66; sr3 Visibility Table)",
    "hard cover / barrier ratings per class (SR1 p. 68; sr3 Barrier Rating Table)",
)


#: ConcisionRun's grenade tables (seed 004 l.1289-1320): scatter dice and metres per success
GRENADE_SCATTER: dict[str, tuple[str, int]] = {
    "non-aerodynamic": ("2D6", 3), "aerodynamic": ("3D6", 5), "launched": ("4D6", 5),
}
#: Power lost with distance (l.1316-1320); the Power and Damage Level are the Shadowrun book's
#: (not in the sources): borrowed from sr3's Grenade Damage Table
GRENADE_DAMAGE: dict[str, tuple[int, str, float]] = {
    "offensive": (10, "S", 2.0), "defensive": (10, "S", 1.0), "concussion": (12, "M (Stun)", 1.0),
}


class SR1:
    """ConcisionRun/SR1 target numbers from the engine's LOS facts."""

    name = "sr1"
    movement = Movement("m", 2 ** 0.5, (("walk", 1.0), ("run", 4.0), ("run-dwarf", 3.0),
                                         ("run-troll", 3.0)),
                        "Quickness metres per Action Phase, x4 running (x3 dwarf, troll), "
                        "seed 004 l.1084, l.1104-1136")

    def blast(self, grenade: str, metres: float) -> dict[str, Any]:
        """-1 Power per 2 m (offensive) or per metre (defensive, concussion), l.1316-1320."""
        return {**sr3.blast_power(grenade, metres, GRENADE_DAMAGE),
                "rule": "Reduce Damage By Distance, seed 004 l.1313-1320 (Power from sr3)"}

    def scatter(self, grenade: str = "non-aerodynamic") -> dict[str, Any]:
        if grenade not in GRENADE_SCATTER:
            raise ValueError(f"grenade {grenade!r} is not one of {', '.join(GRENADE_SCATTER)}")
        dice, per = GRENADE_SCATTER[grenade]
        return {"distance_dice": dice, "metres_per_success": per, "direction_dice": "1D6",
                "rule": "Grenade Throwing Procedure, seed 004 l.1279-1309"}

    def fall(self, stories: int) -> dict[str, Any]:
        return {"metres": stories * 4, "damage": None, "rule": "no falling rule in seed 004"}

    def path_metres(self, straight: int, diagonal: int, stories: int) -> float:
        """Metres walked, measured as sr3 measures them."""
        return sr3.SR3().path_metres(straight, diagonal, stories)

    def barrier(self, cls: str, kind: str = "wall") -> tuple[int, int]:
        """(rating, hard cover rating): the sr3 Barrier Rating of the class, used both as the
        barrier's strength and as the automatic successes it adds as hard cover (L1398)."""
        r = sr3.barrier_rating(cls, kind)
        return (r, r)

    def custom_barrier(self, value: int, armor: int, kind: str = "wall") -> tuple[int, int]:
        return sr3.SR3().custom_barrier(value, armor, kind)

    def range_m(self, facts: LosFacts) -> float:
        """Metres along the straight line, height included (as sr3)."""
        return round(straight_metres(facts), 2)

    def modifiers(self, facts: LosFacts, vision: str = "normal",
                  weapon: str | None = None, *, text: bool = True) -> dict[str, Any]:
        """Every number of the verdict, and with ``text`` the interruptions, reasons and
        notes citing the rules (play reads the numbers alone: :data:`engine.rules.base.TEXT_KEYS`
        are left out without ``text``, every other key is the same)."""
        notes: list[str] = []
        reasons: list[str] = []
        vis, rows = sr3.visibility_modifier(facts.visibility, vision)
        hard = []
        items = []
        for i in facts.interruptions:
            hard_one = is_hard(i)
            b = barrier_of(self, i)  # (asked of each: a class it cannot rate raises either way)
            if not (hard_one or text):
                continue
            entry = {"kind": i["kind"], "feature": i.get("feature")}
            if hard_one:
                entry["hard_cover_rating"] = b[0] if b else None
                hard.append(entry)
            if text:
                why = i["reason"]
                if hard_one:
                    why += (f" (hard cover, rating {b[0]}, seed 004 l.1398)" if b
                            else " (hard cover, seed 004 l.1398)")
                else:
                    why += " (soft cover, seed 004 l.1400)"
                items.append({**entry, "reason": why})
        cover_type = "hard" if hard else ("soft" if facts.interruptions else "none")
        cover = sr3.PARTIAL_COVER if facts.interruptions else 0
        if text:
            if facts.blocked_by:
                reasons.append(f"blocked: {facts.blocked_by.get('reason', facts.blocked_by.get('kind'))} (impenetrable, seed 004 "
                               f"l.1396)")
            reasons += [i["reason"] for i in items]
            if cover:
                notes.append(f"{cover_type} cover: visibility penalty +{cover}")
                reasons.append(f"{cover_type} cover: visibility penalty +{cover} (seed 004 "
                               f"l.1392; number borrowed from sr3)")
            if hard:
                ids = ", ".join(f"{h['kind']} {h['feature']}" for h in hard)
                notes.append(f"hard cover ({ids}): its rating adds automatic successes to the "
                             f"target's Resistance Test")
            if rows:
                notes.append(f"visibility +{vis} ({' + '.join(rows)}, {vision} vision)")
                reasons.append(f"visibility +{vis} ({' + '.join(rows)}, {vision} vision; seed "
                               f"004 l.1404, table borrowed from sr3)")
        total = cover + vis + facts.target_modifier
        meters = self.range_m(facts)
        rating, through = sr3.barrier_total(self, facts)
        band = base = tn = None
        if weapon:
            band = sr3.range_band(weapon, meters)
            if band in sr3.BASE_TN:
                base = SHORT_BASE_TN if band == "short" else sr3.BASE_TN[band]
                tn = None if facts.blocked else max(MIN_TN, base + total)
        if facts.blocked and text:
            notes.append("no line of sight: impenetrable, or nothing to aim at")
        out = {
            "blocked": facts.blocked,
            "visibility_result": "clear" if vis == 0 else "impaired",
            "cover": cover,
            "prone": 0,
            "elevation": 0,
            "visibility": vis,
            "target_modifier": facts.target_modifier,
            "total": total,
            "cover_type": cover_type,
            "hard_cover": hard,
            "range_m": meters,
            "range_band": band,
            "base_target_number": base,
            "target_number": tn,
            "barrier_rating": rating,
            "barriers": through,
            "borrowed": list(BORROWED),
        }
        if text:
            out.update(interruptions=items, reasons=reasons, notes=notes)
        return out

    def fan_verdict(self, fan: Fan, vision: str = "normal", light: str = "day"
                    ) -> tuple[np.ndarray, np.ndarray]:
        if vision not in sr3.VISIONS:
            raise ValueError(f"vision {vision!r} is not one of {', '.join(sr3.VISIONS)}")
        return np.asarray(fan.blocked), (np.asarray(fan.cover) > 0).astype(np.int64)


__all__ = ["SR1", "BORROWED", "HARD_COVER_KINDS"]
