"""Tagging: walls, doors, areas and the properties panel, all undoable exactly."""

from __future__ import annotations

from PySide6.QtCore import Qt

from editor.edits import FeatureRef
from editor.panels.properties import EXPLICIT, ClassEditor
from engine.model import Barrier, Opening


def house_copy(win):
    """The scenario's own (inlined) copy of the house sheet."""
    return next(s for s in win.doc.layout.sheets if s.id == "house")


def draw_wall_and_door(win, d):
    d.tool("wall")
    assert win.tool_key == "wall"
    d.click(6.4, 5.6)   # snaps to half dots: (6.5, 5.5) world = (2.5, 1.5) on the sheet
    d.click(6.6, 9.4)
    d.key(Qt.Key.Key_Return)
    d.tool("door")
    d.click(6.5, 7.2)   # on the new wall, beside sheet dot row 3


def test_draw_wall_then_door(make_editor):
    win, d = make_editor()
    original = win.doc.root
    draw_wall_and_door(win, d)
    lv = house_copy(win).level(0)
    assert lv.walls[-1].path == ((2.5, 1.5), (2.5, 5.5))
    assert lv.walls[-1].id == "wall-1"
    assert lv.doors[-1] == Opening(kind="door", span=((2.5, 2.5), (2.5, 3.5)), state="open",
                                   id="door-1")
    assert win.state.selection == FeatureRef("house", 0, "doors", 2)
    # the library sheet is untouched: the scenario carries its own edited copy
    assert win.doc.library["house"].level(0).walls[-1].id == "inner"
    assert win.doc.undo_stack.count() == 2
    # undo everything: the very same root object comes back; redo gives the edit again
    edited = win.doc.root
    win.undo_action.trigger()
    win.undo_action.trigger()
    assert win.doc.root is original
    win.redo_action.trigger()
    win.redo_action.trigger()
    assert win.doc.root == edited


def test_wall_by_double_click_and_escape(make_editor):
    win, d = make_editor()
    d.tool("wall")
    d.click(5.5, 5.5)
    d.key(Qt.Key.Key_Escape)
    assert win.tool.points == []
    d.click(5.5, 5.5)
    d.click(8.5, 5.5)
    d.dclick(8.5, 8.5)
    assert house_copy(win).level(0).walls[-1].path == ((1.5, 1.5), (4.5, 1.5), (4.5, 4.5))


def test_wide_window_by_dragging_along_wall(make_editor):
    win, d = make_editor()
    d.tool("window")
    # the house's east wall is x = 9.5 on the sheet = 13.5 in the world
    d.drag((13.5, 5.2), (13.5, 7.8))
    w = house_copy(win).level(0).windows[-1]
    # from beside sheet dot row 1 (y 1.2) to beside row 4 (y 3.8): four dots wide
    assert w.span == ((9.5, 0.5), (9.5, 4.5)) and w.state == "closed"


def test_door_needs_a_wall(make_editor):
    win, d = make_editor()
    d.tool("door")
    d.click(20.0, 20.0)
    assert win.doc.undo_stack.count() == 0
    assert "wall" in win.hint_label.text()


def test_properties_set_class_state_and_note(make_editor, qtbot):
    win, d = make_editor()
    d.click(8.5, 7.0)  # the inner wall at sheet x 4.5
    assert win.state.selection == FeatureRef("house", 0, "walls", 1)
    editor = win.properties.findChildren(ClassEditor)[0]
    editor.combo.setCurrentText("thin")
    assert house_copy(win).level(0).walls[1].cls == "thin"
    editor.combo.setCurrentText(EXPLICIT)
    assert house_copy(win).level(0).walls[1].cls == Barrier(8, 0)
    editor.barrier.setValue(10)
    assert house_copy(win).level(0).walls[1].cls == Barrier(10, 0)
    # a door: state and note typed into the panel
    d.click(6.0, 11.5)
    assert win.state.selection == FeatureRef("house", 0, "doors", 0)
    from PySide6.QtWidgets import QComboBox, QLineEdit

    state = win.properties.findChild(QComboBox, "state")
    assert state.currentText() == "closed"
    state.setCurrentText("open")
    note = win.properties.findChild(QLineEdit, "feature-note")
    qtbot.keyClicks(note, "kicked in")
    door = house_copy(win).level(0).doors[0]
    assert (door.state, door.note) == ("open", "kicked in")
    # typing is one undo step: undo removes the whole note, then the state
    n = win.doc.undo_stack.count()
    win.undo_action.trigger()
    assert house_copy(win).level(0).doors[0].note == ""
    assert win.doc.undo_stack.index() == n - 1


def test_sheet_defaults_editable(make_editor):
    win, d = make_editor()
    d.click(8.5, 7.0)
    eds = win.properties.findChildren(ClassEditor)
    walls_default = eds[1]  # [wall class, sheet: all walls, all doors, all windows]
    walls_default.combo.setCurrentText("thick")
    assert house_copy(win).defaults.wall == "thick"


def test_area_line_and_markers(make_editor):
    win, d = make_editor()
    win.area_kind.setCurrentText("foliage")
    d.tool("area")
    for x, y in ((30.5, 10.5), (35.5, 10.5), (35.5, 14.5)):
        d.click(x, y)
    d.key(Qt.Key.Key_Enter)
    ex = win.doc.layout.extras
    assert ex.areas[-1].kind == "foliage"
    assert ex.areas[-1].polygon == ((30.5, 10.5), (35.5, 10.5), (35.5, 14.5))
    d.tool("stairs")
    d.click(11.2, 9.9)  # inside the house: sheet dot (7, 6)
    st = house_copy(win).level(0).stairs[-1]
    assert (st.at, st.to) == ((7.0, 6.0), 1)
    win.line_kind.setCurrentText("contour")
    d.tool("line")
    d.click(2.5, 25.5)
    d.click(9.5, 25.5)
    d.key(Qt.Key.Key_Return)
    assert win.doc.layout.extras.lines[-1].kind == "contour"
    # delete the selected line, then undo all four edits
    d.tool("select")
    d.click(6.0, 25.5)
    assert win.state.selection == FeatureRef(None, 0, "lines", 1)
    d.key(Qt.Key.Key_Delete)
    assert len(win.doc.layout.extras.lines) == 1
    while win.doc.undo_stack.canUndo():
        win.undo_action.trigger()
    assert win.doc.layout.sheets == ()
    assert len(win.doc.layout.extras.areas) == 1


def test_upper_level_tags_go_on_that_level(make_editor):
    win, d = make_editor()
    win.layers.level_box.setCurrentIndex(1)
    d.tool("wall")
    d.click(5.5, 8.5)
    d.click(12.5, 8.5)
    d.key(Qt.Key.Key_Return)
    assert house_copy(win).level(1).walls[-1].path == ((1.5, 4.5), (8.5, 4.5))
    # the shed (1 story) has no level 2 but its roof is level 1; level 2 has nothing
    win.layers.level_box.setCurrentIndex(2)
    d.click(26.5, 7.5)
    d.click(27.5, 7.5)
    d.key(Qt.Key.Key_Return)
    assert win.doc.undo_stack.count() == 1


def test_elevator_climb_and_tree_markers(make_editor):
    win, d = make_editor()
    d.tool("elevators")
    d.click(12.0, 5.0)  # house dot (8, 1)
    d.tool("climbs")
    d.click(5.0, 10.0)  # house dot (1, 6)
    d.tool("trees")
    d.click(9.6, 9.4)   # inside the house: trunk on a half dot of the sheet
    d.click(36.2, 26.0)  # on the pavement: street furniture
    lv = house_copy(win).level(0)
    assert lv.elevators[-1].at == (8.0, 1.0) and lv.elevators[-1].levels == (0, 1, 2)
    assert (lv.climbs[-1].at, lv.climbs[-1].to, lv.climbs[-1].assisted) == ((1.0, 6.0), 1, False)
    assert lv.trees[-1].trunk == (5.5, 5.5)
    tree = win.doc.layout.extras.trees[-1]
    assert tree.trunk == (36.0, 26.0) and tree.canopy[0] == (34.5, 24.5)
    # the climb is assisted from the properties panel
    d.tool("select")
    d.click(5.0, 10.0)
    from PySide6.QtWidgets import QCheckBox

    box = win.properties.findChildren(QCheckBox)[0]
    box.setChecked(True)
    assert house_copy(win).level(0).climbs[-1].assisted is True
