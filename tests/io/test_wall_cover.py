"""Openings on walls and polygon checks answered without shapely agree with shapely exactly."""

from __future__ import annotations

import random

import pytest
import shapely
from shapely.geometry import LineString, MultiLineString, Polygon

from engine.errors import LoadError
from engine.io.fields import At
from engine.io.geometry import ON_WALL_TOLERANCE, check_polygon, on_wall, wall_cover


def shapely_cover(paths):
    """The cover as it was before coordinates answered: the walls thickened by shapely."""
    lines = [LineString(p) for p in paths if len(p) >= 2]
    return MultiLineString(lines).buffer(ON_WALL_TOLERANCE, quad_segs=2) if lines else None


def shapely_on_wall(span, cover) -> bool:
    return cover is not None and LineString(span).difference(cover).length < 1e-9


def random_walls(rng: random.Random) -> list[list[tuple[float, float]]]:
    walls = []
    for _ in range(rng.randint(0, 5)):
        x, y = rng.randint(-2, 8) - 0.5, rng.randint(-2, 8) - 0.5
        path = [(x, y)]
        for _ in range(rng.randint(1, 4)):
            dx, dy = rng.choice([(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -2)])
            k = rng.randint(1, 4)
            x, y = x + dx * k, y + dy * k
            path.append((x, y))
        walls.append(path)
    return walls


def random_span(rng: random.Random, walls) -> tuple[tuple[float, float], tuple[float, float]]:
    if walls and rng.random() < 0.8:
        path = rng.choice(walls)
        i = rng.randrange(len(path) - 1)
        (x0, y0), (x1, y1) = path[i], path[i + 1]
        t0, t1 = sorted(rng.choice([0, 0.25, 0.5, 0.75, 1, -0.25, 1.25]) for _ in range(2))
        if t0 == t1:
            t1 += 0.5
        nudge = rng.choice([0, 0, 0, 1e-7, -1e-7, 1e-5, 1e-12])
        a = (x0 + (x1 - x0) * t0 + nudge, y0 + (y1 - y0) * t0)
        b = (x0 + (x1 - x0) * t1 + nudge * rng.choice([0, 1]), y0 + (y1 - y0) * t1)
        return a, b
    x, y = rng.randint(-2, 8) - 0.5, rng.randint(-2, 8) - 0.5
    dx, dy = rng.choice([(1, 0), (0, 1), (2, 0), (1, 1)])
    return (x, y), (x + dx, y + dy)


def test_on_wall_agrees_with_shapely():
    rng = random.Random(5)
    answers = {True: 0, False: 0}
    for _ in range(600):
        walls = random_walls(rng)
        cover, reference = wall_cover(walls), shapely_cover(walls)
        for _ in range(8):
            span = random_span(rng, walls)
            want = shapely_on_wall(span, reference)
            assert on_wall(span, cover) == want, (span, walls)
            answers[want] += 1
    assert min(answers.values()) > 1500, answers


@pytest.mark.parametrize(
    ("span", "want"),
    [
        (((0.5, -0.5), (1.5, -0.5)), True),  # on the top wall
        (((1.5, -0.5), (0.5, -0.5)), True),  # either way round
        (((-0.5, 2.5), (-0.5, 4.5)), True),  # on the west wall
        (((3.5, -0.5), (5.5, -0.5)), True),  # over the joint of two walls in line (shapely decides)
        (((5.5, -0.5), (6.5, -0.5)), False),  # past the end
        (((0.5, -0.4), (1.5, -0.4)), False),  # beside the wall
        (((0.5, -0.5), (1.5, -0.5 + 1e-7)), True),  # within the tolerance (shapely decides)
        (((1, 1), (2, 2)), True),  # on the diagonal wall (shapely decides)
    ],
)
def test_on_wall_cases(span, want):
    walls = [[(-0.5, -0.5), (4.5, -0.5)], [(4.5, -0.5), (5.5, -0.5)], [(-0.5, -0.5), (-0.5, 5.5)],
             [(0, 0), (3, 3)]]
    assert on_wall(span, wall_cover(walls)) is want
    assert shapely_on_wall(span, shapely_cover(walls)) is want
    assert on_wall(span, wall_cover([])) is False


def shapely_polygon_problem(pts) -> str | None:
    """check_polygon as it was (every ring asked of shapely), as its message or None."""
    ring = list(pts)
    if len(ring) > 3 and ring[0] == ring[-1]:
        ring = ring[:-1]
    if len(set(ring)) < 3:
        return "needs"
    if shapely.MultiPoint(ring).convex_hull.area <= 1e-12:
        return "zero"
    return None if Polygon(ring).is_valid else "invalid"


def test_rectangles_pass_exactly_when_shapely_passes_them():
    rng = random.Random(8)
    seen = set()
    for _ in range(4000):
        x0, y0 = rng.choice([0, 1.5, -0.5]), rng.choice([0, 2.5, -0.5])
        x1 = x0 + rng.choice([0, 1, 2, 1e-7, 1e-13])
        y1 = y0 + rng.choice([0, 1, 3, 1e-7])
        ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        shift = rng.randrange(4)
        ring = ring[shift:] + ring[:shift]
        if rng.random() < 0.5:
            ring.reverse()
        if rng.random() < 0.3:
            i = rng.randrange(4)
            ring[i] = (ring[i][0] + rng.choice([0.5, -1, 1e-9]), ring[i][1])
        if rng.random() < 0.3:
            ring.append(ring[0])
        want = shapely_polygon_problem(ring)
        try:
            check_polygon(ring, At("f.yaml", 3, "polygon"), "area")
            got = None
        except LoadError as e:
            got = e.message
            assert e.line == 3
        assert (got is None) == (want is None), (ring, got, want)
        seen.add(want)
    assert seen == {None, "needs", "zero", "invalid"}
