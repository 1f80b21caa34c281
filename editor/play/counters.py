"""Counters on the board: one disc per character, his reaction arcs, the map changes of play.

A counter is a disc the size of a dot in its side's colour with the character's initials; a
prone character's disc carries a dark bar; a ring marks the character to move; one who is out
of the fight is drawn grey with a cross.  Under the disc, at a fixed pixel size, a strip of
thirteen boxes (12..0) shows his Condition Monitor: stun yellow, physical red.  Reaction arcs
are translucent wedges in the side's colour.  Characters on other levels than the one looked
at are faint ghosts, so a sniper on a roof still sees the street's counters.  The map changes
of play (doors opened, holes, smoke) are drawn over the layout, which itself never changes;
so is an item its carrier dropped when he went down: a case symbol on the dot where it lies
now, the scenario's own symbol staying where the item started.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
)

from editor.canvas import objective_icons
from editor.canvas.scenario_item import side_colour
from engine.play.condition import BOXES, PHYSICAL, STUN
from engine.play.reaction import Arc
from engine.play.state import PRONE, CharacterState

RADIUS = 0.42
ARC_REACH = 14.0  # dots a dragged wedge is drawn out to (the arc itself has no end)
Z_ARCS = 84
Z_COUNTERS = 90
Z_ITEMS = Z_COUNTERS + 2  # a dropped item stays in sight over the counter of its carrier
GHOST_OPACITY = 0.4  # characters on other levels
OPENED = QColor(40, 200, 90)
SHUT = QColor(220, 50, 40)
HOLE = QColor(255, 150, 0)
SPELL_BARRIER = QColor(60, 170, 255)  # a Barrier spell's force-field
SPELL_AREA = QColor(150, 90, 200)  # a Poltergeist's whirling debris


def initials(ch: CharacterState) -> str:
    words = [w for w in (ch.name or ch.id).replace("-", " ").replace(".", " ").split() if w]
    if len(words) >= 2:
        return (words[0][0] + words[-1][0]).upper()
    return (words[0][:2] if words else "?").upper()


class ConditionStrip(QGraphicsItem):
    """The condition track at a fixed pixel size under a counter: the DMZ Condition Monitor
    box by box; another ruleset's track as its condition's ``strip()`` gives it (marks, None
    for an empty box), else 13 boxes filled down to its ``lowest`` (12 scratched, 0 out)."""

    CELL = 3.0
    GAP = 1.0

    def __init__(self, ch: CharacterState, parent: QGraphicsItem):
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        # a ruleset's own tracks (sr1: 10 Physical then 10 Mental boxes; sr3: 10 Physical then
        # 10 Stun) when it draws them
        self.boxes = self.marks(ch.condition)
        w = len(self.boxes) * (self.CELL + self.GAP) + self.GAP
        self._rect = QRectF(-w / 2, 11.0, w, self.CELL + 2 * self.GAP)

    @staticmethod
    def marks(cond: Any) -> list[str | None]:
        strip = getattr(cond, "strip", None)
        if callable(strip):
            return list(strip())
        boxes = getattr(cond, "boxes", None)
        if isinstance(boxes, dict):
            return [boxes[b] for b in BOXES]
        low = cond.lowest
        return [PHYSICAL if low is not None and b >= low else None for b in BOXES]

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(QColor(20, 20, 24, 220)))
        painter.drawRect(self._rect)
        x = self._rect.left() + self.GAP
        y = self._rect.top() + self.GAP
        for mark in self.boxes:
            colour = {STUN: QColor(250, 210, 40), PHYSICAL: QColor(230, 40, 30)}.get(
                mark, QColor(235, 235, 235))
            painter.setBrush(QBrush(colour))
            painter.drawRect(QRectF(x, y, self.CELL, self.CELL))
            x += self.CELL + self.GAP


class CounterItem(QGraphicsItem):
    """One character's counter, centred on his dot."""

    def __init__(self, ch: CharacterState, colour: QColor, active: bool, at: QPointF,
                 units: str = "MP"):
        super().__init__()
        self.char_id = ch.id
        self.label = initials(ch)
        self.colour = QColor(colour)
        self.prone = ch.posture == PRONE
        self.out = ch.condition.out
        self.active = active
        self.setPos(at)
        self.setZValue(Z_COUNTERS + (1 if active else 0))
        self.setToolTip(f"{ch.name or ch.id} ({ch.side}) — {ch.posture}, "
                        f"{ch.mp_left:g}/{ch.mp:g} {units}")
        self.strip = ConditionStrip(ch, self)

    def boundingRect(self) -> QRectF:  # noqa: N802
        r = RADIUS + 0.2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        fill = QColor(120, 120, 120) if self.out else self.colour
        if self.active:
            ring = QPen(QColor(255, 230, 40), 0.14)
            painter.setPen(ring)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), RADIUS + 0.12, RADIUS + 0.12)
        painter.setPen(QPen(QColor(255, 255, 255), 0.07))
        painter.setBrush(QBrush(fill))
        painter.drawEllipse(QPointF(0, 0), RADIUS, RADIUS)
        if self.prone:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(QColor(20, 20, 20, 200)))
            painter.drawRect(QRectF(-RADIUS * 0.8, RADIUS * 0.35, RADIUS * 1.6, RADIUS * 0.35))
        # the initials: fonts are laid out in pixels, so draw them in a scaled-down frame
        painter.save()
        s = 0.02
        painter.scale(s, s)
        font = QFont()
        font.setPixelSize(22)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QPen(QColor(255, 255, 255)))
        box = QRectF(-RADIUS / s, -RADIUS / s - (4 if self.prone else 0), 2 * RADIUS / s,
                     2 * RADIUS / s)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.label)
        painter.restore()
        if self.out:
            painter.setPen(QPen(QColor(30, 30, 30), 0.09))
            d = RADIUS * 0.7
            painter.drawLine(QPointF(-d, -d), QPointF(d, d))
            painter.drawLine(QPointF(-d, d), QPointF(d, -d))


class DroppedItem(QGraphicsItem):
    """A retrieve item lying where its carrier fell: the objective's case symbol, smaller
    than a counter and set off to the dot's upper right (the condition strip hangs below),
    so the fallen carrier's counter on the same dot leaves it in sight."""

    R = 0.3
    OFFSET = QPointF(0.4, -0.4)

    def __init__(self, at: QPointF, colour: QColor, tip: str):
        super().__init__()
        self.colour = QColor(colour)
        self.setPos(at + self.OFFSET)
        self.setZValue(Z_ITEMS)
        self.setToolTip(tip)

    def boundingRect(self) -> QRectF:  # noqa: N802
        r = self.R * 1.2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        objective_icons.draw(painter, "retrieve", QPointF(0, 0), self.R, self.colour)


def wedge_path(arc: Arc, reach: float = ARC_REACH) -> QPainterPath:
    """The arc's wedge from its origin out to ``reach`` dots (degrees: x right, y down)."""
    ox, oy = arc.origin
    path = QPainterPath(QPointF(ox, oy))
    half = arc.width / 2.0
    steps = max(4, int(arc.width / 5))
    for i in range(steps + 1):
        a = math.radians(arc.direction - half + arc.width * i / steps)
        path.lineTo(QPointF(ox + reach * math.cos(a), oy + reach * math.sin(a)))
    path.closeSubpath()
    return path


def arc_item(arc: Arc, colour: QColor, reach: float = ARC_REACH) -> QGraphicsPathItem:
    item = QGraphicsPathItem(wedge_path(arc, reach))
    fill = QColor(colour)
    fill.setAlpha(34)
    edge = QColor(colour)
    edge.setAlpha(190)
    pen = QPen(edge, 1.5)
    pen.setCosmetic(True)
    item.setPen(pen)
    item.setBrush(QBrush(fill))
    item.setZValue(Z_ARCS)
    return item


class CounterLayer:
    """Every counter and arc of a game on one level, rebuilt from the game state."""

    def __init__(self, scene: QGraphicsScene):
        self.scene = scene
        self.items: list[QGraphicsItem] = []
        self.counters: dict[str, CounterItem] = {}
        self.arcs: list[QGraphicsPathItem] = []
        self.dropped: list[DroppedItem] = []

    def clear(self) -> None:
        for it in self.items:
            if it.scene() is not None:
                it.scene().removeItem(it)
        self.items.clear()
        self.counters.clear()
        self.arcs.clear()
        self.dropped.clear()

    def rebuild(self, game, level: int, highlight: str | None, reach: float = ARC_REACH,
                ) -> None:
        """Counters on ``level``; arcs on every level (they reach all of them), drawn out to
        ``reach`` dots: the whole board, since an arc has no end."""
        self.clear()
        st = game.state
        sides = st.sides()
        self._map_changes(game, level)
        self._dropped_items(game, level, sides)
        for ch in st.characters.values():
            colour = side_colour(sides.index(ch.side) if ch.side in sides else 0)
            for arc in ch.arcs:
                if ch.pos is not None and not ch.out:
                    item = arc_item(arc, colour, reach)
                    self.scene.addItem(item)
                    self.items.append(item)
                    self.arcs.append(item)
            if ch.pos is None or ch.exited is not None:
                continue
            x, y = game.point(ch.pos)
            item = CounterItem(ch, colour, ch.id == highlight, QPointF(x, y),
                               getattr(game, "units", "MP"))
            if ch.pos[2] != level:  # another level: a faint ghost, under this level's counters
                item.setOpacity(GHOST_OPACITY)
                item.setZValue(Z_COUNTERS - 1)
                item.setToolTip(f"{item.toolTip()} — on level {ch.pos[2]}")
            self.scene.addItem(item)
            self.items.append(item)
            self.counters[ch.id] = item

    def _dropped_items(self, game, level: int, sides: list[str]) -> None:
        """Items lying where a carrier fell (the state's ``items``), one symbol per dot: two
        objectives naming one item (each side's way out with it) share it."""
        by_dot: dict[tuple[int, ...], list[str]] = {}
        for oid, dot in game.state.items.items():
            by_dot.setdefault(tuple(dot), []).append(oid)
        objectives = {o.id: o for o in game.objectives}
        for dot, oids in by_dot.items():
            if dot[2] != level:
                continue
            first = objectives.get(oids[0])
            side = first.side if first is not None else ""
            colour = side_colour(sides.index(side) if side in sides else 0)
            x, y = game.point(dot)
            tip = (f"{' / '.join(oids)}: dropped here ({dot[0]},{dot[1]}, level {dot[2]}) "
                   f"when its carrier went down; anyone may pick it up")
            item = DroppedItem(QPointF(x, y), colour, tip)
            self.scene.addItem(item)
            self.items.append(item)
            self.dropped.append(item)

    def _map_changes(self, game, level: int) -> None:
        """What play changed on this level: doors and windows opened or shut (green or red
        bars over the drawn ones), holes blasted (orange), smoke laid (grey dots)."""
        st = game.state
        board = getattr(game.board, "board", None)  # the engine board behind the view
        if board is None:
            return
        marks = [(fid, OPENED if state == "open" else SHUT) for fid, state in st.openings.items()]
        marks += [(key.rpartition("@")[0], HOLE) for key in st.holes]
        for fid, colour in marks:
            f = board.feature(fid)
            if f is None or f.level != level or f.geom.is_empty:
                continue
            path = QPainterPath()
            for line in getattr(f.geom, "geoms", [f.geom]):
                pts = list(getattr(line, "coords", []))
                if len(pts) >= 2:
                    path.moveTo(QPointF(*pts[0]))
                    for x, y in pts[1:]:
                        path.lineTo(QPointF(x, y))
            item = QGraphicsPathItem(path)
            pen = QPen(colour, 5.0)
            pen.setCosmetic(True)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            item.setPen(pen)
            item.setZValue(Z_ARCS + 1)
            item.setToolTip(f"{fid}: {'hole' if colour == HOLE else st.openings.get(fid)}")
            self.scene.addItem(item)
            self.items.append(item)
        for area in st.spell_areas:  # a Barrier's force-field, a Poltergeist's debris
            f = board.feature(area["id"])
            if f is None or f.level != level or f.geom.is_empty:
                continue
            barrier = f.kind == "force-field"
            path = QPainterPath()
            for part in getattr(f.geom, "geoms", [f.geom]):
                ring = getattr(part, "exterior", part)
                pts = list(getattr(ring, "coords", []))
                if len(pts) >= 2:
                    path.moveTo(QPointF(*pts[0]))
                    for x, y in pts[1:]:
                        path.lineTo(QPointF(x, y))
            item = QGraphicsPathItem(path)
            pen = QPen(SPELL_BARRIER if barrier else SPELL_AREA, 4.0 if barrier else 2.0)
            pen.setCosmetic(True)
            item.setPen(pen)
            if not barrier:
                item.setBrush(QBrush(QColor(150, 90, 200, 50)))
            item.setZValue(Z_ARCS + 1)
            item.setToolTip(f"{area['spell']} of {area['by']}, Force {area['force']}")
            self.scene.addItem(item)
            self.items.append(item)
        smoke = [d for d in st.smoke if d[2] == level]
        for c, r, _l in smoke:
            x, y = game.point((c, r, level))
            item = QGraphicsEllipseItem(x - 0.45, y - 0.45, 0.9, 0.9)
            item.setPen(QPen(Qt.PenStyle.NoPen))
            item.setBrush(QBrush(QColor(200, 200, 200, 150)))
            item.setZValue(Z_ARCS + 1)
            self.scene.addItem(item)
            self.items.append(item)
