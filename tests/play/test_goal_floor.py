"""The bots price an objective's path only while it can still be their best goal (issue 12.6):
``EngineBoard.cost_floor`` must never be above the path cost ``costs_to`` answers, and a bot's
goal with objectives left unpriced must be the goal with every one priced."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.io import load_board
from engine.play import bots as bots_mod
from engine.play.engine_board import EngineBoard, fork_board
from engine.play.headless import engine_view_factory, play_game_of

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("name", SAMPLES)
def test_floor_never_above_the_path_cost(name):
    scenario, board = load_board(ROOT / "scenarios" / name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    rng = random.Random(name)
    dots = [(int(c), int(r), lv) for lv in view.board.levels for c, r in view.board.dots(lv)]
    doors = [f for f in view.board.all_features() if f.kind == "door"]
    close = priced = 0
    for round_ in range(3):
        for goal in rng.sample(dots, 5):
            mr = rng.choice((1, 2, 3))
            starts = rng.sample(dots, 40)
            for start, cost in zip(starts, view.costs_to(goal, mr, starts), strict=True):
                if cost is None:
                    continue
                low = view.cost_floor(start, goal, mr)
                assert low <= cost, (name, start, goal, mr, low, cost)
                assert view.cost_floor(goal, start, mr) == low
                priced += 1
                close += cost > 0 and low >= 0.5 * cost
        if doors and round_ < 2:
            door = rng.choice(doors)
            view.set_opening(door.id, "closed" if door.props.get("state", "open") == "open"
                             else "open")
    assert priced > 100 and close > 10  # a floor that says something


def test_goals_with_floors_as_with_every_objective_priced(monkeypatch):
    """Played games of every sample: each goal a bot works out with the floor is the goal
    worked out again pricing every objective (no floor); some objectives went unpriced."""
    lean = bots_mod.Bot._goal
    unpriced = {"goals": 0, "skipped": 0}
    keep_cost = bots_mod.Bot._cost_to
    counted = [0]

    def counting(game, ch, target):
        counted[0] += 1
        return keep_cost(game, ch, target)

    def spy(self, game, ch):
        counted[0] = 0
        got = lean(self, game, ch)
        with_floor = counted[0]
        with monkeypatch.context() as m:
            m.setattr(EngineBoard, "cost_floor", lambda *_a: None)
            counted[0] = 0
            want = lean(self, game, ch)
        assert got == want
        unpriced["goals"] += 1
        unpriced["skipped"] += counted[0] - with_floor
        return got

    monkeypatch.setattr(bots_mod.Bot, "_cost_to", staticmethod(counting))
    monkeypatch.setattr(bots_mod.Bot, "_goal", spy)
    for name in SAMPLES:
        scenario, board = load_board(ROOT / "scenarios" / name)
        make = engine_view_factory(scenario, board)
        for seed in (1, 2):
            play_game_of(scenario, make, seed)
    assert unpriced["goals"] > 500 and unpriced["skipped"] > 100


@pytest.mark.parametrize("name", ["chop-shop-sr1.yaml", "nightclub-hold.yaml",
                                  "police-station-extraction.yaml"])
def test_nearest_area_dot_as_the_plain_minimum(name):
    """A ``hold`` area's nearest dot (each dot's distance at once, the lowest dot of a tie)
    is the plain minimum over (distance, dot), from dots all over the map."""
    from types import SimpleNamespace

    from engine.play import referees

    scenario, board = load_board(ROOT / "scenarios" / name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    game = referees.new_game(scenario, view, 1)
    bot = bots_mod.Bot(scenario.sides[0].id)
    lat = view.lattice
    rng = random.Random(name)
    dots = [(int(c), int(r), lv) for lv in view.board.levels for c, r in view.board.dots(lv)]
    ties = 0
    for obj in (o for o in game.objectives if o.kind == "hold" and o.area is not None):
        area = bot._area_dots(game, obj)
        assert area
        for pos in rng.sample(dots, 300) + area[:20]:
            got = bot._area_dot(game, SimpleNamespace(pos=pos), obj)
            assert got == min(area, key=lambda d, p=pos: (lat.distance(d[:2], p[:2]), d))
            near = min(lat.distance(d[:2], pos[:2]) for d in area)
            ties += sum(lat.distance(d[:2], pos[:2]) == near for d in area) > 1
    assert ties > 20


def test_hex_distances_as_distance():
    from engine.lattice import get_lattice

    rng = random.Random(3)
    for name in ("hex", "square"):
        lat = get_lattice(name)
        for _ in range(50):
            a = (rng.randrange(-20, 40), rng.randrange(-20, 40))
            cells = [(rng.randrange(-20, 40), rng.randrange(-20, 40)) for _ in range(40)]
            got = lat.distances(a, np.array(cells, dtype=np.int64)).tolist()
            assert got == [lat.distance(c, a) for c in cells]


def test_nearest_area_dot_kept_per_dot_as_worked_out():
    """``_area_dot`` keeps each dot's answer per board and objective: asked again (and for
    another area, and on another game's board in another door state) it answers as the
    plain minimum over (distance, dot) of that area's own dots."""
    from dataclasses import replace
    from types import SimpleNamespace

    from engine.play import referees

    scenario, board = load_board(ROOT / "scenarios" / "police-station-extraction.yaml")
    bot = bots_mod.Bot("police")
    rng = random.Random(11)
    hold = next(o for o in scenario.objectives if o.kind == "hold")
    other = replace(hold, id="west-cells",
                    area=((0.5, 1.5), (12.5, 1.5), (12.5, 9.5), (0.5, 9.5)))
    for game_no in range(2):
        view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
        if game_no:
            door = next(f for f in view.board.all_features() if f.kind == "door")
            view.set_opening(door.id, "closed" if door.props.get("state", "open") == "open"
                             else "open")
        game = referees.new_game(scenario, view, 1)
        lat = view.lattice
        dots = [(int(c), int(r), lv) for lv in view.board.levels
                for c, r in view.board.dots(lv)]
        asked = rng.sample(dots, 60)
        for obj in (hold, other):
            area = view.deploy_dots(obj.area, obj.level, None, None)
            assert area
            for pos in asked + asked:
                want = min(area, key=lambda d, p=pos: (lat.distance(d[:2], p[:2]), d))
                assert bot._area_dot(game, SimpleNamespace(pos=pos), obj) == want
