"""Tempo map: for one side, the turn in which its fastest and its slowest character can first
stand on each dot, setting up anywhere in the side's deployment zone.

One multi-source Dijkstra over the movement graph (:mod:`engine.movement`) per move ratio gives
the cheapest MP from the zone; turns = ceil(MP / 12), 12 MP being an uninjured character's
allowance per turn (seed 000 l.492).  A dot of the zone itself is turn 0.  This is a lower
bound: it lets a turn's leftover MP pay part of the next step, which the book does not (MP do
not carry over, seed 000 l.490), so a costly door or climb may take a turn more in play.
A dot the side cannot reach has no value (``None``).
"""

from __future__ import annotations

import numpy as np
from scipy.sparse.csgraph import dijkstra

from engine.analysis.lens import LensError, LensMap, all_dots, check_level, find_side, nodes_of
from engine.board import Board
from engine.model import Scenario
from engine.movement import build_graph
from engine.scenario_checks import MP_PER_TURN, deployment_dots

#: move ratio of a side with no characters yet (an average character, like the checks)
DEFAULT_MOVE_RATIO = 3


def move_ratios(scenario: Scenario, side: str) -> tuple[int, int]:
    """(fastest, slowest) move ratio of a side."""
    s = find_side(scenario, side)
    mrs = [c.move_ratio for c in s.characters] or [DEFAULT_MOVE_RATIO]
    return min(mrs), max(mrs)


def mp_field(board: Board, zone: np.ndarray, move_ratio: int) -> np.ndarray:
    """Cheapest MP from any dot of ``zone`` to every node of the board (inf: no way)."""
    if not len(zone):
        return np.full(board.node_count, np.inf)
    g = build_graph(board)
    src = np.unique(nodes_of(board, zone))
    src = src[src >= 0]
    return dijkstra(g.matrix(move_ratio, False), indices=src, min_only=True)


def turns_of(mp: np.ndarray) -> np.ndarray:
    """Turns needed for each MP cost (NaN where unreachable)."""
    out = np.full(mp.shape, np.nan)
    ok = np.isfinite(mp)
    out[ok] = np.ceil(np.rint(mp[ok]) / MP_PER_TURN)
    return out


def tempo(board: Board, scenario: Scenario, side: str, level: int | None = None) -> LensMap:
    """Turn of first arrival of the side's fastest (values) and slowest (extra['slowest'])."""
    levels = check_level(board, level)
    s = find_side(scenario, side)
    zone = deployment_dots(board, s.deployment) if s.deployment is not None \
        else np.zeros((0, 3), dtype=np.int64)
    fast, slow = move_ratios(scenario, side)
    dots = all_dots(board, levels)
    nodes = nodes_of(board, dots)
    f_fast = mp_field(board, zone, fast)
    f_slow = f_fast if slow == fast else mp_field(board, zone, slow)
    t_fast = turns_of(f_fast[nodes]) if len(nodes) else np.zeros(0)
    t_slow = turns_of(f_slow[nodes]) if len(nodes) else np.zeros(0)
    mp = f_fast[nodes].copy() if len(nodes) else np.zeros(0)
    mp[~np.isfinite(mp)] = np.nan
    return LensMap(side, "tempo", dots, t_fast, {"slowest": t_slow, "mp": np.rint(mp)},
                   {"move_ratio": {"fastest": fast, "slowest": slow},
                    "mp_per_turn": MP_PER_TURN})


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


__all__ = ["tempo", "lead", "move_ratios", "mp_field", "turns_of", "first_turn"]
