"""A picture of the whole board for far zoom, kept in tiles, so a zoom or pan step over a city
scales a few images instead of rasterising every building again.

Below :data:`FAR_PX` pixels a dot (the zoom at which the sheets' own dots are left out, so no
detail is lost), the canvas and the overview show the board's base items (pavement, street
furniture, buildings) from tiles of :data:`TILE` x :data:`TILE` dots drawn at ``FAR_PX`` and
halved a few times (a zoom step draws from the smallest one that is still at least as fine as
the screen).  Tiles are drawn a few at a time when the event loop is idle, and an item that
changes (moved, added, removed, flagged) marks the tiles under it stale at once: a stale
tile is not shown, the items over it paint themselves there as they always did, so an edit
shows at the next paint and the picture never shows what the board no longer holds.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QElapsedTimer, QObject, QRect, QRectF, Qt, QTimer
from PySide6.QtGui import QImage, QPainter, QPainterPath, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QStyleOptionGraphicsItem

#: below this many screen pixels a dot the board is shown from the picture (the zoom at which
#: a building's own dots are left out: see editor.canvas.items.DOTS_MIN_PX)
FAR_PX = 3.5
#: dots on a tile's side
TILE = 64
#: halvings kept of each tile: FAR_PX, FAR_PX / 2, ... FAR_PX / 2**(MIPS - 1) pixels a dot
MIPS = 5
#: ms of one turn of the event loop spent drawing tiles (at least one tile is drawn a turn)
SLICE_MS = 12
#: ms after the last change before stale tiles are drawn again: while a building is dragged
#: its tiles go stale at every mouse move, and drawing them between moves would be wasted
CHANGE_PAUSE_MS = 300


def view_of(widget) -> QGraphicsView | None:
    """The graphics view whose viewport ``widget`` is (None: painting into a cache)."""
    view = widget.parent() if widget is not None else None
    return view if isinstance(view, QGraphicsView) else None


def px_per_dot(view: QGraphicsView) -> float:
    t = view.transform()
    return math.hypot(t.m11(), t.m12())


class CityPicture(QGraphicsItem):
    """The tiles, and the item that shows them under the board's items."""

    def __init__(self, owner: QObject, on_progress=None):
        """``owner`` (the scene) owns the timer that draws the tiles: it goes with it."""
        super().__init__()
        self.setZValue(-1.0)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        #: whether the board's items leave clean tiles to this picture (the canvas is far)
        self.active = False
        self._rect = QRectF()
        self._cols = self._rows = 0
        self._x0 = self._y0 = 0
        #: (col, row) -> its images, finest first, for the clean tiles only
        self._tiles: dict[tuple[int, int], list[QImage]] = {}
        self._stale: set[tuple[int, int]] = set()
        self._on_progress = on_progress
        self._timer = QTimer(owner)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._work)
        self._changed = QElapsedTimer()  # since the last change (invalid: none yet)
        #: tiles drawn so far (tests count them)
        self.drawn = 0

    # ------------------------------------------------------------------ extent and state
    def set_extent(self, rect: QRectF) -> None:
        """Cover ``rect`` (scene units); a new extent starts every tile stale."""
        x0, y0 = math.floor(rect.left() / TILE), math.floor(rect.top() / TILE)
        cols = max(1, math.ceil(rect.right() / TILE) - x0)
        rows = max(1, math.ceil(rect.bottom() / TILE) - y0)
        if (x0, y0, cols, rows) == (self._x0, self._y0, self._cols, self._rows):
            return
        self.prepareGeometryChange()
        self._x0, self._y0, self._cols, self._rows = x0, y0, cols, rows
        self._rect = QRectF(x0 * TILE, y0 * TILE, cols * TILE, rows * TILE)
        self._tiles.clear()
        self._stale = {(c, r) for c in range(cols) for r in range(rows)}
        self._quiet(self._rect)
        self._schedule()

    def set_active(self, on: bool) -> None:
        if on != self.active:
            self.active = on
            self.update()
            self._quiet(self._rect)
            self._schedule()

    def _quiet(self, rect: QRectF) -> None:
        """Tell the board's items under ``rect`` what the picture shows of them (see
        :meth:`state_of`)."""
        scene = self.scene()
        if scene is None or rect.isEmpty():
            return
        for it in scene.items(rect, Qt.ItemSelectionMode.IntersectsItemBoundingRect):
            if hasattr(it, "draw_in_picture"):
                it.set_picture_state(self.state_of(it.sceneBoundingRect()))

    def state_of(self, rect: QRectF) -> str | None:
        """What the picture shows of an item covering ``rect``: None (the picture is off),
        "clean" (all of it: Qt need not even call its paint), "stale" (none of it: it paints
        as usual, from Qt's cache) or "partial" (it paints over the stale tiles only)."""
        if not self.active:
            return None
        clean, where = self.clean_in(rect)
        return "clean" if clean else "stale" if where is None else "partial"

    def complete(self) -> bool:
        return not self._stale

    def tile_rect(self, c: int, r: int) -> QRectF:
        return QRectF((self._x0 + c) * TILE, (self._y0 + r) * TILE, TILE, TILE)

    def _span(self, rect: QRectF) -> tuple[range, range]:
        c0 = max(0, math.floor(rect.left() / TILE) - self._x0)
        c1 = min(self._cols, math.floor(rect.right() / TILE) - self._x0 + 1)
        r0 = max(0, math.floor(rect.top() / TILE) - self._y0)
        r1 = min(self._rows, math.floor(rect.bottom() / TILE) - self._y0 + 1)
        return range(c0, c1), range(r0, r1)

    def invalidate(self, rect: QRectF) -> None:
        """Something under ``rect`` (scene units) changed: its tiles are stale from now on."""
        if rect.isEmpty() or not self._cols:
            return
        cs, rs = self._span(rect)
        hit = False
        for c in cs:
            for r in rs:
                if (c, r) not in self._stale:
                    self._stale.add((c, r))
                    self._tiles.pop((c, r), None)
                    hit = True
        if hit:
            self._changed.start()
            self._quiet(QRectF(self.tile_rect(cs.start, rs.start).topLeft(),
                               self.tile_rect(cs.stop - 1, rs.stop - 1).bottomRight()))
            self._schedule()

    def clean_in(self, rect: QRectF) -> tuple[bool, QPainterPath | None]:
        """For an item covering ``rect``: (every tile under it clean, or else the part of
        ``rect`` where it must paint itself: stale tiles and what lies outside the tiles;
        None: all of it)."""
        cs, rs = self._span(rect)
        clean = [(c, r) for c in cs for r in rs if (c, r) in self._tiles]
        if not clean:
            return False, None
        if len(clean) == len(cs) * len(rs) and self._rect.contains(rect):
            return True, QPainterPath()
        drawn = QPainterPath()
        for c, r in clean:
            drawn.addRect(self.tile_rect(c, r))
        whole = QPainterPath()
        whole.addRect(rect)
        return False, whole.subtracted(drawn)

    # ------------------------------------------------------------------ drawing tiles
    def _schedule(self) -> None:
        if self.active and self._stale and not self._timer.isActive():
            wait = 0
            if self._changed.isValid():
                wait = max(0, CHANGE_PAUSE_MS - self._changed.elapsed())
            self._timer.start(wait)

    def _work(self) -> None:
        """Draw stale tiles for up to SLICE_MS, nearest the middle of the canvas first."""
        if not self.active or self.scene() is None:
            return
        if self._changed.isValid() and self._changed.elapsed() < CHANGE_PAUSE_MS:
            self._schedule()  # still changing: wait for a pause
            return
        clock = QElapsedTimer()
        clock.start()
        order = sorted(self._stale, key=self._priority())
        for key in order:
            self._draw_tile(*key)
            if clock.elapsed() >= SLICE_MS:
                break
        if self._on_progress is not None:
            total = self._cols * self._rows
            self._on_progress(total - len(self._stale), total)
        self._schedule()

    def _priority(self):
        views = [v for v in (self.scene().views() if self.scene() else []) if hasattr(v, "zoom_by")]
        if not views:
            return lambda key: key
        centre = views[0].mapToScene(views[0].viewport().rect().center())

        def far(key):
            t = self.tile_rect(*key).center()
            return (t.x() - centre.x()) ** 2 + (t.y() - centre.y()) ** 2
        return far

    def _draw_tile(self, c: int, r: int) -> None:
        rect = self.tile_rect(c, r)
        side = round(TILE * FAR_PX)
        img = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(Qt.GlobalColor.transparent)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setClipRect(QRect(0, 0, side, side))
        to_tile = QTransform().scale(FAR_PX, FAR_PX).translate(-rect.left(), -rect.top())
        scene = self.scene()
        # bottom first (items() lists the top first); only the board's own items
        for it in reversed(scene.items(rect, Qt.ItemSelectionMode.IntersectsItemBoundingRect)):
            draw = getattr(it, "draw_in_picture", None)
            if draw is None or not it.isVisible():
                continue
            p.save()
            p.setTransform(it.sceneTransform() * to_tile)
            p.setOpacity(it.effectiveOpacity())
            draw(p)
            p.restore()
        p.end()
        images = [img]
        for _ in range(MIPS - 1):
            last = images[-1]
            images.append(last.scaled(max(1, last.width() // 2), max(1, last.height() // 2),
                                      Qt.AspectRatioMode.IgnoreAspectRatio,
                                      Qt.TransformationMode.SmoothTransformation))
        self._tiles[(c, r)] = images
        self._stale.discard((c, r))
        self.drawn += 1
        self._quiet(rect)
        self.update(rect)  # the views show the tile now (the items over it stop painting)

    # ------------------------------------------------------------------ showing tiles
    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        if not self._tiles or not self.active:
            return
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        level = 0
        while level + 1 < MIPS and FAR_PX / 2 ** (level + 1) >= scale:
            level += 1
        # edges exactly on pixel centres' rule: neighbouring tiles neither overlap nor gap
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        cs, rs = self._span(option.exposedRect)
        for c in cs:
            for r in rs:
                images = self._tiles.get((c, r))
                if images is not None:
                    painter.drawImage(self.tile_rect(c, r), images[level])
