"""The legend: one sample of every feature kind, drawn from the display list the map uses."""

from __future__ import annotations

import numpy as np
import shapely
from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from editor.render import paint_items
from engine.model import AREA_KINDS, LINE_KINDS
from engine.render import display
from engine.render import style as rs

ROW = 22
SCALE = 16.0  # pixels per dot in the samples


def entries() -> list[tuple[str, str, str]]:
    """(group, kind, label) for every sample row."""
    rows = [("wall", c, f"{c} wall") for c in rs.WALL_WIDTH]
    rows += [("door", "open", "door (open)"), ("door", "closed", "door (closed)"),
             ("window", "closed", "window"), ("hole", "open", "hole")]
    rows += [("area", k, k) for k in AREA_KINDS]
    rows += [("line", k, k) for k in LINE_KINDS]
    rows += [("marker", k, k) for k in ("stairs", "elevators", "climbs")]
    rows += [("tree", "tree", "tree")]
    return rows


def sample(group: str, kind: str) -> list[display.Item]:
    """The display items of one legend row, in a 3 x 1 dot box centred on y = 0."""
    line = shapely.LineString([(0, 0), (3, 0)])
    if group == "wall":
        return display.wall_items(line, {"class": kind})
    if group in ("door", "window", "hole"):
        return (display.wall_items(shapely.LineString([(0, 0), (1, 0)]), {})
                + display.wall_items(shapely.LineString([(2, 0), (3, 0)]), {})
                + display.opening_items(group, shapely.LineString([(1, 0), (2, 0)]),
                                        {"state": kind}))
    if group == "area":
        return display.area_items(kind, shapely.box(0, -0.5, 3, 0.5), {})
    if group == "line":
        return display.line_items(kind, line, {})
    if group == "marker":
        return display.link_items({"stairs": "stair", "elevators": "elevator",
                                   "climbs": "climb"}[kind], 1.5, 0, "")
    return [display.Poly([np.array([(0.6, -0.45), (2.4, -0.45), (2.4, 0.45), (0.6, 0.45),
                                    (0.6, -0.45)])], fill=rs.CANOPY, alpha=0.22,
                         stroke=rs.CANOPY_EDGE, width=0.03),
            display.Circle((1.5, 0), 0.25, fill=rs.TRUNK, stroke=rs.TRUNK_EDGE, width=0.03)]


class LegendWidget(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows = entries()
        self.setMinimumSize(self.sizeHint())

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(200, ROW * len(self.rows) + 8)

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.fillRect(self.rect(), QColor(rs.PAVEMENT))
        for i, (group, kind, label) in enumerate(self.rows):
            y = 4 + i * ROW
            p.save()
            p.translate(10, y + ROW / 2)
            p.scale(SCALE, SCALE)
            paint_items(p, sample(group, kind))
            p.restore()
            p.setPen(QPen(QColor(30, 30, 30)))
            p.drawText(70, int(y + ROW / 2 + 5), label)
        p.end()
