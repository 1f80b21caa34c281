"""Play's board answers in the ruleset's units: MP under dmz1990, metres under the others
(the same graph and measure as the CLI's ``path`` and ``reach``)."""

import pytest

from tests.play.test_engine_board import hut


def test_dmz_steps_are_mp_and_sr3_steps_are_metres():
    dmz, sr3 = hut("dmz1990"), hut("sr3")
    a, east, diag = (2, 11, 0), (3, 11, 0), (3, 12, 0)
    assert dmz.step(a, east, 3).cost == 3
    assert sr3.step(a, east, 3).cost == 2.0  # one dot is 2 m, whatever the move ratio
    assert sr3.step(a, diag, 3).cost == pytest.approx(2.83, abs=0.01)  # 2 m x sqrt 2


def test_sr3_reach_path_and_costs_to_are_in_metres():
    sr3 = hut("sr3")
    a, b = (2, 11, 0), (7, 11, 0)
    got = sr3.reach(a, 2, 6.0)
    assert got[(5, 11, 0)] == 6.0 and (6, 11, 0) not in got
    assert sr3.path(a, b, 2) == [(x, 11, 0) for x in range(2, 8)]
    assert sr3.costs_to(b, 3, [a, (6, 11, 0), b]) == [10.0, 2.0, 0.0]


def test_darkcon_counts_every_other_diagonal_double_in_costs_to():
    dc = hut("darkcon")
    goal = (4, 11, 0)
    # two diagonals: 2 m and then 4 m (seed 003 l.128) plus nothing straight
    assert dc.costs_to(goal, 2, [(2, 13, 0)]) == [6.0]
    assert dc.costs_to(goal, 2, [(3, 12, 0)]) == [2.0]
