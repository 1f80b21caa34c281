"""Side view of one line of sight: what stands between the two ends, seen from the side.

The engine's LOS (:func:`engine.los.line_of_sight`) treats the sight line's level as varying
linearly from one end's level to the other's, every other building as a solid block up to its
height, and the ends' own buildings by their walls and floors.  The profile lays those facts
out along the line: ``s`` runs 0 (A) to 1 (B), heights are in levels (stories), so a designer
sees where the line passes over a roof or into a wall, and where each interruption sits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from engine.board import Board, Dot3
from engine.los import LosFacts, line_of_sight


@dataclass
class Block:
    """A building cut by the line: from ``s0`` to ``s1``, ``height`` stories, floors between."""

    placement: str
    s0: float
    s1: float
    height: int
    end: str  # "A", "B", "AB" (an end stands in it) or "" (a block the line passes)


@dataclass
class Mark:
    """A point of the line: an interruption, or the blocking point."""

    s: float | None  # None: not at one place (stairs between levels)
    kind: str
    feature: str | None
    reason: str


@dataclass
class Profile:
    a: Dot3
    b: Dot3
    length: float  # plan length of the line, in dots
    range: int  # the lattice range, in dots
    facts: LosFacts
    blocks: list[Block] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    blocked_at: Mark | None = None

    def level_at(self, s: float) -> float:
        """The sight line's level at ``s`` (linear between the two ends, as the engine has it)."""
        return self.a[2] + (self.b[2] - self.a[2]) * s

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": list(self.a), "b": list(self.b), "length": round(self.length, 3),
            "range": self.range, "blocked": self.facts.blocked,
            "blocks": [{"placement": k.placement, "s0": round(k.s0, 4), "s1": round(k.s1, 4),
                        "height": k.height, "end": k.end} for k in self.blocks],
            "interruptions": [_mark(m) for m in self.marks],
            "blocked_at": _mark(self.blocked_at) if self.blocked_at else None,
        }


def _mark(m: Mark) -> dict[str, Any]:
    return {"s": None if m.s is None else round(m.s, 4), "kind": m.kind, "feature": m.feature,
            "reason": m.reason}


def profile(board: Board, a: Dot3, b: Dot3, *, posture_a: str = "standing",
            posture_b: str = "standing", light: str = "day") -> Profile:
    """The side view of the line from ``a`` to ``b`` (the same facts as ``line_of_sight``)."""
    facts = line_of_sight(board, a, b, posture_a=posture_a, posture_b=posture_b, light=light)
    a, b = facts.a, facts.b
    pa, pb = np.array(board.dot_point(a)), np.array(board.dot_point(b))
    length = float(np.hypot(*(pb - pa)))
    prof = Profile(a, b, length, facts.range, facts)
    line = shapely.LineString([pa, pb]) if length > 0 else None
    ba, bb = board.building_of(a), board.building_of(b)
    for bl in board.buildings:
        if line is None or not line.intersects(bl.footprint):
            continue
        cut = line.intersection(bl.footprint)
        ss = [_s(pa, pb, length, p) for p in _points(cut)]
        if not ss:
            continue
        end = ("A" if ba is not None and ba.index == bl.index else "") + \
              ("B" if bb is not None and bb.index == bl.index else "")
        prof.blocks.append(Block(bl.placement_id, min(ss), max(ss), int(bl.height), end))
    prof.blocks.sort(key=lambda k: k.s0)
    feats = {f.id: f for f in board.all_features()}
    for i in facts.interruptions:
        prof.marks.append(Mark(_where(board, feats, i, pa, pb, length, line), i["kind"],
                               i.get("feature"), i["reason"]))
    by = facts.blocked_by
    if facts.blocked and by:
        pt = by.get("point")
        s = _s(pa, pb, length, pt) if pt is not None and length > 0 else 0.0
        if by.get("kind") == "dead-zone" and pt is not None:
            s = 0.0 if np.allclose(pt, pa) else 1.0
        prof.blocked_at = Mark(s, by.get("kind", "blocked"), by.get("feature"),
                               by.get("reason", ""))
    return prof


def _s(pa: np.ndarray, pb: np.ndarray, length: float, p: Any) -> float:
    if length <= 0:
        return 0.0
    d = (pb - pa) / length
    return float(np.clip(np.dot(np.asarray(p, dtype=float) - pa, d) / length, 0.0, 1.0))


def _points(g: Any) -> list[tuple[float, float]]:
    if g.is_empty:
        return []
    if hasattr(g, "geoms"):
        return [p for part in g.geoms for p in _points(part)]
    return [tuple(c) for c in g.coords]


def _where(board: Board, feats: dict, inter: dict, pa: np.ndarray, pb: np.ndarray,
           length: float, line: Any) -> float | None:
    """Where along the line an interruption sits: the first contact with its feature (for
    foliage, the crossed foliage dot named in the reason)."""
    if inter["kind"] == "foliage":
        import re

        m = re.search(r"\((-?\d+), (-?\d+)\)", inter["reason"])
        if m:
            return _s(pa, pb, length, board.lattice.point((int(m.group(1)), int(m.group(2)))))
    f = feats.get(inter.get("feature"))
    if f is None or line is None:
        return None
    hit = line.intersection(f.geom)
    pts = _points(hit)
    if not pts:  # the feature holds an end (a canopy over A or B)
        return 0.0 if f.geom.intersects(shapely.Point(pa)) else 1.0
    return min(_s(pa, pb, length, p) for p in pts)
