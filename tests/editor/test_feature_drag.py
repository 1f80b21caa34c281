"""Dragging a selected feature with the Select tool: snapped, one undo step per drag; doors
slide along their wall only.  The house is placed at (4, 4): sheet point + (4, 4) = world."""

from __future__ import annotations

from dataclasses import replace

import pytest

from editor.edits import FeatureRef
from editor.feature_move import move_in_level
from engine.model import Level, Opening, Wall


def house0(win):
    return next(s for s in win.doc.layout.sheets if s.id == "house").level(0)


def select_then_drag(win, d, ref, a, b):
    d.tool("select")
    d.click(*a)
    assert win.state.selection == ref
    before = win.doc.undo_stack.count()
    d.drag(a, b)
    assert win.state.selection == ref
    return win.doc.undo_stack.count() - before


def test_drag_wall_takes_its_door_along_one_undo_step(make_editor):
    win, d = make_editor()
    original = win.doc.root
    ref = FeatureRef("house", 0, "walls", 1)
    assert select_then_drag(win, d, ref, (8.5, 5.5), (10.6, 5.7)) == 1
    lv = house0(win)
    assert lv.walls[1].path == ((6.5, -0.5), (6.5, 7.5))  # 2.1, 0.2 snaps to 2, 0
    assert lv.doors[1].span == ((6.5, 3.5), (6.5, 4.5))  # the hall door stays in it
    assert lv.doors[0].span == ((1.5, 7.5), (2.5, 7.5))  # the front door is on another wall
    assert win.doc.layout.placements[0].at == (4, 4)  # the building did not move
    win.undo_action.trigger()
    assert win.doc.root is original


def test_drag_door_slides_along_its_wall(make_editor):
    win, d = make_editor()
    ref = FeatureRef("house", 0, "doors", 0)
    # dragged down and right: only the part along the wall counts, in whole dots
    assert select_then_drag(win, d, ref, (6.0, 11.5), (8.2, 12.3)) == 1
    assert house0(win).doors[0].span == ((3.5, 7.5), (4.5, 7.5))
    # straight off the wall: nothing moves, no undo step
    assert select_then_drag(win, d, ref, (8.0, 11.5), (8.0, 14.0)) == 0
    assert house0(win).doors[0].span == ((3.5, 7.5), (4.5, 7.5))


def test_door_stops_at_the_end_of_its_wall(make_editor):
    win, d = make_editor()
    ref = FeatureRef("house", 0, "doors", 0)
    assert select_then_drag(win, d, ref, (6.0, 11.5), (16.0, 11.5)) == 1
    # the wall segment ends at sheet x 9.5: the door stops in the last dot that fits
    assert house0(win).doors[0].span == ((8.5, 7.5), (9.5, 7.5))


def test_opening_on_no_wall_is_refused():
    lv = Level(level=0, walls=(Wall(path=((0.5, 0.5), (6.5, 0.5))),),
               doors=(Opening(kind="door", span=((1.5, 2.5), (2.5, 2.5))),))
    with pytest.raises(ValueError, match="on no wall"):
        move_in_level(lv, "doors", 0, (2.0, 0.0))
    lv = replace(lv, doors=(Opening(kind="door", span=((1.5, 0.5), (2.5, 0.5))),))
    assert move_in_level(lv, "doors", 0, (-3.0, 0.0)).doors[0].span == ((0.5, 0.5), (1.5, 0.5))
    assert move_in_level(lv, "doors", 0, (2.4, 5.0)).doors[0].span == ((3.5, 0.5), (4.5, 0.5))


def test_drag_street_area_line_and_tree(make_editor):
    win, d = make_editor()
    car = FeatureRef(None, 0, "areas", 0)
    assert select_then_drag(win, d, car, (20.0, 17.0), (22.3, 15.8)) == 1
    assert win.doc.layout.extras.areas[0].polygon == (
        (21.0, 15.5), (24.0, 15.5), (24.0, 16.5), (21.0, 16.5))  # 2.3, -1.2 -> 2.5, -1
    kerb = FeatureRef(None, 0, "lines", 0)
    assert select_then_drag(win, d, kerb, (7.0, 20.5), (7.3, 21.8)) == 1
    assert win.doc.layout.extras.lines[0].path == ((3.0, 22.0), (13.0, 22.0))
    oak = FeatureRef(None, 0, "trees", 0)
    assert select_then_drag(win, d, oak, (30.0, 20.0), (31.6, 21.4)) == 1
    tree = win.doc.layout.extras.trees[0]
    assert tree.trunk == (32.0, 21.0)  # trees move by whole dots
    assert tree.canopy == ((30.5, 19.5), (33.5, 19.5), (33.5, 22.5), (30.5, 22.5))
    assert win.doc.undo_stack.count() == 3
    for _ in range(3):
        win.undo_action.trigger()
    assert win.doc.layout.extras.trees[0].trunk == (30.0, 20.0)
    assert win.doc.layout.extras.areas[0].polygon[0] == (18.5, 16.5)


def test_drag_stair_by_whole_dots_and_unselected_drag_moves_building(make_editor):
    win, d = make_editor()
    stair = FeatureRef("house", 0, "stairs", 0)
    assert select_then_drag(win, d, stair, (5.0, 5.0), (6.7, 5.2)) == 1
    assert house0(win).stairs[0].at == (3.0, 1.0)
    assert win.doc.layout.placements[0].at == (4, 4)
    # a feature that is not selected yet: the drag moves the building, as before
    d.click(20.0, 25.0)  # bare pavement: nothing selected
    assert win.state.selection is None
    d.drag((11.0, 5.0), (13.0, 5.0))
    assert win.doc.layout.placements[0].at == (6, 4)


def test_drag_out_and_back_leaves_no_undo_step(make_editor):
    win, d = make_editor()
    original = win.doc.root
    d.click(5.0, 5.0)
    assert win.state.selection == FeatureRef("house", 0, "stairs", 0)
    from PySide6.QtCore import Qt

    d.qtbot.mousePress(d.vp, Qt.MouseButton.LeftButton, pos=d.pos(5.0, 5.0))
    d.qtbot.mouseMove(d.vp, d.pos(7.0, 5.0))
    assert house0(win).stairs[0].at == (3.0, 1.0)
    d.qtbot.mouseMove(d.vp, d.pos(5.1, 5.0))
    d.qtbot.mouseRelease(d.vp, Qt.MouseButton.LeftButton, pos=d.pos(5.1, 5.0))
    assert win.doc.root == original and win.doc.undo_stack.count() == 0
    assert not win.doc.is_dirty()
