"""How each kind of feature looks, shared by the canvas, the thumbnails and the legend.

Units are dots (the scene's unit), so line weights scale with zoom like ink on paper.  Wall,
door and fence weight follows the barrier class: thin, average, thick, or the band of an
explicit barrier value (DMZ: thin 8, average 12, thick 18).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF

from engine.model import Barrier, Defaults, Level, Sheet

LAYERS = ("walls", "openings", "areas", "lines", "stairs", "labels", "scenario")

WALL_WIDTH = {"thin": 0.10, "average": 0.18, "thick": 0.30}
WINDOW_WIDTH = {"standard": 0.12, "reinforced": 0.22}

INK = QColor("#2b2b2b")
BUILDING_FILL = QColor(240, 230, 208, 140)
PAVEMENT_FILL = QColor(215, 218, 222, 95)
ROOF_FILL = QColor(190, 180, 160, 150)
BAD = QColor(220, 30, 30)
SELECT = QColor(30, 120, 255)

AREA_STYLE: dict[str, tuple[QColor, Qt.BrushStyle, QColor]] = {
    # kind: (fill colour, brush pattern, outline)
    "rubble": (QColor(140, 100, 60, 150), Qt.BrushStyle.DiagCrossPattern, QColor(110, 75, 40)),
    "undergrowth": (QColor(70, 140, 60, 150), Qt.BrushStyle.Dense6Pattern, QColor(50, 110, 40)),
    "obstacle": (QColor(120, 120, 130, 110), Qt.BrushStyle.SolidPattern, QColor(70, 70, 80)),
    "foliage": (QColor(60, 160, 60, 80), Qt.BrushStyle.SolidPattern, QColor(40, 120, 40)),
    "dark": (QColor(20, 20, 70, 90), Qt.BrushStyle.SolidPattern, QColor(20, 20, 90)),
    "smoke": (QColor(150, 150, 150, 110), Qt.BrushStyle.Dense4Pattern, QColor(110, 110, 110)),
    "modifier": (QColor(240, 200, 40, 60), Qt.BrushStyle.SolidPattern, QColor(200, 150, 0)),
    "hazard": (QColor(200, 40, 160, 110), Qt.BrushStyle.BDiagPattern, QColor(170, 20, 130)),
    "water": (QColor(60, 140, 210, 120), Qt.BrushStyle.SolidPattern, QColor(40, 110, 170)),
}

LINE_STYLE: dict[str, tuple[QColor, float, Qt.PenStyle]] = {
    "step": (QColor(90, 90, 90), 0.06, Qt.PenStyle.DashLine),
    "incline": (QColor(90, 90, 90), 0.06, Qt.PenStyle.DashDotLine),
    "contour": (QColor(150, 90, 30), 0.08, Qt.PenStyle.SolidLine),
    "low-wall": (QColor(110, 110, 120), 0.14, Qt.PenStyle.SolidLine),
    "fence": (QColor(60, 60, 60), 0.10, Qt.PenStyle.DotLine),
}

DOOR = QColor(150, 85, 30)
WINDOW = QColor(60, 150, 220)
HOLE = QColor(235, 120, 20)
STAIR = QColor(90, 60, 160)
TRUNK = QColor(100, 65, 30)


def class_name(cls: object, default: object) -> str:
    """The weight band of a barrier class: a class name, or the band of a Barrier value."""
    c = cls if cls is not None else default
    if isinstance(c, Barrier):
        return "thin" if c.barrier < 10 else "average" if c.barrier < 15 else "thick"
    if isinstance(c, str) and c in WALL_WIDTH:
        return c
    if isinstance(c, str) and c in WINDOW_WIDTH:
        return c
    return "average"


def wall_pen(cls: object, defaults: Defaults, colour: QColor = INK) -> QPen:
    w = WALL_WIDTH.get(class_name(cls, defaults.wall), 0.18)
    pen = QPen(colour, w)
    pen.setCapStyle(Qt.PenCapStyle.SquareCap)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return pen


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


def area_brushes(kind: str) -> tuple[QBrush, QPen]:
    fill, pattern, outline = AREA_STYLE.get(kind, AREA_STYLE["obstacle"])
    pen = QPen(outline, 0.05)
    if kind in ("modifier", "dark", "smoke"):
        pen.setStyle(Qt.PenStyle.DashLine)
    return QBrush(fill, pattern), pen


def paint_area(painter: QPainter, kind: str, polygon) -> None:
    brush, pen = area_brushes(kind)
    painter.setPen(pen)
    if brush.style() != Qt.BrushStyle.SolidPattern:
        # a pale wash under the pattern keeps the area readable at every zoom
        wash = QColor(brush.color())
        wash.setAlpha(50)
        painter.setBrush(QBrush(wash))
        painter.drawPolygon(poly(polygon))
    painter.setBrush(brush)
    painter.drawPolygon(poly(polygon))


def paint_line(painter: QPainter, kind: str, path, cls: object, defaults: Defaults) -> None:
    colour, width, style = LINE_STYLE.get(kind, LINE_STYLE["step"])
    if kind == "fence":
        width = WALL_WIDTH[class_name(cls, defaults.wall)] * 0.7
    pen = QPen(colour, width, style)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(path_of(path))


def paint_opening(painter: QPainter, kind: str, span, state: str, cls: object,
                  defaults: Defaults) -> None:
    (x0, y0), (x1, y1) = span
    a, b = QPointF(x0, y0), QPointF(x1, y1)
    if kind == "door":
        w = WALL_WIDTH[class_name(cls, defaults.door)] + 0.08
        colour = DOOR
    elif kind == "window":
        w = WINDOW_WIDTH.get(class_name(cls, defaults.window), 0.12) + 0.08
        colour = WINDOW
    else:
        w, colour = 0.26, HOLE
    # punch the wall out, then draw the opening across the gap
    gap = QPen(QColor(250, 248, 240), w + 0.04)
    gap.setCapStyle(Qt.PenCapStyle.FlatCap)
    painter.setPen(gap)
    painter.drawLine(a, b)
    if kind == "hole":
        pen = QPen(colour, 0.08, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLine(a, b)
        return
    if state == "closed":
        pen = QPen(colour, w)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(pen)
        painter.drawLine(a, b)
    else:
        pen = QPen(colour, 0.06)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawLine(a, b)
        # an open leaf: a short stroke at right angles from the hinge end
        dx, dy = x1 - x0, y1 - y0
        painter.drawLine(a, QPointF(x0 - dy * 0.8, y0 + dx * 0.8))


def paint_marker(painter: QPainter, kind: str, at, text: str = "") -> None:
    x, y = float(at[0]), float(at[1])
    r = QRectF(x - 0.34, y - 0.34, 0.68, 0.68)
    painter.setPen(QPen(STAIR, 0.06))
    painter.setBrush(QBrush(QColor(255, 255, 255, 200)))
    painter.drawRect(r)
    if kind == "stairs":
        for i in range(1, 4):
            yy = r.top() + r.height() * i / 4
            painter.drawLine(QPointF(r.left(), yy), QPointF(r.right(), yy))
    elif kind == "elevators":
        painter.drawLine(r.topLeft(), r.bottomRight())
        painter.drawLine(r.topRight(), r.bottomLeft())
    else:  # climbs: a ladder
        painter.drawLine(QPointF(x - 0.15, r.top()), QPointF(x - 0.15, r.bottom()))
        painter.drawLine(QPointF(x + 0.15, r.top()), QPointF(x + 0.15, r.bottom()))
        for i in range(1, 3):
            yy = r.top() + r.height() * i / 3
            painter.drawLine(QPointF(x - 0.15, yy), QPointF(x + 0.15, yy))


def paint_tree(painter: QPainter, trunk, canopy) -> None:
    if canopy:
        painter.setPen(QPen(QColor(40, 120, 40), 0.05))
        painter.setBrush(QBrush(QColor(60, 160, 60, 70)))
        painter.drawPolygon(poly(canopy))
    painter.setPen(QPen(TRUNK.darker(), 0.04))
    painter.setBrush(QBrush(TRUNK))
    painter.drawEllipse(QPointF(float(trunk[0]), float(trunk[1])), 0.3, 0.3)


def paint_level(painter: QPainter, sheet: Sheet, lv: Level | None, layers: set[str],
                plain_outline: bool) -> None:
    """Paint one level of ``sheet`` in its own frame (features only, no fill)."""
    d = sheet.defaults
    if lv is not None and "areas" in layers:
        for a in lv.areas:
            paint_area(painter, a.kind, a.polygon)
        for t in lv.trees:
            paint_tree(painter, t.trunk, t.canopy)
    if lv is not None and "lines" in layers:
        for ln in lv.lines:
            paint_line(painter, ln.kind, ln.path, ln.cls, d)
    if "walls" in layers:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if plain_outline and len(sheet.outline) >= 3:
            painter.setPen(wall_pen(None, d))
            painter.drawPolygon(poly(sheet.outline))
        if lv is not None:
            for w in lv.walls:
                painter.setPen(wall_pen(w.cls, d))
                painter.drawPath(path_of(w.path))
    if lv is not None and "openings" in layers:
        for o in lv.doors + lv.windows + lv.holes:
            paint_opening(painter, o.kind, o.span, o.state, o.cls, d)
    if lv is not None and "stairs" in layers:
        for s in lv.stairs:
            paint_marker(painter, "stairs", s.at)
        for e in lv.elevators:
            paint_marker(painter, "elevators", e.at)
        for c in lv.climbs:
            paint_marker(painter, "climbs", c.at)
