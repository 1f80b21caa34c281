"""Linked block layouts: the dot-scale layout a zone block points to, loaded once.

A block's ``layout`` is a layout or scenario file, relative to the zone file.  Composition and
validation both need it loaded, its sheets found and its board compiled; the result is kept
per (path, modification time, size) so the editor can revalidate on every edit cheaply.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import SprawlmapError
from engine.model import Scenario, Sheet

EPS = 1e-6


@dataclass(frozen=True)
class Linked:
    """One loaded block layout (``error`` set instead when it does not load)."""

    path: Path
    scenario: Scenario | None = None
    sheets: dict[str, Sheet] | None = None
    board: Any = None
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.scenario is not None


_CACHE: dict[str, tuple[tuple[int, int], Linked]] = {}
_CACHE_MAX = 256


def resolve_path(base_dir: str | os.PathLike[str] | None, ref: str) -> Path:
    """A block's layout file: relative to the zone's folder; a sample zone copied elsewhere
    (``sprawlmap library sample river-2 OUT``) still finds the bundled block layouts."""
    p = Path(ref)
    if p.is_absolute() or base_dir is None:
        return p
    here = Path(base_dir) / p
    if not here.exists():
        from engine import library

        bundled = library.bundled_dir("zones") / p
        if bundled.is_file():
            return bundled
    return here


def load_linked(base_dir: str | os.PathLike[str] | None, ref: str) -> Linked:
    """Load, resolve and compile a block layout; a problem is kept as ``error`` (one line)."""
    from engine.board import compile_board, forget_oldest
    from engine.io import load_document, resolve_sheets

    path = resolve_path(base_dir, ref)
    try:
        st = path.stat()
    except OSError:
        return Linked(path, error=f"{path}: no such file")
    key = str(path.resolve())
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    try:
        scenario = load_document(path)
        sheets = resolve_sheets(scenario.layout, path.resolve().parent)
        board = compile_board(scenario.layout, sheets)
        out = Linked(path, scenario, dict(sheets), board)
    except SprawlmapError as e:
        out = Linked(path, error=str(e).splitlines()[0])
    # (the zone view's thumbnails on the GUI thread and the zone checks on a worker load
    # blocks at once: the oldest dropped as every shared engine cache drops them)
    forget_oldest(_CACHE, _CACHE_MAX - 1)
    _CACHE[key] = (stamp, out)
    return out


def fits(linked: Linked, block_size: tuple[int, int]) -> bool:
    """Whether a block layout's ground lies within one block (dots 0..w-1, 0..h-1)."""
    x0, y0, x1, y1 = linked.board.bounds
    w, h = block_size
    return x0 >= -0.5 - EPS and y0 >= -0.5 - EPS and x1 <= w - 0.5 + EPS and y1 <= h - 0.5 + EPS


def street_dots(linked: Linked, side: str, block_size: tuple[int, int]) -> set[int]:
    """Positions along one side (rows for east/west, columns for north/south) where the
    block's outermost dot row/column is open street a Runner can stand on."""
    b = linked.board
    w, h = block_size
    out = set()
    if side in ("east", "west"):
        c = w - 1 if side == "east" else 0
        for r in range(h):
            if b.standable((c, r, 0)) and b.building_at((c, r)) is None:
                out.add(r)
    else:
        r = h - 1 if side == "south" else 0
        for c in range(w):
            if b.standable((c, r, 0)) and b.building_at((c, r)) is None:
                out.add(c)
    return out
