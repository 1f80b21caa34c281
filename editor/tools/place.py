"""Place a sheet or a cut piece from the library: a ghost follows the mouse, click drops it.

The ghost snaps to whole dots so the building's grain lands on the pavement's; R and M turn
and mirror it before it is dropped; it is red while it overlaps or leaves the pavement.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPointF, Qt

from editor import edits
from editor.canvas.items import PlacementItem
from editor.document import Document
from editor.edits import PlacementRef
from editor.geometry import centre_at, placement_problems, resolve_placements
from editor.state import EditorState
from editor.tools.base import Tool
from engine.lattice import get_lattice
from engine.model import Placement


def library_placement(doc, key: str, world: tuple[float, float], rotation: int = 0,
                      mirror: bool = False) -> tuple[Placement, bool] | None:
    """The placement a library entry ``sheet:ID`` or ``piece:ID`` makes at ``world``."""
    kind, _, ident = key.partition(":")
    sheets = doc.sheets()
    if kind == "piece":
        piece = next((p for p in doc.layout.pieces if p.id == ident), None)
        if piece is None or piece.sheet not in sheets:
            return None
        sheet = sheets[piece.sheet]
        pl = Placement(sheet=sheet.id, piece=piece.id, at=(0, 0), rotation=rotation,
                       mirror=mirror)
        # centre the piece (not its whole sheet) under the mouse
        trial = edits.add_placement(doc.layout, pl)[0]
        r = resolve_placements(trial, sheets)[-1]
        c = r.footprint.centroid
        lat = get_lattice(doc.layout.lattice)
        c0 = lat.point((0, 0))
        at = lat.dot_at((world[0] - c.x + c0[0], world[1] - c.y + c0[1]))
        return replace(pl, at=at), False
    sheet = sheets.get(ident)
    if sheet is None:
        return None
    at = centre_at(doc.layout.lattice, sheet, rotation, mirror, world)
    return (Placement(sheet=sheet.id, at=at, rotation=rotation, mirror=mirror),
            sheet.kind == "pavement")


def drop(doc: Document, state: EditorState, key: str, world: tuple[float, float], rotation: int = 0,
         mirror: bool = False) -> bool:
    """Add the library entry to the layout at ``world`` as one undo step."""
    if doc.mode != "scenario":
        return False
    made = library_placement(doc, key, world, rotation, mirror)
    if made is None:
        return False
    pl, pav = made
    layout, idx = edits.add_placement(doc.layout, pl, pavement=pav)
    doc.edit_layout(layout, f"Place {pl.piece or pl.sheet}")
    state.select(PlacementRef(pav, idx))
    return True


class PlaceTool(Tool):
    name = "place"
    hint = "Click to place; R rotates, M mirrors, Esc cancels"

    def __init__(self, ctx, key: str):
        super().__init__(ctx)
        self.key_id = key
        self.rotation = 0
        self.mirror = False
        self._last: QPointF | None = None

    def _ghost(self, p: QPointF) -> None:
        self.clear_overlay()
        self._last = p
        made = library_placement(self.doc, self.key_id, (p.x(), p.y()), self.rotation,
                                 self.mirror)
        if made is None:
            return
        pl, pav = made
        trial, idx = edits.add_placement(self.doc.layout, pl, pavement=pav)
        resolved = resolve_placements(trial, self.doc.sheets())
        r = next(x for x in resolved if x.pavement == pav and x.index == idx)
        problem = None if pav else placement_problems(resolved).get(idx)
        item = PlacementItem(r, self.state.level, set(self.state.layers), problem, True)
        item.setOpacity(0.75)
        self.add_overlay(item, z=150)

    def move(self, ev, p: QPointF) -> bool:
        self._ghost(p)
        return True

    def press(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            self.ctx.set_tool("select")
            return True
        drop(self.doc, self.state, self.key_id, (p.x(), p.y()), self.rotation, self.mirror)
        self.clear_overlay()
        self.ctx.set_tool("select")
        return True

    def key(self, ev) -> bool:
        step = get_lattice(self.doc.layout.lattice).rotation_step
        if ev.key() == Qt.Key.Key_R:
            cw = not (ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.rotation = (self.rotation + (step if cw else -step)) % 360
        elif ev.key() == Qt.Key.Key_M:
            self.mirror = not self.mirror
        elif ev.key() == Qt.Key.Key_Escape:
            self.ctx.set_tool("select")
            return True
        else:
            return False
        if self._last is not None:
            self._ghost(self._last)
        return True
