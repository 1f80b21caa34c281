"""Put an existing objective on the map: its dot (reach, retrieve) or its hold area.

The scenario panel arms these for the objective chosen in its list; after one placement the
Select tool comes back with the objective selected, so its properties show at once.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPointF, Qt

from editor import cast_edits as ce
from editor.scenario_edits import ObjectiveRef
from editor.tools.base import Tool
from editor.tools.draw import PolyTool
from engine.lattice import get_lattice


def _done(tool, index: int) -> None:
    tool.ctx.set_tool("select")
    tool.ctx.state.select(ObjectiveRef(index))


class PlaceObjectiveTool(Tool):
    name = "place-objective"

    def __init__(self, ctx, index: int):
        super().__init__(ctx)
        self.index = index
        self.hint = (f"Place {ctx.doc.root.objectives[index].id}: click its dot "
                     f"(on the current level); Esc cancels")

    def press(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        sc = self.doc.root
        if not 0 <= self.index < len(sc.objectives):
            return True
        c, r = get_lattice(self.doc.layout.lattice).dot_at((p.x(), p.y()))
        ob = replace(sc.objectives[self.index], at=(c, r, self.state.level))
        self.doc.push(ce.set_objective(sc, self.index, ob), f"Place {ob.id}")
        _done(self, self.index)
        return True

    def key(self, ev) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.ctx.set_tool("select")
            return True
        return False


class HoldAreaTool(PolyTool):
    """Draw the area a hold objective must be held in (on the current level)."""

    name = "hold-area"
    closed = True
    min_points = 3

    def __init__(self, ctx, index: int):
        super().__init__(ctx)
        self.index = index
        self.hint = (f"Hold area of {ctx.doc.root.objectives[index].id}: click its corners, "
                     f"double-click or Enter to close it")

    def accepts_no_target(self) -> bool:
        return True

    def commit(self, pts, target) -> None:
        sc = self.doc.root
        if not 0 <= self.index < len(sc.objectives):
            return
        ob = replace(sc.objectives[self.index], area=tuple(pts), level=self.state.level)
        self.doc.push(ce.set_objective(sc, self.index, ob), f"Hold area {ob.id}")
        _done(self, self.index)
