"""Scene items that mirror the model: one item per placement, one for the layout extras.

An item never owns data: it is rebuilt from the document after every change, and while a tool
drags a building only the item's transform changes until the tool commits the move.
"""

from __future__ import annotations

import math

import shiboken6
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPicture,
    QPixmap,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem, QStyleOptionGraphicsItem

from editor.canvas import style
from editor.canvas.display_cache import cached, extras_items, prepare, sheet_items
from editor.canvas.turned_cache import TurnedCache, turned
from editor.geometry import Resolved, piece_polygon
from editor.render import paint_items
from editor.state import GRID
from engine.lattice import Transform
from engine.model import Extras, Sheet

#: screen pixels between two dots below which a placed sheet is drawn without its own dots
DOTS_MIN_PX = 3.5


def building_z(index: int) -> float:
    """Stacking height of the ``index``-th building: over the pavement (0) and the street
    furniture (5), in placement order, and under everything drawn over the board (lenses 55,
    LOS fan 60, zones 80, counters 84-92, names 90, highlights 95, tools' overlays 100).
    Whole steps per building put a city's later buildings over all of those."""
    return 10.0 + index * 1e-5


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


def city_picture(item: QGraphicsItem):
    """The scene's picture for far zoom (see editor.canvas.city_picture), if it has one."""
    return getattr(item.scene(), "city_picture", None)


class InPicture:
    """What a base item of the board (pavement, building, street furniture) does to appear
    in the city picture: report every change of where or how it shows, so the tiles under
    it go stale at once, and paint itself only over stale tiles while the picture shows."""

    _picture_of = None
    _picture_rect: QRectF | None = None
    _picture_state: str | None = None

    def _join_picture(self) -> None:
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges, True)

    def picture_changed(self) -> None:
        """The item looks different or sits elsewhere: the tiles it was and is on go stale."""
        pic = self._picture_of
        if pic is not None and self._picture_rect is not None and shiboken6.isValid(pic):
            pic.invalidate(self._picture_rect)
        pic = self._picture_of = city_picture(self) if self.scene() is not None else None
        self._picture_rect = None
        if pic is not None:
            self._picture_rect = self.sceneBoundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)
            pic.invalidate(self._picture_rect)

    def itemChange(self, change, value):  # noqa: N802 - Qt's name
        C = QGraphicsItem.GraphicsItemChange  # noqa: N806
        # nothing here may raise: PySide6 6.11 can crash reporting an error from an override
        if change == C.ItemSceneChange and self._picture_of is not None:
            if self._picture_rect is not None and shiboken6.isValid(self._picture_of):
                self._picture_of.invalidate(self._picture_rect)
            self._picture_of = self._picture_rect = None
        elif change in (C.ItemSceneHasChanged, C.ItemTransformHasChanged,
                        C.ItemPositionHasChanged, C.ItemVisibleHasChanged,
                        C.ItemOpacityHasChanged, C.ItemZValueHasChanged):
            self.picture_changed()
        return super().itemChange(change, value)

    def set_picture_state(self, state: str | None) -> None:
        """What the city picture shows of this item (see CityPicture.state_of): Qt need not
        call paint() for an item it shows whole, and an item it shows in part paints the
        rest itself, without a cache (what it paints changes as tiles are drawn)."""
        if state == self._picture_state:
            return
        self._picture_state = state
        flag = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
        if bool(self.flags() & flag) != (state == "clean"):
            self.setFlag(flag, state == "clean")
        self.pick_cache_mode()

    def paint_outside_picture(self, painter: QPainter, draw) -> bool:
        """An item the city picture shows in part paints (``draw``) only over its stale
        tiles; True when so (False: paint as usual)."""
        if self._picture_state != "partial":
            return False
        pic = city_picture(self)
        pixel = 1.0 / max(QStyleOptionGraphicsItem.levelOfDetailFromTransform(
            painter.worldTransform()), 1e-6)  # one screen pixel in dots
        clean, stale = (pic.clean_in(self.sceneBoundingRect(), overlap=pixel) if pic
                        else (False, None))
        if clean:
            return True
        painter.save()
        if stale is not None:
            # an aliased clip, as the tiles are drawn: the pixels on a tile's edge belong
            # to one side or the other, never half to both (a seam of half-covered pixels)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.setClipPath(self.mapFromScene(stale), Qt.ClipOperation.IntersectClip)
        draw(painter)
        painter.restore()
        return True

    def cache_mode(self, turned_: bool) -> QGraphicsItem.CacheMode:
        """Qt's device cache, except for turned items (our own cache) and items the city
        picture shows in part (what they paint changes as its tiles are drawn)."""
        if turned_ or self._picture_state == "partial":
            return QGraphicsItem.CacheMode.NoCache
        return QGraphicsItem.CacheMode.DeviceCoordinateCache


class PlacementItem(InPicture, QGraphicsItem):
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
        self._turned = TurnedCache()
        self._held: tuple | None = None  # (what it shows, its QPictures): see _picture
        self._join_picture()
        self._set_transform(qtransform(resolved.transform))
        self.setZValue(0 if resolved.pavement else building_z(resolved.index))
        if resolved.pavement and level > 0:
            self.setOpacity(0.45)
        self.setToolTip(self.describe())

    def shows(self, resolved: Resolved, level: int, layers: set[str]) -> bool:
        """Whether this item already draws ``resolved``'s picture (it may sit elsewhere)."""
        return (self.sheet is resolved.sheet and self.resolved.piece is resolved.piece
                and self.resolved.pavement == resolved.pavement and self.level == level
                and self.layers == layers)

    def follow(self, resolved: Resolved, problem: str | None, selected: bool) -> None:
        """Take the placement's new position and flags; the cached picture stays valid."""
        self.resolved = resolved
        tf = qtransform(resolved.transform)
        if self.transform() != tf:
            self._set_transform(tf)
        self.setZValue(0 if resolved.pavement else building_z(resolved.index))
        if problem != self.problem:
            self.problem = problem
            self.update()
            self.picture_changed()
        self.set_selected(selected)
        self.setToolTip(self.describe())

    def _set_transform(self, tf: QTransform) -> None:
        """Place the item; a drag calls this on every step.  The sheet is drawn once into a
        picture at the screen's resolution, so a move only shifts the picture and the
        buildings around it are not redrawn: Qt's device cache for an unturned item, our own
        for a turned one (Qt redraws those every time)."""
        self.setTransform(tf)
        self.pick_cache_mode()

    def pick_cache_mode(self) -> None:
        mode = self.cache_mode(turned(self.transform()))
        if self.cacheMode() != mode:
            self.setCacheMode(mode)

    def set_selected(self, selected: bool) -> None:
        if selected != self.selected:
            self.selected = selected
            self.update()
            self.picture_changed()

    def describe(self) -> str:
        r = self.resolved
        name = r.piece.id if r.piece else self.sheet.title
        text = f"{name} at {r.placement.at[0]},{r.placement.at[1]} rot {r.placement.rotation}"
        if r.placement.mirror:
            text += " mirrored"
        if self.problem:
            text += f" — {self.problem}"
        return text

    def _picture(self, sheet: Sheet, piece, level: int, dots: bool) -> QPicture:
        """The sheet's display list recorded once as a QPicture (with or without the sheet's
        own dots), kept on the item while it shows the same sheet, piece, level and layers;
        Qt replays it at every zoom.

        Why: a zoom repaints every item.  Drawing the display list from Python each time
        costs ~1.5 ms a sheet (a 16x16 city shows ~600 at once), and the shared display-list
        cache holds only so many sheets, so a zoom used to compile every sheet of a city
        again too (2.5-3.5 s a zoom step)."""
        key = (sheet, piece, level, frozenset(self.layers))
        held = self._held
        if held is None or not all(a is b for a, b in zip(held[0][:2], key[:2])) \
                or held[0][2:] != key[2:]:
            held = self._held = (key, {})
        pic = held[1].get(dots)
        if pic is None:
            if not cached(sheet, piece, level):
                self._prepare_all()
            items = sheet_items(sheet, piece, level)
            if not dots or GRID not in self.layers:  # the sheets' own dots go too
                items = [it for it in items if it.layer != "grid"]
            pic = held[1][dots] = QPicture()
            rec = QPainter(pic)
            paint_items(rec, items, self.layers)
            rec.end()
        return pic

    def level_shown(self) -> int:
        """The level of the sheet this item draws (a pavement has only its ground)."""
        return self.level if self.sheet.kind == "building" else 0

    def _prepare_all(self) -> None:
        """Compile, in one go, the display list of every building of the scene that has
        none yet: the first one painted after a document is opened (or the level changed)
        would otherwise be followed by hundreds of compiles one sheet at a time."""
        scene = self.scene()
        items = (scene.placement_items.values() if hasattr(scene, "placement_items")
                 else [self])
        prepare([(it.sheet, it.resolved.piece, it.level_shown()) for it in items])

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect

    def shape(self) -> QPainterPath:
        return self._clip

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        if self.paint_outside_picture(painter, self._draw):
            return
        if self.cacheMode() == QGraphicsItem.CacheMode.NoCache and turned(self.transform()):
            self._turned.paint(painter, widget, self._rect, (self.problem, self.selected),
                               self._draw)
        else:
            self._draw(painter)

    def draw_in_picture(self, painter: QPainter) -> None:
        """Draw into a tile of the city picture (far zoom: without the sheet's own dots)."""
        self._draw(painter, dots=False)

    def _draw(self, painter: QPainter, dots: bool | None = None) -> None:
        s = self.sheet
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        # no clip: the sheet's board is already cut to the piece, and walls on the outline
        # stand half outside it, as in print
        level_shown = self.level_shown()
        # dots closer than DOTS_MIN_PX on screen are a grey blur that costs most of a zoom
        # at city scale: the sheets' own dots are left out then (the canvas' grid, drawn at
        # a stride, still shows the grain)
        if dots is None:
            dots = QStyleOptionGraphicsItem.levelOfDetailFromTransform(
                painter.worldTransform()) >= DOTS_MIN_PX
        painter.drawPicture(0, 0, self._picture(s, self.resolved.piece, level_shown, dots))
        if self.problem:
            painter.setPen(QPen(style.BAD, 0.22))
            painter.setBrush(QBrush(QColor(220, 30, 30, 70)))
            painter.drawPath(self._clip)
        if self.selected:
            pen = QPen(style.SELECT, 0.12, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self._clip)


class ExtrasItem(InPicture, QGraphicsItem):
    """Street furniture of the layout, in world coordinates, on level 0."""

    def __init__(self, extras: Extras, defaults, layers: set[str], level: int,
                 lattice: str = "square"):
        super().__init__()
        self.extras = extras
        self.lattice = lattice
        self.defaults = defaults
        self.layers = layers
        self.setZValue(5)
        self._picture: QPicture | None = None
        self._join_picture()
        self.pick_cache_mode()
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

    def pick_cache_mode(self) -> None:
        mode = self.cache_mode(False)
        if self.cacheMode() != mode:
            self.setCacheMode(mode)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.paint_outside_picture(painter, self.draw_in_picture):
            self.draw_in_picture(painter)

    def draw_in_picture(self, painter: QPainter) -> None:
        # recorded once (the item is made again when the extras, level or layers change) and
        # replayed by Qt at every zoom, as a placement's picture is
        if self._picture is None:
            self._picture = QPicture()
            rec = QPainter(self._picture)
            paint_items(rec, extras_items(self.extras, self.lattice), self.layers)
            rec.end()
        painter.drawPicture(0, 0, self._picture)


#: a view whose viewport has this property set true shows no names (the overview: at its
#: scale the names would cover the buildings they name)
NO_LABELS = "sprawlmap-no-labels"


#: the halo round a name's letters (pixels)
HALO = 1.5
#: the halo's opacity (0-255): the art under it still shows a little
HALO_ALPHA = 210
#: the halo is the letters drawn white shifted this way round (a stroked outline of the
#: letters looks the same and costs 8 times as much: 0.9 ms a name, 0.6 s a city's first paint)
_AROUND = [(math.cos(k * math.pi / 4) * HALO, math.sin(k * math.pi / 4) * HALO) for k in range(8)]


class CanvasLabel(QGraphicsSimpleTextItem):
    """Screen-sized text, left out of views that ask for no names.

    ``home`` is its offset from the point it names (in pixels); the canvas view may move it
    off that spot to keep it clear of other labels (editor.canvas.label_layout).  ``area`` is
    the box of what it names (a building, a zone) relative to that point, None for a dot;
    ``mark``: the box of the symbol it names, which it sits under (relative likewise)."""

    home = QTransform()
    area: QRectF | None = None
    mark: QRectF | None = None
    #: the view has it away from home
    moved = False
    #: its picture (letters and halo) and the screen's pixel ratio it was drawn for
    _drawn: tuple[float, QPixmap, QPointF] | None = None
    _box: QRectF | None = None

    def room(self) -> float:
        """How much room the name has to move in (dots²): a dot's name has none."""
        return 0.0 if self.area is None else self.area.width() * self.area.height()

    # the picture and the box are kept (Qt asks for the box many times a paint): a new text,
    # font or colour drops them
    def setText(self, text: str) -> None:  # noqa: N802
        super().setText(text)
        self._drawn = self._box = None

    def setFont(self, font) -> None:  # noqa: N802
        super().setFont(font)
        self._drawn = self._box = None

    def setBrush(self, brush) -> None:  # noqa: N802
        super().setBrush(brush)
        self._drawn = None

    def boundingRect(self) -> QRectF:  # noqa: N802
        if self._box is None:  # the text's box and the halo round it
            w = HALO
            self._box = super().boundingRect().adjusted(-w, -w, w, w)
        return self._box

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if widget is not None and widget.property(NO_LABELS):
            return
        device = painter.device()
        ratio = device.devicePixelRatioF() if device is not None else 1.0
        drawn = self._drawn
        if drawn is None or drawn[0] != ratio:
            drawn = self._picture(ratio, option)
        painter.drawPixmap(drawn[2], drawn[1])

    def _picture(self, ratio: float, option) -> tuple[float, QPixmap, QPointF]:
        """The letters on a pale halo (as the exports draw names: a name over walls, hatching
        or a tint still reads), drawn once for screens of pixel ratio ``ratio``, and where
        it goes: drawing the halo at every paint cost 130 ms a zoom step with a city's 634
        names in view."""
        r = self.boundingRect()
        pm = QPixmap((r.size() * ratio).toSize() + QSize(1, 1))
        pm.setDevicePixelRatio(ratio)
        pm.fill(Qt.GlobalColor.transparent)
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.translate(-r.topLeft())
        p.setFont(self.font())
        p.setPen(QColor(255, 255, 255))
        base = QFontMetricsF(self.font()).ascent()
        for dx, dy in _AROUND:
            p.drawText(QPointF(dx, base + dy), self.text())
        p.setCompositionMode(QPainter.CompositionMode.CompositionMode_DestinationIn)
        p.fillRect(r, QColor(0, 0, 0, HALO_ALPHA))
        p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        super().paint(p, option, None)
        p.end()
        self._drawn = (ratio, pm, r.topLeft())
        return self._drawn


def label_item(text: str, at: QPointF, anchor: str = "centre",
               area: QRectF | None = None, mark: QRectF | None = None) -> CanvasLabel:
    """A building name that stays readable at every zoom.  ``anchor`` "left" puts the
    text's left edge on ``at`` (a zone's name, which must not stick out of the board);
    ``area``, ``mark``: the scene boxes of what it names (see :class:`CanvasLabel`)."""
    item = CanvasLabel(text)
    if area is not None:
        item.area = area.translated(-at)
    if mark is not None:
        item.mark = mark.translated(-at)
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
    dx = 0.0 if anchor == "left" else -br.center().x()
    item.home = QTransform.fromTranslate(dx, -br.center().y())
    item.setTransform(item.home)
    return item
