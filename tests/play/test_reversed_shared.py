"""The reversed weight matrices goal searches run on are made once per matrix for every fork
of a board and turned by a permutation kept per matrix layout (issue 12.6): each must be the
plain ``w.T.tocsr()`` of the map state's matrix, with the median step, after doors open."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.play.engine_board import EngineBoard, fork_board
from tests.play.sample_views import sample_view


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "club-umbra-darkcon.yaml",
                                  "chop-shop-sr1.yaml", "street-ambush.yaml"])
def test_reversed_as_the_plain_transpose(name):
    scenario, board, view = sample_view(name)
    rng = random.Random(name)
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


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "street-ambush.yaml"])
def test_step_kept_per_weighting_through_doors(name):
    """A goal search's common step (how far its first cut-off goes) is the median of the first
    door state's matrix of that weighting, in every door state after; the turned matrix is
    still each state's own, and the costs are the whole search's."""
    from tests.play.test_costs_to_cut_off import _whole

    scenario, board, view = sample_view(name)
    first = {mr: view._reversed(view._weights(mr), (mr,))[1] for mr in (1, 2)}
    assert first == {mr: max(float(np.median(view._weights(mr).data)), 1e-3) for mr in (1, 2)}
    dots = [tuple(d) for d in view.board._node_dots.tolist()]
    for door in [f for f in view.board.all_features() if f.kind == "door"][:3]:
        view.set_opening(door.id, "closed" if door.props.get("state", "open") == "open"
                         else "open")
        for mr in (1, 2):
            w = view._weights(mr)
            rev, step = view._reversed(w, (mr,))
            assert step == first[mr]
            assert np.array_equal(rev.data, w.T.tocsr().data)
            goal = dots[len(dots) // 3]
            want = _whole(view, goal, mr)
            assert view.costs_to(goal, mr, dots) == [want[d] for d in dots]
