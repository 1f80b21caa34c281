"""One small symbol per objective kind, drawn in the side's colour on the canvas and in lists.

The symbols themselves are display-list primitives (:func:`engine.render.display.objective_icon`),
so the canvas, the lists and every export draw the same shapes.

reach: a flag; hold: a shield; retrieve: a case; eliminate: cross-hairs; exit: an arrow out;
protect: a ring with a dot (the person to keep alive); a side (in lists) is a plain disc.  The symbols are drawn with plain
painter calls in a box of half-size ``r`` about ``c`` so they scale with the zoom.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPen, QPixmap

from editor.render import paint_items
from engine.render.display import objective_icon


def draw(painter: QPainter, kind: str, c: QPointF, r: float, colour: QColor) -> None:
    """The symbol of ``kind`` on a white disc with a ring of ``colour``."""
    if kind == "side":  # a side in lists: a disc of its colour
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(colour, r * 0.16))
        painter.setBrush(QBrush(QColor(255, 255, 255, 235)))
        painter.drawEllipse(c, r, r)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(colour))
        painter.drawEllipse(c, r * 0.51, r * 0.51)
        painter.restore()
        return
    painter.save()
    paint_items(painter, objective_icon(kind, c.x(), c.y(), r, colour.name()))
    painter.restore()


def icon(kind: str, colour: QColor, size: int = 20) -> QIcon:
    """The symbol as an icon for lists and menus."""
    pm = QPixmap(size, size)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    draw(p, kind, QPointF(size / 2, size / 2), size / 2 - 1.5, colour)
    p.end()
    return QIcon(pm)
