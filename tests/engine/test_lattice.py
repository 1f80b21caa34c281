"""Lattices and grain-keeping placements (SPEC section 2)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.lattice import get_lattice, placement_transform, transformed_size

SQ, HX = get_lattice("square"), get_lattice("hex")


def test_square_basics():
    assert SQ.point((3, 4)) == (3.0, 4.0)
    assert len(SQ.neighbours((0, 0))) == 8
    assert SQ.distance((0, 0), (3, -5)) == 5  # Chebyshev: diagonals count one
    assert list(SQ.distances((0, 0), np.array([[1, 1], [4, 2]]))) == [1, 4]
    assert SQ.cell((0, 0))[0] == (-0.5, -0.5)
    assert SQ.dot_at((2.4, -0.6)) == (2, -1)


def test_hex_basics():
    assert HX.point((0, 1)) == (0.5, pytest.approx(math.sqrt(3) / 2))
    assert sorted(HX.neighbours((2, 2))) == sorted([(3, 2), (1, 2), (2, 1), (1, 1), (2, 3), (1, 3)])
    assert sorted(HX.neighbours((2, 1))) == sorted([(3, 1), (1, 1), (3, 0), (2, 0), (3, 2), (2, 2)])
    assert HX.distance((0, 0), (3, 0)) == 3
    assert HX.distance((0, 0), (0, 2)) == 2
    assert HX.distance((0, 0), (0, 1)) == 1 and HX.distance((0, 0), (1, 1)) == 2
    for n in HX.neighbours((5, 3)):
        assert HX.distance((5, 3), n) == 1
        px, py = HX.point(n)
        qx, qy = HX.point((5, 3))
        assert math.hypot(px - qx, py - qy) == pytest.approx(1.0)  # every neighbour one spacing away
    assert len(HX.cell((0, 0))) == 6


@given(st.integers(-50, 50), st.integers(-50, 50), st.sampled_from(["square", "hex"]))
def test_dot_point_round_trip(c, r, name):
    lat = get_lattice(name)
    assert lat.dot_at(lat.point((c, r))) == (c, r)


def test_spec_rotation_formula():
    # 90 degrees maps dot (c, r) of a W x H sheet to (H-1-r, c), then `at` offsets the box
    w, h = 5, 3
    t = placement_transform(SQ, (w, h), (10, 20), 90, False)
    for c in range(w):
        for r in range(h):
            assert t.apply((c, r)) == (10 + h - 1 - r, 20 + c)
    assert transformed_size(SQ, (w, h), 90) == (3, 5)


def test_mirror_then_rotate():
    w, h = 4, 2
    m = placement_transform(SQ, (w, h), (0, 0), 0, True)
    assert m.apply((0, 0)) == (3, 0) and m.apply((3, 1)) == (0, 1)
    mr = placement_transform(SQ, (w, h), (0, 0), 90, True)
    # mirror first: (0,0) -> (3,0); then 90: (H-1-r, c) = (1, 3)
    assert mr.apply((0, 0)) == (1, 3)


def test_rotation_must_keep_the_grain():
    with pytest.raises(ValueError, match="multiple of 90"):
        placement_transform(SQ, (3, 3), (0, 0), 45, False)
    with pytest.raises(ValueError, match="multiple of 60"):
        placement_transform(HX, (3, 3), (0, 0), 90, False)


@given(st.sampled_from([0, 60, 120, 180, 240, 300]), st.booleans(),
       st.integers(-5, 5), st.integers(-5, 5), st.integers(0, 6), st.integers(0, 6))
def test_hex_placements_land_on_dots_and_keep_distances(rot, mir, ac, ar, c, r):
    t = placement_transform(HX, (8, 8), (ac, ar), rot, mir)
    p = t.apply(HX.point((c, r)))
    d = HX.dot_at(p)
    assert HX.point(d) == pytest.approx(p, abs=1e-9)  # lands exactly on a world dot
    q = t.apply(HX.point((0, 0)))
    assert HX.distance(HX.dot_at(q), d) == HX.distance((0, 0), (c, r))


def test_a_hex_board_moves_and_sees():
    from engine import model as m
    from engine.board import compile_board
    from engine.los import line_of_sight, los_fan
    from engine.movement import cheapest_path, reach

    h = math.sqrt(3) / 2
    pave = m.Sheet(id="hexpave", title="Hex", kind="pavement", lattice="hex", size=(12, 10),
                   outline=((-0.6, -0.6), (12.1, -0.6), (12.1, 9 * h + 0.6), (-0.6, 9 * h + 0.6)))
    wall = m.Wall(path=((4.75, -0.6), (4.75, 4 * h)))
    shed = m.Sheet(id="shed", title="Shed", kind="pavement", lattice="hex", size=(12, 10),
                   outline=pave.outline, levels=(m.Level(0, walls=(wall,)),))
    lay = m.Layout(lattice="hex", pavement=(m.Placement("hexpave", (0, 0)),),
                   placements=(m.Placement("shed", (0, 0)),))
    b = compile_board(lay, {"hexpave": pave, "shed": shed})
    assert len(reach(b, (2, 6, 0), 1, mp=1)) == 7  # itself and six neighbours
    assert cheapest_path(b, (0, 0, 0), (8, 0, 0), 2).cost > 16  # around the wall
    assert cheapest_path(b, (0, 8, 0), (8, 8, 0), 2).cost == 16
    assert line_of_sight(b, (2, 2, 0), (7, 2, 0)).blocked
    fan = los_fan(b, (2, 2, 0), radius=20)
    for (c, r), bl in zip(fan.dots, fan.blocked):
        assert bool(bl) == line_of_sight(b, (2, 2, 0), (int(c), int(r), 0)).blocked


def test_one_crossed_cells_rule_is_exact_on_squares_and_counts_hex_edges_for_both_cells():
    import random

    from shapely.geometry import LineString, Polygon

    from engine.play.cover import crossed_dots as play_crossed
    from engine.textmap import crossed_dots as text_crossed
    from tests.builders import board_of

    sq = get_lattice("square")
    rnd = random.Random(7)
    for _ in range(200):
        a = (rnd.randint(0, 12), rnd.randint(0, 12), 0)
        b = (rnd.randint(0, 12), rnd.randint(0, 12), 0)
        seg = LineString([sq.point(a[:2]), sq.point(b[:2])]) if a != b else None
        want = set() if seg is None else {
            (c, r) for c in range(-1, 14) for r in range(-1, 14)
            if (c, r) not in (a[:2], b[:2]) and seg.intersection(Polygon(sq.cell((c, r)))).length > 1e-9}
        assert set(sq.crossed_dots(a, b)) == want == play_crossed(sq, a, b)
    assert text_crossed(board_of([], []), (0, 0, 0), (3, 0, 0)) == [(1, 0), (2, 0)]
    hx = get_lattice("hex")
    # (12,3) -> (9,1) runs along the edge shared by (11,3) and (12,2): both are crossed
    got = hx.crossed_dots((12, 3), (9, 1))
    assert (11, 3) in got and (12, 2) in got
