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
