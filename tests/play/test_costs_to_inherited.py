"""After a door opens or shuts, ``EngineBoard.costs_to`` starts a goal's table from the costs
the map state before found below the least cost of an end of an edge the door changed
(``_goal_from_parent``): every answer must still be the one the search over the whole map of
the new state gives, on every ruleset's sample with doors (MP, metres, Dark Conspiracy's two
parity layers), both move ratios, a door opened then shut again, and some dots must be
answered with no new search."""

from __future__ import annotations

import random

import pytest

from tests.play.sample_views import sample_view
from tests.play.test_costs_to_cut_off import _whole


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "chop-shop-sr1.yaml",
                                  "club-umbra-darkcon.yaml", "nightclub-raid-sr3.yaml"])
def test_costs_after_a_door_as_the_whole_search(name):
    scen, board, eb = sample_view(name)
    rng = random.Random(name)
    dots = [tuple(d) for d in eb.board._node_dots.tolist()]
    doors = [f for f in eb.board.all_features() if f.kind == "door"]
    assert doors
    goals = [d for d in rng.sample(dots, 8) if eb.board.standable(d)][:5]
    ratios = (1,) if eb._metric else (1, 2)
    inherited = served = 0
    for door in rng.sample(doors, min(3, len(doors))):
        for state in ("closed" if door.props.get("state", "open") == "open" else "open",
                      door.props.get("state", "open")):
            for goal in goals:  # asked before the door changes: the state before has them
                for mr in ratios:
                    eb.costs_to(goal, mr, rng.sample(dots, 30))
            eb.set_opening(door.id, state)
            for goal in goals:
                for mr in ratios:
                    key = (goal, 0 if eb._metric else mr)
                    want = _whole(eb, goal, mr)
                    near = sorted(dots, key=lambda d: (eb.lattice.distance(goal[:2], d[:2]), d))
                    ask = near[:15]
                    got = eb.costs_to(goal, mr, ask)
                    entry = eb._to_goal.get(key)
                    if entry is not None and entry.full is not None and entry.runs == 0:
                        inherited += 1
                        served += sum(c is not None for c in got)
                    assert got == [want[d] for d in ask], (door.id, state, goal, mr)
                    ask = rng.sample(dots, 60)
                    assert eb.costs_to(goal, mr, ask) == [want[d] for d in ask]
                    assert eb.costs_to(goal, mr, dots) == [want[d] for d in dots]
    assert inherited >= 3  # tables started from the state before, not empty
    assert served >= 10  # and answered dots with no search of their own
