"""The canvas tool of play mode: hover to preview a move, click to make it, drag to set an arc,
click an enemy to aim (fire mode) or a dot to throw at (throw mode).

All rules questions go to :class:`editor.play.mode.PlayMode` (and through it to the engine);
this tool only turns mouse and keys into those questions and draws the answers: the dots the
character can still reach (shaded by MP), the cheapest path with the running MP at each step,
red rings where the path enters an enemy's reaction arc, and the wedge of an arc being dragged.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsPathItem

from editor.play.counters import arc_item
from editor.play.panel import PlayPanel
from editor.play.preview import PathPreview
from editor.tools.base import Tool, cosmetic
from editor.tools.movement import reach_colours
from editor.tools.overlay import DotShade, text_item
from engine.lattice import Dot3, Lattice
from engine.play.game import Game
from engine.play.reaction import Arc
from engine.play.state import CharacterState

PATH_OK = "#1e90ff"
PATH_TOO_FAR = "#808080"
WARN = "#e01010"
DRAG_MIN = 0.6  # dots the mouse must travel from the counter before a drag is an arc


class PlayController(Protocol):
    """What the play tool asks of play mode (:class:`editor.play.mode.PlayMode`)."""

    active: bool
    leaving: bool
    game: Game | None
    panel: PlayPanel

    @property
    def lattice(self) -> Lattice: ...
    def selected(self) -> CharacterState | None: ...
    def leave(self, switch_tool: bool = True) -> None: ...
    def commit_move(self, dot) -> None: ...
    def set_arc(self, direction: float) -> None: ...
    def end_move(self) -> None: ...
    def cancel_modes(self) -> None: ...


class PlayTool(Tool):
    name = "play"
    DMZ_HINT = ("Play: hover a dot to see the path, click to move; drag from the character to "
                "set an arc; F fire, Enter end move, Esc cancel")

    @property
    def hint(self) -> str:  # type: ignore[override]
        """The status line in the referee's terms: arcs are DMZ's; another ruleset names its
        own buttons (darkcon: Aim, Charge)."""
        g = self.mode.game
        if g is None or g.can_hold_arcs:
            return self.DMZ_HINT
        own = ", ".join(label.rstrip("…") for _a, label, _t, _p in g.play_buttons())
        return ("Play: hover a dot to see the path, click to move; "
                + (f"{own}: press, then click the map; " if own else "")
                + "F fire, Enter end move, Esc cancel")

    def __init__(self, ctx, mode: PlayController):
        super().__init__(ctx)
        self.mode = mode
        self.hover_dot: Dot3 | None = None
        self.preview: PathPreview | None = None
        self.drag_from: QPointF | None = None
        self.dragging = False
        self.press_dot: Dot3 | None = None
        self._reach_key = None
        self._reach_item = None
        self._path_items: list = []
        self._ghost = None

    # ------------------------------------------------------------------ lifecycle
    def deactivate(self) -> None:
        self.clear_overlay()
        self._reach_item = None
        self._reach_key = None
        self._path_items = []
        if self.mode.active and not self.mode.leaving:
            self.mode.leave(switch_tool=False)  # the window is switching tools already

    def refresh(self) -> None:
        """The game or the level changed: redraw reach and the preview of the hovered dot."""
        self.draw_reach()
        if self.hover_dot is not None and self.hover_dot[2] != self.state.level:
            self.hover_dot = None  # a dot of the level we left
        self.hover(self.hover_dot, force=True)

    def document_changed(self) -> None:
        """The layout is read-only while playing: nothing to redo."""

    # ------------------------------------------------------------------ helpers
    def dot_of(self, p: QPointF) -> Dot3:
        c, r = self.mode.lattice.dot_at((p.x(), p.y()))
        return (c, r, self.state.level)

    def _remove(self, items) -> None:
        for it in items:
            if it is not None and it.scene() is not None:
                it.scene().removeItem(it)
            if it in self._overlay:
                self._overlay.remove(it)

    # ------------------------------------------------------------------ events
    def press(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton or self.mode.game is None:
            return False
        d = self.dot_of(p)
        m = self.mode
        if m.fire_armed:
            who = m.character_at(d)
            if who is not None:
                m.preview_fire(who.id)
            return True
        if m.throw_armed:
            m.throw_at(d)
            return True
        if m.cast_armed:
            m.cast_at(d)
            return True
        if m.levitate_armed or m.blind_armed:
            m.magic_move_at(d)
            return True
        if m.rule_armed:
            m.rule_at(d)
            return True
        sel = m.selected()
        who = m.game.state.occupant(d)  # only this level's counters: a click here is a move
        if sel is not None and sel.pos == d:
            self.drag_from = QPointF(*m.game.point(d))
            self.dragging = False
            return True
        if who is not None and who.id in m.game.movable():
            m.select(who.id)
            return True
        self.press_dot = d
        return True

    def move(self, ev, p: QPointF) -> bool:
        if self.drag_from is not None:
            dx, dy = p.x() - self.drag_from.x(), p.y() - self.drag_from.y()
            if math.hypot(dx, dy) >= DRAG_MIN:
                self.dragging = True
                self.draw_ghost(math.degrees(math.atan2(dy, dx)))
            return True
        d = self.dot_of(p)
        if d != self.hover_dot:
            self.hover(d)
        return False

    def release(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        if self.drag_from is not None:
            origin, dragged = self.drag_from, self.dragging
            self.drag_from = None
            self.dragging = False
            self._remove([self._ghost])
            self._ghost = None
            if dragged:
                self.mode.set_arc(math.degrees(math.atan2(p.y() - origin.y(),
                                                          p.x() - origin.x())))
            return True
        if self.press_dot is not None:
            d, self.press_dot = self.press_dot, None
            if d == self.dot_of(p):
                self.mode.commit_move(d)
            return True
        return False

    def key(self, ev) -> bool:
        k = ev.key()
        if k in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.mode.end_move()
            return True
        if k == Qt.Key.Key_Escape:
            self.mode.cancel_modes()
            return True
        if k == Qt.Key.Key_F:
            self.mode.panel.fire.toggle()
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def draw_reach(self) -> None:
        """Shade the dots the character to move can still reach on this level."""
        m = self.mode
        ch = m.selected()
        key = None if ch is None else (ch.id, ch.pos, ch.mp_left, ch.posture,
                                       len(m.game.actions), self.state.level)
        if key == self._reach_key:
            return
        self._remove([self._reach_item])
        self._reach_item = None
        self._reach_key = key
        if ch is None or ch.pos is None or ch.mp_left <= 0:
            return
        reach = m.game.board.reach(ch.pos, ch.move_ratio, ch.mp_left, crawl=ch.posture == "prone")
        here = [(d[0], d[1], cost) for d, cost in reach.items()
                if d[2] == self.state.level and cost > 0]
        if not here:
            return
        arr = np.array(here, dtype=int)
        self._reach_item = self.add_overlay(
            DotShade(m.game.board.lattice.name, arr[:, :2], reach_colours(arr[:, 2], ch.mp_left)),
            z=60)

    def hover(self, d: Dot3 | None, force: bool = False) -> None:
        """Preview the path to ``d`` (the mode updates the panel's MP and warning lines)."""
        if d == self.hover_dot and not force:
            return
        self.hover_dot = d
        self._remove(self._path_items)
        self._path_items = []
        m = self.mode
        self.preview = m.preview_path(None if m.fire_armed or m.throw_armed or m.cast_armed
                                      or m.rule_armed or m.levitate_armed or m.blind_armed
                                      else d)
        if m.throw_armed and d is not None:
            self.draw_throw(d)
        pv = self.preview
        if pv is None:
            return
        lat = m.lattice
        path = QPainterPath(QPointF(*lat.point(pv.dots[0][:2])))
        for dot in pv.dots[1:]:
            path.lineTo(QPointF(*lat.point(dot[:2])))
        line = QGraphicsPathItem(path)
        line.setPen(cosmetic(PATH_OK if pv.affordable else PATH_TOO_FAR, 4))
        self._path_items.append(self.add_overlay(line, z=119))
        allowance = pv.running[0] - pv.costs[0] + pv.mp_left  # MP spent before + MP left
        for dot, total in zip(pv.dots[1:], pv.running, strict=False):
            if dot[2] != self.state.level:
                continue
            colour = "#ffffff" if total <= allowance else "#ff9090"
            self._path_items.append(self.add_overlay(
                text_item(str(total), QPointF(*lat.point(dot[:2])), colour=colour, size=7.5),
                z=130))
        for e in pv.entries:
            x, y = lat.point(e.dot[:2])
            ring = QGraphicsEllipseItem(x - 0.55, y - 0.55, 1.1, 1.1)
            ring.setPen(cosmetic(WARN, 3))
            ring.setBrush(QBrush(QColor(224, 16, 16, 70)))
            self._path_items.append(self.add_overlay(ring, z=125))
        if pv.entries:
            x, y = lat.point(pv.entries[0].dot[:2])
            self._path_items.append(self.add_overlay(
                text_item("enemy arc!", QPointF(x, y), colour="#ff6060", size=8.5, right=True),
                z=131))

    def draw_throw(self, d: Dot3) -> None:
        """The line of a throw at ``d`` and its cost and chance in the panel."""
        m = self.mode
        tp = m.preview_throw(d)
        ch = m.selected()
        if tp is None or ch is None or ch.pos is None:
            return
        lat = m.lattice
        path = QPainterPath(QPointF(*lat.point(ch.pos[:2])))
        path.lineTo(QPointF(*lat.point(d[:2])))
        line = QGraphicsPathItem(path)
        line.setPen(cosmetic("#ffb000", 3, Qt.PenStyle.DashLine))
        self._path_items.append(self.add_overlay(line, z=119))
        x, y = lat.point(d[:2])
        ring = QGraphicsEllipseItem(x - 0.5, y - 0.5, 1.0, 1.0)
        ring.setPen(cosmetic("#ffb000", 3))
        self._path_items.append(self.add_overlay(ring, z=125))

    def warning_items(self) -> list:
        """The red rings of the current preview (the tests look for them)."""
        return [it for it in self._path_items if isinstance(it, QGraphicsEllipseItem)
                and it.pen().color().name() == WARN]

    def draw_ghost(self, direction: float) -> None:
        ch = self.mode.selected()
        if ch is None or ch.pos is None:
            return
        self._remove([self._ghost])
        kind = self.mode.panel.arc_box.currentData()
        arc = Arc(kind, self.mode.game.point(ch.pos), direction)
        colour = QColor(255, 230, 40)
        self._ghost = self.add_overlay(arc_item(arc, colour, reach=8.0), z=118)
        self.ctx.show_hint(f"Arc: {kind} towards {direction:.0f}° — release to set it")

