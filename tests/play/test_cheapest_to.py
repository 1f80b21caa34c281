"""The cheapest of some dots to a goal, with the search to the goal cut off at their least
cost (issue 12, point 6).

A carrier heading out asks which dot of the map's edge is cheapest to reach from where he
stands, from every dot he stands on.  ``EngineBoard.cheapest_to`` finds the least cost by one
search from all the edge dots (kept for the map state) and the search to the goal then goes no
further than that; the answer must be the least of the plain ``costs_to`` and every dot tied
at it, on every ruleset's sample (MP, metres rounded to the centimetre, Dark Conspiracy's two
parity layers), after doors open.
"""

from __future__ import annotations

import random

import pytest

from engine.play.engine_board import EngineBoard
from tests.play.sample_views import sample_view
from tests.play.test_common_sight import _fresh


def _plain(view: EngineBoard, goal, mr: int, dots) -> tuple:
    costs = view.costs_to(goal, mr, dots)
    least = min((c for c in costs if c is not None), default=None)
    return least, [d for c, d in zip(costs, dots, strict=True) if c is not None and c == least]


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "street-ambush.yaml",
                                  "club-umbra-darkcon.yaml", "chop-shop-sr1.yaml"])
def test_cheapest_to_is_the_least_of_the_plain_costs(name):
    scenario, board, view = sample_view(name)
    rng = random.Random(name)
    dots = [tuple(d) for d in view.board._node_dots.tolist()]
    edges = {e: view.deploy_dots(None, 0, e, 1) for e in ("north", "south", "east", "west")}
    lists = [v for v in edges.values() if v] + [rng.sample(dots, 25)]
    doors = [f for f in view.board.all_features() if f.kind == "door"][:2]
    ratios = (1,) if view._metric else (1, 2)
    states: dict[str, str] = {}
    ties = 0
    for k in range(len(doors) + 1):
        fresh = _fresh(board, scenario, states)
        for goal in rng.sample(dots, 12):
            for mr in ratios:
                for ds in lists:
                    got = view.cheapest_to(goal, mr, ds)
                    assert got == _plain(fresh, goal, mr, ds), (states, goal, mr)
                    ties += len(got[1]) > 1
        if k < len(doors):
            st = "open" if doors[k].props.get("state") == "closed" else "closed"
            view.set_opening(doors[k].id, st)
            states[doors[k].id] = st
    assert ties >= 3  # some answers tie several dots


def test_asked_again_from_the_same_dot_no_second_search(monkeypatch):
    """A carrier asking his way out again from where he stands finds the goal's table
    searched to just that limit (scipy keeps a cost equal to its limit): no second search,
    the same answer as the plain costs."""
    scenario, board, view = sample_view("police-station-extraction.yaml")
    rng = random.Random(7)
    dots = [tuple(d) for d in view.board._node_dots.tolist()]
    edge = view.deploy_dots(None, 0, "south", 1)
    searched = []
    keep = EngineBoard._search_to

    def spy(self, *a, **k):
        searched.append(a[0])
        return keep(self, *a, **k)

    monkeypatch.setattr(EngineBoard, "_search_to", spy)
    fresh = _fresh(board, scenario, {})
    for goal in rng.sample(dots, 10):
        want = _plain(fresh, goal, 2, edge)
        first = view.cheapest_to(goal, 2, edge)
        n = len(searched)
        assert view.cheapest_to(goal, 2, edge) == first == want
        assert len(searched) == n, goal
    assert searched


def test_a_table_exact_only_below_its_limit_is_searched_at_that_limit():
    """A table started from another door state's is exact only below its limit: asked for
    dots that need exactly that limit, it is searched (here it knows nothing at all)."""
    import numpy as np

    from engine.play.engine_board import _GoalSearch

    scenario, board, view = sample_view("police-station-extraction.yaml")
    rng = random.Random(8)
    dots = [tuple(d) for d in view.board._node_dots.tolist()]
    edge = view.deploy_dots(None, 0, "south", 1)
    fresh = _fresh(board, scenario, {})
    n = view.board.node_count
    for goal in rng.sample(dots, 5):
        want = _plain(fresh, goal, 2, edge)
        blank = _GoalSearch()
        blank.costs = blank.full = np.full(n, np.inf)
        blank.limit, blank.w = want[0] + 0.5, view._weights(2)  # (cheapest_to's own limit)
        view._to_goal[(goal, 2)] = blank
        assert view.cheapest_to(goal, 2, edge) == want


@pytest.mark.parametrize("name", ["street-ambush.yaml", "club-umbra-darkcon.yaml"])
def test_the_same_dots_in_other_lists_as_the_plain_costs(name):
    """The nodes of the dots asked are kept per tuple of dots: the same dots as lists, in
    another order, or a few of them answer as the plain costs do, in their own order."""
    scenario, board, view = sample_view(name)
    rng = random.Random(name)
    dots = [tuple(d) for d in view.board._node_dots.tolist()]
    edge = view.deploy_dots(None, 0, "west", 1)
    fresh = _fresh(board, scenario, {})
    mr = 1 if view._metric else 2
    for goal in rng.sample(dots, 8):
        some = rng.sample(edge, 10)
        for ds in (edge, [list(d) for d in edge], edge[::-1], some, some[::-1]):
            least, tied = view.cheapest_to(goal, mr, ds)
            want = _plain(fresh, goal, mr, [tuple(d) for d in ds])
            assert (least, [tuple(d) for d in tied]) == want, (goal, len(ds))


@pytest.mark.parametrize("name,costs", [
    ("nightclub-raid-sr3.yaml", [10.004, 12.0, 10.001, 10.0149, 10.016, None]),
    ("police-station-extraction.yaml", [2.5, 4.0, 1.5, 3.0, 2.4999, None])])
def test_only_costs_that_round_alike_tie(name, costs):
    """Only the dots within a rounding step of the least cost are rounded: every dot whose
    answer rounds to the least is still named (costs set in a table by hand: metres rounded
    to the centimetre, MP to the whole, half to even)."""
    import math

    import numpy as np

    from engine.play.engine_board import _GoalSearch

    _scenario, _board, view = sample_view(name)
    dots = [tuple(d) for d in view.board._node_dots.tolist()]
    goal, ask = dots[0], dots[1:len(costs) + 1]
    table = _GoalSearch()
    table.costs = table.full = np.full(view.board.node_count, np.inf)
    for d, c in zip(ask, costs, strict=True):
        table.costs[view.board.node(d)] = math.inf if c is None else c
    table.limit, table.closed, table.w = math.inf, True, view._weights(2)
    view._to_goal[(goal, 0 if view._metric else 2)] = table
    plain = [(round(c, 2) if view._metric else int(round(c)), d)
             for c, d in zip(costs, ask, strict=True) if c is not None]
    least = min(v for v, _d in plain)
    assert view.cheapest_to(goal, 2, ask) == (least, [d for v, d in plain if v == least])
    assert len([v for v, _d in plain if v == least]) >= 2
