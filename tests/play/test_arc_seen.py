"""Arc.contains keeps each point's answer on the arc (the referee asks every reactor's arcs at
every step of every mover, the bots at every dot of every way they weigh): the kept answer
must be the wedge test itself, for every point, asked once or again, and the memo must not
make two equal arcs differ."""

from __future__ import annotations

import itertools
import random

from engine.play.reaction import ARCS, Arc, angle_between, direction_to


def plain(arc: Arc, p: tuple[float, float]) -> bool:
    """The wedge test from its definition (module docstring): inside when the direction to
    the point is within half the width of the arc's direction, the origin itself not."""
    if abs(p[0] - arc.origin[0]) < 1e-9 and abs(p[1] - arc.origin[1]) < 1e-9:
        return False
    return angle_between(direction_to(arc.origin, p), arc.direction) <= \
        ARCS[arc.kind][1] / 2.0 + 1e-9


def test_kept_answers_are_the_wedge_test_asked_once_or_again():
    rng = random.Random(12)
    points = [(float(x), float(y) * 0.8660254037844386) for x, y in
              itertools.product(range(-6, 7), range(-6, 7))]
    arcs = [Arc(kind, (0.0, 0.0), d) for kind in ARCS for d in (0.0, 22.5, 45.0, 90.0, 180.0,
                                                                  -135.0, 33.69006752597979)]
    arcs += [Arc(rng.choice(list(ARCS)), (rng.uniform(-3, 3), rng.uniform(-3, 3)),
                 rng.uniform(-180, 180)) for _ in range(40)]
    inside = edge = 0
    for arc in arcs:
        for _round in range(2):  # the second round answers from what the first kept
            for p in points:
                want = plain(arc, p)
                assert arc.contains(p) is want, (arc, p)
                assert arc.inside(p) is want
                inside += want
        # a list is asked without keeping (not a key), the same answer
        assert arc.contains([1.0, 0.0]) is plain(arc, (1.0, 0.0))
        edge += any(abs(angle_between(direction_to(arc.origin, p), arc.direction)
                        - ARCS[arc.kind][1] / 2.0) < 1e-6 for p in points)
    assert inside > 1000 and edge > 5  # points inside, and points on an edge, were asked


def test_a_kept_answer_belongs_to_its_own_arc():
    """Equal arcs stay equal (and hash alike) whatever each has answered; an arc pointing
    elsewhere never answers from another's points."""
    a, b = Arc("narrow", (0.0, 0.0), 0.0), Arc("narrow", (0.0, 0.0), 0.0)
    assert a.contains((3.0, 0.0)) and not a.contains((0.0, 3.0))
    assert a == b and hash(a) == hash(b) and {a, b} == {a}
    c = Arc("narrow", (0.0, 0.0), 90.0)
    assert c.contains((0.0, 3.0)) and not c.contains((3.0, 0.0))
    assert a.to_data() == {"kind": "narrow", "origin": [0.0, 0.0], "direction": 0.0}
    assert repr(a) == "Arc(kind='narrow', origin=(0.0, 0.0), direction=0.0)"
