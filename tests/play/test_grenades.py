"""Grenades: Liam's airfoil IPE defensive grenade, throw costs, scatter, smoke."""

import pytest

from engine.lattice import get_lattice
from engine.play.dice import judge
from engine.play.grenades import (
    accuracy_target_value,
    blast_target_value,
    grenade_type,
    scatter_distance,
    scatter_point,
    smoke_dots,
    throw_mp,
)

SQ = get_lattice("square")


def test_liam_blast_target_values_8_16_24():
    g = grenade_type("defensive")
    sv = g.success_value(ipe=True)
    assert sv == 24
    tvs = [blast_target_value(8, d, g.per_dot) for d in (0, 1, 2)]
    assert tvs == [8, 16, 24]
    # "only a roll of 12 will save Guard 1"
    assert [judge(sv, 8, r).success for r in range(2, 13)] == [True] * 10 + [False]
    # "a roll of 9 or higher will save Guard 2"
    assert [r for r in range(2, 13) if not judge(sv, 16, r).success] == [9, 10, 11, 12]
    # "only a roll of 2 will damage Guard 3"
    assert [r for r in range(2, 13) if judge(sv, 24, r).success] == [2]


def test_liam_scatter_two_dots_on_along_the_throw():
    assert scatter_distance(5) == 2
    for roll in (6, 7, 8):
        assert scatter_point(SQ, (0, 0), (5, 0), roll, 5) == (7, 0)
    # guard 3 (two dots past the aim) is now at ground zero, guard 1 two dots away
    g = grenade_type("defensive")
    ground = scatter_point(SQ, (0, 0), (5, 0), 7, 5)
    dists = [SQ.distance(ground, guard) for guard in [(5, 0), (6, 0), (7, 0)]]
    assert [blast_target_value(8, d, g.per_dot) - 8 for d in dists] == [16, 8, 0]


def test_scatter_directions_fan_out():
    assert scatter_point(SQ, (0, 0), (6, 0), 2, 6) == (3, 0)  # straight back
    assert scatter_point(SQ, (0, 0), (6, 0), 12, 6) == (3, 0)
    assert scatter_point(SQ, (0, 0), (6, 0), 4, 6) == (6, -3)  # left of the throw (up)
    assert scatter_point(SQ, (0, 0), (6, 0), 10, 6) == (6, 3)
    assert scatter_point(SQ, (0, 0), (6, 0), 9, 6) == (9, 3)  # diagonal keeps 3 dots
    assert scatter_distance(9, rangefinder=True) == 2


def test_throw_costs_and_accuracy():
    assert [throw_mp(d) for d in (1, 2, 3, 4, 5)] == [1, 1, 2, 2, 3]
    assert [throw_mp(d, aerodynamic=True) for d in (3, 5, 6, 7)] == [1, 2, 2, 3]
    assert accuracy_target_value(5, cover=1, aerodynamic=True) == 3
    with pytest.raises(ValueError):
        throw_mp(-1)


def test_grenade_table():
    off, conc, smoke = grenade_type("offensive"), grenade_type("concussion"), grenade_type("smoke")
    assert (off.standard, off.ipe, off.per_dot, off.damage) == (20, 24, 4, 4)
    assert (conc.standard, conc.ipe, conc.per_dot, conc.damage_kind) == (16, 20, 8, "stun")
    assert smoke.per_dot is None and smoke.damage == 0
    with pytest.raises(ValueError):
        grenade_type("flash-bang")


def test_smoke_covers_the_dot_and_its_neighbours_one_story_up():
    dots = smoke_dots(SQ, (4, 4, 0))
    assert len(dots) == 18
    assert (4, 4, 0) in dots and (5, 5, 0) in dots and (3, 3, 1) in dots
    assert (6, 4, 0) not in dots and (4, 4, 2) not in dots
