"""The overview (minimap): the whole board small, with the part the canvas shows outlined.

It is a second view of the same scene, so it shows exactly what the canvas shows (buildings,
zones, the LOS fan) and needs no drawing code of its own.  Clicking or dragging in it centres
the canvas there.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsView

from editor.canvas.items import NO_LABELS
from editor.canvas.view import CANVAS, CanvasView

#: the overview follows the canvas at most this often (ms): while a building is dragged the
#: canvas repaints every mouse move, and the small picture need not
REFRESH_MS = 150


class OverviewView(QGraphicsView):
    def __init__(self, canvas: CanvasView, parent=None):
        super().__init__(canvas.scene(), parent)
        self.canvas = canvas
        self.setObjectName("overview")
        self.setInteractive(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setBackgroundBrush(CANVAS)
        self.setRenderHints(QPainter.RenderHint.Antialiasing)
        self.setMinimumSize(160, 120)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        # no names: at this scale they covered the buildings they name
        self.viewport().setProperty(NO_LABELS, True)
        # not a live second view: each scene change would repaint it along with the canvas
        # (every item twice per mouse move).  It is redrawn a moment after the canvas is.
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.NoViewportUpdate)
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(REFRESH_MS)
        self._refresh.timeout.connect(self._redraw)
        canvas.viewport().installEventFilter(self)
        canvas.horizontalScrollBar().valueChanged.connect(self._canvas_moved)
        canvas.verticalScrollBar().valueChanged.connect(self._canvas_moved)
        canvas.zoomChanged.connect(self._canvas_moved)
        canvas.scene().sceneRectChanged.connect(lambda _r: self.fit())

    def fit(self) -> None:
        rect = getattr(self.scene(), "content_rect", self.scene().sceneRect())
        self.fitInView(rect.adjusted(-1, -1, 1, 1), Qt.AspectRatioMode.KeepAspectRatio)
        self.viewport().update()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.fit()

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        self.fit()

    def visible_rect(self) -> QRectF:
        """The part of the board the canvas shows, in board units."""
        return self.canvas.mapToScene(self.canvas.viewport().rect()).boundingRect()

    def _canvas_moved(self, *_) -> None:
        self.viewport().update()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and not self._refresh.isActive():
            self._refresh.start()  # the canvas changed: follow it soon
        return False

    def _redraw(self) -> None:
        if self.isVisible():
            self.viewport().update()

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        pen = QPen(QColor("#ff3030"), 2.0)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(QColor(255, 48, 48, 30))
        painter.drawRect(self.visible_rect())

    def _centre_canvas(self, event) -> None:
        p: QPointF = self.mapToScene(event.position().toPoint())
        self.canvas.centerOn(p)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton:
            self._centre_canvas(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._centre_canvas(event)

    def wheelEvent(self, event) -> None:  # noqa: N802
        event.ignore()  # the overview always shows the whole board
