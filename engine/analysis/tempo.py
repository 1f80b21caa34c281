"""Tempo map: for one side, the turn in which its fastest and its slowest character can first
stand on each dot, setting up anywhere in the side's deployment zone.

One multi-source Dijkstra over the movement graph (:mod:`engine.movement`) per pace gives the
cheapest walk from the zone, in the scenario's own ruleset (:mod:`engine.pace`): under dmz1990
MP at a Move Ratio, 12 MP a turn (seed 000 l.492); under sr3, sr1 and darkcon metres, as many
a turn as the character's sheet gives.  A dot of the zone itself is turn 0.  This is a lower
bound: it lets a turn's leftover movement pay part of the next step, which DMZ does not (MP do
not carry over, seed 000 l.490), so a costly door or climb may take a turn more in play.
A dot the side cannot reach has no value (``None``).
"""

from __future__ import annotations

import numpy as np

from engine.analysis.lens import LensError, LensMap, all_dots, check_level, find_side, nodes_of
from engine.board import Board
from engine.model import Scenario
from engine.pace import MP_PER_TURN, Pace, side_paces, walk_field
from engine.scenario_checks import deployment_dots


def paces(scenario: Scenario, side: str) -> tuple[Pace, Pace]:
    """(fastest, slowest) pace of a side in the scenario's ruleset."""
    got = side_paces(scenario.ruleset or "dmz1990", find_side(scenario, side))
    if got is None:
        raise LensError(f"side {side!r}: no character sheet says how far he walks under "
                        f"{scenario.ruleset} (validate names the missing figures)")
    return got


def walk_from(board: Board, scenario: Scenario, zone: np.ndarray, pace: Pace) -> np.ndarray:
    """Cheapest walk (MP or metres) from any dot of ``zone`` to every node (inf: no way)."""
    if not len(zone):
        return np.full(board.node_count, np.inf)
    return walk_field(board, scenario.ruleset or "dmz1990", nodes_of(board, zone), pace)


def tempo(board: Board, scenario: Scenario, side: str, level: int | None = None) -> LensMap:
    """Turn of first arrival of the side's fastest (values) and slowest (extra['slowest'])."""
    levels = check_level(board, level)
    s = find_side(scenario, side)
    zone = deployment_dots(board, s.deployment) if s.deployment is not None \
        else np.zeros((0, 3), dtype=np.int64)
    fast, slow = paces(scenario, side)
    dots = all_dots(board, levels)
    nodes = nodes_of(board, dots)
    f_fast = walk_from(board, scenario, zone, fast)
    same_map = slow.units != "MP" or slow == fast  # metres: one map, only the turn differs
    f_slow = f_fast if same_map else walk_from(board, scenario, zone, slow)
    t_fast = fast.turns_of(f_fast[nodes]) if len(nodes) else np.zeros(0)
    t_slow = slow.turns_of(f_slow[nodes]) if len(nodes) else np.zeros(0)
    cost = f_fast[nodes].copy() if len(nodes) else np.zeros(0)
    cost[~np.isfinite(cost)] = np.nan
    if fast.units == "MP":
        return LensMap(side, "tempo", dots, t_fast, {"slowest": t_slow, "mp": np.rint(cost)},
                       {"move_ratio": {"fastest": fast.move_ratio, "slowest": slow.move_ratio},
                        "mp_per_turn": MP_PER_TURN, "units": "MP"})
    return LensMap(side, "tempo", dots, t_fast, {"slowest": t_slow, "m": np.round(cost, 1)},
                   {"metres_per_turn": {"fastest": fast.per_turn, "slowest": slow.per_turn},
                    "units": "m"})


def first_turn(m: LensMap, dots: np.ndarray) -> int | None:
    """The earliest turn the map's fastest mover stands on any of ``dots`` (None: never)."""
    if not len(dots):
        return None
    d = np.asarray(dots, dtype=np.int64).reshape(-1, 3)
    hit = (m.dots[:, None, :] == d[None, :, :]).all(axis=2).any(axis=1)
    v = m.values[hit]
    v = v[~np.isnan(v)]
    return int(v.min()) if len(v) else None



def lead(board: Board, scenario: Scenario, side: str, level: int | None = None) -> LensMap:
    """Turns ``side``'s fastest mover is ahead of the quickest other side at each dot (+ ahead,
    - behind, 0 even).  A dot no other side reaches counts them arriving one turn after their
    latest arrival anywhere; a dot ``side`` cannot reach has no value."""
    own = tempo(board, scenario, side, level)
    others = [tempo(board, scenario, s.id, level) for s in scenario.sides if s.id != side]
    if not others:
        raise LensError(f"side {side!r} has no opponent to race")
    theirs = np.full(len(own.values), np.inf)
    for o in others:
        late = np.nanmax(o.values) + 1 if (~np.isnan(o.values)).any() else np.inf
        theirs = np.minimum(theirs, np.where(np.isnan(o.values), late, o.values))
    values = theirs - own.values  # NaN stays NaN where this side never arrives
    values[~np.isfinite(values)] = np.nan
    return LensMap(side, "lead", own.dots, values, {},
                   {"against": [s.id for s in scenario.sides if s.id != side]})


__all__ = ["tempo", "lead", "paces", "walk_from", "first_turn"]
