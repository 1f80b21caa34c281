"""Label placement that keeps names off walls, symbols and each other.

The placer knows what is already on the map (walls and openings as buffered lines, symbols as
boxes) and every label it has placed.  For each new label it tries positions around the anchor,
nearest first, and takes the first whose box is clear and inside the map; when none is clear it
takes the one that overlaps least.  Boxes come from :mod:`engine.render.metrics`, the widths every
backend sets its text to.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import shapely
from shapely.geometry import box

from engine.render.metrics import text_width

ASCENT, DESCENT = 0.74, 0.22  # of the em, above and below the baseline


def text_box(x: float, y: float, text: str, size: float, anchor: str, bold: bool,
             pad: float = 0.06) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 of a label whose baseline point is (x, y) (y down)."""
    w = text_width(text, size, bold)
    left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
    return (left - pad, y - ASCENT * size - pad, left + w + pad, y + DESCENT * size + pad)


class Placer:
    def __init__(self, bounds: tuple[float, float, float, float]):
        self.bounds = bounds
        self._fixed: list[Any] = []
        self._tree: shapely.STRtree | None = None
        self.boxes: list[tuple[float, float, float, float]] = []

    def block(self, geom: Any) -> None:
        """Something labels must not cover (a buffered wall, a symbol's box)."""
        if geom is not None and not geom.is_empty:
            self._fixed.append(geom)
            self._tree = None

    def block_box(self, x0: float, y0: float, x1: float, y1: float) -> None:
        self.block(box(x0, y0, x1, y1))

    def _cost(self, b: tuple[float, float, float, float]) -> float:
        """0 when the box is clear and inside the map; else 1 per thing it touches (10 per
        label), so the least crowded spot wins when none is clear."""
        x0, y0, x1, y1 = self.bounds
        if b[0] < x0 or b[1] < y0 or b[2] > x1 or b[3] > y1:
            return 1e6
        cost = 0.0
        if self._fixed:
            if self._tree is None:
                self._tree = shapely.STRtree(self._fixed)
            cost += len(self._tree.query(box(*b), predicate="intersects"))
        for o in self.boxes:
            if min(b[2], o[2]) > max(b[0], o[0]) and min(b[3], o[3]) > max(b[1], o[1]):
                cost += 10
        return cost

    def place(self, text: str, size: float, anchors: list[tuple[float, float, str]],
              bold: bool = True) -> tuple[float, float, str]:
        """The best of ``anchors`` ((x, y, text-anchor) baseline points, preferred first)."""
        return anchors[self.take(text_box(x, y, text, size, anchor, bold)
                                 for x, y, anchor in anchors)]

    def take(self, boxes: Iterable[tuple[float, float, float, float]]) -> int:
        """Index of the first clear box of ``boxes`` (preferred first; only as many are made
        as it looks at), else of the least crowded; that box is kept as placed.  The editor
        passes the boxes its own text items measure."""
        best, best_box, best_cost = 0, None, float("inf")
        for i, b in enumerate(boxes):
            c = self._cost(b)
            if c < best_cost - 1e-9:
                best, best_box, best_cost = i, b, c
                if c == 0:
                    break
        if best_box is not None:
            self.boxes.append(best_box)
        return best


def around(x: float, y: float, size: float, gap: float = 0.5,
           rings: int = 3) -> list[tuple[float, float, str]]:
    """Baseline candidates around a symbol at (x, y): right, left, below, above, then further."""
    out = []
    for k in range(1, rings + 1):
        d = gap * k
        out += [(x + d, y + 0.3 * size, "start"), (x - d, y + 0.3 * size, "end"),
                (x, y + d + ASCENT * size, "middle"), (x, y - d - DESCENT * size, "middle"),
                (x + d, y - d, "start"), (x + d, y + d + ASCENT * size, "start"),
                (x - d, y - d, "end"), (x - d, y + d + ASCENT * size, "end")]
    return out


def spread(x: float, y: float, size: float, step: float = 0.8,
           rings: int = 4) -> list[tuple[float, float, str]]:
    """Centred candidates at (x, y) and on rings around it (for names inside an area)."""
    out = [(x, y, "middle")]
    for k in range(1, rings + 1):
        d = step * k
        out += [(x, y + d, "middle"), (x, y - d, "middle"), (x + d, y, "middle"),
                (x - d, y, "middle"), (x + d, y + d, "middle"), (x - d, y - d, "middle"),
                (x + d, y - d, "middle"), (x - d, y + d, "middle")]
    return out


__all__ = ["Placer", "around", "spread", "text_box"]
