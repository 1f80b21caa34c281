"""`placement_transform` in plain floats gives exactly the transform of the numpy matrix
products it replaced (kept here as the reference), for every rotation, mirror and size."""

from __future__ import annotations

import math
import random

import numpy as np

from engine.lattice import Transform, _clean, get_lattice, placement_transform


def reference(lattice, size, at, rotation, mirror) -> Transform:
    theta = math.radians(rotation % 360)
    cs, sn = _clean(math.cos(theta)), _clean(math.sin(theta))
    m = np.array([[cs, -sn], [sn, cs]])
    if mirror:
        m = m @ np.array([[-1.0, 0.0], [0.0, 1.0]])
    if lattice.name == "square":
        w, h = size
        corners = np.array([[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1]], dtype=float) @ m.T
        mn = corners.min(axis=0)
        t = (at[0] - mn[0], at[1] - mn[1])
    else:
        t = lattice.point(at)
    return Transform((_clean(m[0, 0]), _clean(m[0, 1]), _clean(m[1, 0]), _clean(m[1, 1])),
                     (_clean(t[0]), _clean(t[1])))


def test_same_as_the_matrix_products():
    rng = random.Random(11)
    seen = 0
    for name in ("square", "hex"):
        lat = get_lattice(name)
        step = lat.rotation_step
        for rotation in range(-720, 721, step):
            for mirror in (False, True):
                for _ in range(6):
                    size = (rng.randint(1, 60), rng.randint(1, 60))
                    at = (rng.randint(-500, 500), rng.randint(-500, 500))
                    got = placement_transform(lat, size, at, rotation, mirror)
                    want = reference(lat, size, at, rotation, mirror)
                    assert got == want, (name, rotation, mirror, size, at)
                    assert all(type(v) is float for v in (*got.a, *got.t))
                    seen += 1
    assert seen == 2 * 6 * (len(range(-720, 721, 90)) + len(range(-720, 721, 60)))


def test_square_quarter_turn_worked_example():
    # SPEC section 2: 90 degrees maps (c, r) of a W x H sheet to (H-1-r, c), then `at`
    t = placement_transform(get_lattice("square"), (4, 3), (10, 20), 90, False)
    assert t.apply((0, 0)) == (12.0, 20.0)
    assert t.apply((3, 2)) == (10.0, 23.0)
    m = placement_transform(get_lattice("square"), (4, 3), (10, 20), 0, True)
    assert m.apply((0, 0)) == (13.0, 20.0) and m.apply((3, 0)) == (10.0, 20.0)
