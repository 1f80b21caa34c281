"""Issue 11, city scale in the editor: a zoom repaints every building from pictures it keeps,
without compiling or drawing a sheet's display list again, however many sheets the city has."""

from __future__ import annotations

import dataclasses

import numpy as np
import samples
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter, QPolygonF
from PySide6.QtWidgets import QApplication

from benchmarks.neighbourhood import neighbourhood, scenario
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


def _counted(monkeypatch) -> dict[str, int]:
    """From now on, count the sheets compiled for display and the display lists drawn."""
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
    return work


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
    work = _counted(monkeypatch)
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
    work = _counted(monkeypatch)
    win.state.set_layer("walls", False)
    QApplication.processEvents()
    _render(win)
    shown = [it for it in win.scene.placement_items.values() if it.isVisible()]
    assert all("walls" not in it.layers for it in shown)
    assert work["compiles"] == 0 and work["drawn"] >= len(shown) >= 3


def _same_items(a: list, b: list) -> None:
    """Two display lists draw the same: same primitives, styles and coordinates (to 1e-9)."""
    assert [type(x).__name__ for x in a] == [type(y).__name__ for y in b]
    for x, y in zip(a, b):
        for f in dataclasses.fields(x):
            u, v = getattr(x, f.name), getattr(y, f.name)
            if f.name == "rings":
                assert len(u) == len(v)
                for r, s in zip(u, v):
                    np.testing.assert_allclose(r, s, rtol=0, atol=1e-9)
            elif f.name in ("points", "center", "pos"):
                np.testing.assert_allclose(np.asarray(u, dtype=float),
                                           np.asarray(v, dtype=float), rtol=0, atol=1e-9)
            else:
                assert u == v, (type(x).__name__, f.name, u, v)


def test_sheets_compiled_together_draw_what_each_compiled_alone_draws(monkeypatch):
    lay, city = neighbourhood(seed=3, blocks=3)
    sheets = [*city.values(), *samples.library().values()]
    wanted = [(s, None, level) for s in sheets for level in (0, 1, 2)]
    display_cache._cache.clear()
    alone = {(id(s), lv): display_cache.sheet_items(s, None, lv) for s, _, lv in wanted}
    display_cache._cache.clear()
    work = _counted(monkeypatch)
    display_cache.prepare(wanted)
    # one board for the buildings; alone: the pavements, and the house, whose rubble is
    # hatched on lines fixed to the world's origin (moved, its hatching would shift)
    hatched = [s for s in sheets if any(a.kind == "rubble" for lv in s.levels for a in lv.areas)]
    assert [s.id for s in hatched] == ["house"]
    pavements = [s for s in sheets if s.kind == "pavement"]
    assert work["compiles"] == 1 + len(pavements) + len(hatched) == 4
    assert all(display_cache.cached(s, None, lv) for s, _, lv in wanted)
    for s, _, lv in wanted:
        _same_items(display_cache.sheet_items(s, None, lv), alone[(id(s), lv)])
    assert work["compiles"] == 4  # all were there


def test_the_first_paint_of_a_city_compiles_its_buildings_in_one_board(
        make_editor, monkeypatch, qtbot):
    lay, city = neighbourhood(seed=5, blocks=3)
    display_cache._cache.clear()
    work = _counted(monkeypatch)
    win, _d = make_editor(root=scenario(lay), library=city)
    win.view.fit()
    QApplication.processEvents()
    _render(win)
    buildings = sum(1 for r in win.doc.resolved() if not r.pavement)
    assert buildings > 15
    # the buildings together and the pavement: 2 compiles, not one a sheet
    assert work["compiles"] == 2


def test_every_building_of_a_city_stacks_under_names_zones_and_overlays(make_editor):
    # a building's stacking height grew by one per placement, so past the 45th building a
    # city's buildings covered the LOS fan (60), the zones (80), the names (90) and the
    # tools' overlays (100)
    lay, city = neighbourhood(seed=5, blocks=5)
    win, _d = make_editor(root=scenario(lay), library=city)
    buildings = [it for (pav, _), it in win.scene.placement_items.items() if not pav]
    assert len(buildings) > 60
    top = max(it.zValue() for it in buildings)
    names = [lab for lab, _ in win.scene.label_items.values()]
    assert len(names) == len(buildings)
    assert top < 55 < win.scene._scenario_item.zValue() < min(n.zValue() for n in names)
    # and in placement order among themselves, over the pavement
    order = [it.zValue() for _, it in sorted(
        (k[1], it) for k, it in win.scene.placement_items.items() if not k[0])]
    pavement = [it for (pav, _), it in win.scene.placement_items.items() if pav]
    assert order == sorted(set(order)) and max(p.zValue() for p in pavement) < min(order)
