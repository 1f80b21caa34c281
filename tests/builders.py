"""Small layouts built in code for the rule-book examples (no files, no I/O)."""

from __future__ import annotations

from engine import model as m
from engine.board import Board, compile_board


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def closed(pts: tuple) -> tuple:
    return tuple(pts) + (pts[0],)


def pavement(w: int = 40, h: int = 30, sid: str = "pave", **level_kw) -> m.Sheet:
    levels = (m.Level(0, **level_kw),) if level_kw else ()
    return m.Sheet(id=sid, title="Pavement", kind="pavement", lattice="square", size=(w, h),
                   outline=rect(-0.5, -0.5, w - 0.5, h - 0.5), levels=levels)


def building(sid: str, w: int, h: int, height: int = 1, levels: tuple = (), **kw) -> m.Sheet:
    return m.Sheet(id=sid, title=sid.title(), kind="building", lattice="square", size=(w, h),
                   outline=rect(-0.5, -0.5, w - 0.5, h - 0.5), height=height, levels=levels, **kw)


def outer_walls(w: int, h: int, cls: str | None = None) -> tuple:
    return (m.Wall(path=closed(rect(-0.5, -0.5, w - 0.5, h - 0.5)), cls=cls, exterior=True),)


def board_of(sheets: list[m.Sheet], placements: list[m.Placement], pave: m.Sheet | None = None,
             extras: m.Extras | None = None) -> Board:
    pave = pave or pavement()
    lay = m.Layout(pavement=(m.Placement(pave.id, (0, 0)),), placements=tuple(placements),
                   extras=extras or m.Extras())
    return compile_board(lay, {s.id: s for s in [pave, *sheets]})
