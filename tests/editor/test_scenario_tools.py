"""Scenario authoring on the canvas: deployment zones and objectives."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

from editor.scenario_edits import ObjectiveRef, SideRef
from engine.model import Deployment, Objective


def test_deploy_zone_and_objective(make_editor):
    win, d = make_editor()
    assert win.side_box.currentText() == "(new side)"
    d.tool("deploy")
    for x, y in ((0.4, 0.6), (5.5, 0.5), (5.5, 12.5)):
        d.click(x, y)
    d.key(Qt.Key.Key_Return)
    sc = win.doc.root
    assert [s.id for s in sc.sides] == ["side-1"]
    assert sc.sides[0].deployment == Deployment(
        polygon=((0.5, 0.5), (5.5, 0.5), (5.5, 12.5)), level=0)
    assert win.state.selection == SideRef(0)
    # the new side is now the tool bar's side; name it in the properties panel
    assert win.side_box.currentText() == "side-1"
    name = win.properties.findChild(QLineEdit, "side-name")
    d.qtbot.keyClicks(name, "Runners")
    assert win.doc.root.sides[0].name == "Side 1Runners"
    # an objective for that side on a dot of level 1
    win.layers.level_box.setCurrentIndex(1)
    d.tool("objective")
    d.click(8.2, 6.9)
    ob = win.doc.root.objectives[-1]
    assert ob == Objective(id="objective-1", side="side-1", kind="reach", at=(8, 7, 1))
    kind = win.properties.findChild(QComboBox, "objective-kind")
    kind.setCurrentText("hold")
    assert win.doc.root.objectives[-1].kind == "hold"
    # select it again with the select tool, then delete it
    d.tool("select")
    d.click(26.0, 7.0)
    d.click(8.0, 7.0)
    assert win.state.selection == ObjectiveRef(0)
    d.key(Qt.Key.Key_Delete)
    assert win.doc.root.objectives == ()
    # the zone's edge selects the side (on its level); Delete clears the deployment
    win.layers.level_box.setCurrentIndex(0)
    d.click(3.0, 0.5)
    assert win.state.selection == SideRef(0)
    d.key(Qt.Key.Key_Delete)
    assert win.doc.root.sides[0].deployment is None
    while win.doc.undo_stack.canUndo():
        win.undo_action.trigger()
    assert win.doc.root.sides == () and win.doc.root.objectives == ()
