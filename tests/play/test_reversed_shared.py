"""The reversed weight matrices goal searches run on are made once per matrix for every fork
of a board and turned by a permutation kept per matrix layout (issue 12.6): each must be the
plain ``w.T.tocsr()`` of the map state's matrix, with the median step, after doors open."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.io import load_board
from engine.play.engine_board import EngineBoard, fork_board

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "club-umbra-darkcon.yaml",
                                  "chop-shop-sr1.yaml", "street-ambush.yaml"])
def test_reversed_as_the_plain_transpose(name):
    scenario, board = load_board(ROOT / "scenarios" / name)
    rng = random.Random(name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    doors = [f for f in view.board.all_features() if f.kind == "door"]
    seen: dict[int, object] = {}
    kept = 0
    for round_ in range(5):
        for mr in (1, 2, 3):
            w = view._weights(mr)
            rev, step = view._reversed(w)
            want = w.T.tocsr()
            assert rev.shape == want.shape
            assert np.array_equal(rev.indptr, want.indptr)
            assert np.array_equal(rev.indices, want.indices)
            assert np.array_equal(rev.data, want.data)
            assert step == max(float(np.median(w.data)), 1e-3)
            kept += seen.get(id(w)) is rev
            seen[id(w)] = rev
        if round_ < 4 and doors:
            door = rng.choice(doors)
            view.set_opening(door.id, "closed" if door.props.get("state", "open") == "open"
                             else "open")
    # a fork of the same board takes the turned matrices made already
    other = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    w = other._weights(2)
    assert other._reversed(w)[0] is view._reversed(w)[0]
    if view._metric:  # the doors changed no metre: the state after took them turned
        assert kept >= 4
