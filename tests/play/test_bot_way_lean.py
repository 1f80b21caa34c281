"""The bot mage's Barrier planning answers as the plain computation it replaces (issue 12.6).

A friend's way down a goal's costs prices only the neighbours that can still win; what a wall
crosses is worked out once for every Force weighed; ways, wall dots and wall lines are kept in
the map state's table.  Each is compared here with the plain way of working it out, on the
sample maps and in played games, and the kept answers with a board loaded afresh after a door
changed."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from shapely.geometry import LineString

from engine.io import load_board
from engine.play import bot_magic
from engine.play.bot_magic import _dist2, _kept_off, _way, _way_down
from engine.play.bot_odds import in_any_arc
from engine.play.engine_board import EngineBoard, fork_board
from engine.play.headless import engine_view_factory, play_game_of
from engine.play.referee_areas import wall_shape
from engine.play.state import STANDING

ROOT = Path(__file__).resolve().parents[2]


def _priced_way(game, here, goal, move_ratio, n=bot_magic.WAY_DOTS):
    """The way with every neighbour's step priced (the code before the lean one)."""
    board = game.board
    out = []
    for _ in range(n):
        if here == goal:
            break
        nbrs = [(x, y, here[2]) for x, y in board.lattice.neighbours(here[:2])]
        steps = [(d, board.step(here, d, move_ratio)) for d in nbrs if board.standable(d)]
        steps = [(d, st) for d, st in steps if st is not None]
        if not steps:
            break
        costs = board.costs_to(goal, move_ratio, [d for d, _st in steps])
        best = min(((cost + st.cost, _dist2(game, d, goal), d) for (d, st), cost in
                    zip(steps, costs, strict=True) if cost is not None), default=None)
        if best is None:
            break
        here = best[2]
        out.append(here)
    return out


def _view(name: str) -> tuple[EngineBoard, SimpleNamespace]:
    scenario, board = load_board(ROOT / "scenarios" / name)
    view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
    return view, SimpleNamespace(board=view, point=lambda d, lat=view.lattice: lat.point(d[:2]))


def _dots(view: EngineBoard) -> list[tuple[int, int, int]]:
    b = view.board
    return [(int(c), int(r), lv) for lv in b.levels for c, r in b.dots(lv)]


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "street-ambush.yaml",
                                  "nightclub-hold.yaml"])
def test_lean_way_is_the_priced_way(name):
    view, game = _view(name)
    rng = random.Random(name)
    dots = _dots(view)
    doors = [f for f in view.board.all_features() if f.kind == "door"]
    ties = 0
    for round_ in range(3):
        goals = rng.sample(dots, 6)
        for goal in goals:
            near = sorted(dots, key=lambda d: (abs(d[0] - goal[0]) + abs(d[1] - goal[1]), d))
            starts = rng.sample(near[:200], 12) + rng.sample(dots, 8)
            for here in starts:
                mr = rng.choice((1, 2, 3, 4))
                want = _priced_way(game, here, goal, mr)
                assert _way_down(game, here, goal, mr, bot_magic.WAY_DOTS) == want, \
                    (name, here, goal, mr)
                # a step of the way with a neighbour as cheap to the goal: the tie-break counts
                for a, b in zip([here, *want], want):
                    cs = view.costs_to(goal, mr, [b] + [(x, y, a[2]) for x, y in
                                                        view.lattice.neighbours(a[:2])])
                    ties += cs.count(cs[0]) > 1
        if doors and round_ < 2:  # another map state: some steps cost otherwise
            door = rng.choice(doors)
            view.set_opening(door.id, "closed" if door.props.get("state", "open") == "open"
                             else "open")
    assert ties > 20


def test_kept_ways_follow_the_door():
    """A way kept in the map state's table is that state's: after a door on it changes, the
    way is the one a board loaded afresh with the door in its new state gives."""
    name = "police-station-extraction.yaml"
    view, game = _view(name)
    rng = random.Random(7)
    dots = _dots(view)
    doors = [f for f in view.board.all_features() if f.kind == "door"]
    changed: list[tuple[str, str]] = []
    moved = 0
    for door in rng.sample(doors, 6):
        x, y = door.geom.centroid.x, door.geom.centroid.y
        level = [d for d in dots if d[2] == door.level]
        near = sorted(level, key=lambda d: ((d[0] - x) ** 2 + (d[1] - y) ** 2, d))[:8]
        asks = [(SimpleNamespace(pos=a, move_ratio=mr), g)
                for a in near for g in rng.sample(level, 8) for mr in (2, 4)]
        before = [_way(game, c, g) for c, g in asks]
        assert [_way(game, c, g) for c, g in asks] == before  # kept
        state = "closed" if door.props.get("state", "open") == "open" else "open"
        view.set_opening(door.id, state)
        changed.append((door.id, state))
        after = [_way(game, c, g) for c, g in asks]
        scenario, fresh_board = load_board(ROOT / "scenarios" / name)
        for fid, st in changed:
            fresh_board.set_state(fid, st)
        fresh = EngineBoard(fresh_board, light=scenario.light, ruleset=scenario.ruleset)
        fgame = SimpleNamespace(board=fresh, point=lambda d, lat=fresh.lattice: lat.point(d[:2]))
        assert after == [_priced_way(fgame, c.pos, g, c.move_ratio) for c, g in asks]
        moved += sum(a != b for a, b in zip(before, after, strict=True))
    assert moved > 0  # some ways go otherwise through the door's new state


def _plain_walls(game, ch, force, foes, mine, goal_of):
    """The Barrier walls weighed the plain way (the code before the shared layout): every
    Force works out the friends' ways, the wall dots and what each wall crosses again."""
    level = ch.pos[2]
    seen = [f for f in foes if f.pos is not None and not f.out]
    ways, standing = [], []
    for c in mine:
        if c.out or c.pos is None:
            continue
        goal = goal_of(c) if c.pos[2] == level else None
        way = _priced_way(game, c.pos, goal, c.move_ratio) \
            if goal is not None and goal != c.pos else []
        if way:
            ways.append((c, way))
        else:
            standing.append(c)
    if not ways or not seen:
        return []
    pt = game.point
    memo: dict = {}
    out = []
    way_lines = [LineString([pt(d) for d in (c.pos, *way)]) for c, way in ways]
    legs = []
    for c, way in ways:
        for f in seen:
            dots = [d for d in way if in_any_arc(f, pt(d))] if f.arcs else way[-1:]
            legs.append((c, f, dots, [LineString([pt(f.pos), pt(d)]) for d in dots]))
    stands = [(c, f, LineString([pt(c.pos), pt(f.pos)])) for c in standing for f in seen]
    board = game.board
    lat = board.lattice
    ring, edge = {ch.pos[:2]}, [ch.pos[:2]]
    for _ in range(bot_magic.WALL_AHEAD):
        edge = [n for d in edge for n in lat.neighbours(d) if n not in ring]
        ring.update(edge)
    wall_dots = [(x, y, level) for x, y in sorted(ring)
                 if lat.distance((x, y), ch.pos[:2]) == bot_magic.WALL_AHEAD and
                 board.standable((x, y, level)) and
                 not board.sight(ch.pos, (x, y, level), ch.posture, STANDING, ch.vision).blocked]
    for at in wall_dots:
        line = wall_shape(game, ch, at)
        if any(w.intersects(line) for w in way_lines):
            continue
        gain = 0.0
        for c, f, dots, segs in legs:
            kept = sum(_kept_off(game, f, f.pos, c, d, force, memo)
                       for d, seg in zip(dots, segs) if seg.intersects(line))
            gain += kept * c.move_ratio / max(1, f.fire_ratio) if f.arcs else kept
        gain -= sum(_kept_off(game, c, c.pos, f, f.pos, force, memo)
                    for c, f, seg in stands if seg.intersects(line))
        if gain > 0:
            out.append((at, gain))
    return out


def test_walls_weighed_once_for_every_force_as_the_plain_way(monkeypatch):
    """In played Police games, every Barrier the bot mage weighs (at Maximum Force, then at
    Minimum with the layout the first one made) is the plain computation's, gains to the bit."""
    lean = bot_magic._walls
    asked = {"calls": 0, "shared": 0, "walls": 0}

    def spy(game, ch, force, foes, mine, goal_of, memo=None):
        shared = memo is not None and "walls" in memo
        got = lean(game, ch, force, foes, mine, goal_of, memo)
        assert got == _plain_walls(game, ch, force, foes, mine, goal_of)
        asked["calls"] += 1
        asked["shared"] += shared
        asked["walls"] += len(got)
        return got

    monkeypatch.setattr(bot_magic, "_walls", spy)
    scenario, board = load_board(ROOT / "scenarios" / "police-station-extraction.yaml")
    make = engine_view_factory(scenario, board)
    for seed in (3, 8):
        play_game_of(scenario, make, seed)
    assert asked["calls"] > 20 and asked["shared"] > 10 and asked["walls"] > 0


def test_way_steps_are_kept_and_read_back():
    """Each step of a way is kept in the map state's table: a friend asking again from a dot
    of the way he was given prices no neighbour (no ``costs_to``) until he walks past its
    end, and gets the rest of the same way."""
    view, game = _view("police-station-extraction.yaml")
    rng = random.Random(3)
    dots = _dots(view)
    asked = []
    costs_to = view.costs_to
    view.costs_to = lambda *a: (asked.append(a), costs_to(*a))[1]
    walked = 0
    for _ in range(20):
        goal, here = rng.sample(dots, 2)
        way = _way_down(game, here, goal, 2, bot_magic.WAY_DOTS)
        if len(way) < 3:
            continue
        walked += 1
        asked.clear()
        again = _way_down(game, way[0], goal, 2, len(way) - 1)
        assert again == way[1:] and not asked
        assert _way_down(game, way[0], goal, 2, len(way) - 1) == _priced_way(
            game, way[0], goal, 2, len(way) - 1)
    assert walked > 5
