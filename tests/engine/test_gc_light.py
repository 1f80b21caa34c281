"""Tables kept with a board for its life that Python's cyclic garbage collector need not walk
(issue 11: a full collection walks every live container, and a cold 16x16 validation pays one;
a table of millions of rows in lists made each ~80 ms dearer)."""

from __future__ import annotations

import gc

from benchmarks.neighbourhood import neighbourhood
from engine.board import compile_board
from engine.los import line_of_sight, prims

#: the empty tuple (CPython has one)
EMPTY: tuple = ()


def _settled() -> None:
    for _ in range(3):  # a tuple is untracked when a collection finds its items untracked
        gc.collect()


def test_sight_memo_rows_are_not_walked_by_the_collector():
    """The one-line tracer's per-cell-box rows (and their solid subset) are tuples of
    numbers: once a collection has seen them they are untracked, so a board's memo of a few
    hundred cell boxes adds nothing to later collections."""
    lay, sheets = neighbourhood(seed=3, blocks=2)
    board = compile_board(lay, sheets)
    ground = board.dots(0)
    for k in range(0, len(ground) - 1, max(1, len(ground) // 40)):
        a, b = tuple(int(v) for v in ground[k]), tuple(int(v) for v in ground[-1 - k])
        line_of_sight(board, (*a, 0), (*b, 0))
    P = prims(board)
    memos = [P.__dict__.get(name) for name in ("_cell_cands", "_solid_cands")]
    assert memos[0], "the lines above were traced one by one: the memo is there"
    _settled()
    for memo in memos:
        for got in (memo or {}).values():
            rows = got[-1]
            assert isinstance(rows, tuple) and len(rows)
            assert not gc.is_tracked(rows) and not any(gc.is_tracked(r) for r in rows[:50])
            assert not gc.is_tracked(got)


def test_unit_links_are_tuples_and_the_empty_ones_one_object():
    """Each unit's links per level: four tuples, the empty ones the one empty tuple (a 16x16
    city kept 6.2k empty lists here), and the board's links are those of the units in order."""
    lay, sheets = neighbourhood(seed=3, blocks=2)
    board = compile_board(lay, sheets)
    empties = kinds = 0
    for per_level in board._unit_links:
        for links in per_level.values():
            assert type(links) is tuple and len(links) == 4
            for got in links:
                assert type(got) is tuple
                empties += got is EMPTY  # the one empty tuple, by identity
                kinds += 1
    assert kinds and empties > kinds // 2
    stairs = [s for lv in sorted({lv for u in board._unit_links for lv in u})
              for u in board._unit_links for s in u.get(lv, ((), (), (), ()))[0]]
    assert stairs == board.stair_links and len(stairs) > 10
