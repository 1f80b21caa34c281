"""Issue 11, city scale in the editor: a zoom repaints every building from pictures it keeps,
without compiling or drawing a sheet's display list again, however many sheets the city has."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter, QPolygonF
from PySide6.QtWidgets import QApplication

from editor.canvas import display_cache
from editor.canvas import items as canvas_items
from editor.render.painter import polygon

coords = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(coords, coords), max_size=40))
def test_polygon_holds_the_points_a_pointwise_polygon_holds(points):
    slow = QPolygonF([QPointF(float(x), float(y)) for x, y in points])
    assert polygon(points) == slow
    assert polygon(np.array(points, dtype=np.float64).reshape(-1, 2)) == slow
    assert polygon(np.array(points, dtype=np.int64).reshape(-1, 2).astype(np.int32)) == \
        QPolygonF([QPointF(float(int(x)), float(int(y))) for x, y in points])


def _render(win) -> QImage:
    img = QImage(400, 300, QImage.Format.Format_ARGB32)
    img.fill(0)
    p = QPainter(img)
    win.view.render(p)
    p.end()
    return img


def test_a_zoom_compiles_and_draws_no_sheet_again_even_past_the_shared_cache(
        make_editor, monkeypatch, qtbot):
    # the shared display-list cache holds fewer sheets than the board shows, as on a city
    monkeypatch.setattr(display_cache, "_LIMIT", 1)
    display_cache._cache.clear()
    win, _d = make_editor()
    win.overview_dock.close()
    qtbot.waitUntil(lambda: win.library.waiting() == 0)  # the thumbnails compile sheets too
    _render(win)
    shown = [it for it in win.scene.placement_items.values() if it.isVisible()]
    assert len(shown) >= 3  # the pavement, the house and the shed
    work = {"compiles": 0, "drawn": 0}
    real_compile, real_paint = display_cache.compile_board, canvas_items.paint_items

    def compile_counted(*a, **k):
        work["compiles"] += 1
        return real_compile(*a, **k)

    def paint_counted(*a, **k):
        work["drawn"] += 1
        return real_paint(*a, **k)
    monkeypatch.setattr(display_cache, "compile_board", compile_counted)
    monkeypatch.setattr(canvas_items, "paint_items", paint_counted)
    for _ in range(3):
        win.view.scale(1.25, 1.25)
        QApplication.processEvents()
        _render(win)
    assert work == {"compiles": 0, "drawn": 0}
    assert work == {"compiles": 0, "drawn": 0}


def test_a_layer_switched_off_draws_the_sheets_again_without_compiling_them(
        make_editor, monkeypatch, qtbot):
    win, _d = make_editor()
    qtbot.waitUntil(lambda: win.library.waiting() == 0)
    _render(win)
    work = {"compiles": 0, "drawn": 0}
    real_compile, real_paint = display_cache.compile_board, canvas_items.paint_items

    def compile_counted(*a, **k):
        work["compiles"] += 1
        return real_compile(*a, **k)

    def paint_counted(*a, **k):
        work["drawn"] += 1
        return real_paint(*a, **k)
    monkeypatch.setattr(display_cache, "compile_board", compile_counted)
    monkeypatch.setattr(canvas_items, "paint_items", paint_counted)
    win.state.set_layer("walls", False)
    QApplication.processEvents()
    _render(win)
    shown = [it for it in win.scene.placement_items.values() if it.isVisible()]
    assert all("walls" not in it.layers for it in shown)
    assert work["compiles"] == 0 and work["drawn"] >= len(shown) >= 3
