"""The legend: one sample of every feature kind, drawn with the canvas's own painters."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from editor.canvas import style
from engine.model import AREA_KINDS, LINE_KINDS, Defaults

ROW = 22
SCALE = 16.0  # pixels per dot in the samples


def entries() -> list[tuple[str, str, str]]:
    """(group, kind, label) for every sample row."""
    rows = [("wall", c, f"{c} wall") for c in style.WALL_WIDTH]
    rows += [("door", "open", "door (open)"), ("door", "closed", "door (closed)"),
             ("window", "closed", "window"), ("hole", "open", "hole")]
    rows += [("area", k, k) for k in AREA_KINDS]
    rows += [("line", k, k) for k in LINE_KINDS]
    rows += [("marker", k, k) for k in ("stairs", "elevators", "climbs")]
    rows += [("tree", "tree", "tree")]
    return rows


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
        p.fillRect(self.rect(), QColor(250, 248, 240))
        d = Defaults()
        for i, (group, kind, label) in enumerate(self.rows):
            y = 4 + i * ROW
            p.save()
            p.translate(10, y + ROW / 2)
            p.scale(SCALE, SCALE)
            if group == "wall":
                p.setPen(style.wall_pen(kind, d))
                p.drawLine(0, 0, 3, 0)
            elif group in ("door", "window", "hole"):
                p.setPen(style.wall_pen(None, d))
                p.drawLine(0, 0, 3, 0)
                style.paint_opening(p, group, ((1, 0), (2, 0)), kind, None, d)
            elif group == "area":
                style.paint_area(p, kind, ((0, -0.5), (3, -0.5), (3, 0.5), (0, 0.5)))
            elif group == "line":
                style.paint_line(p, kind, ((0, 0), (3, 0)), None, d)
            elif group == "marker":
                style.paint_marker(p, kind, (1.5, 0))
            else:
                style.paint_tree(p, (1.5, 0), ((0.6, -0.6), (2.4, -0.6), (2.4, 0.6), (0.6, 0.6)))
            p.restore()
            p.setPen(QPen(QColor(30, 30, 30)))
            p.drawText(70, int(y + ROW / 2 + 5), label)
        p.end()
