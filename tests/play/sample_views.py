"""A shipped sample's board and a play view on it, as the cache tests compare them: the view
on a fork of the compiled board (what every bot game gets) and the doors it toggles."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

from engine.io import load_board
from engine.play.engine_board import EngineBoard, fork_board

ROOT = Path(__file__).resolve().parents[2]


def sample_view(name: str) -> tuple[Any, Any, EngineBoard]:
    """(scenario, compiled board, a play view on a fork of it) of ``scenarios/<name>``."""
    scenario, board = load_board(ROOT / "scenarios" / name)
    return scenario, board, EngineBoard(fork_board(board), light=scenario.light,
                                        ruleset=scenario.ruleset)


def some_doors(view: EngineBoard, rng: random.Random, n: int,
               kinds: tuple[str, ...] = ("door",)) -> list:
    """``n`` of the view's features of ``kinds`` (all of them if fewer), drawn by ``rng``."""
    doors = [f for f in view.board.all_features() if f.kind in kinds]
    return rng.sample(doors, min(n, len(doors)))


def near_door(board, door, n: int) -> list[tuple[int, int, int]]:
    """The ``n`` dots of the door's level nearest its middle (ties by dot)."""
    x, y = door.geom.centroid.x, door.geom.centroid.y
    dots = [(int(c), int(r), door.level) for c, r in board.dots(door.level)]
    return sorted(dots, key=lambda d: ((d[0] - x) ** 2 + (d[1] - y) ** 2, d))[:n]


def cold_board(board, states: dict[str, str]):
    """A copy of ``board`` in these door states with nothing remembered or shared (what
    every cache is compared with)."""
    b = copy.copy(board)
    b.__dict__.pop("_play_memo", None)
    b = b.fork()
    b.invalidate()
    for fid, st in states.items():
        b.set_state(fid, st)
    return b
