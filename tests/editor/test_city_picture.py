"""Issue 11, the editor on a city: zoomed out, the board is shown from a tiled picture, so a
zoom step draws no building again; an edit shows at the next paint, and a tile that no longer
matches the board is never shown."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage

from benchmarks.neighbourhood import neighbourhood, scenario
from editor import edits
from editor.canvas import city_picture
from editor.canvas.items import PlacementItem
from editor.edits import PlacementRef

FAR = 2.0  # px a dot: below city_picture.FAR_PX


def _pixels(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_RGB32)
    a = np.frombuffer(img.constBits(), dtype=np.uint8)
    return a.reshape(img.height(), img.bytesPerLine())[:, :img.width() * 4].reshape(
        img.height(), img.width(), 4)[..., :3].astype(int).copy()


def _grab(win) -> np.ndarray:
    """What the canvas shows, through its own paint event (as on screen)."""
    return _pixels(win.view.viewport().grab().toImage())


@pytest.fixture
def city(make_editor, qtbot):
    lay, sheets = neighbourhood(seed=5, blocks=3)
    win, _d = make_editor(root=scenario(lay), library=sheets)
    win.overview_dock.close()
    win.view.set_zoom(FAR, (45.0, 45.0))
    _grab(win)
    pic = win.scene.city_picture
    qtbot.waitUntil(lambda: pic.active and pic.complete(), timeout=60000)
    return win, pic


def _count_draws(monkeypatch) -> list[int]:
    drawn = [0]
    real = PlacementItem._draw

    def counted(self, *a, **k):
        drawn[0] += 1
        return real(self, *a, **k)
    monkeypatch.setattr(PlacementItem, "_draw", counted)
    return drawn


def test_zoom_steps_far_out_draw_no_building_again(city, monkeypatch):
    win, pic = city
    assert pic._cols * pic._rows >= 4  # several tiles
    tiles = pic.drawn
    drawn = _count_draws(monkeypatch)
    for factor in (1.2, 1.2, 0.8, 0.8, 0.8):
        win.view.zoom_by(factor)
        _grab(win)
    assert win.view.zoom() < city_picture.FAR_PX
    assert drawn[0] == 0 and pic.drawn == tiles
    # zoomed in past the threshold, the buildings paint themselves again, from Qt's cache
    win.view.set_zoom(8.0, (45.0, 45.0))
    _grab(win)
    assert not pic.active and drawn[0] > 0


def _box(win, rect: QRectF) -> tuple[int, int, int, int]:
    """The viewport pixels (x0, y0, x1, y1) of a board rectangle."""
    box = win.view.mapFromScene(rect).boundingRect()
    return box.left(), box.top(), box.right(), box.bottom()


def _assert_as_drawn_directly(win, pic, shown: np.ndarray, where: QRectF) -> None:
    """Around a building that moved, the canvas shows what the buildings paint without any
    picture (no tile showing it where it was): compared with a paint of the board with
    every tile stale (nothing from the picture)."""
    assert pic._stale
    keep = dict(pic._tiles)
    pic.invalidate(pic.boundingRect())
    direct = _grab(win)
    x0, y0, x1, y1 = _box(win, where)
    assert x1 - x0 > 20 and y1 - y0 > 20
    # the same to antialiasing (a clipped paint may round a level or two differently);
    # a stale tile shown would put a building where there is none (levels of 100 and more)
    assert np.abs(shown[y0:y1, x0:x1] - direct[y0:y1, x0:x1]).max() <= 4
    # back as it was (the tiles are still right for everything outside the stale ones)
    for k, images in keep.items():
        pic._tiles[k] = images
        pic._stale.discard(k)
    pic._quiet(pic.boundingRect())


def test_a_move_far_out_shows_at_once_and_no_stale_tile_is_shown(city, qtbot):
    win, pic = city
    doc = win.doc
    r = next(r for r in doc.resolved() if not r.pavement)
    ref = PlacementRef(False, r.index)
    before = _grab(win)
    doc.edit_layout(edits.set_placement(doc.layout, ref, edits.nudge(r.placement, 4, 0)),
                    "move")
    x0, y0, x1, y1 = r.footprint.bounds
    where = QRectF(x0 - 1, y0 - 1, x1 - x0 + 6, y1 - y0 + 2)  # where it was and is
    moved = _grab(win)  # no turn of the event loop: the tiles under it are not redrawn yet
    assert np.abs(moved - before).max() > 100
    _assert_as_drawn_directly(win, pic, moved, where)
    doc.undo_stack.undo()
    undone = _grab(win)
    _assert_as_drawn_directly(win, pic, undone, where)
    # the picture catches up in the background and then shows the board as before the move
    qtbot.waitUntil(pic.complete, timeout=30000)
    again = _grab(win)
    assert np.abs(again - before).max() == 0


def test_the_picture_shows_what_the_buildings_paint(city):
    """Zoomed out, the tiles (drawn at FAR_PX and scaled) look like the buildings painted
    straight at the view's scale: every pixel within a few levels, most identical."""
    win, pic = city
    shown = _grab(win)
    pic.invalidate(pic.boundingRect())
    direct = _grab(win)
    d = np.abs(shown - direct).max(axis=2)
    assert d.mean() < 3.0 and (d > 60).mean() < 0.01


def test_the_status_bar_says_while_the_picture_is_drawn(city, qtbot, monkeypatch):
    win, pic = city
    assert win.picture_label.isHidden()
    monkeypatch.setattr(city_picture, "SLICE_MS", 0)  # a tile a turn: progress to see
    pic.invalidate(pic.boundingRect())
    qtbot.waitUntil(lambda: not win.picture_label.isHidden(), timeout=30000)
    assert win.picture_label.text().startswith("drawing the board ")
    qtbot.waitUntil(pic.complete, timeout=30000)
    assert win.picture_label.isHidden()
