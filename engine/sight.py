"""The one sight verdict: every caller that asks "can A see B, and what does it cost?" asks here.

:func:`engine.los.line_of_sight` finds the facts (what the line meets, its material and state);
the scenario's ruleset prices them (:mod:`engine.rules`).  This module joins the two so the CLI,
validation, the editor's LOS tool and fan, play and the bots get the same answer for the same
question: ``blocked`` / ``interrupted`` / ``clear``, the modifiers, and one reason per number
citing the rule it comes from.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.board import Board
from engine.lattice import Dot3
from engine.los import Fan, LosFacts, line_of_sight, los_fan
from engine.rules import get_ruleset
from engine.rules.base import METERS_PER_DOT, barrier_of

#: the modifier keys every ruleset answers with (dmz1990's)
BASE_KEYS = ("blocked", "visibility_result", "cover", "prone", "elevation", "visibility",
             "target_modifier", "total")
_OWN_KEYS = ("blocked_by", "interruptions", "reasons")


@dataclass
class Verdict:
    """A ruleset's answer to one line of sight."""

    ruleset: str
    facts: LosFacts
    mods: dict[str, Any]
    vision: str = "normal"

    @property
    def blocked(self) -> bool:
        return bool(self.mods["blocked"])

    @property
    def blocked_by(self) -> dict[str, Any] | None:
        by = self.mods.get("blocked_by", self.facts.blocked_by)
        if self.blocked and by is None:
            by = {"kind": "visibility", "feature": None, "point": None,
                  "reason": f"{', '.join(self.facts.visibility)} blocks {self.vision} vision"}
        return by if self.blocked else None

    @property
    def result(self) -> str:
        if self.blocked:
            return "blocked"
        return "interrupted" if self.mods["cover"] or self.facts.interruptions else "clear"

    @property
    def interruptions(self) -> list[dict[str, Any]]:
        return self.mods.get("interruptions", self.facts.interruptions)

    @property
    def reasons(self) -> list[str]:
        return list(self.mods.get("reasons", []))

    @property
    def range_m(self) -> float:
        return float(self.mods["range_m"])

    def describe(self) -> str:
        """One line: the verdict and its reasons."""
        head = {"blocked": "Blocked", "interrupted": f"Cover {self.mods['cover']:+d}",
                "clear": "Clear"}[self.result]
        rng = f"range {self.facts.range} dots ({self.range_m:g} m)"
        return f"{head} [{self.ruleset}] — {rng}" + (
            ": " + "; ".join(self.reasons) if self.reasons else "")

    def to_json(self) -> dict[str, Any]:
        """The ``los --json`` answer (SPEC section 6) with the ruleset's own keys."""
        f, m = self.facts, self.mods
        return {
            "range": f.range, "range_m": self.range_m, "blocked": self.blocked,
            "result": self.result, "blocked_by": self.blocked_by,
            "interruptions": self.interruptions,
            "cover": f.cover, "visibility": m["visibility_result"],
            "visibility_conditions": f.visibility,
            "elevation_stories": f.elevation_stories, "dead_zone": f.dead_zone,
            "modifiers": {k: m[k] for k in ("cover", "prone", "elevation", "visibility")},
            "target_modifier": m["total"], "a": list(f.a), "b": list(f.b),
            "ruleset": self.ruleset, "barrier_rating": m.get("barrier_rating"),
            "reasons": self.reasons,
            "ruleset_extra": {k: v for k, v in m.items()
                              if k not in BASE_KEYS and k not in _OWN_KEYS},
        }


def sight(board: Board, a: Dot3, b: Dot3, *, ruleset: str = "dmz1990",
          posture_a: str = "standing", posture_b: str = "standing", vision: str = "normal",
          weapon: str | None = None, light: str = "day") -> Verdict:
    """The verdict of ``ruleset`` on the line from ``a`` (attacker) to ``b`` (target)."""
    facts = line_of_sight(board, a, b, posture_a=posture_a, posture_b=posture_b, light=light)
    return verdict_of(facts, ruleset=ruleset, vision=vision, weapon=weapon)


def verdict_of(facts: LosFacts, *, ruleset: str = "dmz1990", vision: str = "normal",
               weapon: str | None = None, text: bool = True) -> Verdict:
    """:func:`sight` on the facts of a line already found (play asks one line with several
    visions: the facts do not depend on vision, and no ruleset changes them).  Without
    ``text`` the numbers alone (no ``reasons``: play never reads them, and a bot game
    prices thousands of new lines) where the ruleset can leave them out."""
    rs = get_ruleset(ruleset)
    if not text and numbers_only(rs):
        return Verdict(rs.name, facts, rs.modifiers(facts, vision=vision, weapon=weapon,
                                                    text=False), vision)
    return Verdict(rs.name, facts, rs.modifiers(facts, vision=vision, weapon=weapon), vision)


#: per ruleset class: does its ``modifiers`` take ``text`` (:data:`engine.rules.base.TEXT_KEYS`)?
_TEXT_KEYWORD: dict[type, bool] = {}


def numbers_only(rules: Any) -> bool:
    """Can ``rules`` be asked for a verdict's numbers without its text (``text=False``)?  A
    ruleset registered without the keyword is asked for everything."""
    got = _TEXT_KEYWORD.get(rules.__class__)
    if got is None:
        got = _TEXT_KEYWORD[rules.__class__] = \
            "text" in inspect.signature(rules.modifiers).parameters
    return got


@dataclass
class FanVerdict:
    """A ruleset's verdict on every target of a fan."""

    fan: Fan
    blocked: np.ndarray  # (N,) bool
    cover: np.ndarray  # (N,) int: levels of cover the ruleset counts (0 = clear)

    @property
    def dots(self) -> np.ndarray:
        return self.fan.dots

    @property
    def level(self) -> int:
        return self.fan.level

    @property
    def origin(self) -> Dot3:
        return self.fan.origin


def sight_fan(board: Board, a: Dot3, *, ruleset: str = "dmz1990", vision: str = "normal",
              light: str = "day", radius: int = 75, level: int | None = None,
              targets: np.ndarray | None = None) -> FanVerdict:
    """:func:`sight` from ``a`` to every dot of a level at once (same verdict, vectorised)."""
    fan = los_fan(board, a, radius=radius, level=level, targets=targets)
    return fan_verdict(fan, ruleset=ruleset, vision=vision, light=light)


def fan_verdict(fan: Fan, *, ruleset: str = "dmz1990", vision: str = "normal",
                light: str = "day") -> FanVerdict:
    """The ruleset's verdict on a fan already traced (e.g. in a background thread)."""
    blocked, cover = get_ruleset(ruleset).fan_verdict(fan, vision=vision, light=light)
    return FanVerdict(fan, np.asarray(blocked, dtype=bool), np.asarray(cover, dtype=np.int64))


#: :func:`target_blocked`'s answers per (ruleset, vision, light, a target's four figures)
_TARGET_VERDICTS: dict[tuple, bool] = {}


def target_blocked(ruleset: str, vision: str, light: str, blocked: bool, cover: int,
                   visibility: int, closed: int) -> bool:
    """:func:`fan_verdict`'s ``blocked`` for one fan target whose line has these figures
    (the fan's ``blocked``, ``cover``, ``visibility`` and ``closed_doors``), kept per
    figures: every ruleset's fan verdict is worked out target by target from those columns
    alone, so a bot's fan of a few targets needs no arrays (tests/play/test_lean_fans.py)."""
    key = (ruleset, vision, light, blocked, cover, visibility, closed)
    got = _TARGET_VERDICTS.get(key)
    if got is None:
        one = Fan((0, 0, 0), 0, np.zeros((1, 2), dtype=np.int64), np.array([blocked]),
                  np.array([cover], dtype=np.int64), np.array([visibility], dtype=np.int64),
                  np.array([closed], dtype=np.int64))
        got = bool(fan_verdict(one, ruleset=ruleset, vision=vision, light=light).blocked[0])
        if len(_TARGET_VERDICTS) > 65_536:
            _TARGET_VERDICTS.clear()
        _TARGET_VERDICTS[key] = got
    return got


def blast_through(board: Board, burst: Dot3, target: Dot3, grenade: str, *,
                  ruleset: str = "dmz1990") -> dict[str, Any] | None:
    """What is left of a grenade's blast at ``target`` past the walls, doors and windows between
    it and the ``burst``, by a ruleset with a rule for blast against barriers (sr3); None for a
    ruleset without one (dmz1990 resolves a blast and each barrier on its own)."""
    rs = get_ruleset(ruleset)
    if not hasattr(rs, "blast_through"):
        return None
    facts = line_of_sight(board, burst, target)
    barriers = []
    for b in facts.barriers:
        got = barrier_of(rs, b)
        if got is not None:
            barriers.append((float(b["along"]) * METERS_PER_DOT, got[0]))
    metres = float(facts.span if facts.span is not None else facts.range) * METERS_PER_DOT
    return rs.blast_through(grenade, metres, barriers)
