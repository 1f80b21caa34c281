"""A small text picture of the dots around a line or path, for the CLI's readable output.

Dots are drawn at even columns/rows of a character grid and what lies between two dots at the
odd positions, so walls show up where they really run: between dots.

    .  standable dot          #  dot one cannot stand on (wall, outside the map)
    |  -  wall between dots   /  door/window/hole between dots
    A  B  the two ends        *  dot crossed by the sight line
    X  where the line is blocked    o  path dot, with its running MP cost shown below
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import shapely

from engine.board import Board

_OPENINGS = ("door", "window", "hole")
_SOLID = ("wall", "fence")


def render(board: Board, level: int, marks: dict[tuple[int, int], str],
           focus: Iterable[tuple[int, int]], margin: int = 2, max_size: int = 40) -> str:
    """Draw the dots of ``level`` around ``focus`` with ``marks`` (dot -> one character)."""
    pts = np.array(list(focus), dtype=int).reshape(-1, 2)
    if board.lattice.name != "square" or not len(pts):
        return ""
    c0, r0 = pts.min(axis=0) - margin
    c1, r1 = pts.max(axis=0) + margin
    # keep the picture small: clamp around the ends
    if c1 - c0 > max_size:
        c1 = c0 + max_size
    if r1 - r0 > max_size:
        r1 = r0 + max_size
    w, h = int(c1 - c0 + 1), int(r1 - r0 + 1)
    grid = [[" "] * (2 * w - 1) for _ in range(2 * h - 1)]
    for r in range(h):
        for c in range(w):
            dot = (int(c0 + c), int(r0 + r))
            ch = "." if board.standable((*dot, level)) else "#"
            grid[2 * r][2 * c] = marks.get(dot, ch)
    # between-dot gaps: horizontal then vertical neighbours
    segs, where = [], []
    for r in range(h):
        for c in range(w):
            x, y = c0 + c, r0 + r
            if c + 1 < w:
                segs.append(((x, y), (x + 1, y)))
                where.append((2 * r, 2 * c + 1, "|"))
            if r + 1 < h:
                segs.append(((x, y), (x, y + 1)))
                where.append((2 * r + 1, 2 * c, "-"))
    fs = board.features(level)
    if fs and segs:
        lines = shapely.linestrings(np.array(segs, dtype=float))
        si, fi = board.tree(level).query(lines, predicate="intersects")
        for s, f in zip(si, fi):
            kind = fs[f].kind
            row, col, ch = where[s]
            if kind in _SOLID:
                grid[row][col] = ch
            elif kind in _OPENINGS and grid[row][col] == " ":
                grid[row][col] = "/"
    head = f"level {level}, columns {c0}..{c1}, rows {r0}..{r1}"
    return head + "\n" + "\n".join("".join(row).rstrip() for row in grid)


def crossed_dots(board: Board, a: tuple[int, ...], b: tuple[int, ...]) -> list[tuple[int, int]]:
    """Dots whose cells the open segment a-b crosses, ends excluded (the one crossed-cells
    rule, :meth:`engine.lattice.Lattice.crossed_dots`)."""
    return board.lattice.crossed_dots(a, b)
