"""Properties of the movement answers on the sample board (hypothesis picks the dots).

- Lower bound: every step on one level moves at most one dot (Chebyshev) and costs at least the
  move ratio (SPEC section 5), and level changes keep the column and row, so a path's cost is at
  least move_ratio x the lattice distance between its ends.
- Reach is monotone: more MP never loses a dot nor changes a dot's cost, and each cost it
  reports is the cheapest path's cost to that dot.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.io import load_board
from engine.movement import cheapest_path, reach

SAMPLE = Path(__file__).resolve().parents[2] / "scenarios" / "street-ambush.yaml"
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def board_and_dots():
    _, board = load_board(SAMPLE)
    dots = sorted((int(c), int(r), lvl) for lvl in board.levels for c, r in board.dots(lvl))
    return board, dots


def dot_index():
    return st.integers(min_value=0, max_value=len(board_and_dots()[1]) - 1)


@SETTINGS
@given(dot_index(), dot_index(), st.sampled_from([1, 2, 3, 4]))
def test_path_cost_is_at_least_move_ratio_times_distance(i, j, ratio):
    board, dots = board_and_dots()
    a, b = dots[i], dots[j]
    res = cheapest_path(board, a, b, ratio)
    if res.reachable:
        assert res.cost >= ratio * max(abs(a[0] - b[0]), abs(a[1] - b[1]))
        assert res.cost == sum(s.cost for s in res.steps)
        assert res.dots[0] == a and res.dots[-1] == b


@SETTINGS
@given(dot_index(), st.sampled_from([1, 2, 3]), st.integers(0, 10), st.integers(1, 12))
def test_reach_is_monotone_in_mp_and_agrees_with_paths(i, ratio, low, extra):
    board, dots = board_and_dots()
    a = dots[i]
    small = reach(board, a, ratio, mp=low)
    big = reach(board, a, ratio, mp=low + extra)
    assert set(small) <= set(big)
    assert all(big[d] == cost for d, cost in small.items())
    assert all(cost <= low for cost in small.values())
    for d, cost in list(small.items())[:5]:
        assert cheapest_path(board, a, d, ratio).cost == cost
