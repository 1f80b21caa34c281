"""The single-line tracer finds a line's cell box from its ends' cells kept per dot
(``los._dot_end``, ``los._ends_box``) and culls the candidates with their ends stacked
(``los._culled_stacked``; a few of them with Python floats, ``los._culled_few``): the same
box as ``los._cell_box`` from the points, and the same candidates kept as ``los._culled``, for
random lines of every sample (both directions, across levels, a dot to itself) and of a hex
board, including lines whose ends lie outside the grid."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.io import load_board
from engine.los import (
    _building_idx,
    _cell_box,
    _counted_cands,
    _culled,
    _culled_few,
    _culled_stacked,
    _dot_end,
    _ends_box,
    prims,
)
from tests.engine.test_single_line_agrees import _hex_board

ROOT = Path(__file__).resolve().parents[2]


def _dots(board):
    return [(int(c), int(r), lv) for lv in board.levels for c, r in board.dots(lv)]


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))
                         + ["hex"])
def test_box_and_cull_as_from_the_points(name):
    board = _hex_board() if name == "hex" else load_board(ROOT / "scenarios" / name)[1]
    P = prims(board)
    rng = random.Random(name)
    dots = _dots(board)
    xs = [d[0] for d in dots]
    ys = [d[1] for d in dots]
    # dots off the board too: their cells lie outside the grid on some side
    far = [(min(xs) - 9, min(ys) - 9, 0), (max(xs) + 9, max(ys) + 9, 0),
           (min(xs) - 9, max(ys) + 9, 0)]
    pairs = [(rng.choice(dots), rng.choice(dots)) for _ in range(400)]
    pairs += [(d, d) for d in rng.sample(dots, 10)]
    pairs += [(f, rng.choice(dots)) for f in far for _ in range(5)] + [(far[0], far[1])]
    culled = few = 0
    for a, b in pairs:
        for u, v in ((a, b), (b, a)):
            ox, oy, ci, cj = _dot_end(board, P, u)
            tx, ty, ti, tj = _dot_end(board, P, v)
            assert (ox, oy) == tuple(float(x) for x in board.dot_point(u))
            box = _ends_box(P, ci, cj, ti, tj)
            assert box == _cell_box(P.grid, ox, oy, tx, ty), (u, v)
            if box is None:
                continue
            for solid in (False, True):
                got = _counted_cands(P, box, u[2], v[2], _building_idx(board, u),
                                     _building_idx(board, v), solid)
                rx, ry = tx - ox, ty - oy
                want = _culled(got[0], got[1], got[2], got[3], got[4], ox, oy, rx, ry)
                assert _culled_stacked(got[7], got[8], got[4], ox, oy, rx, ry) == want
                if got[9] is not None:  # (a few candidates: culled with Python floats)
                    assert _culled_few(got[9], ox, oy, rx, ry) == want
                    few += 1
                culled += len(got[5]) - len(want)
    assert culled > 100  # the cull dropped candidates: the comparison meant something
    assert few > 20
