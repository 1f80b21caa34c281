"""The set-up sight check traces its fans on a view of the board that holds one level's
features and the street's (``_LevelSight``): a fan between dots of that level must be the fan
traced on the whole board's primitives, on the samples, a benchmark city and cities with
floors cut at random, every level, origins and targets anywhere on it (issue 11: a cold
16x16 validation built the primitives of all six levels for lines on level 0)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from benchmarks.neighbourhood import neighbourhood, scenario
from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.los import los_fan
from engine.scenario_checks import _LevelSight, mutual_los_at_setup
from engine.sight import sight_fan
from engine.validate import validate
from tests.engine.test_walk_window import broken_city

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))
FIELDS = ("dots", "blocked", "cover", "visibility", "closed_doors")


def _boards() -> list[tuple[str, Board]]:
    out = [(name, load_board(ROOT / "scenarios" / name)[1]) for name in SAMPLES]
    lay, sheets = neighbourhood(seed=5, blocks=2)
    out.append(("city", compile_board(lay, sheets)))
    out += [(f"broken-{s}", broken_city(s, blocks=2)) for s in (1, 2)]
    return out


BOARDS = _boards()


@pytest.mark.parametrize("name,board", BOARDS, ids=[n for n, _ in BOARDS])
def test_a_fan_on_one_level_is_the_whole_boards_fan(name, board):
    rng = random.Random(name)
    seen = covered = 0
    for lv in board.levels:
        dots = board.dots(lv)
        if not len(dots):
            continue
        view = _LevelSight(board, lv)
        assert len(view.all_features()) < len(board.all_features()) or lv == board.levels[-1]
        for _ in range(4):
            a = (*map(int, dots[rng.randrange(len(dots))]), lv)
            k = min(len(dots), rng.choice((5, 60, 400)))
            tg = dots[rng.sample(range(len(dots)), k)]
            radius = rng.choice((12, 40, 10_000))
            want = los_fan(board, a, radius=radius, level=lv, targets=tg)
            got = los_fan(view, a, radius=radius, level=lv, targets=tg)
            for f in FIELDS:
                assert np.array_equal(getattr(got, f), getattr(want, f)), (a, f)
            seen += int((~want.blocked).sum())
            covered += int((want.cover > 0).sum())
            for ruleset, light in (("dmz1990", "day"), ("sr3", "night"), ("darkcon", "day")):
                w = sight_fan(board, a, ruleset=ruleset, light=light, radius=radius, level=lv,
                              targets=tg)
                g = sight_fan(view, a, ruleset=ruleset, light=light, radius=radius, level=lv,
                              targets=tg)
                assert np.array_equal(g.blocked, w.blocked) and np.array_equal(g.cover, w.cover)
    assert seen > 0 and covered > 0  # the comparison met targets in sight and in cover


def test_the_views_primitives_hold_fewer_features_and_leave_the_board_alone():
    lay, sheets = neighbourhood(seed=5, blocks=2)
    board = compile_board(lay, sheets)
    assert mutual_los_at_setup(board, scenario(lay))  # (sides in sight: fans were traced)
    assert "_los_prims" not in board.__dict__  # the check built its view's, not the board's
    found = validate(board, scenario(lay))
    view = _LevelSight(board, 0)
    assert {f.level for f in view.all_features() if f.building is not None} == {0}
    assert len(view.all_features()) < len(board.all_features()) / 2
    # the same findings from a board that has its primitives (the check then uses them)
    again = compile_board(lay, sheets)
    from engine.los import prims

    prims(again)
    assert [f.to_dict() for f in validate(again, scenario(lay))] == [f.to_dict() for f in found]


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_the_check_finds_the_same_pair_on_the_view(seed, monkeypatch):
    """The whole check, with and without the view, on cities whose sides set up on two
    edges (as the benchmark's) and at random spots of one level."""
    from engine import model as m
    from engine import scenario_checks

    lay, sheets = neighbourhood(seed=seed, blocks=2)
    rng = random.Random(seed)
    board = compile_board(lay, sheets)
    edges = [("west", "east"), ("north", "south"), ("west", "north")]
    for ea, eb in edges:
        sides = (m.Side("a", "A", m.Deployment(edge=ea, depth=2), ()),
                 m.Side("b", "B", m.Deployment(edge=eb, depth=rng.randint(1, 3)), ()))
        s2 = m.Scenario(title="t", layout=lay, sides=sides)
        fresh = compile_board(lay, sheets)
        got = mutual_los_at_setup(fresh, s2)
        assert "_los_prims" not in fresh.__dict__
        with monkeypatch.context() as mp:
            mp.setattr(scenario_checks, "_sight_board", lambda b, la, lb, views: b)
            want = mutual_los_at_setup(board, s2)
        assert [f.to_dict() for f in got] == [f.to_dict() for f in want]


def test_the_view_serves_fans_within_one_level_of_a_board_without_primitives_only():
    from engine.los import prims
    from engine.scenario_checks import _sight_board

    lay, sheets = neighbourhood(seed=5, blocks=2)
    board = compile_board(lay, sheets)
    views: dict = {}
    v0 = _sight_board(board, 0, 0, views)
    assert isinstance(v0, _LevelSight) and _sight_board(board, 0, 0, views) is v0
    assert _sight_board(board, 0, 1, views) is board  # a line between two levels
    assert _sight_board(board, 2, 0, views) is board
    fork = board.fork()
    fork.set_state(next(f.id for f in board.all_features() if f.kind == "door"), "closed")
    assert _sight_board(fork, 0, 0, {}) is fork  # play's overlay: the board's own primitives
    prims(board)
    assert _sight_board(board, 1, 1, {}) is board  # built already: no second set
