"""Who stands in a line of fire: a character's cell is crossed when the segment between the
two dots runs through it with positive length.  ``cover._clear_crossing`` answers without
shapely when the clip is clear of the cell's edges and corners; it must agree with shapely's
intersection (the rule ``cover._crossed`` used alone before) on random lines and cells of a
square and a hex lattice, lines along rows and diagonals through corners included, and leave
the unclear ones (None) to shapely."""

from __future__ import annotations

import random

import pytest
from shapely.geometry import LineString, Polygon

from engine.lattice import HexLattice, SquareLattice
from engine.play.cover import _clear_crossing, _crossed, _seg_dist


@pytest.mark.parametrize("lattice", [SquareLattice(), HexLattice()], ids=["square", "hex"])
def test_clear_crossing_as_shapely(lattice):
    rng = random.Random(lattice.name)
    clear = unsure = crossed = 0
    for _ in range(6000):
        a = (rng.randint(0, 14), rng.randint(0, 14))
        if rng.random() < 0.3:  # along a row, a column or a diagonal
            k = rng.randint(1, 9)
            b = rng.choice([(a[0] + k, a[1]), (a[0], a[1] + k), (a[0] + k, a[1] + k),
                            (a[0] + k, a[1] - k)])
        else:
            b = (rng.randint(0, 14), rng.randint(0, 14))
        if a == b:
            continue
        pa, pb = lattice.point(a), lattice.point(b)
        lo, hi = min(a[0], b[0]) - 1, max(a[0], b[0]) + 1
        d = (rng.randint(lo, hi), rng.randint(min(a[1], b[1]) - 1, max(a[1], b[1]) + 1))
        pc = lattice.point(d)
        want = LineString([pa, pb]).intersection(Polygon(lattice.cell(d))).length > 1e-9
        got = _clear_crossing(lattice, pa, pb, pc)
        if got is None:
            unsure += 1
        else:
            clear += 1
            assert got == want, (a, b, d)
        crossed += want
        near = _seg_dist(pa, pb, pc) <= 1.0
        assert _crossed(lattice, a, b, d) == (near and want), (a, b, d)
    assert clear > 3000 and unsure > 20 and crossed > 500
