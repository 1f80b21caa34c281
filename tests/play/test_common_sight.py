"""Sight answers every door state shares (issue 12, point 6).

A line that counts no door, window or hole has the same facts and verdict whatever the doors'
states, so :class:`engine.play.engine_board.EngineBoard` keeps such answers (single lines and
fan verdicts) in tables all the door states of a balance run share.  These tests open and shut
doors on the samples whose rulesets hide a target behind a closed door (under dmz1990 a
closed door interrupts like an open one, so its verdicts would not tell), ask the lines around
the doors in each state, and compare every answer with a freshly loaded board in that state:
an answer on a line through a door that changed, taken from the shared tables, would differ.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.io import load_board
from engine.los import openings_met
from engine.play.engine_board import EngineBoard, fork_board
from tests.play.sample_views import cold_board, near_door, sample_view, some_doors

ROOT = Path(__file__).resolve().parents[2]
ASKS = (("standing", "standing", "normal"), ("standing", "prone", "normal"),
        ("prone", "standing", "thermographic"))


def _fresh(board, scenario, states: dict[str, str]) -> EngineBoard:
    """A board in the same door states with nothing remembered or shared."""
    return EngineBoard(cold_board(board, states), light=scenario.light,
                       ruleset=scenario.ruleset)


@pytest.mark.parametrize("name", ["club-umbra-darkcon.yaml", "nightclub-raid-sr3.yaml",
                                  "chop-shop-sr1.yaml"])
def test_shared_answers_are_those_of_a_fresh_board(name):
    scenario, board, view = sample_view(name)
    rng = random.Random(name)
    doors = some_doors(view, rng, 3)
    near = sorted({d for door in doors for d in near_door(view.board, door, 14)})
    pairs = [(a, b) for a in near for b in near if a != b]
    pairs = rng.sample(pairs, min(500, len(pairs)))
    states: dict[str, str] = {}
    through = changed = shared = 0
    before = None
    steps = [(d.id, "open" if d.props.get("state") == "closed" else "closed") for d in doors]
    steps += [(fid, "closed" if st == "open" else "open") for fid, st in steps[:2]]
    for fid, st in [(None, None)] + steps:
        if fid is not None:
            view.set_opening(fid, st)
            states[fid] = st
        fresh = _fresh(board, scenario, states)
        for o in near[::4]:
            view.warm_blocked(o, near, ["normal", "thermographic"])
        for a, b in pairs:
            for pa, pb, vision in ASKS:
                was_shared = (a, b, pa, pb, vision) in view._common["sight"]
                got = view.sight(a, b, pa, pb, vision)
                want = fresh._sight_uncached(a, b, pa, pb, vision)
                assert got == want, (fid, st, a, b, pa, pb, vision)
                shared += was_shared
            if openings_met(view.board, a, b):
                through += 1
            for vision in ("normal", "thermographic"):
                if view.known_blocked(a, b, vision):
                    assert fresh._sight_uncached(a, b, "standing", "standing", vision).blocked
        for a, b in pairs:  # lines whose verdict the door changed were asked in both states
            if before is not None and fresh._sight_uncached(a, b, "standing", "standing",
                                                            "normal") != \
                    before._sight_uncached(a, b, "standing", "standing", "normal"):
                changed += 1
        before = fresh
    assert through > 0 and changed > 0  # the door changed answers ...
    assert shared > 0  # ... and the shared tables were used
    assert view._common["fans"]


def test_lines_through_doors_kept_with_their_states():
    """A line through a door is kept with the door's state; one through none without."""
    scenario, board = load_board(ROOT / "scenarios" / "club-umbra-darkcon.yaml")
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    door = next(f for f in view.board.all_features() if f.kind == "door")
    near = near_door(view.board, door, 20)
    through = 0
    for a in near:
        for b in near:
            if a != b:
                view.sight(a, b, "standing", "standing", "normal")
                key = (a, b, "standing", "standing", "normal")
                doors = openings_met(view.board, a, b)
                assert doors is not None
                assert (key in view._common["sight"]) == (not doors)
                if doors:
                    through += 1
                    assert (door.id, door.props.get("state")) in doors
                    assert (*key, doors) in view._common["sight"]
    assert through
