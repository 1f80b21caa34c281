"""The movement tool: click a dot, see how far it reaches, hover for the cheapest path.

Reach is shaded by MP spent (up to the MP chosen in the tool bar, 12 by default: a turn's
allowance) at the chosen move ratio; the path
to the hovered dot is drawn with the running MP total at every step and the reasons of each
step's extra cost, all from ``engine.movement``.  The shading follows the level switcher.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsPathItem

from editor.tools.base import Tool, cosmetic
from editor.tools.overlay import DotShade, text_item
from engine.lattice import Dot3, get_lattice


def _get(obj, key, default=None):
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def reach_colours(costs: np.ndarray, mp: int) -> np.ndarray:
    """Green for cheap dots through yellow to orange at the edge of the allowance (RGBA)."""
    t = np.clip(np.asarray(costs, dtype=float) / max(mp, 1), 0, 1)
    out = np.zeros((len(t), 4), dtype=np.uint8)
    out[:, 0] = np.where(t < 0.5, 60 + 390 * t, 255).astype(np.uint8)
    out[:, 1] = np.where(t < 0.5, 200 + 40 * t, 220 - 200 * (t - 0.5)).astype(np.uint8)
    out[:, 2] = 40
    out[:, 3] = 120
    return out


class MoveTool(Tool):
    name = "move"
    hint = "Move: click a dot, hover a destination (move ratio in the tool options)"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.origin: Dot3 | None = None
        self.target: Dot3 | None = None
        self.path = None
        self.reach: dict | None = None
        self._reach_item = None

    def press(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        c, r = get_lattice(self.doc.layout.lattice).dot_at((p.x(), p.y()))
        self.origin = (c, r, self.state.level)
        self.target = None
        self.redraw()
        return True

    def move(self, ev, p: QPointF) -> bool:
        if self.origin is None:
            return False
        c, r = get_lattice(self.doc.layout.lattice).dot_at((p.x(), p.y()))
        t = (c, r, self.state.level)
        if t != self.target:
            self.target = t
            self.redraw(reach=False)
        return False

    def key(self, ev) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.origin = self.target = None
            self.redraw()
            return True
        return False

    def refresh(self) -> None:
        self.redraw()

    def document_changed(self) -> None:
        """Recompile the board and the reach in the background, then redraw."""
        if self.origin is None:
            return
        if self._reach_item is not None:
            self._reach_item.setOpacity(0.35)
        origin, ratio, mp = self.origin, self.ctx.options.ratio(), self.ctx.options.mp()
        ruleset = self._ruleset()

        def analyse(board):
            from engine import movement

            try:
                return movement.reach(board, origin, ratio, mp=mp, ruleset=ruleset)
            except Exception:  # the origin may have become a wall dot: redraw says why
                return None
        self.analyse_in_background(
            "Move", analyse,
            lambda: (self.origin, self.ctx.options.ratio(), self.ctx.options.mp()),
            lambda reach: self.redraw(reach_data=reach))

    def _ruleset(self) -> str:
        """The scenario's ruleset: MP under dmz1990, metres (the MP box read as metres) under
        sr3, sr1 and darkcon, as `sprawlmap path`/`reach` measure them."""
        return getattr(self.doc.scenario(), "ruleset", "dmz1990")

    def deactivate(self) -> None:
        self.ctx.background.cancel("analysis")
        super().deactivate()
        self._reach_item = None

    def redraw(self, reach: bool = True, reach_data: dict | None = None) -> None:
        keep = self._reach_item if not reach else None
        for it in list(self._overlay):
            if it is not keep and it.scene() is not None:
                it.scene().removeItem(it)
        self._overlay = [keep] if keep is not None else []
        if reach:
            self._reach_item = None
        if self.origin is None:
            return
        board = self.doc.board()
        if board is None:
            self.ctx.show_hint(self.doc.board_error() or "no board")
            return
        from engine import movement
        from engine.rules import get_ruleset

        ratio = self.ctx.options.ratio()
        mp = self.ctx.options.mp()
        ruleset = self._ruleset()
        units = get_ruleset(ruleset).movement.units
        how = f" at ratio {ratio}" if units == "MP" else f" [{ruleset}]"
        lat = get_lattice(self.doc.layout.lattice)
        if reach:
            try:
                self.reach = reach_data if reach_data is not None else movement.reach(
                    board, self.origin, ratio, mp=mp, ruleset=ruleset)
            except Exception as exc:
                self.ctx.show_hint(f"reach: {exc}")
                return
            here = [(d[0], d[1], cost) for d, cost in self.reach.items()
                    if d[2] == self.state.level]
            if here:
                arr = np.array(here, dtype=float)
                colours = reach_colours(arr[:, 2], mp)
                self._reach_item = self.add_overlay(
                    DotShade(self.doc.layout.lattice, arr[:, :2].astype(int), colours), z=60)
        ox, oy = lat.point(self.origin[:2])
        mark = QGraphicsEllipseItem(ox - 0.35, oy - 0.35, 0.7, 0.7)
        mark.setBrush(QBrush(QColor("#1e90ff")))
        mark.setPen(cosmetic("#ffffff", 2))
        self.add_overlay(mark, z=120)
        if self.target is None or self.target == self.origin:
            self.ctx.show_hint(f"Move from {self.origin[0]},{self.origin[1]}: "
                               f"{len(self.reach or {})} dots within {mp} {units}{how}")
            return
        try:
            res = movement.cheapest_path(board, self.origin, self.target, ratio, ruleset=ruleset)
        except Exception as exc:
            self.ctx.show_hint(f"path: {exc}")
            return
        self.path = res
        if not _get(res, "reachable"):
            self.ctx.show_hint(f"No path to {self.target[0]},{self.target[1]}")
            return
        dots = list(_get(res, "dots"))
        path = QPainterPath(QPointF(*lat.point(dots[0][:2])))
        for d in dots[1:]:
            path.lineTo(QPointF(*lat.point(d[:2])))
        item = QGraphicsPathItem(path)
        item.setPen(cosmetic("#1e90ff", 4))
        self.add_overlay(item, z=119)
        total = 0
        for st in _get(res, "steps") or []:
            total += _get(st, "cost")
            x, y = lat.point(tuple(_get(st, "to"))[:2])
            self.add_overlay(text_item(f"{total:g}", QPointF(x, y), size=7.5), z=130)
        cost = _get(res, "cost")
        whys = [w for st in (_get(res, "steps") or []) for w in (_get(st, "why") or [])]
        more = f" ({'; '.join(dict.fromkeys(whys))})" if whys else ""
        self.ctx.show_hint(f"Path to {self.target[0]},{self.target[1]}: {cost:g} {units} in "
                           f"{len(dots) - 1} steps{how if units != 'MP' else ''}{more}")
