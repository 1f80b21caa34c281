"""The result every whole-map lens returns: one value per standable dot, ``None`` where the
question has no answer (a dot nobody sees, a dot nobody reaches)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.board import Board
from engine.errors import SprawlmapError
from engine.model import Scenario, Side


class LensError(SprawlmapError):
    """A lens asked of a side or level the scenario does not have (bad input, exit 2)."""


@dataclass
class LensMap:
    """``values[i]`` belongs to ``dots[i]`` (c, r, level); NaN means no answer."""

    side: str
    kind: str
    dots: np.ndarray  # (N, 3) int
    values: np.ndarray  # (N,) float, NaN = none
    extra: dict[str, np.ndarray] = field(default_factory=dict)  # more per-dot columns
    info: dict[str, Any] = field(default_factory=dict)  # what the values were computed from

    def on_level(self, level: int) -> LensMap:
        sel = self.dots[:, 2] == level
        return LensMap(self.side, self.kind, self.dots[sel], self.values[sel],
                       {k: v[sel] for k, v in self.extra.items()}, dict(self.info))

    def value_at(self, dot: tuple[int, int, int]) -> float | None:
        hit = np.nonzero((self.dots == np.asarray(dot)).all(axis=1))[0]
        if not len(hit) or np.isnan(self.values[hit[0]]):
            return None
        return float(self.values[hit[0]])

    def to_json(self, level: int | None = None) -> dict[str, Any]:
        """``{side, map, level, dots: [[c, r, l, value], ...], ...}``; value null = no answer."""
        m = self if level is None else self.on_level(level)
        out: dict[str, Any] = {"side": m.side, "map": m.kind, "level": level,
                               "dots": [[int(c), int(r), int(lv), _num(v)]
                                        for (c, r, lv), v in zip(m.dots.tolist(), m.values)]}
        for k, col in m.extra.items():
            out[k] = [_num(v) for v in col]
        out.update(m.info)
        return out


def _num(v: float) -> int | float | None:
    if np.isnan(v):
        return None
    return int(v) if float(v).is_integer() else round(float(v), 3)


def find_side(scenario: Scenario | None, side: str) -> Side:
    if scenario is None or not scenario.sides:
        raise LensError("this file has no sides (a layout, not a scenario)")
    for s in scenario.sides:
        if s.id == side:
            return s
    known = ", ".join(s.id for s in scenario.sides)
    raise LensError(f"no side {side!r} in this scenario (sides: {known})")


def check_level(board: Board, level: int | None) -> list[int]:
    """The levels a lens covers: one asked level, or all of them."""
    if level is None:
        return list(board.levels)
    if level not in board.levels:
        raise LensError(f"no level {level} on this board (levels {board.levels[0]}.."
                        f"{board.levels[-1]})")
    return [level]


def all_dots(board: Board, levels: list[int]) -> np.ndarray:
    parts = [np.column_stack([board.dots(lv), np.full(len(board.dots(lv)), lv)])
             for lv in levels if len(board.dots(lv))]
    return (np.concatenate(parts).astype(np.int64) if parts
            else np.zeros((0, 3), dtype=np.int64))


def nodes_of(board: Board, dots: np.ndarray) -> np.ndarray:
    """Movement-graph node of each standable dot (N, 3), -1 where it is not standable."""
    d = np.asarray(dots, dtype=np.int64).reshape(-1, 3)
    cmin, rmin, _ = board._owner_grid
    g = board._node_grid
    c, r, lv = d[:, 0] - cmin, d[:, 1] - rmin, d[:, 2]
    ok = (lv >= 0) & (lv < g.shape[0]) & (r >= 0) & (r < g.shape[1]) & (c >= 0) & (c < g.shape[2])
    out = np.full(len(d), -1, dtype=np.int64)
    out[ok] = g[lv[ok], r[ok], c[ok]]
    return out
