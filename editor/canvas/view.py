"""The board view: wheel zoom about the cursor, middle-button (or Space) pan, the dot grid.

The dot grid is painted in ``drawBackground`` for the visible part of the board only; when
the dots get closer than a few pixels it thins them to every 2nd, 4th, ... dot, so a grid is
visible at every zoom without painting millions of points.  Mouse and key events go to the
active tool first.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsView

from editor.canvas import label_layout
from editor.canvas.city_picture import FAR_PX
from editor.render.painter import polygon
from engine.lattice import get_lattice

MIME = "application/x-sprawlmap-sheet"
MIN_GAP_PX = 7.0
MAX_DOTS = 60000
CANVAS = QColor(104, 108, 116)


class CanvasView(QGraphicsView):
    hovered = Signal(QPointF)
    zoomChanged = Signal(float)
    dropped = Signal(str, QPointF)
    #: right-click: (global position, scene position); the window offers its menu
    contextMenuAsked = Signal(QPoint, QPointF)

    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        # repaint only what changed (a dragged building, an overlay), and keep the dot grid
        # as a picture that is redrawn only when the view is zoomed or scrolled
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setMouseTracking(True)
        # scroll bars that come and go would resize the viewport under the mouse
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setAcceptDrops(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.tool = None
        self.lattice_name = "square"
        self._pan: QPointF | None = None
        self._space = False
        #: what the names were last laid out for (editor.canvas.label_layout.layout_key)
        self._label_key: tuple | None = None
        #: the scene's names (label_layout.Names) and the names_version they are of
        self._names: tuple[int, label_layout.Names] | None = None
        #: the dot grid is drawn (View > Dot grid)
        self.show_grid = True
        self.scale(20, 20)

    # ------------------------------------------------------------------ zoom
    def zoom(self) -> float:
        return abs(self.transform().m11()) or abs(self.transform().m12())

    def zoom_by(self, factor: float) -> None:
        z = self.zoom() * factor
        if 1.0 <= z <= 400.0:
            self.scale(factor, factor)
            self.zoomChanged.emit(self.zoom())

    def set_zoom(self, px_per_dot: float, centre: tuple[float, float] | None = None) -> None:
        """Show the board at ``px_per_dot`` pixels per dot, centred on ``centre``."""
        self.resetTransform()
        self.scale(px_per_dot, px_per_dot)
        if centre is not None:
            self.centerOn(*centre)
        self.zoomChanged.emit(self.zoom())

    def wheelEvent(self, event) -> None:  # noqa: N802
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom_by(1.2 ** steps)

    def fit(self) -> None:
        rect = getattr(self.scene(), "content_rect", self.scene().sceneRect())
        self.fitInView(rect.adjusted(-1.5, -1.5, 1.5, 1.5), Qt.AspectRatioMode.KeepAspectRatio)
        self.zoomChanged.emit(self.zoom())

    def paintEvent(self, event) -> None:  # noqa: N802
        # far out, the board is shown from the scene's city picture: switched here, where
        # every way of zooming (wheel, keys, fit, a script's scale()) ends up
        far = self.zoom() < FAR_PX
        set_far = getattr(self.scene(), "set_far", None)
        if set_far is not None:
            set_far(far)
        self._lay_out_labels()
        super().paintEvent(event)

    def _lay_out_labels(self) -> None:
        """Keep the names clear of each other at this zoom (see editor.canvas.label_layout):
        again only when the zoom, the part shown or the names changed since the last paint."""
        scene = self.scene()
        if not hasattr(scene, "canvas_labels"):
            return
        key = label_layout.layout_key(self, scene.names_version)
        if key == self._label_key:
            return
        if self._names is None or self._names[0] != scene.names_version:
            self._names = (scene.names_version, label_layout.Names(scene.canvas_labels()))
        self._label_key = key
        label_layout.lay_out(self, self._names[1], scene.label_blocks(), scene.content_rect)

    # ------------------------------------------------------------------ grid
    def set_grid(self, on: bool) -> None:
        self.show_grid = bool(on)
        self.resetCachedContent()
        self.viewport().update()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        painter.fillRect(rect, CANVAS)
        if not self.show_grid:
            return
        lat = get_lattice(self.lattice_name)
        px = self.zoom()
        stride = 1
        while stride * px < MIN_GAP_PX:
            stride *= 2
        x0, y0 = rect.left() - 1, rect.top() - 1
        x1, y1 = rect.right() + 1, rect.bottom() + 1
        if lat.name == "square":
            cs = np.arange(math.ceil(x0 / stride) * stride, x1, stride)
            rs = np.arange(math.ceil(y0 / stride) * stride, y1, stride)
            if len(cs) * len(rs) > MAX_DOTS:
                return
            cc, rr = np.meshgrid(cs, rs)
            pts = np.stack([cc.ravel(), rr.ravel()], axis=1).astype(float)
            major = (np.abs(pts[:, 0]) % 10 == 0) & (np.abs(pts[:, 1]) % 10 == 0)
        else:
            dots = lat.dots_in_box(x0, y0, x1, y1)
            if len(dots) > MAX_DOTS * stride * stride:
                return
            keep = (dots[:, 0] % stride == 0) & (dots[:, 1] % stride == 0)
            dots = dots[keep]
            pts = lat.points(dots)
            major = (dots[:, 0] % 10 == 0) & (dots[:, 1] % 10 == 0)
        size = max(2.0, min(6.0, px * stride * 0.16))
        for sel, colour, grow in ((~major, QColor(15, 15, 15, 230), 1.0),
                                  (major, QColor(0, 0, 0, 255), 1.5)):
            sub = pts[sel]
            if not len(sub):
                continue
            pen = QPen(colour, size * grow)
            pen.setCosmetic(True)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawPoints(polygon(sub))

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        # the grid shows through the (translucent) sheets; nothing else goes on top
        return

    # ------------------------------------------------------------------ events
    def _scene_pos(self, event) -> QPointF:
        return self.mapToScene(event.position().toPoint())

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.MiddleButton or (
                self._space and event.button() == Qt.MouseButton.LeftButton):
            self._pan = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        self.setFocus()
        if self.tool is not None and self.tool.press(event, self._scene_pos(event)):
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._pan is not None:
            d = event.position() - self._pan
            self._pan = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(d.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(d.y()))
            return
        p = self._scene_pos(event)
        self.hovered.emit(p)
        if self.tool is not None and self.tool.move(event, p):
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if self._pan is not None:
            self._pan = None
            self.viewport().unsetCursor()
            return
        if self.tool is not None and self.tool.release(event, self._scene_pos(event)):
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802
        if self.tool is not None and self.tool.double_click(event, self._scene_pos(event)):
            return
        super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            return
        if event.key() in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(1.25)
            return
        if event.key() == Qt.Key.Key_Minus:
            self.zoom_by(0.8)
            return
        if self.tool is not None and self.tool.key(event):
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            return
        super().keyReleaseEvent(event)

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        self.contextMenuAsked.emit(event.globalPos(), self.mapToScene(event.pos()))
        event.accept()

    # ------------------------------------------------------------------ drops from the library
    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:  # noqa: N802
        if event.mimeData().hasFormat(MIME):
            key = bytes(event.mimeData().data(MIME)).decode()
            self.dropped.emit(key, self.mapToScene(event.position().toPoint()))
            event.acceptProposedAction()
        else:
            super().dropEvent(event)
