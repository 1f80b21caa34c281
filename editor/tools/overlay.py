"""Overlay items the analysis tools draw: per-dot shading and labels that ignore zoom."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem

from engine.lattice import get_lattice


class DotShade(QGraphicsItem):
    """Colours one cell per dot.  Square lattices go through one image (one pixel per dot),
    so shading tens of thousands of dots costs a single scaled blit."""

    def __init__(self, lattice: str, dots: np.ndarray, colours: np.ndarray):
        super().__init__()
        self.lattice = get_lattice(lattice)
        self.dots = np.asarray(dots, dtype=int).reshape(-1, 2)
        self.colours = np.asarray(colours, dtype=np.uint8).reshape(-1, 4)  # RGBA
        self._image: QImage | None = None
        if len(self.dots):
            c0, r0 = self.dots.min(axis=0)
            c1, r1 = self.dots.max(axis=0)
            self._origin = (int(c0), int(r0))
            self._rect = QRectF(c0 - 1, r0 - 1, c1 - c0 + 3, r1 - r0 + 3)
            if self.lattice.name == "square":
                w, h = int(c1 - c0 + 1), int(r1 - r0 + 1)
                buf = np.zeros((h, w, 4), dtype=np.uint8)
                buf[self.dots[:, 1] - r0, self.dots[:, 0] - c0] = self.colours
                self._buf = np.ascontiguousarray(buf)
                self._image = QImage(self._buf.data, w, h, 4 * w,
                                     QImage.Format.Format_RGBA8888)
        else:
            self._rect = QRectF()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not len(self.dots):
            return
        if self._image is not None:
            c0, r0 = self._origin
            target = QRectF(c0 - 0.5, r0 - 0.5, self._image.width(), self._image.height())
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
            painter.drawImage(target, self._image)
            return
        painter.setPen(Qt.PenStyle.NoPen)
        for (c, r), (red, g, b, a) in zip(self.dots, self.colours, strict=False):
            painter.setBrush(QBrush(QColor(int(red), int(g), int(b), int(a))))
            x, y = self.lattice.point((int(c), int(r)))
            painter.drawEllipse(QPointF(x, y), 0.45, 0.45)


def text_item(text: str, at: QPointF, colour: str = "#ffffff", bg: str | None = "#202020",
              size: float = 9.0) -> QGraphicsSimpleTextItem:
    item = QGraphicsSimpleTextItem(text)
    item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
    f = item.font()
    f.setPointSizeF(size)
    f.setBold(True)
    item.setFont(f)
    item.setBrush(QBrush(QColor(colour)))
    if bg:
        item.setPen(QPen(QColor(bg), 0.6))
    item.setPos(at)
    return item
