"""A door opened or shut patches the movement graph (issue 12.6); the patched graph takes over
what the door cannot change: the metres of the steps and their matrices, the layouts every
weighting shares, and the MP matrices' layout with the touched steps read again.  Every matrix
of a patched graph must equal the one a board loaded afresh with the doors so builds, and the
kept ones must actually be kept."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.io import load_board
from engine.movement import _min_move, _per_dot, build_graph
from engine.play.engine_board import EngineBoard, fork_board

ROOT = Path(__file__).resolve().parents[2]


def _same(a, b) -> None:
    assert a.shape == b.shape
    assert np.array_equal(a.indptr, b.indptr)
    assert np.array_equal(a.indices, b.indices)
    assert np.array_equal(a.data, b.data)


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "club-umbra-darkcon.yaml",
                                  "nightclub-raid-sr3.yaml", "street-ambush.yaml"])
def test_patched_graph_matrices_as_a_fresh_board(name):
    scenario, board = load_board(ROOT / "scenarios" / name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    rs = scenario.ruleset
    rng = random.Random(name)
    doors = [f for f in view.board.all_features() if f.kind == "door"]
    weightings = [(1, False), (2, False), (3, True)]
    g = build_graph(view.board)
    for mr, crawl in weightings:  # the state before has them all
        _per_dot(g, view.board, g.weights(rs, mr, crawl))
        _min_move(g, view.board, g.weights(rs, mr, crawl))
    changed: list[tuple[str, str]] = []
    handed = 0
    for door in rng.sample(doors, min(5, len(doors))):
        before = build_graph(view.board)
        state = "closed" if door.props.get("state", "open") == "open" else "open"
        view.set_opening(door.id, state)
        changed.append((door.id, state))
        g = build_graph(view.board)
        if g is before:
            continue  # the door hinders no step
        if scenario.ruleset == "dmz1990":
            handed += "_direct_layout" in g.__dict__
        else:  # metres: a door changes none, the matrix is the one before
            handed += g.weights(rs, 1, False) is before.weights(rs, 1, False)
        _s, fresh_board = load_board(ROOT / "scenarios" / name)
        for fid, st in changed:
            fresh_board.set_state(fid, st)
        fresh = build_graph(fresh_board)
        for mr, crawl in weightings:
            m, f = g.weights(rs, mr, crawl), fresh.weights(rs, mr, crawl)
            _same(m, f)
            assert _per_dot(g, view.board, m) == _per_dot(fresh, fresh_board, f)
            assert _min_move(g, view.board, m) == _min_move(fresh, fresh_board, f)
        if "_direct_layout" in g.__dict__:
            fresh._direct_rows()
            for a, b in zip(g.__dict__["_direct_layout"], fresh.__dict__["_direct_layout"],
                            strict=True):
                assert np.array_equal(a, b)
            got, want = g.__dict__["_direct_entries"], fresh.__dict__["_direct_entries"]
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert handed >= 3
