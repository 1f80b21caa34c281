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
        sc, i = se.add_objective(self.doc.root, self.ctx.options.chosen_side(),
                                 (c, r, self.state.level))
        self.doc.push(sc, f"Objective {sc.objectives[i].id}")
        self.ctx.options.choose_side(sc.objectives[i].side)
        self.state.select(se.ObjectiveRef(i))
        return True
