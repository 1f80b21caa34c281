"""The main window opens with every panel and shows what is under the cursor."""

from __future__ import annotations

import samples
from PySide6.QtCore import Qt

from editor.canvas.view import CanvasView
from editor.edits import PlacementRef


def test_panels_and_library(make_editor):
    win, _ = make_editor()
    keys = [win.library.list.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(win.library.list.count())]
    # pavement first, then buildings by title
    assert keys == ["sheet:pavement-test", "sheet:house", "sheet:shed"]
    assert [win.layers.level_box.itemData(i) for i in range(win.layers.level_box.count())] == [
        0, 1, 2]
    assert win.properties_dock.isVisible() and win.findings_dock.isVisible()
    assert isinstance(win.centralWidget(), CanvasView)
    assert win.library.list.item(1).icon().availableSizes()


def test_status_bar_shows_dot_under_cursor(make_editor):
    win, d = make_editor()
    d.hover(12.2, 7.8)
    assert win.dot_label.text() == "dot 12,8 · level 0"


def test_level_switch_and_layer_toggle(make_editor):
    win, _ = make_editor()
    win.layers.level_box.setCurrentIndex(2)
    assert win.state.level == 2
    item = win.scene.placement_items[(False, 0)]
    assert item.level == 2
    win.layers.checks["walls"].setChecked(False)
    assert "walls" not in win.scene.placement_items[(False, 0)].layers


def test_findings_list_overlap(make_editor):
    sc = samples.scenario()
    from dataclasses import replace

    # put the shed inside the house
    pls = (sc.layout.placements[0], replace(sc.layout.placements[1], at=(6, 5)))
    sc = replace(sc, layout=replace(sc.layout, placements=pls))
    win, _ = make_editor(sc)
    win.findings.refresh(win.doc)
    msgs = [f["message"] for f in win.findings.findings]
    assert "house-1 overlaps shed-1" in msgs and "shed-1 overlaps house-1" in msgs
    assert win.scene.placement_items[(False, 1)].problem == "overlaps house-1"
    # double-clicking the finding selects the building
    win.findings.activated.emit(win.findings.findings[1]["where"])
    assert win.state.selection == PlacementRef(False, 1)


def test_grid_paints_dots_at_every_zoom(make_editor):
    win, _ = make_editor()
    for zoom in (2.0, 5.0, 20.0, 120.0):
        win.view.resetTransform()
        win.view.scale(zoom, zoom)
        # count near-black grid pixels on the bare canvas around the board's corner
        win.view.centerOn(-30, -30)
        img = win.view.viewport().grab().toImage()
        dark = sum(1 for x in range(0, img.width(), 2) for y in range(0, img.height(), 2)
                   if img.pixelColor(x, y).lightness() < 40)
        assert dark > 0, zoom


def test_scenario_layer_shows_deployment_and_objectives(make_editor):
    from dataclasses import replace

    from editor.canvas.scenario_item import ScenarioItem
    from engine.model import Deployment, Objective, Side

    sc = replace(samples.scenario(),
                 sides=(Side(id="runners", deployment=Deployment(edge="west", depth=3)),
                        Side(id="corp", deployment=Deployment(polygon=samples.box(30, 2, 36, 8),
                                                              level=1))),
                 objectives=(Objective(id="grab", side="runners", kind="reach", at=(20, 20, 0)),
                             Objective(id="hold", side="runners", kind="reach", at=(20, 20))))
    win, _ = make_editor(sc)
    items = [it for it in win.scene.items() if isinstance(it, ScenarioItem)]
    assert len(items) == 1
    zone = items[0].zones[0][1]
    # a band 3 dots deep along the west edge of the 40 x 30 pavement
    assert zone.boundingRect().getCoords() == (-0.5, -0.5, 2.5, 29.5)
    labels = sorted(c.text() for c in items[0].childItems())
    assert labels == ["grab, hold", "runners"]
    win.layers.level_box.setCurrentIndex(1)
    items = [it for it in win.scene.items() if isinstance(it, ScenarioItem)]
    assert [z[2] for z in items[0].zones] == ["corp"] and items[0].marks == []
    win.layers.checks["scenario"].setChecked(False)
    assert not [it for it in win.scene.items() if isinstance(it, ScenarioItem)]


def test_engine_finding_selects_and_centres(make_editor):
    win, _ = make_editor()
    win.findings.activated.emit({"placements": ["shed-1"], "dots": [[30, 20, 1]]})
    assert win.state.level == 1
    assert win.state.selection == PlacementRef(False, 1)
    c = win.view.mapToScene(win.view.viewport().rect().center())
    assert abs(c.x() - 30) < 1 and abs(c.y() - 20) < 1
