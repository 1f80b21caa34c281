"""Issue 17, the conventions of the editors designers know (Tiled, the MegaMek board editor):
menus, panels, layout, grid, clipboard, multi-select, nudging features."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QSettings, Qt
from PySide6.QtWidgets import QApplication

from editor.document import Document
from editor.edits import FeatureRef, PlacementRef
from editor.main_window import MainWindow

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
LEFT = Qt.MouseButton.LeftButton


def test_view_menu_brings_back_closed_panels_and_the_layout_is_kept(make_editor, qtbot, tmp_path):
    import samples

    win, d = make_editor()
    titles = [a.text() for a in win.panels_menu.actions()]
    for name in ("Library", "Levels and layers", "Properties", "Findings", "Scenario",
                 "Tools", "Tool options"):
        assert name in titles
    win.library_dock.close()
    assert not win.library_dock.isVisible()
    lib = next(a for a in win.panels_menu.actions() if a.text() == "Library")
    lib.trigger()
    assert win.library_dock.isVisible()
    win.findings_dock.close()  # a designer closes the findings and quits
    win.close()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    again = MainWindow(Document(samples.scenario(), None, samples.library()), settings,
                       recovery_dir=tmp_path / "rec", scan_recovery=False)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    QApplication.processEvents()
    assert again.library_dock.isVisible() and not again.findings_dock.isVisible()
    again.doc.undo_stack.setClean()


def test_edit_menu_names_the_step_and_grid_toggle(make_editor):
    win, d = make_editor()
    assert win.undo_action.text() == "Undo" and not win.doc.undo_stack.canUndo()
    d.click(26, 7)
    d.key(Qt.Key.Key_Right)
    assert win.undo_action.text() == "Undo Nudge shed-1"
    win.undo_action.trigger()
    assert win.redo_action.text() == "Redo Nudge shed-1" and win.undo_action.text() == "Undo"
    shown = win.view.viewport().grab().toImage()
    win.grid_action.trigger()
    assert not win.view.show_grid
    bare = win.view.viewport().grab().toImage()
    assert shown != bare
    # the dots of the grid on the open pavement: drawn, then gone
    def dark(img) -> int:
        a, b = win.view.mapFromScene(28.0, 24.0), win.view.mapFromScene(34.0, 28.0)
        return sum(img.pixelColor(x, y).value() < 150
                   for x in range(a.x(), b.x()) for y in range(a.y(), b.y()))
    assert dark(shown) > 20 * dark(bare) + 20


def test_copy_paste_a_street_then_tweak_one_copy(make_editor, qtbot):
    """The issue's story: lay out a second copy of a street by copy-paste, tweak one copy."""
    from PySide6.QtWidgets import QMessageBox

    win, d = make_editor()
    # rubber band round the house and the shed, from open pavement
    d.drag((2.5, 2.5), (31.5, 12.5))
    assert win.state.group == (PlacementRef(False, 0), PlacementRef(False, 1))
    assert win.scene.placement_items[(False, 0)].selected
    d.hover(14.0, 19.0)  # the middle of where the copy of the street goes
    d.key(Qt.Key.Key_C, CTRL)
    d.key(Qt.Key.Key_V, CTRL)
    pls = win.doc.layout.placements
    assert [(p.sheet, p.at) for p in pls[2:]] == [("house", (4, 18)), ("shed", (24, 20))]
    assert len({p.id for p in pls}) == 4  # fresh ids
    assert win.state.group == (PlacementRef(False, 2), PlacementRef(False, 3))
    assert win.doc.undo_stack.count() == 1 and win.undo_action.text() == \
        "Undo Paste 2 building(s)"
    # the pasted street moves as one: drag one of its buildings, then arrows nudge both
    d.drag((26.0, 21.0), (26.0, 22.0))
    assert [p.at for p in win.doc.layout.placements[2:]] == [(4, 19), (24, 21)]
    d.key(Qt.Key.Key_Down)
    assert [p.at for p in win.doc.layout.placements[2:]] == [(4, 20), (24, 22)]
    # the panel edits what they share: turning both is one step
    rot = win.properties.findChild(type(win.area_kind), "group-rotation")
    rot.setCurrentIndex(rot.findData(180))
    assert [p.rotation for p in win.doc.layout.placements[2:]] == [180, 180]
    assert [p.rotation for p in win.doc.layout.placements[:2]] == [0, 0]
    # tag one copy alone: the wall goes on a sheet of its own for that house only
    asked = []
    win.ask_tag_scope = lambda title, n: asked.append((title, n)) or "copy"
    d.click(30.0, 30.0)  # deselect
    d.tool("wall")
    r = next(x for x in win.doc.resolved() if not x.pavement and x.index == 2)
    x0, y0, x1, y1 = r.footprint.bounds
    d.click(x0 + 2.5, y0 + 1.5)
    d.click(x0 + 2.5, y1 - 1.5)
    d.key(Qt.Key.Key_Return)
    assert asked == [("House", 2)]
    pls = win.doc.layout.placements
    assert pls[0].sheet == "house" and pls[2].sheet != "house"
    own = win.doc.sheets()[pls[2].sheet]
    assert len(own.level(0).walls) == len(win.doc.sheets()["house"].level(0).walls) + 1
    # one undo step takes back both the tag and the new sheet
    win.undo_action.trigger()
    assert win.doc.layout.placements[2].sheet == "house"
    assert all(s.id == "house" or s.id == "shed" for s in win.doc.layout.sheets) or \
        not win.doc.layout.sheets
    # cancelling tags nothing
    win.ask_tag_scope = lambda title, n: None
    d.click(x0 + 2.5, y0 + 1.5)
    d.click(x0 + 2.5, y1 - 1.5)
    d.key(Qt.Key.Key_Return)
    assert win.doc.undo_stack.index() == win.doc.undo_stack.count() - 1
    assert QMessageBox is not None


def test_shift_click_duplicate_select_all_delete(make_editor):
    win, d = make_editor()
    d.click(6, 6)
    d.click(26, 7, mods=SHIFT)
    assert win.state.group == (PlacementRef(False, 0), PlacementRef(False, 1))
    d.click(26, 7, mods=SHIFT)  # Shift+click again takes it out
    assert win.state.placements() == (PlacementRef(False, 0),)
    d.key(Qt.Key.Key_D, CTRL)
    assert win.doc.layout.placements[2].at == (6, 6) and win.doc.layout.placements[2].sheet \
        == "house"
    d.key(Qt.Key.Key_A, CTRL)
    assert len(win.state.group) == 3
    d.key(Qt.Key.Key_Delete)
    assert win.doc.layout.placements == ()
    win.undo_action.trigger()
    assert len(win.doc.layout.placements) == 3


def test_copy_paste_and_nudge_a_feature(make_editor):
    win, d = make_editor()
    d.click(20.0, 17.0)  # the wrecked car on the pavement
    assert win.state.selection == FeatureRef(None, 0, "areas", 0)
    d.key(Qt.Key.Key_C, CTRL)
    d.key(Qt.Key.Key_V, CTRL)
    cars = win.doc.layout.extras.areas
    assert len(cars) == 2 and cars[1].polygon[0] == (19.5, 17.5) and cars[1].id != cars[0].id
    assert win.state.selection == FeatureRef(None, 0, "areas", 1)
    d.key(Qt.Key.Key_Right)
    d.key(Qt.Key.Key_Right)
    assert win.doc.layout.extras.areas[1].polygon[0] == (21.5, 17.5)
    n = win.doc.undo_stack.count()
    win.undo_action.trigger()  # the two nudges are one step
    assert win.doc.layout.extras.areas[1].polygon[0] == (19.5, 17.5)
    assert win.doc.undo_stack.index() == n - 1
    # a wall of a turned building moves the way the arrow points on the screen
    d.click(8.5, 7.0)
    assert win.state.selection == FeatureRef("house", 0, "walls", 1)
    d.key(Qt.Key.Key_Right)
    wall = next(s for s in win.doc.layout.sheets if s.id == "house").level(0).walls[1]
    assert wall.path == ((5.5, -0.5), (5.5, 7.5))


def test_canvas_context_menu(make_editor):
    from PySide6.QtGui import QContextMenuEvent

    win, d = make_editor()
    d.click(30, 30)
    pos = d.pos(26, 7)
    ev = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, d.vp.mapToGlobal(pos))
    QApplication.sendEvent(d.vp, ev)
    assert win.state.selection == PlacementRef(False, 1)  # the shed under the mouse
    menu = win.canvas_menu
    texts = [a.text() for a in menu.actions() if a.text()]
    for t in ("Copy", "Paste", "Duplicate", "Delete", "Rotate clockwise", "Mirror",
              "Make unique", "Select all buildings"):
        assert t in texts
    assert not next(a for a in menu.actions() if a.text() == "Paste").isEnabled()
    next(a for a in menu.actions() if a.text() == "Make unique").trigger()
    pl = win.doc.layout.placements[1]
    assert pl.sheet != "shed" and win.doc.sheets()[pl.sheet].size == (6, 4)
    assert win.undo_action.text().startswith("Undo Make")
    menu.hide()
    QApplication.processEvents()
    assert win.paste_action.isEnabled()  # the menu gives the actions back
    win.undo_action.trigger()
    assert win.doc.layout.placements[1].sheet == "shed"


def test_overview_shows_the_viewport_and_click_goes_there(make_editor, qtbot):
    win, d = make_editor()
    ov = win.overview
    assert win.overview_dock.isVisible()
    assert "Overview" in [a.text() for a in win.panels_menu.actions()]
    r = ov.visible_rect()
    shown = win.view.mapToScene(win.view.viewport().rect()).boundingRect()
    assert r == shown
    # the whole board fits in the overview
    content = win.scene.content_rect
    tl = ov.mapFromScene(content.topLeft())
    br = ov.mapFromScene(content.bottomRight())
    assert ov.viewport().rect().contains(tl) and ov.viewport().rect().contains(br)
    # the red viewport rectangle is drawn
    img = ov.viewport().grab().toImage()
    edge = ov.mapFromScene(QPointF(r.left(), r.center().y()))
    reds = [img.pixelColor(x, edge.y()) for x in range(edge.x() - 2, edge.x() + 3)]
    assert any(c.red() > 200 and c.green() < 90 for c in reds)
    # a click on the overview centres the canvas there
    qtbot.mouseClick(ov.viewport(), LEFT, pos=ov.mapFromScene(QPointF(30.0, 22.0)))
    c = win.view.mapToScene(win.view.viewport().rect().center())
    assert abs(c.x() - 30.0) < 1.0 and abs(c.y() - 22.0) < 1.0
    assert ov.visible_rect().center().x() == pytest.approx(c.x(), abs=1.0)
