"""The editor canvas and the exported picture come from one display list and one style table:
the same feature shows the same colour in both."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import samples
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from engine.export import export
from engine.model import Deployment, Objective, Side
from engine.render import style
from engine.render.display import build_scene
from tests.scenario.test_export import read_png

PX = 32  # the PNG export's pixels per dot

# (what, world point) away from grid dots and labels; the house stands at (4, 4)
SPOTS = [
    ("pavement", (30.6, 3.4)),
    ("house floor", (6.6, 6.4)),
    ("thick west wall", (3.5, 6.6)),
    ("closed front door", (6.0, 11.5)),
    ("closed east window", (13.5, 7.0)),
    ("wrecked car (obstacle)", (19.6, 17.2)),
    ("kerb (low wall)", (7.4, 20.5)),
    ("oak canopy", (28.8, 18.8)),
    ("oak trunk", (30.1, 20.1)),
    ("runners' deployment", (1.4, 25.6)),
    ("guards' deployment", (35.3, 29.2)),
    ("objective ring", (20.0 + 0.42, 24.0)),
]


def editor_image(win, box) -> np.ndarray:
    x0, y0, x1, y1 = box
    w, h = round((x1 - x0) * PX), round((y1 - y0) * PX)
    img = QImage(w, h, QImage.Format.Format_RGB888)
    img.fill(QColor(style.PAPER))
    p = QPainter(img)
    win.scene.render(p, QRectF(0, 0, w, h), QRectF(x0, y0, x1 - x0, y1 - y0))
    p.end()
    raw = np.frombuffer(bytes(img.constBits()), dtype=np.uint8).reshape(h, img.bytesPerLine())
    return raw[:, :w * 3].reshape(h, w, 3).astype(int)


def test_canvas_and_png_export_show_each_feature_in_the_same_colour(make_editor, tmp_path):
    sc = replace(samples.scenario(),
                 sides=(Side("runners", "Runners", Deployment(edge="west", depth=3)),
                        Side("guards", "Guards", Deployment(polygon=samples.box(
                            34.5, 22.5, 39.5, 29.5)))),
                 objectives=(Objective("grab", "runners", "reach", at=(20, 24, 0)),))
    win, _ = make_editor(sc)
    board = win.doc.board()
    (png,) = [p for p in export(win.doc.scenario(), board, "png", tmp_path / "m.png",
                                force=True) if p.name == "m.png"]
    out = read_png(png.read_bytes()).astype(int)
    cx0, cy0, _, _ = build_scene(board, win.doc.scenario(), 0).canvas
    box = board.bounds
    ed = editor_image(win, box)

    def at(img, ox, oy, x, y):
        return img[int((y - oy) * PX), int((x - ox) * PX)]

    seen = set()
    for what, (x, y) in SPOTS:
        a = at(ed, box[0], box[1], x, y)
        b = at(out, cx0, cy0, x, y)
        assert np.abs(a - b).max() <= 8, (what, a.tolist(), b.tolist())
        seen.add(tuple(b.tolist()))
    assert len(seen) >= 9  # the spots really are different features
    # and the colours are the style table's: the wall is ink, the runners' zone is side 1 tint
    assert np.abs(at(ed, box[0], box[1], 3.5, 6.6) - style.rgb(style.INK)).max() <= 8
    pav = np.array(style.rgb(style.PAVEMENT))
    blue = np.array(style.rgb(style.side_colour(0)))
    tint = pav + 0.14 * (blue - pav)
    assert np.abs(at(ed, box[0], box[1], 1.4, 25.6) - tint).max() <= 4
