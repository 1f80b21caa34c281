"""Sheet mode: a mapsheet edited on its own with the same tools."""

from __future__ import annotations

import samples
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QSpinBox

from editor.main_window import blank_sheet
from engine.model import Sheet


def test_edit_sheet_with_the_same_tools(make_editor):
    win, d = make_editor(samples.house(), library={}, centre=(5.0, 4.0))
    assert win.doc.mode == "sheet" and "sheet" in win.windowTitle()
    assert win.library.list.count() == 0
    d.tool("wall")
    d.click(0.5, 3.5)
    d.click(3.5, 3.5)
    d.key(Qt.Key.Key_Return)
    d.tool("hole")
    d.click(2.0, 3.5)
    root = win.doc.root
    assert isinstance(root, Sheet)
    assert root.level(0).walls[-1].path == ((0.5, 3.5), (3.5, 3.5))
    assert root.level(0).holes[-1].span == ((1.5, 3.5), (2.5, 3.5))
    # placements cannot be dragged in sheet mode
    d.tool("select")
    d.drag((6.0, 2.0), (10.0, 2.0))
    assert win.doc.root is root
    # the LOS tool works on the sheet alone: the new wall blocks
    d.tool("los")
    d.click(2.0, 2.0)
    d.hover(2.0, 5.0)
    assert win.tool.facts.blocked is False  # through the hole
    d.hover(1.0, 5.0)
    assert win.tool.facts.blocked and win.tool.facts.blocked_by["feature"] == "sheet/wall-1"


def test_new_sheet_id_and_size(make_editor):
    win, d = make_editor(blank_sheet("building"), library={})
    ident = win.properties.findChild(QLineEdit, "sheet-id")
    ident.setText("corner-shop")
    ident.editingFinished.emit()
    assert win.doc.root.id == "corner-shop"
    cols = [s for s in win.properties.findChildren(QSpinBox) if s.value() == 16][0]
    cols.setValue(20)
    assert win.doc.root.size == (20, 12)
    assert win.doc.root.outline[1] == (19.5, -0.5)
    # a bad id is refused
    ident = win.properties.findChild(QLineEdit, "sheet-id")
    ident.setText("Bad Id!")
    ident.editingFinished.emit()
    assert win.doc.root.id == "corner-shop"
