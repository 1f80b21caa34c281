"""The zone grid drawn as tiles: card slots, faces, River, thumbnails of linked layouts,
players' edges and entries, barriers, the current path and the last landslide's pushes.

The scene is rebuilt from the zone on every change (a zone has at most a few hundred blocks);
clicks are reported as blocks, or as the shared edge of two blocks when they land near one.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView

from editor.render import paint_items
from engine.render.display import map_items
from engine.zone import rules
from engine.zone.linked import load_linked
from engine.zone.model import Block, Zone

TILE_W = 120.0
EDGE_HIT = 12.0  # px from a shared edge that still counts as clicking the edge
PLAYER_COLOURS = ("#c0392b", "#1f6fb2", "#2e8b57", "#8e44ad")
RIVER = QColor("#4a90c8")
SLOT = QColor("#e9e4d8")
FACE_DOWN = QColor("#5b4a7a")
FACE_UP = QColor("#d9c27a")
GAP = QColor("#2b2f36")


class ZoneView(QGraphicsView):
    """Left click: ``block_clicked(c, r)`` or ``edge_clicked(a, b)``; double click:
    ``block_activated(c, r)``."""

    block_clicked = Signal(int, int)
    edge_clicked = Signal(tuple, tuple)
    block_activated = Signal(int, int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setBackgroundBrush(QColor("#3a3f47"))
        self.zone: Zone | None = None
        self.base_dir = None
        self.path_blocks: list[Block] = []
        self.pushes: list[tuple[Block, Block | None]] = []
        self.highlight: list[Block] = []
        self._thumbs: dict[tuple, QPixmap] = {}

    # ------------------------------------------------------------------ geometry
    @property
    def tile(self) -> tuple[float, float]:
        if self.zone is None:
            return (TILE_W, TILE_W)
        bw, bh = self.zone.block_size
        return (TILE_W, TILE_W * bh / bw)

    def block_rect(self, b: Block) -> QRectF:
        tw, th = self.tile
        return QRectF(b[0] * tw, b[1] * th, tw, th)

    def centre(self, b: Block) -> QPointF:
        return self.block_rect(b).center()

    def hit(self, pos: QPointF) -> tuple[str, object] | None:
        """What a scene point lands on: ("edge", (a, b)) near a shared edge, else ("block", b)."""
        if self.zone is None:
            return None
        tw, th = self.tile
        c, r = math.floor(pos.x() / tw), math.floor(pos.y() / th)
        if not self.zone.on_grid((c, r)):
            return None
        fx, fy = pos.x() - c * tw, pos.y() - r * th
        near = [(fx, (c - 1, r)), (tw - fx, (c + 1, r)), (fy, (c, r - 1)), (th - fy, (c, r + 1))]
        d, other = min(near, key=lambda t: t[0])
        if d <= EDGE_HIT and self.zone.on_grid(other):
            return ("edge", ((c, r), other))
        return ("block", (c, r))

    # ------------------------------------------------------------------ drawing
    def show_zone(self, zone: Zone, base_dir=None) -> None:
        self.zone, self.base_dir = zone, base_dir
        self.rebuild()

    def rebuild(self) -> None:
        sc = self.scene()
        sc.clear()
        z = self.zone
        if z is None:
            return
        tw, th = self.tile
        river = z.river_blocks()
        small = QFont()
        small.setPointSizeF(9)
        for r in range(z.rows):
            for c in range(z.cols):
                b = (c, r)
                rect = self.block_rect(b).adjusted(3, 3, -3, -3)
                if not z.has_block(b):
                    sc.addRect(rect, QPen(QColor("#50555e"), 1, Qt.PenStyle.DotLine), QBrush(GAP))
                    continue
                zb = z.block(b)
                thumb = self.thumbnail(zb.layout) if zb and zb.layout else None
                if b in river:
                    fill = RIVER
                elif zb and zb.card == "face-down":
                    fill = FACE_DOWN
                elif zb and zb.card == "face-up":
                    fill = FACE_UP
                else:
                    fill = SLOT
                sc.addRect(rect, QPen(QColor("#20242a"), 1.5), QBrush(fill))
                if thumb is not None:
                    item = sc.addPixmap(thumb)
                    item.setPos(rect.topLeft())
                    if b in river:
                        item.setOpacity(0.6)
                label = f"{c},{r}"
                if zb and zb.label:
                    label += f"  {zb.label}"
                elif b in river:
                    label += "  River"
                elif zb and zb.card:
                    label += f"  {zb.card}"
                t = sc.addSimpleText(label, small)
                t.setBrush(QColor("#202020"))
                t.setPos(rect.left() + 4, rect.top() + 2)
                box = t.boundingRect()
                bg = sc.addRect(QRectF(rect.left() + 2, rect.top() + 2, min(box.width() + 4, rect.width() - 4),
                                       box.height()), QPen(Qt.PenStyle.NoPen), QBrush(QColor(255, 255, 255, 200)))
                bg.setZValue(1)
                t.setZValue(2)
        self._edges(sc)
        for br in z.barriers:
            a, b = br.between
            seg = self._shared(a, b)
            if seg is None:
                continue
            pen = QPen(QColor("#e4572e"), 7, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap)
            sc.addLine(seg[0].x(), seg[0].y(), seg[1].x(), seg[1].y(), pen)
            mid = (seg[0] + seg[1]) / 2
            t = sc.addSimpleText(f"Body {br.body}", small)
            t.setBrush(QColor("#ffffff"))
            box = t.boundingRect()
            bg = sc.addRect(QRectF(mid.x() - box.width() / 2 - 2, mid.y() - box.height() / 2,
                                   box.width() + 4, box.height()), QPen(Qt.PenStyle.NoPen), QBrush(QColor("#b03a1e")))
            bg.setZValue(5)
            t.setZValue(6)
            t.setPos(mid.x() - box.width() / 2, mid.y() - box.height() / 2)
        if len(self.path_blocks) >= 1:
            pts = [self.centre(b) for b in self.path_blocks]
            path = QPainterPath(pts[0])
            for p in pts[1:]:
                path.lineTo(p)
            item = sc.addPath(path, QPen(QColor("#f2c94c"), 5, Qt.PenStyle.DashLine, Qt.PenCapStyle.RoundCap))
            item.setZValue(8)
            for p in pts:
                dot = sc.addEllipse(p.x() - 6, p.y() - 6, 12, 12, QPen(QColor("#20242a")), QBrush(QColor("#f2c94c")))
                dot.setZValue(9)
        for src, dst in self.pushes:
            self._arrow(sc, src, dst)
        for b in self.highlight:
            item = sc.addRect(self.block_rect(b).adjusted(1, 1, -1, -1), QPen(QColor("#ff3b30"), 4), QBrush())
            item.setZValue(10)
        sc.setSceneRect(QRectF(-60, -50, z.cols * tw + 120, z.rows * th + 100))

    def _shared(self, a: Block, b: Block) -> tuple[QPointF, QPointF] | None:
        ra = self.block_rect(a)
        if b == (a[0] + 1, a[1]):
            return (ra.topRight(), ra.bottomRight())
        if b == (a[0] - 1, a[1]):
            return (ra.topLeft(), ra.bottomLeft())
        if b == (a[0], a[1] + 1):
            return (ra.bottomLeft(), ra.bottomRight())
        if b == (a[0], a[1] - 1):
            return (ra.topLeft(), ra.topRight())
        return None

    def _edges(self, sc: QGraphicsScene) -> None:
        z = self.zone
        tw, th = self.tile
        font = QFont()
        font.setPointSizeF(11)
        font.setBold(True)
        for i, p in enumerate(z.players):
            col = QColor(PLAYER_COLOURS[i % 4])
            ents = rules.entries(z, p.id)
            for b in ents:
                rect = self.block_rect(b)
                side = p.safehouse
                bar = {"north": QRectF(rect.left() + 6, rect.top() - 12, rect.width() - 12, 8),
                       "south": QRectF(rect.left() + 6, rect.bottom() + 4, rect.width() - 12, 8),
                       "west": QRectF(rect.left() - 12, rect.top() + 6, 8, rect.height() - 12),
                       "east": QRectF(rect.right() + 4, rect.top() + 6, 8, rect.height() - 12)}[side]
                sc.addRect(bar, QPen(Qt.PenStyle.NoPen), QBrush(col))
            t = sc.addSimpleText(f"{p.name or p.id} ({p.id}) safehouse", font)
            t.setBrush(col.lighter(150))
            w, h = t.boundingRect().width(), t.boundingRect().height()
            W, H = z.cols * tw, z.rows * th
            pos = {"north": (W / 2 - w / 2, -16 - h - 8), "south": (W / 2 - w / 2, H + 16),
                   "west": (-20 - h, H / 2 + w / 2), "east": (W + 20 + h, H / 2 - w / 2)}[p.safehouse]
            t.setPos(*pos)
            if p.safehouse == "west":
                t.setRotation(-90)
            elif p.safehouse == "east":
                t.setRotation(90)

    def _arrow(self, sc: QGraphicsScene, src: Block, dst: Block | None) -> None:
        a = self.centre(src)
        pen = QPen(QColor("#ff9f1c"), 4)
        if dst is None or tuple(dst) == tuple(src):
            item = sc.addEllipse(a.x() - 16, a.y() - 16, 32, 32, pen, QBrush())
            item.setZValue(11)
            return
        b = self.centre(dst)
        d = b - a
        length = math.hypot(d.x(), d.y()) or 1.0
        ux, uy = d.x() / length, d.y() / length
        tip = b - QPointF(ux * 14, uy * 14)
        line = sc.addLine(a.x(), a.y(), tip.x(), tip.y(), pen)
        line.setZValue(11)
        left = tip - QPointF(ux * 14 - uy * 8, uy * 14 + ux * 8)
        right = tip - QPointF(ux * 14 + uy * 8, uy * 14 - ux * 8)
        head = sc.addPolygon(QPolygonF([tip, left, right]), pen, QBrush(QColor("#ff9f1c")))
        head.setZValue(11)

    def thumbnail(self, ref: str) -> QPixmap | None:
        """A picture of a linked layout's street level at tile size (None if it does not load)."""
        ln = load_linked(self.base_dir, ref)
        if not ln.ok:
            return None
        tw, th = self.tile
        key = (str(ln.path), id(ln.board), int(tw), int(th))
        pm = self._thumbs.get(key)
        if pm is not None:
            return pm
        bw, bh = self.zone.block_size
        w, h = int(tw - 6), int(th - 6)
        pm = QPixmap(w, h)
        pm.fill(QColor("#f6f5f0"))
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        k = min(w / bw, h / bh)
        p.scale(k, k)
        p.translate(0.5, 0.5)
        paint_items(p, map_items(ln.board, 0, clip=(-0.5, -0.5, bw - 0.5, bh - 0.5)))
        p.end()
        self._thumbs[key] = pm
        return pm

    # ------------------------------------------------------------------ interaction
    def fit(self) -> None:
        if self.zone is not None:
            self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def zoom_to(self, blocks: list[Block]) -> None:
        """Frame the given blocks (a finding's) and outline them."""
        self.highlight = [tuple(b) for b in blocks]
        self.rebuild()
        if not blocks:
            self.fit()
            return
        rect = QRectF()
        for b in self.highlight:
            rect = rect.united(self.block_rect(b))
        self.fitInView(rect.adjusted(-TILE_W, -TILE_W, TILE_W, TILE_W), Qt.AspectRatioMode.KeepAspectRatio)

    def wheelEvent(self, e):  # noqa: N802 - Qt's name
        f = 1.15 if e.angleDelta().y() > 0 else 1 / 1.15
        self.scale(f, f)

    def mousePressEvent(self, e):  # noqa: N802
        if e.button() == Qt.MouseButton.LeftButton:
            got = self.hit(self.mapToScene(e.position().toPoint()))
            if got is not None:
                kind, what = got
                if kind == "edge":
                    self.edge_clicked.emit(what[0], what[1])
                else:
                    self.block_clicked.emit(*what)
                return
        super().mousePressEvent(e)

    def mouseDoubleClickEvent(self, e):  # noqa: N802
        got = self.hit(self.mapToScene(e.position().toPoint()))
        if got is not None and got[0] == "block":
            self.block_activated.emit(*got[1])
            return
        super().mouseDoubleClickEvent(e)
