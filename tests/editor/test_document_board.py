"""The document compiles each board from its last one (a drag recompiles the moved building's
part of the board and patches the movement graph), through its undo stack as edits do, and
the answers are those of a board compiled from scratch."""

from __future__ import annotations

import numpy as np

from editor import edits
from editor.document import SAMPLE, Document
from editor.edits import PlacementRef
from engine.board import compile_board
from engine.movement import build_graph, cheapest_path


def _moved(doc: Document, k: int, dc: int) -> None:
    ref = PlacementRef(False, k)
    pl = doc.layout.placements[k]
    doc.edit_layout(edits.set_placement(doc.layout, ref, edits.nudge(pl, dc, 0)), "move")


def test_a_moved_building_recompiles_from_the_last_board(qapp):
    doc = Document.open(SAMPLE)
    first = doc.board()
    assert first._changed is None  # nothing before it: compiled from scratch
    build_graph(first)
    _moved(doc, 1, 1)
    board = doc.board()
    assert board is not first and board._changed is not None
    r0, r1, c0, c1 = board._changed
    assert (r1 - r0) * (c1 - c0) < board._stand[0].size  # only a part of the box was redone
    assert "_move_graph" in board._patch_from  # the graph is patched from the first board's
    fresh = compile_board(doc.layout, doc.sheets())
    assert np.array_equal(board._node_grid, fresh._node_grid)
    g, f = build_graph(board), build_graph(fresh)
    for name in ("src", "dst", "extra", "base"):
        assert np.array_equal(getattr(g, name), getattr(f, name)), name
    a, b = board.node_dot(0), board.node_dot(board.node_count - 1)
    assert cheapest_path(board, a, b, 2).cost == cheapest_path(fresh, a, b, 2).cost
    # undo goes back through the same route: a board equal to the first one
    doc.undo_stack.undo()
    back = doc.board()
    assert back._changed is not None
    assert np.array_equal(back._node_grid, first._node_grid)
    assert np.array_equal(build_graph(back).extra, build_graph(first).extra)
    doc.undo_stack.setClean()
