"""Issue 17, left over: a property edited on one copy of a sheet placed several times asks
whether it is for this copy (made unique in the same undo step) or for the sheet, as tagging
does; the placement panel offers "Make unique"."""

from __future__ import annotations

from dataclasses import replace

import samples
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QPushButton, QSpinBox

from engine.model import Placement


def _two_houses():
    sc = samples.scenario()
    lay = sc.layout
    second = Placement(sheet="house", at=(4, 16), id="house-2")
    return replace(sc, layout=replace(lay, placements=lay.placements + (second,)))


def _asking(win, answer):
    asked = []
    win.ask_edit_scope = lambda title, n: asked.append((title, n)) or answer
    return asked


def test_sheet_title_typed_on_one_copy_changes_that_copy_only(make_editor, qtbot):
    win, d = make_editor(_two_houses())
    asked = _asking(win, "copy")
    d.click(10, 18)  # inside house-2 (no feature there)
    assert win.state.selection.index == 2
    title = win.properties.findChild(QLineEdit, "sheet-title")
    depth = win.doc.undo_stack.index()
    qtbot.keyClicks(title, " B")
    assert asked == [("House", 2)]  # asked once, not per keystroke
    pls = win.doc.layout.placements
    assert pls[0].sheet == "house" and pls[2].sheet != "house"
    assert win.doc.sheets()["house"].title == "House"
    assert win.doc.sheets()[pls[2].sheet].title == "House B"
    # the panel now names the copy's own sheet, and still edits it
    assert win.properties.findChild(QLineEdit, "sheet-title") is title
    # make unique and the first letter are one undo step, the rest another
    assert win.doc.undo_stack.index() == depth + 2
    win.undo_action.trigger()
    win.undo_action.trigger()
    assert win.doc.layout.placements[2].sheet == "house"
    assert win.doc.sheets()["house"].title == "House"


def test_door_state_on_one_copy_asks_and_each_answer_does_what_it_says(make_editor):
    win, d = make_editor(_two_houses())
    # the front door of house-2: sheet (1.5..2.5, 7.5) placed at (4, 16)
    asked = _asking(win, None)
    d.click(6.0, 23.5)
    sel = win.state.selection
    assert sel.list == "doors" and sel.sheet == "house"
    state = win.properties.findChild(QComboBox, "state")
    before = win.doc.undo_stack.index()
    state.setCurrentText("open")  # cancelled: nothing changes
    assert asked == [("House", 2)]
    assert win.doc.undo_stack.index() == before
    assert win.doc.sheets()["house"].level(0).doors[0].state == "closed"
    win.properties.rebuild()
    # "every copy": the sheet changes, both houses show it, and it is asked only once
    asked = _asking(win, "sheet")
    win.properties.findChild(QComboBox, "state").setCurrentText("open")
    assert asked == [("House", 2)]
    assert win.doc.sheets()["house"].level(0).doors[0].state == "open"
    assert {p.sheet for p in win.doc.layout.placements if p.id.startswith("house")} == {
        "house"}
    win.undo_action.trigger()
    # "this copy": house-2 gets a sheet of its own with the door open; house-1's stays shut
    d.click(30, 28)
    d.click(6.0, 23.5)
    asked = _asking(win, "copy")
    win.properties.findChild(QComboBox, "state").setCurrentText("open")
    assert asked == [("House", 2)]
    pls = win.doc.layout.placements
    own = pls[2].sheet
    assert pls[0].sheet == "house" and own != "house"
    assert win.doc.sheets()["house"].level(0).doors[0].state == "closed"
    assert win.doc.sheets()[own].level(0).doors[0].state == "open"
    assert win.state.selection.sheet == own  # the selection follows to the copy's sheet
    # a further edit goes to the copy's sheet without asking again
    win.properties.findChild(QLineEdit, "feature-note").setText("")
    note = win.properties.findChild(QLineEdit, "feature-note")
    note.textEdited.emit("kicked in")
    assert asked == [("House", 2)]
    assert win.doc.sheets()[own].level(0).doors[0].note == "kicked in"
    assert win.doc.sheets()["house"].level(0).doors[0].note == ""


def test_stories_on_an_unshared_sheet_do_not_ask_and_make_unique_button(make_editor):
    win, d = make_editor(_two_houses())
    asked = _asking(win, "copy")
    d.click(26, 7)  # the shed: placed once
    win.properties.findChild(QSpinBox, "sheet-stories").setValue(2)
    assert asked == [] and win.doc.sheets()["shed"].height == 2
    assert win.properties.findChild(QPushButton, "make-unique") is None
    d.click(10, 18)  # house-2: its sheet is shared
    button = win.properties.findChild(QPushButton, "make-unique")
    assert button is not None
    button.click()
    pls = win.doc.layout.placements
    assert pls[2].sheet != "house" and pls[0].sheet == "house"
    assert asked == []


def test_deleting_a_feature_picked_on_one_copy_asks_too(make_editor):
    win, d = make_editor(_two_houses())
    walls = len(win.doc.sheets()["house"].level(0).walls)
    asked = _asking(win, None)
    d.click(8.5, 22.0)  # the inner wall of house-2 (sheet x 4.5, placed at column 4)
    sel = win.state.selection
    assert sel.list == "walls" and sel.sheet == "house"
    d.key(Qt.Key.Key_Delete)  # cancelled: nothing goes
    assert asked == [("House", 2)]
    assert len(win.doc.sheets()["house"].level(0).walls) == walls
    asked = _asking(win, "copy")
    d.key(Qt.Key.Key_Delete)
    assert asked == [("House", 2)]
    pls = win.doc.layout.placements
    assert pls[0].sheet == "house" and pls[2].sheet != "house"
    assert len(win.doc.sheets()["house"].level(0).walls) == walls  # house-1 keeps it
    assert len(win.doc.sheets()[pls[2].sheet].level(0).walls) == walls - 1
    win.undo_action.trigger()  # one step: the wall and the copy's own sheet come back
    assert win.doc.layout.placements[2].sheet == "house"
    # "every copy" takes it from the sheet both houses show
    d.click(8.5, 22.0)
    asked = _asking(win, "sheet")
    d.key(Qt.Key.Key_Delete)
    assert len(win.doc.sheets()["house"].level(0).walls) == walls - 1


def test_nudging_a_feature_picked_on_a_turned_copy(make_editor):
    sc = samples.scenario()
    lay = sc.layout
    turned = Placement(sheet="house", at=(28, 14), rotation=90, id="house-2")
    win, d = make_editor(replace(sc, layout=replace(lay, placements=lay.placements + (turned,))))

    def stair_on(index):
        r = next(x for x in win.doc.resolved() if not x.pavement and x.index == index)
        return r.transform.apply(r.sheet.level(0).stairs[0].at)

    start = stair_on(2)
    d.click(*start)
    assert win.state.selection.list == "stairs"
    # every copy: the stair moves one dot right on the screen on the copy it was picked on
    asked = _asking(win, "sheet")
    d.key(Qt.Key.Key_Right)
    d.key(Qt.Key.Key_Right)
    assert asked == [("House", 2)]  # asked once for the selection
    assert stair_on(2) == (start[0] + 2, start[1])
    win.undo_action.trigger()  # the two nudges merged into one step
    assert stair_on(2) == start
    # this copy: made unique in the same step, the other house's stair stays
    d.click(30, 28)
    d.click(*start)
    asked = _asking(win, "copy")
    before = stair_on(0)
    d.key(Qt.Key.Key_Down)
    d.key(Qt.Key.Key_Down)
    assert asked == [("House", 2)]
    assert win.doc.layout.placements[2].sheet != "house"
    assert stair_on(2) == (start[0], start[1] + 2) and stair_on(0) == before
