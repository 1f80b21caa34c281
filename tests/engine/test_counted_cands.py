"""A line's candidate primitives without those none of its contacts could count
(``los._counted_cands``): every primitive it drops fails the counting rules (``los._counts``)
at every level the line passes (its ends' levels and between), so a trace from the shorter
list meets the same features; and on one level it keeps exactly the ones that count.  The
traces themselves are checked against the reference tracer in test_single_line_agrees.py and
test_blocked_one_agrees.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.io.resolve import load_board
from engine.los import _building_idx, _cell_box, _cell_cands, _counted_cands, _counts, prims
from tests.engine.test_single_line_agrees import _city, _pairs

ROOT = Path(__file__).resolve().parents[2]
#: where along a line its level is asked (the ends and between)
ALONG = [i / 16 for i in range(17)]


def _check(board, rng: random.Random, n: int) -> tuple[int, int]:
    """(primitives dropped, lines across levels) over ``n`` random lines."""
    P = prims(board)
    dropped = across = 0
    for a, b in _pairs(board, rng, n):
        ox, oy = (float(v) for v in board.dot_point(a))
        tx, ty = (float(v) for v in board.dot_point(b))
        box = _cell_box(P.grid, ox, oy, tx, ty)
        if box is None:
            continue
        la, lb = a[2], b[2]
        ba, bb = _building_idx(board, a), _building_idx(board, b)
        top = max(la, lb)
        across += la != lb
        rows = _cell_cands(P, *box)[5]
        for solid in (False, True):
            kept = _counted_cands(P, box, la, lb, ba, bb, solid)
            kept_ids = [r[0] for r in kept[5]]
            assert kept_ids == kept[6].tolist() == sorted(kept_ids)
            assert kept[0].tolist() == [r[1] for r in kept[5]]  # coordinates row by row
            for r in rows:
                if solid and r[7] not in (0, 8, 10):  # (BLOCK, FOOT, TRUNK)
                    assert r[0] not in kept_ids
                    continue
                ever = any(_counts(r[7], r[5], r[6], r[8], la + (lb - la) * s, ba, bb, la, lb,
                                   top) for s in ALONG)
                if r[0] in kept_ids:
                    if la == lb:
                        assert ever, (a, b, r)  # one level: exactly the ones that count
                else:
                    assert not ever, (a, b, r)
                    dropped += 1
    return dropped, across


@pytest.mark.parametrize("name", ["street-ambush.yaml", "police-station-extraction.yaml",
                                  "nightclub-raid-sr3.yaml"])
def test_dropped_candidates_never_count_on_samples(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    dropped, across = _check(board.fork(), random.Random(7 + len(name)), 150)
    assert dropped > 1000 and across >= 10


def test_dropped_candidates_never_count_on_a_city():
    lay, sheets = _city()
    from engine.board import compile_board

    dropped, across = _check(compile_board(lay, sheets), random.Random(3), 150)
    assert dropped > 1000 and across >= 10
