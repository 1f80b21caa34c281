"""Scene items that mirror the model: one item per placement, one for the layout extras.

An item never owns data: it is rebuilt from the document after every change, and while a tool
drags a building only the item's transform changes until the tool commits the move.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem, QStyleOptionGraphicsItem

from editor.canvas import style
from editor.canvas.display_cache import extras_items, sheet_items
from editor.geometry import Resolved, piece_polygon
from editor.render import paint_items
from editor.state import GRID
from engine.lattice import Transform
from engine.model import Extras, Sheet


def qtransform(tf: Transform) -> QTransform:
    a, b, c, d = tf.a
    return QTransform(a, c, b, d, tf.t[0], tf.t[1])


def shapely_path(geom) -> QPainterPath:
    """A QPainterPath of a shapely (multi)polygon, holes included."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    parts = getattr(geom, "geoms", [geom])
    for g in parts:
        if g.geom_type != "Polygon":
            continue
        for ring in [g.exterior, *g.interiors]:
            pts = list(ring.coords)
            path.moveTo(pts[0][0], pts[0][1])
            for x, y in pts[1:]:
                path.lineTo(x, y)
            path.closeSubpath()
    return path


class PlacementItem(QGraphicsItem):
    """A placed sheet (or cut piece) showing the features of the current level."""

    def __init__(self, resolved: Resolved, level: int, layers: set[str], problem: str | None,
                 selected: bool = False):
        super().__init__()
        self.resolved = resolved
        self.sheet: Sheet = resolved.sheet
        self.level = level
        self.layers = layers
        self.problem = problem
        self.selected = selected
        self._clip = shapely_path(piece_polygon(self.sheet, resolved.piece))
        w, h = self.sheet.size
        self._rect = QRectF(-1.0, -1.0, w + 1.0, h + 1.0).united(self._clip.boundingRect())
        self.setTransform(qtransform(resolved.transform))
        # drawn once into a picture at the screen's resolution: a drag only moves the
        # picture, and repainting the view around a moved building does not redraw the others
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setZValue(0 if resolved.pavement else 10 + resolved.index)
        if resolved.pavement and level > 0:
            self.setOpacity(0.45)
        self.setToolTip(self.describe())

    def describe(self) -> str:
        r = self.resolved
        name = r.piece.id if r.piece else self.sheet.title
        text = f"{name} at {r.placement.at[0]},{r.placement.at[1]} rot {r.placement.rotation}"
        if r.placement.mirror:
            text += " mirrored"
        if self.problem:
            text += f" — {self.problem}"
        return text

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect

    def shape(self) -> QPainterPath:
        return self._clip

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        s = self.sheet
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        # no clip: the sheet's board is already cut to the piece, and walls on the outline
        # stand half outside it, as in print
        level_shown = self.level if s.kind == "building" else 0
        items = sheet_items(s, self.resolved.piece, level_shown)
        if GRID not in self.layers:  # View > Dot grid off: the sheets' own dots go too
            items = [it for it in items if it.layer != "grid"]
        paint_items(painter, items, self.layers)
        if self.problem:
            painter.setPen(QPen(style.BAD, 0.22))
            painter.setBrush(QBrush(QColor(220, 30, 30, 70)))
            painter.drawPath(self._clip)
        if self.selected:
            pen = QPen(style.SELECT, 0.12, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self._clip)


class ExtrasItem(QGraphicsItem):
    """Street furniture of the layout, in world coordinates, on level 0."""

    def __init__(self, extras: Extras, defaults, layers: set[str], level: int,
                 lattice: str = "square"):
        super().__init__()
        self.extras = extras
        self.lattice = lattice
        self.defaults = defaults
        self.layers = layers
        self.setZValue(5)
        if level > 0:
            self.setOpacity(0.45)
        xs, ys = [], []
        for f in extras.areas:
            for x, y in f.polygon:
                xs.append(x)
                ys.append(y)
        for f in extras.lines:
            for x, y in f.path:
                xs.append(x)
                ys.append(y)
        for t in extras.trees:
            for x, y in (t.trunk, *t.canopy):
                xs.append(x)
                ys.append(y)
        self._rect = (QRectF(min(xs) - 1, min(ys) - 1, max(xs) - min(xs) + 2,
                             max(ys) - min(ys) + 2) if xs else QRectF())

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        paint_items(painter, extras_items(self.extras, self.lattice), self.layers)


def label_item(text: str, at: QPointF) -> QGraphicsSimpleTextItem:
    """A building name that stays readable at every zoom."""
    item = QGraphicsSimpleTextItem(text)
    item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
    item.setBrush(QBrush(QColor(40, 40, 40)))
    f = item.font()
    f.setPointSizeF(9)
    f.setBold(True)
    item.setFont(f)
    br = item.boundingRect()
    item.setPos(at)
    item.setTransformOriginPoint(br.center())
    item.setZValue(90)
    # centre the text on the point (offset applies in device pixels)
    item.setTransform(QTransform.fromTranslate(-br.width() / 2, -br.height() / 2))
    return item
