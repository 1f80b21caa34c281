"""Click tools: doors, windows and holes on a wall span; stairs, elevators, climbs and trees.

An opening is one dot wide around the clicked point of the wall (drag along the wall for a
wider one); it snaps to whole dots along the wall, so it covers the gap beside a dot exactly.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from editor.geometry import nearest_on_segment, opening_span, snap_dot, snap_half
from editor.tools.base import Tool
from engine.model import Climb, Elevator, Opening, Stair, Tree

TOL = 0.45


class OpeningTool(Tool):
    name = "opening"

    def __init__(self, ctx, kind: str = "door"):
        super().__init__(ctx)
        self.kind = kind
        self.hint = f"{kind.title()}: click a wall (drag along it for a wider {kind})"
        self._start = None

    def _wall_at(self, p: tuple[float, float]):
        """(placement, wall segment a, b, t) of the nearest wall span under ``p``."""
        r = self.target_at(p)
        if r is None:
            return None
        q = r.transform.inverse().apply(p)
        level = self.state.level if r.sheet.kind == "building" else 0
        lv = r.sheet.level(level)
        best = None
        paths = [w.path for w in lv.walls] if lv is not None else []
        if r.sheet.kind == "building" and (lv is None or not lv.walls) and level < r.sheet.height:
            ol = list(r.sheet.outline)
            paths.append(tuple(ol + ol[:1]))
        for path in paths:
            for a, b in zip(path, path[1:], strict=False):
                d, t, ln = nearest_on_segment(q, a, b)
                if ln and d <= TOL and (best is None or d < best[0]):
                    best = (d, r, a, b, t)
        return best[1:] if best else None

    def press(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        self._start = self._wall_at((p.x(), p.y()))
        if self._start is None:
            self.ctx.show_hint(f"A {self.kind} goes on a wall: click on a wall line")
        return True

    def release(self, ev, p: QPointF) -> bool:
        if self._start is None:
            return True
        r, a, b, t0 = self._start
        self._start = None
        q = r.transform.inverse().apply((p.x(), p.y()))
        d, t1, _ = nearest_on_segment(q, a, b)
        span = opening_span(a, b, t0, t1 if d <= 1.0 else None)
        state = "open" if self.kind != "window" else "closed"
        self.add_feature(r, f"{self.kind}s", Opening(kind=self.kind, span=span, state=state),
                         f"Add {self.kind}")
        return True


class MarkerTool(Tool):
    """Stairs, elevators, climbs (on a dot) and trees (trunk on a half dot)."""

    name = "marker"

    def __init__(self, ctx, kind: str = "stairs"):
        super().__init__(ctx)
        self.kind = kind
        self.hint = f"{kind.title()}: click a dot"

    def press(self, ev, p: QPointF) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        pt = (p.x(), p.y())
        r = self.target_at(pt)
        level = self.state.level
        if self.kind == "trees":
            if r is None or (r.pavement and self.doc.mode == "scenario"):
                x, y = snap_half(pt)
                canopy = ((x - 1.5, y - 1.5), (x + 1.5, y - 1.5), (x + 1.5, y + 1.5),
                          (x - 1.5, y + 1.5))
                self.add_extra("trees", Tree(trunk=(x, y), canopy=canopy), "Add tree")
                return True
        if r is None:
            self.ctx.show_hint("Nothing to put it on here")
            return True
        q = r.transform.inverse().apply(pt)
        c, rr = snap_dot(q)
        at = (float(c), float(rr))
        if self.kind == "stairs":
            feat, lst = Stair(at=at, to=level + 1), "stairs"
        elif self.kind == "elevators":
            top = max(r.sheet.height, level + 1)
            feat, lst = Elevator(at=at, levels=tuple(range(0, top + 1))), "elevators"
        elif self.kind == "climbs":
            feat, lst = Climb(at=at, to=level + 1), "climbs"
        else:
            x, y = snap_half(q)
            canopy = ((x - 1.5, y - 1.5), (x + 1.5, y - 1.5), (x + 1.5, y + 1.5),
                      (x - 1.5, y + 1.5))
            feat, lst = Tree(trunk=(x, y), canopy=canopy), "trees"
        self.add_feature(r, lst, feat, f"Add {lst[:-1] if lst != 'stairs' else 'stair'}")
        return True
