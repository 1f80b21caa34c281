"""A bounded search (every dot within a budget) answers the same on the whole matrix as on the
window of the board the budget can reach (engine.movement._bounded, issue 12.6): the same
nodes in the same order and the same costs to the bit, on every sample's map, under each
ruleset's weights, for budgets from one step to most of the map."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.io import load_board
from engine.movement import _bounded, build_graph

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("name", SAMPLES)
def test_whole_matrix_search_is_the_window_search(name):
    scenario, board = load_board(ROOT / "scenarios" / name)
    g = build_graph(board)
    rng = random.Random(name)
    windowed = 0
    for move_ratio, crawl in ((1, False), (2, False), (3, True)):
        mat = g.weights(scenario.ruleset, move_ratio, crawl)
        for _ in range(25):
            i = rng.randrange(g.n)
            limit = rng.choice((1.0, 2.5, 6.5, 12.000001, 17.0, 32.5, 60.0))
            whole = _bounded(board, g, mat, i, limit)
            window = _bounded(board, g, mat, i, limit, whole_max=0)
            assert np.array_equal(whole[0], window[0]), (name, i, limit)
            assert np.array_equal(whole[1], window[1]), (name, i, limit)
            assert len(whole[0]) >= 1
            windowed += len(window[0]) < g.n // 4
    assert windowed > 20  # most budgets reach a small part of the map: the window is cut
