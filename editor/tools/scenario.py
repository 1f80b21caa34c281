"""Scenario tools: draw a side's deployment zone, put an objective on a dot.

The side comes from the tool bar's side box ("(new side)" makes one).  Both work on the current
level; the zone's corners snap to half dots like every other polygon.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from editor import scenario_edits as se
from editor.tools.base import Tool
from editor.tools.draw import PolyTool
from engine.lattice import get_lattice

WHY = "nobody can stand there (a wall, or no floor on that level)"


def dot_refused(doc, dot: tuple[int, int, int]) -> str | None:
    """Why nobody can stand on ``dot`` (column, row, level), or None when one can (or when
    the board cannot be compiled: the findings say why then)."""
    board = doc.board()
    if board is None or board.standable(tuple(dot)):
        return None
    return f"dot {dot[0]},{dot[1]} on level {dot[2]}: {WHY}"


def zone_refused(doc, polygon, level: int) -> str | None:
    """Why a zone on ``level`` holds no dot anyone can stand on, or None."""
    board = doc.board()
    if board is None:
        return None
    from engine.scenario_checks import polygon_dots

    dots, covered = polygon_dots(board, polygon, level)
    if len(dots):
        return None
    return f"the zone covers {covered} dot(s) on level {level}, and on none of them {WHY}"


class DeployTool(PolyTool):
    name = "deploy"
    closed = True
    min_points = 3
    hint = "Deployment: click the zone's corners, double-click or Enter to close it"

    def accepts_no_target(self) -> bool:
        return True

    def press(self, ev, p: QPointF) -> bool:
        if self.doc.mode != "scenario":
            self.ctx.show_hint("Sheet mode: deployment zones belong to a scenario")
            return True
        return super().press(ev, p)

    def commit(self, pts, target) -> None:
        why = zone_refused(self.doc, tuple(pts), self.state.level)
        if why is not None:
            self.ctx.error(f"Deployment not drawn: {why}")
            return
        sc, i = se.set_deployment(self.doc.root, self.ctx.options.chosen_side(), tuple(pts),
                                  self.state.level)
        self.doc.push(sc, f"Deploy {sc.sides[i].id}")
        self.ctx.options.choose_side(sc.sides[i].id)  # a new side stays the chosen one
        self.state.select(se.SideRef(i))


class ObjectiveTool(Tool):
    name = "objective"
    hint = "Objective: click the dot it is about (kind and points in the properties)"

    def press(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        if self.doc.mode != "scenario":
            self.ctx.show_hint("Sheet mode: objectives belong to a scenario")
            return True
        c, r = get_lattice(self.doc.layout.lattice).dot_at((p.x(), p.y()))
        why = dot_refused(self.doc, (c, r, self.state.level))
        if why is not None:
            self.ctx.error(f"Objective not placed: {why}")
            return True
        sc, i = se.add_objective(self.doc.root, self.ctx.options.chosen_side(),
                                 (c, r, self.state.level))
        self.doc.push(sc, f"Objective {sc.objectives[i].id}")
        self.ctx.options.choose_side(sc.objectives[i].side)
        self.state.select(se.ObjectiveRef(i))
        return True
