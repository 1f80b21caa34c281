"""Tools that draw a polyline or polygon snapped to half dots: walls, lines, areas, cuts.

Click to add a corner, double-click or Enter to finish, Backspace drops the last corner, Esc
cancels.  The first corner decides which placed sheet gets the feature (the building under it,
else the pavement); corners are stored in that sheet's own frame.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsPathItem

from editor import edits
from editor.geometry import Resolved, snap_half
from editor.tools.base import Tool, cosmetic
from engine.model import Area, Line, Wall


class PolyTool(Tool, ABC):
    closed = False
    min_points = 2
    pavement_ok = True

    def __init__(self, ctx):
        super().__init__(ctx)
        self.points: list[tuple[float, float]] = []
        self.target: Resolved | None = None
        self._hover: tuple[float, float] | None = None

    def deactivate(self) -> None:
        self.points = []
        self.target = None
        super().deactivate()

    def _draw(self) -> None:
        self.clear_overlay()
        pts = list(self.points) + ([self._hover] if self._hover else [])
        if pts:
            path = QPainterPath(QPointF(*pts[0]))
            for q in pts[1:]:
                path.lineTo(QPointF(*q))
            if self.closed and len(pts) > 2:
                path.closeSubpath()
            item = QGraphicsPathItem(path)
            item.setPen(cosmetic("#ff9f1c", 3))
            if self.closed:
                item.setBrush(QBrush(QColor(255, 159, 28, 50)))
            self.add_overlay(item)
        for q in self.points:
            dot = QGraphicsEllipseItem(q[0] - 0.15, q[1] - 0.15, 0.3, 0.3)
            dot.setBrush(QBrush(QColor("#ff9f1c")))
            dot.setPen(cosmetic("#000000", 1))
            self.add_overlay(dot, z=101)

    def press(self, ev, p: QPointF) -> bool:
        if ev.button() == Qt.MouseButton.RightButton:
            self.finish()
            return True
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        q = snap_half((p.x(), p.y()))
        if not self.points:
            self.target = self.target_at(q, self.pavement_ok)
            if self.target is None and not self.accepts_no_target():
                self.ctx.show_hint("Nothing to draw on here (no sheet on this level)")
                return True
        if not self.points or self.points[-1] != q:
            self.points.append(q)
        self._draw()
        return True

    def accepts_no_target(self) -> bool:
        return False

    def move(self, ev, p: QPointF) -> bool:
        if self.points:
            self._hover = snap_half((p.x(), p.y()))
            self._draw()
        return False

    def double_click(self, ev, p: QPointF) -> bool:
        # the double-click's own corner, when its first press did not already add it
        q = snap_half((p.x(), p.y()))
        if self.points and self.points[-1] != q:
            self.points.append(q)
        self.finish()
        return True

    def key(self, ev) -> bool:
        k = ev.key()
        if k in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
            return True
        if k == Qt.Key.Key_Escape:
            self.points, self._hover = [], None
            self.clear_overlay()
            return True
        if k == Qt.Key.Key_Backspace and self.points:
            self.points.pop()
            self._draw()
            return True
        return False

    def finish(self) -> None:
        pts, target = list(self.points), self.target
        self.points, self._hover, self.target = [], None, None
        self.clear_overlay()
        if len(pts) >= self.min_points:
            self.commit(pts, target)

    def local(self, r: Resolved | None, pts) -> tuple:
        """World corners -> the target sheet's frame (rounded to kill float dust)."""
        if r is None:
            return tuple((float(x), float(y)) for x, y in pts)
        inv = r.transform.inverse()
        return tuple(tuple(round(v * 2) / 2 for v in inv.apply(q)) for q in pts)

    @abstractmethod
    def commit(self, pts, target: Resolved | None) -> None:
        """Turn the finished polygon or polyline into an edit (each drawing tool its own)."""


class WallTool(PolyTool):
    name = "wall"
    hint = "Wall: click corners (half dots), double-click or Enter to finish"

    def commit(self, pts, target):
        if target is None:
            return
        self.add_feature(target, "walls", Wall(path=self.local(target, pts)), "Draw wall")


class _KindTool(PolyTool):
    """Lines and areas of a kind: drawn on a sheet, or on the street as layout extras."""

    list_name = ""
    default_kind = ""

    def __init__(self, ctx, kind: str | None = None):
        super().__init__(ctx)
        self.kind = kind or self.default_kind

    def accepts_no_target(self) -> bool:
        return self.state.level == 0 and self.doc.mode == "scenario"

    @abstractmethod
    def make(self, pts: tuple):
        """The model object for the drawn points (in the frame it will live in)."""

    def commit(self, pts, target):
        on_street = target is None or target.pavement and self.doc.mode == "scenario"
        feature = self.make(self.local(None if on_street else target, pts))
        if on_street:
            self.add_extra(self.list_name, feature, f"Draw {self.kind}")
        else:
            self.add_feature(target, self.list_name, feature, f"Draw {self.kind}")


class LineTool(_KindTool):
    name = "line"
    hint = "Line: click points, double-click or Enter to finish"
    list_name = "lines"
    default_kind = "step"

    def make(self, pts):
        return Line(kind=self.kind, path=pts)


class AreaTool(_KindTool):
    name = "area"
    closed = True
    min_points = 3
    hint = "Area: click corners, double-click or Enter to close it"
    list_name = "areas"
    default_kind = "rubble"

    def make(self, pts):
        return Area(kind=self.kind, polygon=pts)


class CutTool(PolyTool):
    """Cut a piece out of a placed building: the polygon, in the sheet's frame, is the cut."""

    name = "cut"
    closed = True
    min_points = 3
    pavement_ok = False
    hint = "Cut: click the corners of the piece on a building, double-click or Enter to cut"

    def commit(self, pts, target):
        if target is None or self.doc.mode != "scenario":
            return
        poly = self.local(target, pts)
        used = set(self.doc.sheets())
        layout, piece = edits.add_piece(self.doc.layout, target.sheet.id, poly, used)
        self.doc.edit_layout(layout, f"Cut {piece.id}")
        self.ctx.show_hint(f"Cut {piece.id}: it is in the library, place it like a sheet")
