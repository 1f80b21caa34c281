"""The scenario drawn over the board: each side's deployment zone and the objectives.

Deployment zones are tinted per side (a polygon on its level, or a band of ``depth`` dots along
a board edge); objectives with a place get the icon of their kind and their id.  Both show
only on their own level, like everything else on the canvas.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QBrush, QColor, QPainter, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from editor.canvas import style
from editor.canvas.items import label_item
from editor.render import paint_items
from engine.lattice import get_lattice
from engine.model import Scenario
from engine.render import style as render_style
from engine.render.display import Text, scenario_items


def side_colour(i: int) -> QColor:
    """The side's colour from the one style table (canvas, lists, counters and print agree)."""
    return QColor(render_style.side_colour(i))


def zone_polygon(dep, bounds: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """A deployment as a polygon: its own, or the band along its board edge."""
    if dep.polygon:
        return [tuple(p) for p in dep.polygon]
    x0, y0, x1, y1 = bounds
    d = float(dep.depth or 3)
    edge = dep.edge or "west"
    if edge == "west":
        return [(x0, y0), (x0 + d, y0), (x0 + d, y1), (x0, y1)]
    if edge == "east":
        return [(x1 - d, y0), (x1, y0), (x1, y1), (x1 - d, y1)]
    if edge == "north":
        return [(x0, y0), (x1, y0), (x1, y0 + d), (x0, y0 + d)]
    return [(x0, y1 - d), (x1, y1 - d), (x1, y1), (x0, y1)]


def symbol_box(p: QPointF) -> QRectF:
    """The scene box of the objective symbol drawn at ``p``."""
    return QRectF(p.x() - 0.45, p.y() - 0.45, 0.9, 0.9)


class ScenarioItem(QGraphicsItem):
    def __init__(self, scenario: Scenario, level: int, bounds: tuple[float, float, float, float],
                 lattice: str = "square"):
        super().__init__()
        lat = get_lattice(lattice)
        # zones and objective symbols from the display list the exports draw; the names stay
        # screen-sized labels (readable at every zoom)
        self.items = [it for it in scenario_items(scenario, level, bounds,
                                                  lambda d: lat.point(d))
                      if not isinstance(it, Text)]
        self.zones: list[tuple[QColor, QPolygonF, str]] = []
        self.marks: list[tuple[QColor, QPointF, str]] = []
        self.kinds: list[str] = []  # objective kind of each mark (its icon)
        sides = {s.id: i for i, s in enumerate(scenario.sides)}
        for i, side in enumerate(scenario.sides):
            dep = side.deployment
            if dep is None or dep.level != level:
                continue
            self.zones.append((side_colour(i), style.poly(zone_polygon(dep, bounds)),
                               side.name or side.id))
        for ob in scenario.objectives:
            if ob.at is not None and len(ob.at) >= 2 and (ob.at[2] if len(ob.at) > 2 else 0) == level:
                self.marks.append((side_colour(sides.get(ob.side, 0)),
                                   QPointF(float(ob.at[0]), float(ob.at[1])), ob.id))
                self.kinds.append(ob.kind)
            elif ob.area and ob.level == level:
                self.zones.append((side_colour(sides.get(ob.side, 0)), style.poly(ob.area),
                                   ob.id))
        rect = QRectF()
        for _, poly, _ in self.zones:
            rect = rect.united(poly.boundingRect())
        for _, p, _ in self.marks:
            rect = rect.united(QRectF(p.x() - 1, p.y() - 1, 2 + 0.9 * len(self.marks), 2))
        self._rect = rect.adjusted(-1, -1, 1, 1)
        self.setZValue(80)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        for colour, poly, name in self.zones:
            # the name starts inside the zone: a zone along the west edge keeps it on the board
            box = poly.boundingRect()
            lab = label_item(name, box.topLeft() + QPointF(0.3, 0.6), "left", box)
            lab.setBrush(QBrush(colour.darker(150)))
            lab.setParentItem(self)
        names: dict[tuple[float, float], list[str]] = {}
        for _, p, name in self.marks:  # objectives on one dot share one label
            names.setdefault((p.x(), p.y()), []).append(name)
        for colour, p, _ in self.marks:
            key = (p.x(), p.y())
            if key not in names:
                continue
            lab = label_item(", ".join(names.pop(key)), p + QPointF(0, 1.0), mark=symbol_box(p))
            lab.setBrush(QBrush(colour.darker(150)))
            lab.setParentItem(self)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def symbol_rects(self) -> list[QRectF]:
        """The objectives' symbols (scene boxes), which the names must leave uncovered."""
        return [symbol_box(p) for _, p, _ in self.marks]

    def paint(self, painter: QPainter, option, widget=None) -> None:
        paint_items(painter, self.items)
