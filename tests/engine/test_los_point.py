"""A line from a dot to itself is a point: it meets only what passes through that dot.

Found by the turned-sheet property test: a zero-length line counted every wall and obstacle the
bucket search offered near the dot, so a dot beside a wall read "blocked" and the answer changed
when the sheet was turned (which segments a bucket holds depends on where the sheet lies)."""

import pytest

from engine import model as m
from engine.lattice import get_lattice, placement_transform
from engine.los import line_of_sight
from tests.builders import board_of, building, outer_walls, pavement, rect

W, H = 5, 4


def _hut(rotation: int, mirror: bool):
    obstacle = m.Area("obstacle", rect(-0.3, -0.3, 0.3, 0.3), cost=1)
    lv = m.Level(0, walls=outer_walls(W, H), areas=(obstacle,))
    sheet = building("hut", W, H, height=1, levels=(lv,))
    board = board_of([sheet], [m.Placement("hut", (5, 5), rotation=rotation, mirror=mirror)],
                     pave=pavement(20, 20))
    t = placement_transform(get_lattice("square"), sheet.size, (5, 5), rotation, mirror)
    return board, lambda d: (*(int(round(v)) for v in t.apply(d)), 0)


@pytest.mark.parametrize("rotation,mirror", [(0, False), (90, False), (180, True), (270, True)])
def test_every_dot_of_a_turned_hut_sees_itself(rotation, mirror):
    board, world = _hut(rotation, mirror)
    for x in range(W):
        for y in range(H):
            d = world((x, y))
            facts = line_of_sight(board, d, d)
            # (1, 0) lies half a dot from the outer wall and 0.7 from the obstacle's edge:
            # before the fix it read blocked by the wall, with the obstacle as an interruption
            assert (facts.blocked, facts.cover, facts.range, facts.interruptions) == \
                (False, 0, 0, []), (x, y, facts.blocked_by)
