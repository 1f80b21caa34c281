"""Play's speed caches give the answers the engine gives uncached (issue 12, point 6).

The bots ask the board the same few questions thousands of times a game: a step's cost, a
path, whether a line is blocked.  :class:`engine.play.engine_board.EngineBoard` answers them
from tables shared by every game on the same map state and from fans traced once per enemy.
These tests fail if any cached answer differs from the one traced or searched afresh, on the
shipped samples (every ruleset), and if a seeded game plays differently with the caches on.
"""

import random
import zlib
from pathlib import Path

import pytest

from engine.io import load_board
from engine.movement import cheapest_path, reach, step
from engine.play.engine_board import EngineBoard, fork_board
from engine.play.headless import play_game_of
from engine.sight import sight
from tests.play.sample_views import cold_board

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))
VISIONS = ("normal", "low-light", "thermographic")


def _sample(name):
    return load_board(ROOT / "scenarios" / name)


def _dots(board):
    return [(int(c), int(r), lv) for lv in board.levels for c, r in board.dots(lv)]


@pytest.mark.parametrize("name", SAMPLES)
def test_fans_agree_with_single_lines_both_ways(name):
    """A fan's blocked verdict is the single query's, from either end, for every posture:
    what lets one fan per enemy stand for the bots' per-pair questions."""
    scenario, board = _sample(name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    rng = random.Random(name)
    dots = _dots(board)
    checked = blocked = 0
    levels = [lv for lv in board.levels if len(board.dots(lv)) >= 30]
    for _ in range(4):
        origin = rng.choice(dots)
        lv = rng.choice(levels)  # one level: a fan for every target (FAN_MIN and more)
        targets = rng.sample([d for d in dots if d[2] == lv], 30)
        view.warm_blocked(origin, targets, VISIONS)
        for t in targets:
            if t == origin:
                continue
            for vision in VISIONS:
                known = view.known_blocked(origin, t, vision)
                assert known == view.known_blocked(t, origin, vision)
                for (a, b), pa, pb in (((origin, t), "standing", "standing"),
                                       ((t, origin), "prone", "standing"),
                                       ((t, origin), "standing", "prone")):
                    v = sight(board, a, b, ruleset=scenario.ruleset, posture_a=pa,
                              posture_b=pb, vision=vision, light=scenario.light)
                    assert v.blocked == known, (a, b, pa, pb, vision)
                checked += 1
                blocked += known
    assert checked > 300 and 0 < blocked < checked  # both answers were tried


@pytest.mark.parametrize("name", SAMPLES)
def test_cached_steps_and_paths_are_the_engines(name):
    scenario, board = _sample(name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    metric = view.units != "MP"
    rng = random.Random(name)
    dots = _dots(board)
    for a in rng.sample(dots, 60):
        for b in view.neighbours(a):
            for mr, crawl in ((1, False), (2, False), (2, True)):
                for _twice in range(2):  # the second answer comes from the cache
                    got = view.step(a, b, mr, crawl)
                    want = step(board, a, b, mr, ruleset=scenario.ruleset) if metric else \
                        step(board, a, b, mr, crawl=crawl)
                    assert (got is None) == (want is None)
                    if got is not None:
                        assert (got.to, got.cost, got.why) == \
                            (tuple(want.to), want.cost, tuple(want.why))
    for a in rng.sample(dots, 4):
        want = reach(board, a, 2, mp=9, ruleset=scenario.ruleset) if metric else \
            reach(board, a, 2, mp=9)
        got = view.reach(a, 2, 9)
        assert got == want and list(got) == list(want)
        got[(-1, -1, -1)] = 0  # a caller's edit never reaches the cache
        assert view.reach(a, 2, 9) == want
    for a, b in [(rng.choice(dots), rng.choice(dots)) for _ in range(6)]:
        res = cheapest_path(board, a, b, 2, ruleset=scenario.ruleset) if metric else \
            cheapest_path(board, a, b, 2)
        want = [tuple(d) for d in res.dots] if res.reachable else None
        first = view.path(a, b, 2)
        assert first == want and view.path(a, b, 2) == want
        if first:
            first.append((-1, -1, -1))  # a caller's edit never reaches the cache
            assert view.path(a, b, 2) == want


def test_a_door_opened_moves_the_answers_to_the_new_map_state():
    """Step costs and fans are per map state: after a door opens the cached answers are the
    ones a fresh board with the door open gives."""
    scenario, board = _sample("police-station-extraction.yaml")
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    doors = [f for f in board.all_features() if f.kind == "door"
             and f.props.get("state") == "closed"]
    assert doors
    door = doors[0]
    x, y = door.geom.centroid.x, door.geom.centroid.y
    near = sorted(_dots(board), key=lambda d: (d[2] != door.level,
                                               (d[0] - x) ** 2 + (d[1] - y) ** 2))[:12]
    pairs = [(a, b) for a in near for b in view.neighbours(a)]
    before = {p: view.step(*p, 2) for p in pairs}
    view.warm_blocked(near[0], _dots(board)[:400], ["normal"])
    view.set_opening(door.id, "open")
    fresh = board.fork()
    fresh.set_state(door.id, "open")
    after = {p: view.step(*p, 2) for p in pairs}
    assert after == {p: EngineBoard(fresh, light=scenario.light).step(*p, 2) for p in pairs}
    assert after != before  # the door's own step changed
    view.warm_blocked(near[0], _dots(board)[:400], ["normal"])
    for t in _dots(board)[:400]:
        if t != near[0]:
            v = sight(fresh, near[0], t, ruleset=scenario.ruleset, light=scenario.light)
            assert view.known_blocked(near[0], t, "normal") == v.blocked


class _Uncached(EngineBoard):
    """Every question traced or searched afresh: nothing remembered, nothing shared."""

    def sight(self, a, b, posture_a, posture_b, vision):
        return self._sight_uncached(a, b, posture_a, posture_b, vision)

    def step(self, a, b, move_ratio, crawl=False):
        return self._step_uncached(tuple(a), tuple(b), move_ratio, crawl)

    def path(self, a, b, move_ratio, crawl=False):
        got = self._path_uncached(tuple(a), tuple(b), move_ratio, crawl)
        return None if got is None else list(got)

    def known_blocked(self, a, b, vision):
        return False

    def walled(self, a, b):
        return False

    def warm_blocked(self, origin, dots, visions):
        return None

    def step_floor(self, a, move_ratio, mp):
        return None


def cold_and_shared(scenario, board):
    """Two view factories for seeded games: ``cold`` a fork that remembers nothing and asks
    every question in full (:class:`_Uncached`), ``shared`` a fork sharing every table."""
    def cold():
        return _Uncached(cold_board(board, {}), light=scenario.light, ruleset=scenario.ruleset)

    def shared():
        return EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    return cold, shared


@pytest.mark.parametrize("name", ["street-ambush.yaml", "nightclub-raid-sr3.yaml",
                                  "club-umbra-darkcon.yaml"])
def test_a_seeded_game_plays_the_same_with_and_without_the_caches(name):
    scenario, board = _sample(name)
    seed = zlib.crc32(name.encode()) % 1000 + 1

    cold, shared = cold_and_shared(scenario, board)
    want = play_game_of(scenario, cold, seed, turn_limit=2).log.to_data()
    shared()  # a first fork fills the shared tables ...
    play_game_of(scenario, shared, seed + 1, turn_limit=2)
    got = play_game_of(scenario, shared, seed, turn_limit=2).log.to_data()  # ... used here
    assert got == want
    assert any(e["event"] == "move" for e in got)
