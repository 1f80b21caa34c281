"""Shadowrun 1st edition as ConcisionRun restates it (seed 004): target numbers from LOS facts.

ConcisionRun keeps the rules' shape but points to the Shadowrun book's pages for nearly every
number a map needs (digest ``/work/shared/rules/darkcon_sr1.md`` §2.4 and §2.12; ``Lnnn`` is
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

from engine.los import LosFacts
from engine.rules import sr3

METERS_PER_DOT = sr3.METERS_PER_DOT
MIN_TN = 2  # no TN of 1 (darkcon_sr1.md §2.0, L198-202)
SHORT_BASE_TN = 4  # darkcon_sr1.md §2.4, L1414-1420

#: interruptions that are hard cover (solid things a round must go through); the rest only
#: hide the target (soft cover).  Project decision, docs/rulesets.md.
HARD_COVER_KINDS = ("low-wall", "obstacle")

#: what this ruleset takes from sr3 because ConcisionRun does not print it
BORROWED = (
    "base TN 5/6/9 for medium/long/extreme and the weapon range table (SR1 p. 213; sr3 §5.2-5.3)",
    "cover visibility penalty +4 (SR1 p. 65; sr3 Partial Cover)",
    "visibility table for darkness and smoke (SR1 p. 66; sr3 Visibility Table)",
    "hard cover / barrier ratings per class (SR1 p. 68; sr3 Barrier Rating Table)",
)


class SR1:
    """ConcisionRun/SR1 target numbers from the engine's LOS facts."""

    name = "sr1"

    def barrier(self, cls: str, kind: str = "wall") -> tuple[int, int]:
        """(rating, hard cover rating): the sr3 Barrier Rating of the class, used both as the
        barrier's strength and as the automatic successes it adds as hard cover (L1398)."""
        r = sr3.barrier_rating(cls, kind)
        return (r, r)

    def modifiers(self, facts: LosFacts, vision: str = "normal",
                  weapon: str | None = None) -> dict[str, Any]:
        notes: list[str] = []
        vis, rows = sr3.visibility_modifier(facts.visibility, vision)
        hard = [{"kind": i["kind"], "feature": i["feature"]} for i in facts.interruptions
                if i["kind"] in HARD_COVER_KINDS]
        cover_type = "hard" if hard else ("soft" if facts.interruptions else "none")
        cover = sr3.PARTIAL_COVER if facts.interruptions else 0
        if cover:
            notes.append(f"{cover_type} cover: visibility penalty +{cover}")
        if hard:
            ids = ", ".join(f"{h['kind']} {h['feature']}" for h in hard)
            notes.append(f"hard cover ({ids}): its rating adds automatic successes to the "
                         f"target's Resistance Test")
        if rows:
            notes.append(f"visibility +{vis} ({' + '.join(rows)}, {vision} vision)")
        total = cover + vis + facts.target_modifier
        meters = facts.range * METERS_PER_DOT
        band = base = tn = None
        if weapon:
            band = sr3.range_band(weapon, meters)
            if band in sr3.BASE_TN:
                base = SHORT_BASE_TN if band == "short" else sr3.BASE_TN[band]
                tn = None if facts.blocked else max(MIN_TN, base + total)
        if facts.blocked:
            notes.append("no line of sight: impenetrable, or nothing to aim at")
        return {
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
            "borrowed": list(BORROWED),
            "notes": notes,
        }


__all__ = ["SR1", "BORROWED", "HARD_COVER_KINDS"]
