"""Issue 17, the quick fixes: what a designer tripped over, driven through the real widgets."""

from __future__ import annotations

from pathlib import Path

import samples
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QGraphicsPathItem

from editor.document import Document
from editor.edits import FeatureRef, PlacementRef
from editor.main_window import MainWindow
from editor.panels.properties import EXPLICIT, ClassEditor
from editor.tools.overlay import DotShade, LabelItem
from engine.model import Barrier, Deployment, Side

LEFT = Qt.MouseButton.LeftButton


def fans(win) -> list[DotShade]:
    return [it for it in win.scene.items() if isinstance(it, DotShade)]


def test_new_side_deploys_on_the_ground_not_the_previous_sides_level(make_editor, qtbot):
    root = samples.scenario()
    from dataclasses import replace

    high = Side(id="snipers", deployment=Deployment(
        polygon=((4.5, 4.5), (8.5, 4.5), (8.5, 8.5), (4.5, 8.5)), level=1))
    win, d = make_editor(replace(root, sides=(high,)))
    win.scenario_dock.raise_()
    p = win.scenario_panel
    p.tabs.setCurrentIndex(1)
    QApplication.processEvents()
    rect = p.sides.visualItemRect(p.sides.item(0))
    qtbot.mouseClick(p.sides.viewport(), LEFT, pos=rect.center())
    assert win.state.level == 1  # choosing the snipers shows their roof
    qtbot.mouseClick(p.add_side_button, LEFT)
    assert p.dep_level.value() == 0
    qtbot.mouseClick(p.draw_zone, LEFT)
    assert win.state.level == 0 and win.tool_key == "deploy"
    for x, y in ((30, 25), (36, 25), (36, 28)):
        d.click(x, y)
    d.key(Qt.Key.Key_Return)
    assert win.doc.root.sides[1].deployment.level == 0


def test_los_fan_stays_on_while_a_building_is_dragged(make_editor):
    win, d = make_editor()
    d.tool("los")
    win.fan_box.setChecked(True)
    d.click(20, 15)
    win.background.wait()
    assert len(fans(win)) == 1
    d.tool("select")
    assert len(fans(win)) == 1  # switching tools keeps it
    before = fans(win)[0]
    d.qtbot.mousePress(d.vp, LEFT, pos=d.pos(26, 7))
    d.qtbot.mouseMove(d.vp, d.pos(28, 8))
    assert fans(win) == [before]  # shown while the shed moves
    d.qtbot.mouseRelease(d.vp, LEFT, pos=d.pos(28, 8))
    assert win.doc.layout.placements[1].at == (26, 7)
    win.background.wait()
    QApplication.processEvents()
    (after,) = fans(win)
    assert after is not before and after.opacity() == 1.0  # recomputed for the moved shed
    win.fan_box.setChecked(False)
    assert fans(win) == []
    win.fan_box.setChecked(True)
    win.background.wait()
    assert len(fans(win)) == 1
    d.tool("los")  # the LOS tool takes its fan back: still one
    win.background.wait()
    assert len(fans(win)) == 1 and win.tool.origin == (20, 15, 0)


def _window_editor(win, d):
    d.click(13.5, 7.0)  # the house's east window, default class
    assert win.state.selection == FeatureRef("house", 0, "windows", 0)
    return win.properties.findChildren(ClassEditor)[0]


def test_barrier_editor_default_explicit_and_typing(make_editor, qtbot):
    win, d = make_editor()
    ed = _window_editor(win, d)
    assert ed.combo.currentIndex() == 0 and ed.value() is None
    # no greyed "barrier 0 / armor 0" for the default: the default says what it is
    assert not ed.barrier.isVisible() and not ed.armor.isVisible()
    assert "standard" in ed.combo.itemText(0) and "6" in ed.combo.itemText(0)
    # explicit starts at the class it replaces: a standard window, barrier 6 armor 0
    ed.combo.setCurrentText(EXPLICIT)
    win_cls = lambda: win.doc.layout.sheets[0].level(0).windows[0].cls  # noqa: E731
    assert win_cls() == Barrier(6, 0)
    assert ed.barrier.isVisible() and ed.barrier.value() == 6
    seen = []
    win.doc.changed.connect(lambda: seen.append(win_cls()))
    n = win.doc.undo_stack.count()
    ed.barrier.setFocus()
    ed.barrier.lineEdit().selectAll()
    qtbot.keyClicks(ed.barrier, "10")
    qtbot.keyClick(ed.barrier, Qt.Key.Key_Return)
    assert win_cls() == Barrier(10, 0)
    assert Barrier(1, 0) not in seen  # never briefly barrier 1
    assert win.doc.undo_stack.count() == n + 1  # one undo step
    win.undo_action.trigger()
    assert win_cls() == Barrier(6, 0)


def test_explicit_wall_starts_at_the_sheet_default(make_editor):
    from dataclasses import replace

    lib = samples.library()
    lib["house"] = replace(lib["house"], defaults=replace(lib["house"].defaults, wall="thick"))
    win, d = make_editor(library=lib)
    d.click(8.5, 7.0)  # the inner wall, default class (the sheet says thick)
    ed = win.properties.findChildren(ClassEditor)[0]
    ed.combo.setCurrentText(EXPLICIT)
    wall = next(s for s in win.doc.layout.sheets if s.id == "house").level(0).walls[1]
    assert wall.cls == Barrier(18, 3)


def test_cut_piece_drops_in_the_orientation_it_was_cut_in(make_editor):
    from dataclasses import replace

    root = samples.scenario()
    lay = root.layout
    turned = replace(lay.placements[0], rotation=90)
    win, d = make_editor(replace(root, layout=replace(lay, placements=(turned,
                                                                       lay.placements[1]))))
    r = next(x for x in win.doc.resolved() if not x.pavement and x.index == 0)
    x0, y0, x1, y1 = r.footprint.bounds
    d.tool("cut")
    for x, y in ((x0, y0), (x1, y0), (x1, y0 + 4), (x0, y0 + 4)):
        d.click(x, y)
    d.key(Qt.Key.Key_Return)
    (piece,) = win.doc.layout.pieces
    item = win.library.item_for(f"piece:{piece.id}")
    rect = win.library.list.visualItemRect(item)
    d.qtbot.mouseClick(win.library.list.viewport(), LEFT, pos=rect.center())
    d.hover(30.0, 22.0)
    d.click(30.0, 22.0)
    pl = win.doc.layout.placements[-1]
    assert (pl.piece, pl.rotation, pl.mirror) == (piece.id, 90, False)
    placed = next(x for x in win.doc.resolved() if not x.pavement and x.index == 2)
    bx = placed.footprint.bounds
    # as cut: as wide as the turned house (8 dots), 4 dots deep
    assert (bx[2] - bx[0], bx[3] - bx[1]) == (x1 - x0, 4.0)


def test_objective_and_deploy_refuse_dots_nobody_can_stand_on(make_editor):
    win, d = make_editor()
    win.state.set_level(1)  # the house's upper floor; the street has no level 1
    d.tool("objective")
    d.click(30, 24)
    assert win.doc.root.objectives == ()
    assert "nobody can stand" in win.hint_label.text()
    assert win.warnings and "nobody can stand" in win.warnings[-1]
    d.click(6, 6)  # inside the house, upstairs: fine
    assert win.doc.root.objectives[0].at == (6, 6, 1)
    d.tool("deploy")
    for x, y in ((29.5, 23.5), (33.5, 23.5), (33.5, 26.5)):
        d.click(x, y)
    d.key(Qt.Key.Key_Return)
    assert all(s.deployment is None for s in win.doc.root.sides)
    assert "nobody can stand" in win.hint_label.text()


def test_path_labels_thin_out_and_a_path_beyond_the_mp_looks_different(make_editor):
    win, d = make_editor()
    d.tool("move")
    win.mp_box.setValue(6)
    d.click(2, 2)
    win.view.set_zoom(8.0, (15.0, 12.0))
    d.hover(2, 22)
    labels = [it for it in win.tool._overlay if isinstance(it, LabelItem)]
    steps = len(win.tool.path.steps)
    assert steps >= 19
    # at 8 px per dot a label every third step: readable, not a strip
    assert 0 < len(labels) <= steps // 3 + 1
    ys = sorted(win.view.mapFromScene(it.pos()).y() for it in labels)
    assert min(b - a for a, b in zip(ys, ys[1:], strict=False)) >= 16
    assert labels[-1].text() == str(win.tool.path.cost)  # the total is always shown
    # the part beyond the chosen 6 MP is drawn dashed red, the part within solid blue
    paths = [it for it in win.tool._overlay if isinstance(it, QGraphicsPathItem)]
    styles = {(it.pen().color().name(), it.pen().style()) for it in paths}
    assert ("#1e90ff", Qt.PenStyle.SolidLine) in styles
    assert ("#ff3030", Qt.PenStyle.DashLine) in styles
    assert "beyond the 6 MP" in win.hint_label.text()
    win.view.set_zoom(30.0, (3.0, 12.0))
    labels = [it for it in win.tool._overlay if isinstance(it, LabelItem)]
    assert len(labels) == steps  # close up, every step is labelled


def test_ctrl_y_redoes(make_editor):
    win, d = make_editor()
    d.click(26, 7)
    d.key(Qt.Key.Key_Right)
    assert win.doc.layout.placements[1].at == (25, 6)
    d.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.doc.layout.placements[1].at == (24, 6)
    d.key(Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert win.doc.layout.placements[1].at == (25, 6)


def test_file_opened_at_start_reaches_open_recent(qtbot, tmp_path):
    import shutil

    from editor.document import REPO

    path = tmp_path / "ambush.yaml"
    shutil.copy(REPO / "scenarios" / "street-ambush.yaml", path)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    win = MainWindow(Document.open(path), settings, recovery_dir=tmp_path / "rec",
                     scan_recovery=False)
    qtbot.addWidget(win)
    assert win.recent_files() == [str(Path(path).resolve())]
    assert [a.text() for a in win.recent_menu.actions()] == [str(Path(path).resolve())]


def test_findings_say_updating_while_recomputing(make_editor):
    win, d = make_editor()
    d.qtbot.waitUntil(lambda: not win.findings.updating.isVisible(), timeout=10000)
    d.click(26, 7)
    d.key(Qt.Key.Key_Right)
    assert win.findings.updating.isVisible()
    assert "updating" in win.findings.updating.text()
    d.qtbot.waitUntil(lambda: not win.findings.updating.isVisible(), timeout=10000)
    assert win.state.selection == PlacementRef(False, 1)
