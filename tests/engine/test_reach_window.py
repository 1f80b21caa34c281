"""Reach searches a window around the mover (issue 11): it must answer exactly as scipy's
Dijkstra with a limit on the whole board, under every ruleset, move ratio and posture, on the
sample scenarios and a benchmark city."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

from benchmarks.neighbourhood import neighbourhood
from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.movement import build_graph, reach, reach_arrays
from engine.rules import get_ruleset

ROOT = Path(__file__).resolve().parents[2]


def whole_board_reach(board: Board, a, move_ratio, mp, crawl, ruleset):
    """reach() as it was: Dijkstra with a limit on the whole board."""
    g = build_graph(board)
    metric = get_ruleset(ruleset).movement.units != "MP"
    dist = dijkstra(g.weights(ruleset, move_ratio, crawl), indices=board.node(a),
                    limit=mp + (1e-6 if metric else 0.5))
    if len(dist) > g.n:
        dist = np.minimum(dist[:g.n], dist[g.n:])
    idx = np.nonzero(np.isfinite(dist))[0]
    if metric:
        return {board.node_dot(int(k)): round(float(dist[k]), 2) for k in idx}
    return {board.node_dot(int(k)): int(round(dist[k])) for k in idx}


def _compare(board: Board, seed: int, tries: int = 12) -> None:
    rng = random.Random(seed)
    for _ in range(tries):
        a = board.node_dot(rng.randrange(board.node_count))
        ruleset = rng.choice(("dmz1990", "sr3", "sr1", "darkcon"))
        mr, crawl = rng.choice((1, 2, 3, 4)), rng.random() < 0.3
        mp = rng.choice((0, 3, 12, 25, 60))
        got = reach(board, a, mr, mp=mp, crawl=crawl, ruleset=ruleset)
        assert got == whole_board_reach(board, a, mr, mp, crawl, ruleset), (a, ruleset, mr, mp)
        assert list(got) == sorted(got, key=board.node)  # in node order, as before
        dots, costs = reach_arrays(board, a, mr, mp=mp, crawl=crawl)
        want = whole_board_reach(board, a, mr, mp, crawl, "dmz1990")
        assert {tuple(map(int, d)): int(c) for d, c in zip(dots, costs)} == want


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_reach_window_on_samples(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    _compare(board, seed=len(name))


def test_reach_window_on_benchmark_city():
    lay, sheets = neighbourhood(seed=5, blocks=3)
    _compare(compile_board(lay, sheets), seed=9, tries=30)
