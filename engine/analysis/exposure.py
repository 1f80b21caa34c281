"""Exposure map: for one side, how exposed every dot is to the other sides' set-up.

For each standable dot (every level, or one): how many of the other sides' deployment dots see
it (the engine's LOS, :func:`engine.los.los_fan`, from each of those dots to each level: walls,
buildings, floors and dead zones block; doors, windows, obstacles, canopies and foliage give
cover), the least cover any of those lines offers, and how many see it in the open (no cover,
no darkness or smoke on the line).  A dot no enemy deployment dot sees has no value (``None``).

One fan per (source dot, level): the cost grows with the enemy zones' size times the levels.
"""

from __future__ import annotations

import numpy as np

from engine.analysis.lens import LensMap, all_dots, check_level, find_side
from engine.board import Board
from engine.los import los_fan
from engine.model import Scenario
from engine.scenario_checks import deployment_dots
from engine.sight import fan_verdict

#: fans reach every dot of the board (a sniper rifle outranges any sample map)
RADIUS = 10_000


def enemy_sources(board: Board, scenario: Scenario, side: str) -> np.ndarray:
    """The deployment dots of every side but ``side`` (unique, sorted), as (N, 3)."""
    find_side(scenario, side)
    parts = [deployment_dots(board, s.deployment) for s in scenario.sides
             if s.id != side and s.deployment is not None]
    parts = [p for p in parts if len(p)]
    if not parts:
        return np.zeros((0, 3), dtype=np.int64)
    return np.unique(np.concatenate(parts).astype(np.int64), axis=0)


def exposure(board: Board, scenario: Scenario, side: str, level: int | None = None,
             sources: np.ndarray | None = None, vision: str = "normal") -> LensMap:
    """Exposure of every standable dot (of ``level``, or all levels) to the other sides.

    ``sources`` replaces the enemy deployment dots (e.g. the enemy characters during play).
    Values: number of source dots that see the dot; ``extra['cover']`` the least cover of
    those lines; ``extra['open']`` how many see it with no cover and clear visibility.  Sight
    and cover are the scenario ruleset's verdict (:func:`engine.sight.fan_verdict`) for
    ``vision`` in the scenario's light, so smoke or darkness that blinds hides a dot.
    """
    levels = check_level(board, level)
    src = enemy_sources(board, scenario, side) if sources is None else \
        np.asarray(sources, dtype=np.int64).reshape(-1, 3)
    dots = all_dots(board, levels)
    n = len(dots)
    seen = np.zeros(n, dtype=np.int64)
    clear = np.zeros(n, dtype=np.int64)
    least = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    index = _Index(board, levels)
    for s in src:
        origin = (int(s[0]), int(s[1]), int(s[2]))
        for lv in levels:
            fan = los_fan(board, origin, radius=RADIUS, level=lv)
            v = fan_verdict(fan, ruleset=scenario.ruleset, vision=vision, light=scenario.light)
            ok = ~v.blocked
            if not ok.any():
                continue
            idx = index.of(fan.dots[ok], lv)
            cov = v.cover[ok]
            seen[idx] += 1
            clear[idx] += (cov == 0) & (np.asarray(fan.visibility)[ok] == 0)
            np.minimum.at(least, idx, cov)
        if origin[2] in levels:  # where an enemy stands is exposed to that enemy
            i = index.of(np.array([origin[:2]]), origin[2])
            if len(i):
                seen[i] += 1
                clear[i] += 1
                least[i] = 0
    none = seen == 0
    values = seen.astype(float)
    values[none] = np.nan
    cover = least.astype(float)
    cover[none] = np.nan
    opened = clear.astype(float)
    opened[none] = np.nan
    return LensMap(side, "exposure", dots, values, {"cover": cover, "open": opened},
                   {"sources": int(len(src)), "ruleset": scenario.ruleset, "vision": vision})


class _Index:
    """Position of a level's dots in the map's dot list (one sorted key array per level)."""

    def __init__(self, board: Board, levels: list[int]):
        self._keys: dict[int, tuple[np.ndarray, np.ndarray, int]] = {}
        off = 0
        for lv in levels:
            d = board.dots(lv).astype(np.int64)
            k = _key(d)
            order = np.argsort(k)
            self._keys[lv] = (k[order], order + off, len(d))
            off += len(d)

    def of(self, dots2: np.ndarray, lv: int) -> np.ndarray:
        keys, pos, n = self._keys[lv]
        if not n or not len(dots2):
            return np.zeros(0, dtype=np.int64)
        k = _key(np.asarray(dots2, dtype=np.int64))
        i = np.clip(np.searchsorted(keys, k), 0, n - 1)
        hit = keys[i] == k
        return pos[i[hit]]


def _key(d: np.ndarray) -> np.ndarray:
    return (d[:, 0] + (1 << 20)) * (1 << 21) + (d[:, 1] + (1 << 20))
