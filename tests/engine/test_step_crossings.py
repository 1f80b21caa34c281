"""The array step/feature crossing test (engine.step_crossings) answers as shapely does.

The reference here is the construction the movement graph used before: every lattice step near
the geometries becomes a shapely segment, queried against a tree of the geometries with
``intersects``, and ``contains`` says whether each end starts inside.  Compared row for row on
the sample scenarios, benchmark cities, a hex board, and random geometries built to hit the
hard cases: diagonal walls through dots, pieces ending on dots or on steps, polygons with
holes and vertices on dots, points, empty and multi-part geometries.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
import shapely

from benchmarks.neighbourhood import neighbourhood
from engine.board import compile_board
from engine.io.resolve import load_board
from engine.lattice import Lattice, get_lattice
from engine.step_crossings import step_codes, step_hits

ROOT = Path(__file__).resolve().parents[2]


def reference_hits(lat: Lattice, geoms: np.ndarray) -> set[tuple]:
    """(first dot, second dot, geometry, first inside, second inside) of every step touching
    a geometry, one shapely segment per step."""
    live = ~shapely.is_empty(geoms)
    if not live.any():
        return set()
    x0, y0, x1, y1 = shapely.total_bounds(geoms[live])
    cand = lat.dots_in_box(x0 - 1.5, y0 - 1.5, x1 + 1.5, y1 + 1.5).astype(np.int64)
    a_l, b_l = [], []
    for parity in (0, 1):
        if lat.name != "hex" and parity == 1:
            break
        sel = cand[(cand[:, 1] & 1) == parity] if lat.name == "hex" else cand
        probe = (0, parity)
        for dc, dr in (np.subtract(nb, probe) for nb in lat.neighbours(probe)):
            if (dr, dc) > (0, 0):
                a_l.append(sel)
                b_l.append(sel + (dc, dr))
    a, b = np.concatenate(a_l), np.concatenate(b_l)
    pa, pb = lat.points(a), lat.points(b)
    si, gi = shapely.STRtree(geoms).query(shapely.linestrings(np.stack([pa, pb], axis=1)),
                                          predicate="intersects")
    in_a = shapely.contains(geoms[gi], shapely.points(pa[si]))
    in_b = shapely.contains(geoms[gi], shapely.points(pb[si]))
    return {(*map(int, a[s]), *map(int, b[s]), int(g), bool(x), bool(y))
            for s, g, x, y in zip(si, gi, in_a, in_b)}


def _same(lat: Lattice, geoms: list) -> int:
    arr = np.array(geoms, dtype=object)
    a, b, g, in_a, in_b = step_hits(lat, arr)
    rows = [(*map(int, a[k]), *map(int, b[k]), int(g[k]), bool(in_a[k]), bool(in_b[k]))
            for k in range(len(g))]
    assert len(rows) == len(set(rows)), "a (step, geometry) pair listed twice"
    want = reference_hits(lat, arr)
    got = set(rows)
    assert got == want, (sorted(got - want)[:5], sorted(want - got)[:5])
    return len(rows)


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_sample_scenarios_every_feature(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    total = 0
    for lv in board.levels:
        fs = board.features(lv)
        if fs:
            total += _same(board.lattice, [f.geom for f in fs])
    assert total > 500  # walls, doors, windows, holes, obstacles, trees: many steps touch them


def test_benchmark_cities():
    for seed, blocks in ((3, 2), (8, 1)):
        lay, sheets = neighbourhood(seed=seed, blocks=blocks)
        board = compile_board(lay, sheets)
        for lv in board.levels:
            fs = board.features(lv)
            if fs:
                _same(board.lattice, [f.geom for f in fs])


def _random_geoms(rng: random.Random, hexl: bool) -> list:
    """Geometries made to meet the lattice in awkward ways."""
    ys = math.sqrt(3) / 2 if hexl else 1.0

    def dot() -> tuple[float, float]:  # a dot centre
        c, r = rng.randint(0, 10), rng.randint(0, 10)
        return (c + (0.5 * (r & 1) if hexl else 0.0), r * ys)

    def coord() -> tuple[float, float]:
        k = rng.random()
        if k < 0.3:
            return dot()
        if k < 0.6:  # half-dot lines, where walls are drawn
            return (rng.randint(0, 20) / 2 - 0.5, rng.randint(0, 20) / 2 - 0.5)
        if k < 0.7:  # the middle of a step
            x, y = dot()
            return (x + 0.5, y)
        return (rng.uniform(-1, 11), rng.uniform(-1, 11))

    out: list = []
    for _ in range(40):
        k = rng.random()
        if k < 0.35:
            pts = [coord() for _ in range(rng.randint(2, 5))]
            out.append(shapely.LineString(pts))
        elif k < 0.45:  # a long diagonal wall through dots
            c, r = rng.randint(0, 3), rng.randint(0, 3)
            d = rng.choice([(1, 1), (1, -1), (2, 1), (3, -2)])
            a = (c + 0.0, r * ys)
            out.append(shapely.LineString([a, (a[0] + 6 * d[0], a[1] + 6 * d[1] * ys)]))
        elif k < 0.6:
            pts = [coord() for _ in range(3)]
            poly = shapely.Polygon(pts)
            out.append(poly if poly.is_valid and poly.area > 0 else shapely.Point(pts[0]))
        elif k < 0.7:  # a room-sized box with a hole (a pillar), vertices on dots
            x, y = dot()
            outer = shapely.box(x, y, x + rng.randint(2, 5), y + rng.randint(2, 5) * ys)
            out.append(outer.difference(shapely.box(x + 1, y + ys, x + 1.5, y + 1.5 * ys)))
        elif k < 0.78:  # a tree trunk: a buffered point near a dot
            x, y = dot()
            out.append(shapely.Point(x + rng.choice([0, 0.5, 0.3]), y).buffer(
                rng.choice([0.25, 0.5, 0.7071067811865476, 1.0])))
        elif k < 0.85:
            out.append(shapely.Point(coord()))
        elif k < 0.92:
            out.append(shapely.MultiLineString([[coord(), coord()], [coord(), coord()]]))
        elif k < 0.96:
            x, y = dot()
            out.append(shapely.MultiPolygon([shapely.box(x, y, x + 1, y + ys),
                                             shapely.box(x + 2.5, y, x + 3.5, y + 2)]))
        elif k < 0.98:
            out.append(shapely.GeometryCollection([shapely.Point(dot()),
                                                   shapely.LineString([coord(), coord()])]))
        else:
            out.append(shapely.LineString())
    return out


@pytest.mark.parametrize("lattice", ["square", "hex"])
@pytest.mark.parametrize("seed", range(6))
def test_random_geometries(lattice, seed):
    rng = random.Random(seed)
    lat = get_lattice(lattice)
    n = _same(lat, _random_geoms(rng, lattice == "hex"))
    assert n > 100


def test_dot_on_a_diagonal_wall_and_inside_flags():
    """A diagonal wall runs through dots: the steps along it touch it, and a step that starts
    on its inside (not at its ends) starts inside it; a box's inner dots are inside."""
    lat = get_lattice("square")
    wall = shapely.LineString([(0, 0), (4, 4)])
    box = shapely.box(-0.5, -0.5, 2.5, 1.5)
    a, b, g, in_a, in_b = step_hits(lat, np.array([wall, box], dtype=object))
    rows = {(*map(int, a[k]), *map(int, b[k]), int(g[k])): (bool(in_a[k]), bool(in_b[k]))
            for k in range(len(g))}
    assert rows[(1, 1, 2, 2, 0)] == (True, True)  # along the wall, both ends on its inside
    assert rows[(0, 0, 1, 1, 0)] == (False, True)  # (0, 0) is the wall's end
    assert rows[(0, 1, 1, 1, 0)] == (False, True)  # onto the wall
    assert (2, 0, 3, 0, 0) not in rows  # beside it
    assert rows[(0, 0, 1, 0, 1)] == (True, True)
    assert rows[(2, 1, 2, 2, 1)] == (True, False)  # leaves the box across its edge
    _same(lat, [wall, box])


def _half_line_geoms(rng: random.Random) -> list:
    """Walls along the half-dot lines (where walls are drawn, and where step_hits answers
    without a test), with ends on dots, on half dots, a hair short of them, and points;
    some polygons whose edges lie on those lines too, negative coordinates included."""

    def end() -> float:
        k = rng.random()
        base = rng.randint(-6, 12)
        if k < 0.3:
            return float(base)
        if k < 0.6:
            return base + 0.5
        if k < 0.8:
            return base + rng.choice([0.4999999, 0.5000001, 1e-9, 1 - 1e-9])
        return rng.uniform(-6, 12)

    out: list = []
    for _ in range(40):
        line = rng.randint(-6, 12) + 0.5
        a, b = end(), end()
        k = rng.random()
        if k < 0.4:
            out.append(shapely.LineString([(a, line), (b, line)]))
        elif k < 0.8:
            out.append(shapely.LineString([(line, a), (line, b)]))
        elif k < 0.85:
            out.append(shapely.Point(line, rng.choice([line + 1, a])))
        elif k < 0.93:
            x0, y0 = line, rng.randint(-6, 12) + 0.5
            out.append(shapely.box(x0, y0, x0 + rng.randint(1, 4), y0 + rng.randint(1, 4)))
        else:  # a corner: two pieces meeting on a half-dot point
            out.append(shapely.LineString([(a, line), (line, line), (line, b)]))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_half_line_walls(seed):
    rng = random.Random(100 + seed)
    lat = get_lattice("square")
    geoms = _half_line_geoms(rng)
    n = _same(lat, geoms)
    assert n > 200
    # the blocking form lists the same (step, geometry) pairs, duplicates allowed
    a, b, g, code = step_hits(lat, np.array(geoms, dtype=object), sides=False)
    got = {(*map(int, a[k]), *map(int, b[k]), int(g[k])) for k in range(len(g))}
    want = {row[:5] for row in reference_hits(lat, np.array(geoms, dtype=object))}
    assert got == want
    assert np.array_equal(b - a, step_codes(lat)[a[:, 1] & 1, code])


@pytest.mark.parametrize("lattice", ["square", "hex"])
def test_blocking_form_on_random_geometries(lattice):
    """``sides=False`` lists the pairs ``step_hits`` lists, with each step's code."""
    lat = get_lattice(lattice)
    geoms = np.array(_random_geoms(random.Random(7), lattice == "hex"), dtype=object)
    a, b, g, code = step_hits(lat, geoms, sides=False)
    got = {(*map(int, a[k]), *map(int, b[k]), int(g[k])) for k in range(len(g))}
    want = {row[:5] for row in reference_hits(lat, geoms)}
    assert got == want and len(got) > 100
    assert np.array_equal(b - a, step_codes(lat)[a[:, 1] & 1, code])


def test_half_line_wall_exact_ends():
    """A wall along y = 2.5 from x = 1 to x = 3.4999999: the vertical steps at columns 1..3
    cross it (column 1 at its very end), the diagonals crossing at x = 1.5 and 2.5 too, but
    not those crossing at x = 3.5 (a hair beyond its end) nor at x = 0.5."""
    lat = get_lattice("square")
    wall = shapely.LineString([(1, 2.5), (3.4999999, 2.5)])
    a, b, g, _ia, _ib = step_hits(lat, np.array([wall], dtype=object))
    got = {(*map(int, a[k]), *map(int, b[k])) for k in range(len(g))}
    assert got == {(1, 2, 1, 3), (2, 2, 2, 3), (3, 2, 3, 3),
                   (1, 2, 2, 3), (2, 2, 1, 3), (2, 2, 3, 3), (3, 2, 2, 3)}
