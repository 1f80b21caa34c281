"""Overlay items the analysis tools draw: per-dot shading and labels that ignore zoom."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from engine.lattice import get_lattice


class DotShade(QGraphicsItem):
    """Colours one cell per dot.  Square lattices go through one image (one pixel per dot),
    so shading tens of thousands of dots costs a single scaled blit."""

    def __init__(self, lattice: str, dots: np.ndarray, colours: np.ndarray):
        super().__init__()
        # a picture at the screen's resolution: a drag over the fan only blits it
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
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


class LabelItem(QGraphicsItem):
    """Text on a dark plate that keeps its size at every zoom (LOS answers, MP totals)."""

    PAD = 3.0

    def __init__(self, text: str, colour: str, size: float, right: bool):
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self._text = text
        self._colour = QColor(colour)
        self._font = QFont()
        self._font.setPointSizeF(size)
        self._font.setBold(True)
        m = QFontMetricsF(self._font)
        w, h = m.horizontalAdvance(text) + 2 * self.PAD, m.height() + 2 * self.PAD
        x = -w - 14 if right else 10.0
        self._rect = QRectF(x, 6.0, w, h)
        self._ascent = m.ascent()

    def text(self) -> str:
        return self._text

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(QColor(20, 20, 24, 210)))
        painter.drawRoundedRect(self._rect, 3, 3)
        painter.setFont(self._font)
        painter.setPen(QPen(self._colour))
        painter.drawText(QPointF(self._rect.left() + self.PAD,
                                 self._rect.top() + self.PAD + self._ascent), self._text)


def text_item(text: str, at: QPointF, colour: str = "#ffffff", size: float = 9.0,
              right: bool = False) -> LabelItem:
    """A label just below-right of ``at`` (below-left with ``right``, for targets near the
    right edge of the view)."""
    item = LabelItem(text, colour, size, right)
    item.setPos(at)
    return item
