"""Small previews for the export dialog: a picture of a level, or the PDF overview of a level
with its tiles (the printed ones outlined, the blank ones greyed)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen

from editor.render.painter import paint_items
from editor.render.raster import ensure_app, render_image
from engine.export.pdf import PAPERS, level_tiling, printed_tiles
from engine.render import style
from engine.render.display import Scene


def picture_preview(sc: Scene, size: int, map_only: bool = False) -> QImage:
    """The level's picture (with its frame unless ``map_only``) fitted into ``size`` pixels."""
    x0, y0, x1, y1 = sc.map_box if map_only else sc.canvas
    return render_image(sc, size / max(x1 - x0, y1 - y0), map_only=map_only)


def page_preview(sc: Scene, paper: str, dot_mm: float, size: int) -> QImage:
    """The level's map on a sheet of ``paper`` proportions, the tile grid over it."""
    ensure_app()
    t = level_tiling(sc, paper, dot_mm)
    keep = set(printed_tiles(sc, t, dot_mm))
    pw, ph = PAPERS[paper]
    x0, y0, x1, y1 = sc.map_box
    if (x1 - x0 > y1 - y0) != (pw > ph):
        pw, ph = ph, pw
    k = size / max(pw, ph)
    img = QImage(round(pw * k), round(ph * k), QImage.Format.Format_RGB32)
    img.fill(QColor(style.PAPER))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    margin = 10 * k
    fit = min((img.width() - 2 * margin) / (x1 - x0), (img.height() - 2 * margin) / (y1 - y0))
    p.translate(margin, margin)
    p.scale(fit, fit)
    p.translate(-x0, -y0)
    p.setClipRect(QRectF(x0, y0, x1 - x0, y1 - y0))
    paint_items(p, sc.items)
    p.setClipping(False)
    sx, sy = (v / dot_mm for v in t.step_mm)
    aw, ah = (v / dot_mm for v in t.area_mm)
    pen = QPen(QColor("#b02020"), 0)
    pen.setCosmetic(True)
    pen.setStyle(Qt.PenStyle.DashLine)
    for j in range(t.rows):
        for i in range(t.cols):
            r = QRectF(x0 + i * sx, y0 + j * sy, min(aw, x1 - x0 - i * sx),
                       min(ah, y1 - y0 - j * sy))
            if (i, j) in keep:
                p.setPen(pen)
                p.setBrush(Qt.BrushStyle.NoBrush)
            else:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QBrush(QColor(200, 200, 200, 150)))
            p.drawRect(r)
    p.end()
    return img


__all__ = ["page_preview", "picture_preview"]
