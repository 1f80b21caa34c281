"""A picture cache for items turned by 90 or 270 degrees.

Qt's ``DeviceCoordinateCache`` repaints a rotated item from scratch on every paint (its
comment: "if the world transform is rotated we always recreate the cache"), so a building
placed at rotation 90 was drawn feature by feature on every mouse move of a drag, once per
view.  This keeps, per view, one pixmap of the item at the view's scale and turn, and blits
it; moving the item by whole pixels (every drag step: the building follows the mouse in
whole dots) reuses it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPixmap, QTransform

#: a bigger picture (pixels) is not cached: it is painted directly
MAX_PIXELS = 4_000_000


def turned(tf: QTransform) -> bool:
    """Whether Qt's own device cache gives up on ``tf`` (any rotation)."""
    return abs(tf.m12()) > 1e-9 or abs(tf.m21()) > 1e-9


class TurnedCache:
    def __init__(self) -> None:
        self._pix: dict[int, tuple[Hashable, QPixmap, QPointF]] = {}

    def clear(self) -> None:
        self._pix.clear()

    def paint(self, painter: QPainter, widget, rect: QRectF, state: Hashable,
              draw: Callable[[QPainter], None]) -> None:
        """Paint ``draw`` (the item's own painting, ``rect`` its bounds) through a cached
        picture; ``state`` names what the picture shows (flags that change it)."""
        wt = painter.worldTransform()
        ix, iy = math.floor(wt.dx()), math.floor(wt.dy())
        local = QTransform(wt.m11(), wt.m12(), wt.m21(), wt.m22(), wt.dx() - ix, wt.dy() - iy)
        box = local.mapRect(rect).toAlignedRect()
        if box.width() * box.height() > MAX_PIXELS or box.isEmpty():
            draw(painter)
            return
        dpr = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        key = (round(local.m11(), 6), round(local.m12(), 6), round(local.m21(), 6),
               round(local.m22(), 6), round(local.dx(), 3), round(local.dy(), 3), dpr, state)
        slot = id(widget)
        hit = self._pix.get(slot)
        if hit is None or hit[0] != key:
            pix = QPixmap(math.ceil(box.width() * dpr), math.ceil(box.height() * dpr))
            pix.setDevicePixelRatio(dpr)
            pix.fill(Qt.GlobalColor.transparent)
            p = QPainter(pix)
            p.setRenderHints(painter.renderHints())
            p.setTransform(local * QTransform.fromTranslate(-box.x(), -box.y()))
            draw(p)
            p.end()
            hit = (key, pix, QPointF(box.x(), box.y()))
            self._pix[slot] = hit
        painter.save()
        painter.resetTransform()
        painter.drawPixmap(QPointF(ix, iy) + hit[2], hit[1])
        painter.restore()
