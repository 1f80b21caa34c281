"""The tables play keeps per map state answer as the graph does (issue 12, speed): each dot's
neighbour list, made when first asked, is the graph's edges out of it in edge order (the whole
adjacency as it used to be built), and ``costs_to`` (each dot's answer kept per goal) gives the
Dijkstra table's numbers, on every sample, with a door opened between asks."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra
from shapely.geometry import Point

from engine.io.resolve import load_board
from engine.movement import build_graph
from engine.play.engine_board import EngineBoard, fork_board

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))


def _adjacency(board) -> dict:
    """The adjacency as it was built: every node's dot, the edges grouped by source in edge
    order."""
    g = build_graph(board)
    dots = [(int(c), int(r), int(lv)) for c, r, lv in board._node_dots.tolist()]
    adj: dict = {}
    for s, d in zip(g.src.tolist(), g.dst.tolist(), strict=True):
        adj.setdefault(dots[s], []).append(dots[d])
    return adj


def _costs(view: EngineBoard, goal, dots) -> list:
    """``costs_to`` worked out from a Dijkstra table, dot by dot."""
    board = view.board
    g = build_graph(board)
    i = board.node(goal)
    if view._metric:
        w = g.weights(view.rules.name, 1, False)
        dist = dijkstra(w.T.tocsr(), indices=[i, i + g.n], min_only=True)[:g.n] \
            if w.shape[0] > g.n else dijkstra(w.T.tocsr(), indices=i)
    else:
        dist = dijkstra(g.matrix(1, False).T.tocsr(), indices=i)
    out = []
    for d in dots:
        j = board._node_of(tuple(d))
        v = float(dist[j]) if j >= 0 else math.inf
        out.append(None if j < 0 or not math.isfinite(v) else
                   (round(v, 2) if view._metric else int(round(v))))
    return out


def _check(view: EngineBoard, rng: random.Random) -> int:
    board = view.board
    adj = _adjacency(board)
    nodes = sorted(adj)
    asked = rng.sample(nodes, min(300, len(nodes))) + [(-5, -5, 0)]
    for d in asked:
        assert view.neighbours(d) == adj.get(d, []), d
        assert view.neighbours(list(d)) == adj.get(d, [])  # asked again, as a list
    for _ in range(3):
        goal = rng.choice(nodes)
        dots = rng.sample(nodes, 200) + [(-5, -5, 0), goal]
        want = _costs(view, goal, dots)
        assert view.costs_to(goal, 1, dots) == want
        assert view.costs_to(goal, 1, dots[::-1]) == want[::-1]  # from what is kept
        assert any(v is None for v in want) and any(v for v in want)
    return len(asked)


@pytest.mark.parametrize("name", SAMPLES)
def test_neighbours_and_costs_as_the_graph_gives(name):
    scen, board = load_board(ROOT / "scenarios" / name)
    rng = random.Random(len(name))
    view = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    assert _check(view, rng) > 100
    doors = sorted(f.id for f in view.board.all_features() if f.kind == "door")
    fid = rng.choice(doors)
    state = view.board.feature(fid).props.get("state", "open")
    view.set_opening(fid, "open" if state == "closed" else "closed")
    assert _check(view, rng) > 100


def _openings_fresh(view: EngineBoard, a, b) -> list:
    """What lies on the step a..b, asked of the board's features (nothing kept)."""
    from shapely.geometry import LineString

    seg = LineString([view.board.dot_point(a), view.board.dot_point(b)])
    return [(f.id, f.kind, f.props.get("state", "open"))
            for f in view.board.features_near(a[2], seg) if f.kind in ("door", "window", "hole")]


def _near_fresh(view: EngineBoard, dot) -> list:
    """The doors and windows touching a dot's cell, asked of the board's features."""
    from shapely.geometry import Polygon

    cell = Polygon(view.lattice.cell(dot[:2])).buffer(0.1)
    return [(f.id, f.kind, f.props.get("state", "open"))
            for f in view.board.features_near(dot[2], cell) if f.kind in ("door", "window")]


@pytest.mark.parametrize("name", SAMPLES)
def test_openings_on_a_step_follow_the_doors(name):
    """The openings on a step and near a dot, kept per map state, say what the board has
    now: each door's state after it is opened or shut, the hole a blast leaves."""
    scen, board = load_board(ROOT / "scenarios" / name)
    rng = random.Random(3 + len(name))
    view = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    b = view.board
    doors = sorted((f for f in b.all_features() if f.kind == "door"), key=lambda f: f.id)
    steps = []
    for f in doors:  # the steps through each door
        c = f.geom.centroid
        d = b.lattice.dot_at((c.x, c.y))
        for n in b.lattice.neighbours(d):
            for x, y in ((d, n), (n, d)):
                x3, y3 = (*x, f.level), (*y, f.level)
                if b.standable(x3) and b.standable(y3):
                    steps.append((x3, y3))
    assert len(steps) > 10
    seen = 0

    def check() -> int:
        n = 0
        for x, y in steps:
            got = [(o.feature, o.kind, o.state) for o in view.openings_on(x, y)]
            assert got == _openings_fresh(view, x, y)
            n += len(got)
            near = [(o.feature, o.kind, o.state) for o in view.openings_near(x)]
            assert near == _near_fresh(view, x)
            n += len(near)
        return n

    seen += check()
    for f in rng.sample(doors, min(3, len(doors))):
        state = b.feature(f.id).props.get("state", "open")
        view.set_opening(f.id, "open" if state == "closed" else "closed")
        seen += check()
    assert seen > 10
    view.open_hole(f"{doors[0].id}@0,0")
    assert any(o.kind == "hole" for x, y in steps for o in view.openings_on(x, y))
    check()


@pytest.mark.parametrize("name", SAMPLES)
def test_openings_of_any_step_or_cell_as_the_features_say(name):
    """The doors, windows and holes found on a step (or by a cell) through their kept boxes
    are the ones a query of all the level's features finds, in the same order: on every
    step and cell of random dots, before and after doors are shut and a hole is blasted,
    and on a fork of the board (which shares the boxes until its own change)."""
    scen, board = load_board(ROOT / "scenarios" / name)
    rng = random.Random(11 + len(name))
    view = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    b = view.board
    dots = [tuple(int(x) for x in d) for lv in sorted(b._features)
            for d in (np.c_[b.dots(lv), np.full(len(b.dots(lv)), lv)] if len(b.dots(lv)) else [])]
    # every dot within two of a door, window or hole (where a box meets one the geometry
    # may miss), and random others
    opens = [f for f in b.all_features() if f.kind in ("door", "window", "hole")]
    close = [d for d in dots if any(f.level == d[2] and f.geom.distance(
        Point(b.dot_point(d))) <= 2 for f in opens)]
    found = 0

    def check(v: EngineBoard) -> int:
        n = 0
        for d in close + rng.sample(dots, min(200, len(dots))):
            for e in v.neighbours(d):
                got = [(o.feature, o.kind, o.state) for o in v.openings_on(d, e)]
                assert got == _openings_fresh(v, d, e), (d, e)
                n += len(got)
            near = [(o.feature, o.kind, o.state) for o in v.openings_near(d)]
            assert near == _near_fresh(v, d), d
            n += len(near)
        return n

    found += check(view)
    doors = sorted((f for f in b.all_features() if f.kind == "door"), key=lambda f: f.id)
    for f in doors[:4]:
        state = b.feature(f.id).props.get("state", "open")
        view.set_opening(f.id, "open" if state == "closed" else "closed")
    found += check(view)
    other = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    found += check(other)
    view.open_hole(f"{doors[-1].id}@0,0")
    walls = [f for f in b.all_features() if f.kind == "wall"]
    w = walls[len(walls) // 2]
    p = w.geom.interpolate(0.5, normalized=True)
    view.open_hole(f"{w.id}@{p.x:g},{p.y:g}")
    found += check(view)
    found += check(other)
    assert found > 20


def test_openings_met_by_any_segment_as_the_features_say():
    """Segments of any direction close by doors and windows (whose box meets a door's box
    far more often than steps between dots do): the openings found through the kept boxes
    are the ones a query of all the level's features finds."""
    from shapely.geometry import LineString

    scen, board = load_board(ROOT / "scenarios" / "police-station-extraction.yaml")
    view = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    b = view.board
    rng = random.Random(7)
    opens = [f for f in b.all_features() if f.kind in ("door", "window", "hole")]
    empty = hits = 0
    for _ in range(3000):
        f = rng.choice(opens)
        x0, y0, x1, y1 = f.geom.bounds
        pa = (rng.uniform(x0 - 1.5, x1 + 1.5), rng.uniform(y0 - 1.5, y1 + 1.5))
        pb = (pa[0] + rng.uniform(-1.5, 1.5), pa[1] + rng.uniform(-1.5, 1.5))
        seg = LineString([pa, pb])
        want = [g.id for g in b.features_near(f.level, seg) if g.kind in ("door", "window", "hole")]
        got = view._openings_meeting(f.level, seg.bounds, lambda s=seg: s,
                                     ("door", "window", "hole"))
        assert [o.feature for o in got] == want
        empty += not want
        hits += bool(want)
    assert hits > 300 and empty > 300


@pytest.mark.parametrize("lattice", ["square", "hex"])
def test_character_cover_crossing_as_shapely_says(lattice):
    """A character's cell crossed by the line (kept per lattice, line and dot) as the segment
    meets the cell polygon, on random lines and dots near them."""
    from shapely.geometry import LineString, Polygon

    from engine.lattice import get_lattice
    from engine.play.cover import _crossed

    lat = get_lattice(lattice)
    rng = random.Random(5)
    hits = 0
    for _ in range(3000):
        a = (rng.randint(0, 12), rng.randint(0, 12))
        b = (rng.randint(0, 12), rng.randint(0, 12))
        d = (rng.randint(0, 12), rng.randint(0, 12))
        want = LineString([lat.point(a), lat.point(b)]).intersection(
            Polygon(lat.cell(d))).length > 1e-9
        assert _crossed(lat, a, b, d) == want
        assert _crossed(lat, a, b, d) == want  # from what is kept
        hits += want
    assert 100 < hits < 2900


def test_step_floor_lies_under_every_path_on_the_darkcon_sample():
    """Dark Conspiracy: the floor (cheapest cost by the book's count of diagonals) is never more
    than a centimetre above a path's metres summed step by step, and a square it leaves out
    has no path within the budget; other rulesets promise nothing."""
    scen, board = load_board(ROOT / "scenarios" / "club-umbra-darkcon.yaml")
    view = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    rng = random.Random(12)
    nodes = sorted(_adjacency(view.board))
    checked = tight = 0
    for _ in range(12):
        a = rng.choice(nodes)
        floor = view.step_floor(a, 1, 17.0)
        assert floor is not None and floor[a] == 0
        near = [d for d in nodes if d[2] == a[2] and max(abs(d[0] - a[0]), abs(d[1] - a[1])) <= 9]
        for d in rng.sample(near, min(25, len(near))):
            path = view.path(a, d, 1)
            if not path:
                assert d not in floor
                continue
            metres = sum(view.step(x, y, 1).cost for x, y in zip(path, path[1:]))
            if d in floor:
                assert metres >= floor[d] - 0.01, (a, d)
                tight += metres == floor[d]
            else:
                assert metres > 17.0, (a, d)
            checked += 1
    assert checked > 150 and tight > 20
    scen, board = load_board(ROOT / "scenarios" / "nightclub-raid-sr3.yaml")
    sr3 = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    assert sr3.step_floor(sorted(_adjacency(sr3.board))[0], 1, 17.0) is None
