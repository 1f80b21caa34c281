"""Steps every door state shares (issue 12, point 6).

A door or window opened or shut prices only the steps through it; every other step (and every
"no step") is the same in all door states, so :meth:`engine.play.engine_board.EngineBoard.step`
keeps those in a table all the door states of a run share.  These tests walk the steps around
some doors of the samples (MP and metres), open and shut the doors in turn, and compare every
answer with a freshly loaded board in that state: a step through a changed door taken from the
shared table would keep the old door's price or reason.
"""

from __future__ import annotations

import random

import pytest

from tests.play.sample_views import near_door, sample_view
from tests.play.test_common_sight import _fresh


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "nightclub-hold.yaml",
                                  "club-umbra-darkcon.yaml", "chop-shop-sr1.yaml"])
def test_shared_steps_are_those_of_a_fresh_board(name):
    scenario, board, view = sample_view(name)
    rng = random.Random(name)
    doors = [f for f in view.board.all_features() if f.kind in ("door", "window")]
    assert doors
    doors = rng.sample(doors, min(4, len(doors)))
    near = sorted({d for door in doors for d in near_door(view.board, door, 12)})
    # each dot's steps to its neighbours (through the doors among them), and a few non-steps
    pairs = [(a, b) for a in near for b in view.neighbours(a)]
    pairs += [(a, b) for a, b in zip(near, near[3:])]
    ratios = (1,) if view._metric else (1, 2)
    states: dict[str, str] = {}
    through = shared = 0
    flips = [(d.id, "open" if d.props.get("state") == "closed" else "closed") for d in doors]
    flips += [(d.id, d.props.get("state", "open")) for d in doors[:2]]  # back as they were
    for k in range(len(flips) + 1):
        fresh = _fresh(board, scenario, states)
        for a, b in pairs:
            for mr in ratios:
                for crawl in (False, True):
                    known = view._common["steps"].get(
                        (a, b, 0, False) if view._metric else (a, b, mr, crawl))
                    want = fresh.step(a, b, mr, crawl)
                    assert view.step(a, b, mr, crawl) == want, (states, a, b, mr, crawl)
                    shared += known is not None and k > 0
                    through += want is not None and any(
                        w.startswith(("closed door", "open door", "closed window",
                                      "open window")) for w in want.why)
        if k < len(flips):
            fid, st = flips[k]
            view.set_opening(fid, st)
            states[fid] = st
    assert through >= 8  # steps through the doors were asked in every state
    assert shared >= 100  # and the others were answered from the shared table
