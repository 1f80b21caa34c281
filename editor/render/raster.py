"""PNG pictures of display-list scenes, drawn with QPainter on a QImage; works headless.

When no Qt application exists yet one is created; without a display (no ``DISPLAY`` or
``WAYLAND_DISPLAY``) the offscreen platform is chosen first, so ``sprawlmap export`` runs on a
server.
"""

from __future__ import annotations

import math
import os
import sys

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter
from PySide6.QtWidgets import QApplication

from editor.render.painter import paint_items
from engine.render import style
from engine.render.backend import register_raster
from engine.render.display import Scene

_app = None


def ensure_app() -> None:
    """A Qt application for fonts and images (offscreen when there is no display).

    A widgets application, so a process that later opens windows (tests, the editor) can."""
    global _app
    if QGuiApplication.instance() is not None:
        return
    if not os.environ.get("QT_QPA_PLATFORM") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            or sys.platform in ("win32", "darwin")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    _app = QApplication(sys.argv[:1])


def render_image(sc: Scene, px_per_dot: float, map_only: bool = False,
                 box: tuple[float, float, float, float] | None = None) -> QImage:
    """The scene (or only its map, or any ``box`` of it) as an RGB image."""
    ensure_app()
    x0, y0, x1, y1 = box or (sc.map_box if map_only else sc.canvas)
    w = max(1, math.ceil((x1 - x0) * px_per_dot - 1e-6))
    h = max(1, math.ceil((y1 - y0) * px_per_dot - 1e-6))
    img = QImage(w, h, QImage.Format.Format_RGB32)
    img.fill(QColor(style.PAPER))
    p = QPainter(img)
    p.scale(px_per_dot, px_per_dot)
    p.translate(-x0, -y0)
    mx0, my0, mx1, my1 = sc.map_box
    p.save()
    p.setClipRect(_rect(mx0, my0, mx1, my1))
    paint_items(p, sc.items)
    p.restore()
    if not map_only:
        paint_items(p, sc.frame)
    p.end()
    return img


def _rect(x0: float, y0: float, x1: float, y1: float):
    from PySide6.QtCore import QRectF

    return QRectF(x0, y0, x1 - x0, y1 - y0)


def png_bytes(img: QImage, dpi: float | None = None) -> bytes:
    if dpi:
        dpm = round(dpi / 0.0254)
        img.setDotsPerMeterX(dpm)
        img.setDotsPerMeterY(dpm)
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.convertToFormat(QImage.Format.Format_RGB888).save(buf, "PNG")
    buf.close()
    return bytes(data.data())


class QtRaster:
    """The engine's raster backend (see :mod:`engine.render.backend`)."""

    def png(self, scene: Scene, px_per_dot: float, map_only: bool = False,
            dpi: float | None = None, box: tuple[float, float, float, float] | None = None
            ) -> bytes:
        return png_bytes(render_image(scene, px_per_dot, map_only, box), dpi)


def install() -> None:
    register_raster(QtRaster())


__all__ = ["QtRaster", "ensure_app", "install", "png_bytes", "render_image"]
