"""Placing, moving, rotating, mirroring and nudging sheets with the mouse and keys."""

from __future__ import annotations

import warnings

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from editor.canvas.view import MIME
from editor.edits import PlacementRef


def test_place_from_library_snaps_to_dots(make_editor):
    win, d = make_editor()
    item = win.library.item_for("sheet:shed")
    rect = win.library.list.visualItemRect(item)
    d.qtbot.mouseClick(win.library.list.viewport(), Qt.MouseButton.LeftButton,
                       pos=rect.center())
    assert win.tool_key == "place"
    assert win.view.hasFocus()  # so R and M reach the ghost, not the library list
    d.hover(30.3, 22.2)
    assert win.tool._overlay, "a ghost follows the mouse"
    d.click(30.3, 22.2)
    pls = win.doc.layout.placements
    assert len(pls) == 3
    # a 6 x 4 shed centred near (30.3, 22.2): its box centre (2.5, 1.5) -> at (28, 21)
    assert pls[2].sheet == "shed" and pls[2].at == (28, 21) and pls[2].id == "shed-2"
    assert win.state.selection == PlacementRef(False, 2)
    assert win.tool_key == "select"


def test_place_rotated_ghost(make_editor):
    win, d = make_editor()
    win.arm_place("sheet:shed")
    d.hover(30.0, 22.0)
    d.key(Qt.Key.Key_R)
    d.click(30.0, 22.0)
    pl = win.doc.layout.placements[2]
    assert pl.rotation == 90
    # the rotated box is 4 wide, 6 high: its centre (1.5, 2.5) under (30, 22) -> (28.5, 19.5),
    # and half dots round up
    assert pl.at == (29, 20)


def test_drop_from_library_places(make_editor):
    win, d = make_editor()
    item = win.library.item_for("sheet:house")
    mime = win.library.list.mimeData([item])
    assert bytes(mime.data(MIME)).decode() == "sheet:house"
    pos = QPointF(d.pos(30.0, 20.0))
    with warnings.catch_warnings():  # PySide marks the QPoint constructor deprecated
        warnings.simplefilter("ignore", DeprecationWarning)
        enter = QDragEnterEvent(pos.toPoint(), Qt.DropAction.CopyAction, mime,
                                Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(win.view.viewport(), enter)
    ev = QDropEvent(pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(win.view.viewport(), ev)
    # the 10 x 8 house centred on (30, 20): (25.5, 16.5) rounds to (26, 17)
    assert win.doc.layout.placements[2].at == (26, 17)


def test_drag_moves_and_undo_restores(make_editor):
    win, d = make_editor()
    before = win.doc.root
    d.drag((26.0, 7.0), (31.0, 9.0))
    assert win.doc.layout.placements[1].at == (29, 8)
    assert win.doc.undo_stack.count() == 1
    win.undo_action.trigger()
    assert win.doc.root is before
    win.redo_action.trigger()
    assert win.doc.layout.placements[1].at == (29, 8)


def test_drag_shows_overlap_red_before_release(make_editor):
    win, d = make_editor()
    vp = win.view.viewport()
    d.hover(26.0, 7.0)
    d.qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=d.pos(26.0, 7.0))
    d.qtbot.mouseMove(vp, d.pos(12.0, 7.0))
    # the model has not changed yet but both buildings show red
    assert win.doc.layout.placements[1].at == (24, 6)
    assert win.scene.placement_items[(False, 1)].problem == "overlaps house-1"
    assert win.scene.placement_items[(False, 0)].problem == "overlaps shed-1"
    d.qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=d.pos(12.0, 7.0))
    assert win.doc.layout.placements[1].at == (10, 6)
    assert win.doc.problems() == {0: "overlaps shed-1", 1: "overlaps house-1"}


def test_off_pavement_is_red(make_editor):
    win, d = make_editor()
    d.click(26.0, 7.0)
    for _ in range(4):
        d.key(Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert win.doc.layout.placements[1].at == (44, 6)
    assert win.doc.problems() == {1: "off the pavement"}
    # consecutive nudges of one building are one undo step
    assert win.doc.undo_stack.count() == 1


def test_rotate_mirror_nudge_keys(make_editor):
    win, d = make_editor()
    d.click(26.0, 7.0)  # the shed, 6 x 4 at (24, 6): centre (26.5, 7.5)
    assert win.state.selection == PlacementRef(False, 1)
    d.key(Qt.Key.Key_R)
    pl = win.doc.layout.placements[1]
    assert pl.rotation == 90 and pl.at == (25, 5)  # 4 x 6 box keeps its centre
    d.key(Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    assert win.doc.layout.placements[1].rotation == 0
    assert win.doc.layout.placements[1].at == (24, 6)
    d.key(Qt.Key.Key_M)
    assert win.doc.layout.placements[1].mirror is True
    d.key(Qt.Key.Key_Left)
    d.key(Qt.Key.Key_Up)
    assert win.doc.layout.placements[1].at == (23, 5)
    assert win.doc.undo_stack.count() == 4  # rotate, rotate back, mirror, nudges
    for _ in range(4):
        win.undo_action.trigger()
    assert win.doc.root == win.doc.undo_stack.command(0).old


def test_delete_placement_and_escape(make_editor):
    win, d = make_editor()
    d.click(26.0, 7.0)
    d.key(Qt.Key.Key_Escape)
    assert win.state.selection is None
    d.click(26.0, 7.0)
    d.key(Qt.Key.Key_Delete)
    assert [p.id for p in win.doc.layout.placements] == ["house-1"]
    assert win.state.selection is None


def test_random_key_edits_undo_to_the_same_object(make_editor):
    """Any run of nudges, turns, mirrors and moves undoes to the very first document, and
    redoes to the very last one."""
    import random

    win, d = make_editor()
    rng = random.Random(20)
    first = win.doc.root
    keys = [Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_R,
            Qt.Key.Key_M]
    d.click(26.0, 7.0)
    for _ in range(25):
        d.key(rng.choice(keys), rng.choice([Qt.KeyboardModifier.NoModifier,
                                            Qt.KeyboardModifier.ShiftModifier]))
    last = win.doc.root
    assert last != first
    while win.doc.undo_stack.canUndo():
        win.undo_action.trigger()
    assert win.doc.root is first and not win.doc.is_dirty()
    while win.doc.undo_stack.canRedo():
        win.redo_action.trigger()
    assert win.doc.root is last
