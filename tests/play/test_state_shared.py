"""After a door opens or shuts, play takes some answers of the map state before instead of
working them out again (issue 12, point 6): the openings on a step or near a dot when the door
is not among them, the reach from a dot when it holds no end of a step the door changed, and
the cheapest paths whose search met no step the door changed (under the rulesets that walk
metres a door changes no metre: all of them).  Every answer must be the one a board loaded afresh with the door in
its new state gives, and answers must actually come from before."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine.play.engine_board as eb_mod
from engine.io import load_board
from engine.play.engine_board import EngineBoard, fork_board

ROOT = Path(__file__).resolve().parents[2]


def _asks(view: EngineBoard, door, rng: random.Random) -> list[tuple]:
    """Questions near the door (some of them about it) and across the map."""
    board = view.board
    x, y = door.geom.centroid.x, door.geom.centroid.y
    dots = [(int(c), int(r), lv) for lv in board.levels for c, r in board.dots(lv)]
    near = sorted((d for d in dots if d[2] == door.level),
                  key=lambda d: ((d[0] - x) ** 2 + (d[1] - y) ** 2, d))[:30]
    some = near + rng.sample(dots, 30)
    out: list[tuple] = []
    for d in some:
        out.append(("near", d))
        for n in view.neighbours(d)[:3]:
            out.append(("on", d, n))
    for d in rng.sample(some, 20):
        out.append(("reach", d, rng.choice((1, 2)), rng.choice((6.0, 12.0))))
    for _ in range(25):
        out.append(("path", rng.choice(some), rng.choice(some), 1))
    return out


def _answer(view: EngineBoard, ask: tuple):
    kind = ask[0]
    if kind == "near":
        return view.openings_near(ask[1])
    if kind == "on":
        return view.openings_on(ask[1], ask[2])
    if kind == "reach":
        return view.reach(ask[1], ask[2], ask[3])
    return view.path(ask[1], ask[2], ask[3])


@pytest.mark.parametrize("name,metric", [("nightclub-raid-sr3.yaml", True),
                                         ("club-umbra-darkcon.yaml", True),
                                         ("chop-shop-sr1.yaml", True),
                                         ("police-station-extraction.yaml", False)])
def test_answers_after_a_door_as_a_fresh_board(name, metric):
    scenario, board = load_board(ROOT / "scenarios" / name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    rng = random.Random(name)
    doors = [f for f in view.board.all_features() if f.kind == "door"]
    taken = {"openings": 0, "reach": 0, "paths": 0}
    keep_reach, keep_path = eb_mod.reach, eb_mod.cheapest_dots
    changed: list[tuple[str, str]] = []
    counted = {"reach": 0, "paths": 0, "openings": 0}
    asked_paths = 0
    near_of = view._openings_meeting  # (what works out the openings of a step or a cell)

    def spy_near(*a, **kw):
        counted["openings"] += 1
        return near_of(*a, **kw)

    def spy_reach(*a, **kw):
        counted["reach"] += 1
        return keep_reach(*a, **kw)

    def spy_path(*a, **kw):
        counted["paths"] += 1
        return keep_path(*a, **kw)

    for door in rng.sample(doors, min(2, len(doors))):
        state = "closed" if door.props.get("state", "open") == "open" else "open"
        asks = _asks(view, door, rng)
        for ask in asks:  # the state before knows them
            _answer(view, ask)
        view.set_opening(door.id, state)
        changed.append((door.id, state))
        counted.update(reach=0, paths=0, openings=0)
        eb_mod.reach, eb_mod.cheapest_dots = spy_reach, spy_path
        view._openings_meeting = spy_near
        try:
            after = [_answer(view, ask) for ask in asks]
        finally:
            eb_mod.reach, eb_mod.cheapest_dots = keep_reach, keep_path
            del view._openings_meeting
        _s, fresh_board = load_board(ROOT / "scenarios" / name)
        for fid, st in changed:
            fresh_board.set_state(fid, st)
        fresh = EngineBoard(fresh_board, light=scenario.light, ruleset=scenario.ruleset)
        for ask, got in zip(asks, after, strict=True):
            assert got == _answer(fresh, ask), (door.id, state, ask)
        n_reach = len({a[1:] for a in asks if a[0] == "reach"})
        n_path = len({a[1:] for a in asks if a[0] == "path"})
        asked_paths += n_path
        taken["reach"] += n_reach - counted["reach"]
        taken["paths"] += n_path - counted["paths"]
        n_open = len({a for a in asks if a[0] in ("near", "on")})
        taken["openings"] += n_open - counted["openings"]
        # the openings that hold the door were found again (its state changed)
        assert 0 < counted["openings"] < n_open // 2
    assert taken["openings"] > 0
    # a reach that does not touch a step the door changed: taken (all of them in metres)
    assert taken["reach"] >= 10
    if metric:
        assert taken["paths"] >= 10
    else:  # dmz1990: a door changes the MP of the steps through it: a path whose A* window
        # holds one is searched again (tests/play/test_other_states.py: the others are taken)
        assert taken["paths"] < asked_paths
