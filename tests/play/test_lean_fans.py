"""The bots' fans and reaction-fire sums taken the lean way give the plain answers (issue 12,
point 6).

* :func:`engine.sight.target_blocked` answers one fan target from its four figures, kept per
  figures, where :func:`engine.sight.fan_verdict` works on the fan's arrays: the same verdict
  for every ruleset, vision and light, closed doors and smoke included.
* :meth:`EngineBoard.warm_blocked` traces every unknown line (one target too) and keeps the
  dots known per (origin, visions): after any sequence of calls every line asked is answered
  by :meth:`known_blocked` exactly as a fresh trace would (blocked known, clear not).
* :func:`engine.play.bot_odds.path_danger` finds the dots each reactor shoots at, warms those
  lines in one fan, then sums the shots in the referee's order: the same floats as pricing
  each shot as the walk reaches it (the plain loop, copied here as the reference).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import engine.play.bots as bots_mod
from engine.io import load_board
from engine.los import lines_fan
from engine.play import bot_odds
from engine.play.bot_odds import in_any_arc, shot_odds
from engine.play.engine_board import EngineBoard, fork_board
from engine.play.headless import engine_view_factory, play_game_of
from engine.play.state import PRONE, STANDING
from engine.sight import fan_verdict, sight, target_blocked

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))
VISIONS = ("normal", "low-light", "thermographic")
LIGHTS = ("day", "partial-darkness", "full-darkness")


def _dots(board, lv=None):
    levels = board.levels if lv is None else [lv]
    return [(int(c), int(r), v) for v in levels for c, r in board.dots(v)]


@pytest.mark.parametrize("name", SAMPLES)
def test_target_blocked_is_the_fan_verdict(name):
    """Per target, the kept answer equals the ruleset's verdict on the whole fan, with doors
    shut and opened and smoke laid, so that the closed-door and visibility columns decide
    some targets (the test checks they do)."""
    scenario, board = load_board(ROOT / "scenarios" / name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    rng = random.Random(name)
    for f in view.board.all_features():
        if f.kind == "door" and rng.random() < 0.5:
            view.set_opening(f.id, "closed" if f.props.get("state") != "closed" else "open")
    b = view.board
    ground = _dots(b, 0)
    view.add_smoke(rng.sample(ground, 40))
    b = view.board
    checked = by_columns = 0
    for _ in range(10):
        a = rng.choice(_dots(b))
        lv = rng.choice(b.levels)
        tg = np.array([d[:2] for d in rng.sample(_dots(b, lv), min(60, len(_dots(b, lv))))])
        fan = lines_fan(b, a, lv, tg)
        for vision in VISIONS:
            for light in LIGHTS:
                want = fan_verdict(fan, ruleset=scenario.ruleset, vision=vision,
                                   light=light).blocked.tolist()
                for n, w in enumerate(want):
                    got = target_blocked(scenario.ruleset, vision, light,
                                         bool(fan.blocked[n]), int(fan.cover[n]),
                                         int(fan.visibility[n]), int(fan.closed_doors[n]))
                    assert got == w, (a, tg[n], vision, light)
                    checked += 1
                    by_columns += w and not fan.blocked[n]
    assert checked > 1000
    # some verdicts came from doors or visibility (sr1 blocks on geometry alone)
    assert by_columns > 0 or scenario.ruleset == "sr1"


@pytest.mark.parametrize("name", ["street-ambush.yaml", "club-umbra-darkcon.yaml",
                                  "nightclub-raid-sr3.yaml"])
def test_warm_blocked_answers_every_line_asked_in_any_order(name):
    """Calls from a few origins with overlapping dots (one dot too) and different vision
    sets: after each, every line asked is known blocked exactly when a fresh verdict is
    blocked, from either end (a call finding its dots kept must not skip a vision)."""
    scenario, board = load_board(ROOT / "scenarios" / name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    rng = random.Random(7 + len(name))
    dots = _dots(board)
    origins = rng.sample(dots, 3)
    pool = rng.sample(_dots(board, 0), 40)
    checked = blocked = 0
    for _ in range(18):
        o = rng.choice(origins)
        visions = sorted(rng.sample(VISIONS, rng.choice((1, 1, 2, 3))))
        asked = rng.sample(pool, rng.choice((1, 2, 5, 9)))
        view.warm_blocked(o, asked, visions)
        for d in asked:
            if d == o:
                continue
            for v in visions:
                want = sight(board, o, d, ruleset=scenario.ruleset, vision=v,
                             light=scenario.light).blocked
                assert view.known_blocked(o, d, v) == want, (o, d, v)
                assert view.known_blocked(d, o, v) == want, (d, o, v)
                checked += 1
                blocked += want
    assert checked > 100 and 0 < blocked < checked


def _plain_path_danger(game, mover, path, step_costs, min_chance=3, memo=None):
    """bot_odds.path_danger before its shots were warmed in one fan: each shot priced as the
    walk reaches it (the reference)."""
    reactors = [r for r in game.state.enemies_of(mover) if r.arcs and not r.out and r.pos]
    if not reactors or len(path) < 2:
        return 0.0
    total = 0.0
    posture = mover.posture if mover.posture == PRONE else STANDING
    memo = {} if memo is None else memo
    point = game.point
    blocked = game.board.known_blocked

    def inside(r, dot):
        key = (r.id, dot, None)
        got = memo.get(key)
        if got is None:
            got = memo[key] = in_any_arc(r, point(dot))
        return got

    def shot(r, dot):
        key = (r.id, dot, posture)
        got = memo.get(key)
        if got is None:
            got = memo[key] = 0.0 if blocked(r.pos, dot, r.vision) else \
                shot_odds(game, r, r.pos, mover, dot, False, posture)
        return got

    for r in reactors:
        fr = max(1, r.fire_ratio)
        started = inside(r, path[0])
        tally = 0
        shots = 0
        for dot, cost in zip(path[1:], step_costs, strict=False):
            if not inside(r, dot):
                if started and shots == 0:
                    total += shot(r, path[path.index(dot) - 1])
                    shots = 1
                continue
            tally += cost
            while tally >= fr:
                tally -= fr
                shots += 1
                total += shot(r, dot)
        if started and shots == 0 and inside(r, path[-1]):
            total += shot(r, path[-1])
    return total


@pytest.mark.parametrize("name", ["nightclub-hold.yaml", "street-ambush.yaml"])
def test_path_danger_warmed_in_one_fan_sums_the_same(name, monkeypatch):
    """Every path a bot weighs in two seeded games: the warmed sum equals the plain one to
    the last bit (asked first, on its own memo), and some paths drew fire."""
    scenario, board = load_board(ROOT / "scenarios" / name)
    real = bot_odds.path_danger
    seen = {"calls": 0, "fire": 0}

    def both(game, mover, path, step_costs, min_chance=3, memo=None):
        want = _plain_path_danger(game, mover, path, step_costs, min_chance, {})
        got = real(game, mover, path, step_costs, min_chance, memo)
        assert got == want, (mover.id, path)
        seen["calls"] += 1
        seen["fire"] += got > 0
        return got

    monkeypatch.setattr(bots_mod, "path_danger", both)
    make = engine_view_factory(scenario, board)
    for seed in (1, 2):
        play_game_of(scenario, make, seed)
    assert seen["calls"] > 50 and seen["fire"] > 5


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "nightclub-hold.yaml"])
def test_holders_and_posts_play_the_same_with_fans_as_without(name, monkeypatch):
    """The holder picked each turn (``_holds``) and the post a ``hold`` objective's defender
    takes (``_post``) now warm their lines in fans first: a seeded game on a board that
    remembers nothing and fans nothing (every line traced) plays the same, and both were
    asked."""
    import zlib

    from tests.play.test_play_caches import cold_and_shared

    scenario, board = load_board(ROOT / "scenarios" / name)
    seed = zlib.crc32(name.encode()) % 1000 + 1
    asked = {"_holds": 0, "_post": 0}
    for fn in asked:
        real = getattr(bots_mod.Bot, fn)

        def counted(self, *a, _real=real, _fn=fn, **k):
            asked[_fn] += 1
            return _real(self, *a, **k)

        monkeypatch.setattr(bots_mod.Bot, fn, counted)

    cold, shared = cold_and_shared(scenario, board)
    want = play_game_of(scenario, cold, seed, turn_limit=4).log.to_data()
    play_game_of(scenario, shared, seed + 1, turn_limit=4)
    got = play_game_of(scenario, shared, seed, turn_limit=4).log.to_data()
    assert got == want
    assert asked["_holds"] > 0 and asked["_post"] > 0
