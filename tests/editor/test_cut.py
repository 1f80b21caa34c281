"""Cutting a piece out of a building and placing it like a sheet."""

from __future__ import annotations

from PySide6.QtCore import Qt

from editor.edits import PlacementRef
from engine.model import Piece


def test_cut_then_place_piece(make_editor):
    win, d = make_editor()
    d.tool("cut")
    # the west room of the house: sheet x -0.5..4.5 = world 3.5..8.5
    for x, y in ((3.4, 3.6), (8.5, 3.5), (8.6, 11.4), (3.5, 11.5)):
        d.click(x, y)
    d.key(Qt.Key.Key_Return)
    assert win.doc.layout.pieces == (Piece(
        id="house-cut-1", sheet="house",
        polygon=((-0.5, -0.5), (4.5, -0.5), (4.5, 7.5), (-0.5, 7.5))),)
    from PySide6.QtWidgets import QFormLayout

    form = win.properties.widget().findChild(QFormLayout)
    rows = {form.itemAt(i, QFormLayout.ItemRole.LabelRole).widget().text():
            form.itemAt(i, QFormLayout.ItemRole.FieldRole).widget()
            for i in range(form.rowCount())
            if form.itemAt(i, QFormLayout.ItemRole.LabelRole) is not None}
    assert rows["Pieces"].text() == "1"
    item = win.library.item_for("piece:house-cut-1")
    assert item is not None and "cut of house" in item.text()
    rect = win.library.list.visualItemRect(item)
    d.qtbot.mouseClick(win.library.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    d.hover(30.0, 20.0)
    d.click(30.0, 20.0)
    pl = win.doc.layout.placements[-1]
    assert (pl.sheet, pl.piece) == ("house", "house-cut-1")
    r = next(x for x in win.doc.resolved() if not x.pavement and x.index == 2)
    # the piece (5 x 8 cells, centre (2, 3.5) in its sheet) sits centred on the click: only
    # the piece, not the whole sheet; the half dot rounds up
    assert r.footprint.area == 40.0
    assert r.footprint.bounds == (27.5, 16.5, 32.5, 24.5)
    assert win.doc.problems() == {}
    # the feature drawing is clipped to the piece
    item = win.scene.placement_items[(False, 2)]
    assert item.shape().boundingRect().width() == 5.0
    # rotating a piece turns it about its own centre (30, 20.5), to the nearest whole dot
    d.key(Qt.Key.Key_R)
    r = next(x for x in win.doc.resolved() if not x.pavement and x.index == 2)
    c = r.footprint.centroid
    assert abs(c.x - 30.0) <= 0.5 and abs(c.y - 20.5) <= 0.5
    assert r.footprint.bounds[2] - r.footprint.bounds[0] == 8.0
    assert win.state.selection == PlacementRef(False, 2)


def test_cut_needs_a_building(make_editor):
    win, d = make_editor()
    d.tool("cut")
    d.click(30.5, 25.5)
    assert "Nothing to draw on" in win.hint_label.text()
    assert win.tool.points == []
