"""One small symbol per objective kind, drawn in the side's colour on the canvas and in lists.

reach: a flag; hold: a shield; retrieve: a case; eliminate: cross-hairs; exit: an arrow out;
protect: a ring with a dot (the person to keep alive); a side (in lists) is a plain disc.  The symbols are drawn with plain
painter calls in a box of half-size ``r`` about ``c`` so they scale with the zoom.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF


def draw(painter: QPainter, kind: str, c: QPointF, r: float, colour: QColor) -> None:
    """The symbol of ``kind`` on a white disc with a ring of ``colour``."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(QPen(colour, r * 0.16))
    painter.setBrush(QBrush(QColor(255, 255, 255, 235)))
    painter.drawEllipse(c, r, r)
    ink = QPen(colour.darker(130), r * 0.14)
    ink.setCapStyle(Qt.PenCapStyle.RoundCap)
    ink.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(ink)
    painter.setBrush(QBrush(colour))
    x, y, s = c.x(), c.y(), r * 0.6

    def pt(dx: float, dy: float) -> QPointF:
        return QPointF(x + dx * s, y + dy * s)

    if kind == "reach":  # a flag on a pole
        painter.drawLine(pt(-0.55, 0.9), pt(-0.55, -0.9))
        painter.drawPolygon(QPolygonF([pt(-0.55, -0.9), pt(0.8, -0.5), pt(-0.55, -0.05)]))
    elif kind == "hold":  # a shield
        path = QPainterPath(pt(0, -0.95))
        path.lineTo(pt(0.8, -0.6))
        path.quadTo(pt(0.75, 0.45), pt(0, 0.95))
        path.quadTo(pt(-0.75, 0.45), pt(-0.8, -0.6))
        path.closeSubpath()
        painter.drawPath(path)
    elif kind == "retrieve":  # a case with a handle
        painter.drawRect(QRectF(pt(-0.85, -0.35), pt(0.85, 0.75)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(pt(-0.3, -0.75), pt(0.3, -0.35)))
    elif kind == "eliminate":  # cross-hairs
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(c, s * 0.6, s * 0.6)
        for a, b in (((0, -1), (0, -0.3)), ((0, 0.3), (0, 1)), ((-1, 0), (-0.3, 0)),
                     ((0.3, 0), (1, 0))):
            painter.drawLine(pt(*a), pt(*b))
    elif kind == "exit":  # an arrow leaving through a bar
        painter.drawLine(pt(0.85, -0.9), pt(0.85, 0.9))
        painter.drawLine(pt(-0.85, 0), pt(0.35, 0))
        painter.drawPolygon(QPolygonF([pt(0.6, 0), pt(0.05, -0.5), pt(0.05, 0.5)]))
    elif kind == "protect":  # a ring around a person
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(c, s * 0.95, s * 0.95)
        painter.setBrush(QBrush(colour))
        painter.drawEllipse(pt(0, -0.25), s * 0.25, s * 0.25)
        painter.drawPie(QRectF(pt(-0.5, 0.1), pt(0.5, 1.1)), 0, 180 * 16)
    elif kind == "side":  # a side in lists: a disc of its colour
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawEllipse(c, s * 0.85, s * 0.85)
    else:  # unknown kind: a plain diamond
        painter.drawPolygon(QPolygonF([pt(0, -0.8), pt(0.8, 0), pt(0, 0.8), pt(-0.8, 0)]))
    painter.restore()


def icon(kind: str, colour: QColor, size: int = 20) -> QIcon:
    """The symbol as an icon for lists and menus."""
    pm = QPixmap(size, size)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    draw(p, kind, QPointF(size / 2, size / 2), size / 2 - 1.5, colour)
    p.end()
    return QIcon(pm)
