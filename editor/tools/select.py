"""Select, drag, nudge (arrows), rotate (R), mirror (M) and delete placements and features.

A building follows the mouse in whole dots while dragged (so its grain always matches the
pavement) and is red at once if it overlaps another building or leaves the pavement; the move
becomes one undo step on release.  Dragging a feature that is already selected moves the
feature instead (see :mod:`editor.feature_move`): the document follows the mouse and the whole
drag merges into one undo step.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor

from editor import clipboard, edits, feature_move, geometry
from editor import scenario_edits as se
from editor.canvas.items import qtransform
from editor.delete import delete_selection
from editor.edits import FeatureRef, PlacementRef
from editor.geometry import (
    apply_polygon,
    centre_at,
    piece_polygon,
    placement_problems,
    resolve_placements,
    transform_for,
)
from editor.picking import feature_at, placement_at, selection_for
from editor.tools.base import Tool, cosmetic
from engine.lattice import get_lattice
from engine.model import Extras, Level

_drags = itertools.count(1)


def placement_of(layout, ref: PlacementRef):
    return (layout.pavement if ref.pavement else layout.placements)[ref.index]


def rotated_about_centre(layout, sheets, ref: PlacementRef, clockwise: bool = True,
                         mirror: bool = False):
    """The placement turned by one lattice step (or mirrored) keeping its centre in place."""
    pl = placement_of(layout, ref)
    r = next(x for x in resolve_placements(layout, sheets)
             if x.pavement == ref.pavement and x.index == ref.index)
    c = r.footprint.centroid
    step = get_lattice(layout.lattice).rotation_step
    new = edits.mirror(pl) if mirror else edits.rotate(pl, step, clockwise)
    at = centre_at(layout.lattice, r.sheet, new.rotation, new.mirror, (c.x, c.y))
    if r.piece is not None or layout.lattice != "square":
        # a piece turns about its own centre, not its sheet's (and a hex sheet about the
        # centre of its outline): put the new footprint's centroid on the old one
        lat = get_lattice(layout.lattice)
        tf = transform_for(layout.lattice, r.sheet, replace(new, at=(0, 0)))
        pc = apply_polygon(tf, piece_polygon(r.sheet, r.piece)).centroid
        c0 = lat.point((0, 0))
        at = lat.dot_at((c.x - pc.x + c0[0], c.y - pc.y + c0[1]))
    return replace(new, at=at)


class SelectTool(Tool):
    name = "select"
    hint = ("Click to select; drag a building, or a selected feature, to move it; arrows nudge, "
            "R rotates, M mirrors, Del deletes")

    def __init__(self, ctx):
        super().__init__(ctx)
        self._press: QPointF | None = None
        self._drag: PlacementRef | None = None
        self._offset = (0, 0)
        self._fdrag: dict | None = None
        #: (feature, copy) whose nudges go to the shared sheet: asked once
        self._every: tuple | None = None

    def press(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        doc = self.doc
        self._every = None  # a new click: a shared sheet's nudges are asked about again
        pt = (p.x(), p.y())
        resolved = doc.resolved()
        hit = feature_at(resolved, doc.layout.extras, pt, self.state.level)
        r = placement_at(resolved, pt, buildings_only=doc.mode == "scenario")
        self._press = p
        self._drag = None
        self._fdrag = None
        if hit is not None and hit[0] == self.state.selection:
            self._start_feature_drag(hit[0], hit[1], pt)
            return True
        scenario_hit = self._scenario_hit(pt)
        if scenario_hit is not None:
            self.state.select(scenario_hit)
            return True
        building = (PlacementRef(False, r.index) if r is not None and doc.mode == "scenario"
                    and not r.pavement else None)
        shift = bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if building is not None and shift:  # Shift+click adds a building or takes it out
            refs = list(self.state.placements())
            if building in refs:
                refs.remove(building)
            else:
                refs.append(building)
            self.state.select_group(refs)
            self._press = None
            return True
        if building is None and hit is None and doc.mode == "scenario":
            self._start_band(p, shift)
            return True
        self._offset = (0, 0)
        if building is not None:
            self._drag = building
            if building in self.state.group:  # drag the whole group
                return True
        picked = selection_for(hit, r if doc.mode == "scenario" else None)
        on = hit[1] if hit is not None else None
        self.state.select(picked, PlacementRef(False, on.index)
                          if on is not None and not on.pavement else None)
        return True

    # ------------------------------------------------------------------ rubber band
    def _start_band(self, p: QPointF, add: bool) -> None:
        from PySide6.QtWidgets import QGraphicsRectItem

        self._band = QGraphicsRectItem(QRectF(p, p))
        self._band.setPen(cosmetic("#1e90ff", 1.5, Qt.PenStyle.DashLine))
        self._band.setBrush(QColor(30, 144, 255, 40))
        self._band_add = add
        self.add_overlay(self._band, z=140)
        if not add:
            self.state.select(None)

    def _band_rect(self, p: QPointF) -> QRectF:
        return QRectF(self._press, p).normalized()

    def _end_band(self, p: QPointF) -> None:
        from shapely.geometry import box

        rect = self._band_rect(p)
        area = box(rect.left(), rect.top(), rect.right(), rect.bottom())
        inside = [PlacementRef(False, r.index) for r in self.doc.resolved()
                  if not r.pavement and r.footprint.intersects(area)]
        self.clear_overlay()
        self._band = None
        base = list(self.state.placements()) if self._band_add else []
        self.state.select_group(base + [x for x in inside if x not in base])

    def _scenario_hit(self, pt):
        """An objective marker under the mouse, or the edge of a deployment zone."""
        doc = self.doc
        if doc.mode != "scenario" or "scenario" not in self.state.layers:
            return None
        ob = se.objective_at(doc.root, pt, self.state.level)
        if ob is not None:
            return ob
        from shapely.geometry import Point, Polygon

        for i, side in enumerate(doc.root.sides):
            dep = side.deployment
            if dep is None or not dep.polygon or dep.level != self.state.level:
                continue
            if Polygon(dep.polygon).exterior.distance(Point(pt)) <= 0.3:
                return se.SideRef(i)
        return None

    # ------------------------------------------------------------------ feature drags
    def _start_feature_drag(self, ref: FeatureRef, r, pt) -> None:
        """Remember the feature's level as it was and the press point in the feature's frame."""
        doc = self.doc
        if ref.sheet is None:
            ex = doc.layout.extras
            lv, sheet = Level(level=0, areas=ex.areas, lines=ex.lines, trees=ex.trees), None
        else:
            sheet = doc.sheets()[ref.sheet]
            lv = sheet.level(ref.level)
        inv = r.transform.inverse() if (r is not None and ref.sheet is not None) else None
        outline = ()
        if sheet is not None and sheet.kind == "building" and not lv.walls:
            ol = list(sheet.outline)
            outline = (tuple(ol + ol[:1]),)  # openings on a bare building sit on its outline
        self._fdrag = {"ref": ref, "sheet": sheet, "level": lv, "inv": inv,
                       "q0": inv.apply(pt) if inv else pt, "off": None, "outline": outline,
                       "key": f"feature-drag-{next(_drags)}",
                       "root": doc.root}

    def _move_feature(self, p: QPointF) -> None:
        fd = self._fdrag
        q = fd["inv"].apply((p.x(), p.y())) if fd["inv"] else (p.x(), p.y())
        ref = fd["ref"]
        d = (q[0] - fd["q0"][0], q[1] - fd["q0"][1])
        if ref.list not in feature_move.OPENINGS:
            d = feature_move.snap_offset(ref.list, d)
        try:
            lv = feature_move.move_in_level(fd["level"], ref.list, ref.index, d, fd["outline"])
        except ValueError as exc:
            self.ctx.show_hint(f"Move refused: {exc}")
            return
        if lv == fd["level"] and fd["off"] is None:
            return  # not moved yet: a plain click on the selection
        fd["off"] = d
        name = getattr(lv, ref.list)[ref.index].id or ref.list[:-1]
        doc = self.doc
        if lv == fd["level"]:  # back where it began: the drag leaves no undo step
            doc.push(fd["root"], f"Move {name}", merge_key=fd["key"])
        elif fd["sheet"] is None:
            layout = doc.layout
            ex = Extras(areas=lv.areas, lines=lv.lines, trees=lv.trees)
            doc.edit_layout(replace(layout, extras=ex), f"Move {name}", merge_key=fd["key"])
        else:
            sheet = fd["sheet"]
            levels = tuple(lv if x.level == ref.level else x for x in sheet.levels)
            doc.edit_sheet(replace(sheet, levels=levels), f"Move {name}", merge_key=fd["key"])
        if self.state.selection != ref:
            self.state.select(ref)
        self.ctx.show_hint(f"Move {name} by {d[0]:g}, {d[1]:g}")

    def move(self, ev, p: QPointF) -> bool:
        if self._press is not None and getattr(self, "_band", None) is not None:
            self._band.setRect(self._band_rect(p))
            return True
        if self._press is not None and self._fdrag is not None:
            self._move_feature(p)
            return True
        if self._press is None or self._drag is None:
            return False
        lat = get_lattice(self.doc.layout.lattice)
        if lat.name == "square":
            dc = round(p.x() - self._press.x())
            dr = round(p.y() - self._press.y())
        else:  # hex: whole dots of the offset grid between the press and the mouse
            a, b = lat.dot_at((self._press.x(), self._press.y())), lat.dot_at((p.x(), p.y()))
            dc, dr = b[0] - a[0], b[1] - a[1]
        if (dc, dr) == self._offset:
            return True
        self._offset = (dc, dr)
        if self._drag not in self.state.placements():
            self.state.select(self._drag)
        self._preview(self._drag, dc, dr)
        return True

    def _moving(self, ref: PlacementRef) -> tuple[PlacementRef, ...]:
        """What a drag of ``ref`` moves: its group when it is in one, else itself."""
        return self.state.group if ref in self.state.group else (ref,)

    def _preview(self, ref: PlacementRef, dc: int, dr: int) -> None:
        """Move the items only (no model change) and show red at once if they collide."""
        doc = self.doc
        trial = doc.layout
        for x in self._moving(ref):
            trial = edits.set_placement(trial, x, edits.nudge(placement_of(trial, x), dc, dr))
        moved = placement_of(trial, ref)
        going = set(self._moving(ref))
        resolved = [geometry.moved(r, placement_of(trial, PlacementRef(r.pavement, r.index)),
                                   trial.lattice)
                    if PlacementRef(r.pavement, r.index) in going else r
                    for r in doc.resolved()]
        problems = placement_problems(resolved)
        item = self.ctx.scene.placement_items.get((ref.pavement, ref.index))
        if item is None:
            return
        for x in self._moving(ref):
            it = self.ctx.scene.placement_items.get((x.pavement, x.index))
            rx = next((y for y in resolved if not y.pavement and y.index == x.index), None)
            if it is not None and rx is not None:
                it.setTransform(qtransform(rx.transform))
                self.ctx.scene.move_label((x.pavement, x.index), rx.transform)
        r = next(x for x in resolved if not x.pavement and x.index == ref.index)
        for (pav, idx), it in self.ctx.scene.placement_items.items():
            if not pav and it.problem != problems.get(idx):
                it.problem = problems.get(idx)
                it.update()  # only the buildings whose overlap changed are drawn again
        self.ctx.show_hint(f"{r.sheet.title} at {moved.at[0]},{moved.at[1]}"
                           + (f" — {problems[ref.index]}" if ref.index in problems else ""))

    def release(self, ev, p: QPointF) -> bool:
        if self._press is None:
            return False
        if getattr(self, "_band", None) is not None:
            self._end_band(p)
            self._press = None
            return True
        if self._fdrag is not None:
            self._move_feature(p)
            self._press, self._fdrag = None, None
            return True
        ref, off = self._drag, self._offset
        self._press, self._drag, self._offset = None, None, (0, 0)
        if ref is not None and off != (0, 0):
            group = self._moving(ref)
            layout = self.doc.layout
            for x in group:
                layout = edits.set_placement(layout, x, edits.nudge(placement_of(layout, x),
                                                                    *off))
            moved = placement_of(layout, ref)
            name = (moved.id or moved.sheet) if len(group) == 1 else f"{len(group)} buildings"
            self.doc.edit_layout(layout, f"Move {name}")
            if len(group) == 1:
                self.state.select(ref)
        elif ref is not None and ref in self.state.group and off == (0, 0):
            self.state.select(ref)  # a plain click in a group picks that building alone
        return True

    # ------------------------------------------------------------------ keys
    def key(self, ev) -> bool:
        sel = self.state.selection
        k = ev.key()
        if k == Qt.Key.Key_Escape and sel is not None:
            self.state.select(None)
            return True
        if k in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and sel is not None:
            delete_selection(self.doc, self.state, self.ctx.ask_edit_scope,
                             self.ctx.make_unique)
            return True
        step = 5 if ev.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1
        arrows = {Qt.Key.Key_Left: (-step, 0), Qt.Key.Key_Right: (step, 0),
                  Qt.Key.Key_Up: (0, -step), Qt.Key.Key_Down: (0, step)}
        if isinstance(sel, FeatureRef) and k in arrows:
            self._nudge_feature(sel, arrows[k])
            return True
        if not isinstance(sel, PlacementRef) or self.doc.mode != "scenario":
            return False
        layout = self.doc.layout
        if self.state.group and k in arrows:
            for x in self.state.group:
                layout = edits.set_placement(layout, x, edits.nudge(placement_of(layout, x),
                                                                    *arrows[k]))
            self.doc.edit_layout(layout, f"Nudge {len(self.state.group)} buildings",
                                 merge_key=f"nudge:{self.state.group}")
            return True
        pl = placement_of(layout, sel)
        name = pl.id or pl.sheet
        if k in arrows:
            moved = edits.nudge(pl, *arrows[k])
            self.doc.edit_layout(edits.set_placement(layout, sel, moved), f"Nudge {name}",
                                 merge_key=f"nudge:{sel}")
            return True
        if k == Qt.Key.Key_R:
            cw = not (ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self.rotate(cw)
            return True
        if k == Qt.Key.Key_M:
            self.mirror()
            return True
        return False

    def _shared_scope(self, ref: FeatureRef) -> str | None:
        """A feature of a sheet placed several times, picked on one copy: nudge it on this
        copy ("copy"), on every copy ("sheet", asked once per selection) or not (None)."""
        doc, copy = self.doc, self.state.copy
        if (ref.sheet is None or copy is None or doc.mode != "scenario"
                or self.ctx.make_unique is None or self._every == (ref, copy)
                or copy.index >= len(doc.layout.placements)
                or doc.layout.placements[copy.index].sheet != ref.sheet):
            return "sheet"
        copies = edits.sheet_users(doc.layout, ref.sheet)
        if copies <= 1:
            return "sheet"
        scope = self.ctx.ask_edit_scope(doc.sheets()[ref.sheet].title, copies)
        if scope == "sheet":
            self._every = (ref, copy)
        return scope

    def _nudge_feature(self, ref: FeatureRef, d: tuple[int, int]) -> None:
        """Arrow keys move a selected feature one dot on the screen (five with Shift); on a
        shared sheet, for this copy or every copy, as asked."""
        scope = self._shared_scope(ref)
        if scope is None:
            self.ctx.show_hint("Nothing moved")
            return
        if scope == "copy":
            stack, copy = self.doc.undo_stack, self.state.copy
            stack.beginMacro(f"Nudge {ref.list[:-1]} (this copy)")
            try:
                ref = replace(ref, sheet=self.ctx.make_unique(copy))
                self.state.select(ref, copy)
                self._nudge_on(ref, d)
            finally:
                stack.endMacro()
            return
        self._nudge_on(ref, d)

    def _nudge_on(self, ref: FeatureRef, d: tuple[int, int]) -> None:
        doc = self.doc
        if ref.sheet is not None:  # the screen's direction in the sheet's frame
            copy = self.state.copy  # the building it was picked on, else any showing it
            r = next((x for x in doc.resolved() if x.sheet.id == ref.sheet
                      and (copy is None or (not x.pavement and x.index == copy.index))),
                     None) or next((x for x in doc.resolved() if x.sheet.id == ref.sheet),
                                   None)
            if r is None:
                return
            inv = r.transform.inverse()
            a, b = inv.apply((0.0, 0.0)), inv.apply((float(d[0]), float(d[1])))
            d = (round(b[0] - a[0], 6), round(b[1] - a[1], 6))
        try:
            where, new, _ = clipboard.nudge_feature(doc.layout, doc.sheets(), ref, d)
        except (ValueError, KeyError, IndexError) as exc:
            self.ctx.show_hint(f"Nudge refused: {exc}")
            return
        text = f"Nudge {ref.list[:-1]}"
        if where == "layout":
            doc.edit_layout(new, text, merge_key=f"nudge:{ref}")
        else:
            doc.edit_sheet(new, text, merge_key=f"nudge:{ref}")

    def rotate(self, clockwise: bool = True) -> None:
        """Turn the selected building a lattice step about its centre (R, Shift+R)."""
        sel = self.state.selection
        if not isinstance(sel, PlacementRef) or self.doc.mode != "scenario":
            return
        layout = self.doc.layout
        name = placement_of(layout, sel).id or placement_of(layout, sel).sheet
        new = rotated_about_centre(layout, self.doc.sheets(), sel, clockwise=clockwise)
        self.doc.edit_layout(edits.set_placement(layout, sel, new), f"Rotate {name}")

    def mirror(self) -> None:
        """Mirror the selected building about its centre (M)."""
        sel = self.state.selection
        if not isinstance(sel, PlacementRef) or self.doc.mode != "scenario":
            return
        layout = self.doc.layout
        name = placement_of(layout, sel).id or placement_of(layout, sel).sheet
        new = rotated_about_centre(layout, self.doc.sheets(), sel, mirror=True)
        self.doc.edit_layout(edits.set_placement(layout, sel, new), f"Mirror {name}")

