"""Editor-only looks: the layer switches, selection and problem highlights, Qt path helpers.

How features look (colours, weights, hatching) is not here: the canvas draws the display list
of :mod:`engine.render.display` with the one style table :mod:`engine.render.style`, exactly as
the exports do.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QPainterPath, QPolygonF

LAYERS = ("walls", "openings", "areas", "lines", "stairs", "labels", "scenario")

BAD = QColor(220, 30, 30)
SELECT = QColor(30, 120, 255)


def poly(points) -> QPolygonF:
    return QPolygonF([QPointF(float(x), float(y)) for x, y in points])


def path_of(points) -> QPainterPath:
    p = QPainterPath()
    pts = list(points)
    if pts:
        p.moveTo(float(pts[0][0]), float(pts[0][1]))
        for x, y in pts[1:]:
            p.lineTo(float(x), float(y))
    return p
