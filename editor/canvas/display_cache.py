"""Display lists for canvas items: each placed sheet (or cut piece) compiled alone in its own
frame, drawn from the same display list and style table as the exports.

A placement item paints its sheet in the sheet's frame (so dragging it only moves the item's
transform); the sheet is compiled once into a small board and its display list cached per
level.  Sheets are immutable: an edit makes a new object, which misses the cache.

:func:`prepare` fills the cache for many sheets at once: the buildings are laid side by side
in one board and compiled together, then its display list is cut back into one list per
sheet.  A compile has a large fixed cost: a 16x16-block city's 634 buildings took 1.75 s
compiled one by one and 0.45 s together (compile and display list).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import numpy as np

from engine import model as m
from engine.board import Board, compile_board
from engine.render import style as render_style
from engine.render.display import Circle, Dots, Item, Poly, Text, map_items

#: display lists kept (one per sheet, piece and level).  A 16x16-block city shows ~640 sheets
#: at once and the library's thumbnails walk every one: a smaller cache made a layer switched
#: on or off compile every sheet of the city again (~3 s)
_LIMIT = 4096
_cache: OrderedDict[tuple, tuple[tuple, list[Item]]] = OrderedDict()


def _get(key: tuple, owner: tuple, build) -> list[Item]:
    hit = _cache.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], owner)):
        _cache.move_to_end(key)
        return hit[1]
    try:
        items = build()
    except Exception:  # noqa: BLE001 - a sheet mid-edit may not compile; the findings say why
        items = []
    _cache[key] = (owner, items)
    while len(_cache) > _LIMIT:
        _cache.popitem(last=False)
    return items


def _key(sheet: m.Sheet, piece: m.Piece | None, level: int) -> tuple:
    return ("sheet", id(sheet), id(piece), level)


def cached(sheet: m.Sheet, piece: m.Piece | None, level: int) -> bool:
    """Whether :func:`sheet_items` has this display list without compiling."""
    hit = _cache.get(_key(sheet, piece, level))
    return hit is not None and hit[0][0] is sheet and hit[0][1] is piece


def _alone(sheet: m.Sheet, piece: m.Piece | None) -> Board:
    pl = m.Placement(sheet.id, (0, 0), piece=piece.id if piece else None, id=sheet.id)
    kw: dict[str, Any] = ({"pavement": (pl,)} if sheet.kind == "pavement"
                          else {"placements": (pl,)})
    lay = m.Layout(lattice=sheet.lattice, pieces=(piece,) if piece else (), **kw)
    return compile_board(lay, {sheet.id: sheet})


def sheet_items(sheet: m.Sheet, piece: m.Piece | None, level: int) -> list[Item]:
    """The display list of ``level`` of ``sheet`` (clipped to ``piece``) in the sheet's frame."""
    return _get(_key(sheet, piece, level), (sheet, piece),
                lambda: map_items(_alone(sheet, piece), level))


def _levels_alone(sheet: m.Sheet, piece: m.Piece | None, levels: Iterable[int]) -> None:
    """Cache several levels of a sheet compiled alone, from one compile."""
    board: list[Board] = []

    def build(level: int) -> list[Item]:
        if not board:
            board.append(_alone(sheet, piece))
        return map_items(board[0], level)

    for level in sorted(levels):
        _get(_key(sheet, piece, level), (sheet, piece), lambda level=level: build(level))


#: dots between two sheets laid side by side for one compile, and the margin around a sheet
#: that still counts as its own (walls on the outline stand half outside it)
_GAP, _MARGIN = 12, 3
#: hatching is anchored to the world's origin, so a sheet compiled away from (0, 0) would
#: show its hatched areas' lines shifted: such sheets are compiled alone
_HATCHED = frozenset(k for k, s in render_style.AREA_STYLE.items() if s.hatch is not None)
_ROW = 600  # dots per row of sheets


def prepare(wanted: Iterable[tuple[m.Sheet, m.Piece | None, int]]) -> None:
    """Have the display list of every (sheet, piece, level) in ``wanted`` cached, compiling
    the uncut buildings of the square lattice among them in one board (the rest alone).

    The shared board's display list is cut back per sheet by where each item starts, and
    moved back to the sheet's frame; a sheet with hatched areas is compiled alone."""
    levels: dict[int, tuple[m.Sheet, set[int]]] = {}
    alone: dict[tuple[int, int], tuple[m.Sheet, m.Piece | None, set[int]]] = {}
    for sheet, piece, level in wanted:
        if cached(sheet, piece, level):
            continue
        if piece is None and sheet.kind != "pavement" and sheet.lattice == "square":
            levels.setdefault(id(sheet), (sheet, set()))[1].add(level)
        else:
            alone.setdefault((id(sheet), id(piece)), (sheet, piece, set()))[2].add(level)
    for sheet, piece, lv in alone.values():
        _levels_alone(sheet, piece, lv)
    batch: list[m.Sheet] = []
    ids: set[str] = set()
    for sheet, _ in levels.values():
        if sheet.id not in ids:  # two versions of one sheet cannot share a board
            ids.add(sheet.id)
            batch.append(sheet)
    if len(batch) > 1:
        _compile_together(batch, sorted(set().union(*(lv for _, lv in levels.values()))))
    for sheet, lv in levels.values():  # what was left out: compiled alone
        _levels_alone(sheet, None, [level for level in lv if not cached(sheet, None, level)])


def _compile_together(sheets: list[m.Sheet], levels: list[int]) -> None:
    offs: list[tuple[int, int]] = []
    x = y = row_h = 0
    for s in sheets:
        w, h = s.size
        if x and x + w > _ROW:
            x, y, row_h = 0, y + row_h + _GAP, 0
        offs.append((x, y))
        x += w + _GAP
        row_h = max(row_h, h)
    pls = tuple(m.Placement(s.id, at, id=s.id) for s, at in zip(sheets, offs))
    try:
        board = compile_board(m.Layout(lattice="square", placements=pls),
                              {s.id: s for s in sheets})
    except Exception:  # noqa: BLE001 - one sheet mid-edit spoils the board: each alone then
        return
    # which sheet owns a point: a raster of sheet numbers, one cell per dot
    pad = _MARGIN + 1
    width = max(o[0] + s.size[0] for o, s in zip(offs, sheets)) + 2 * pad
    height = max(o[1] + s.size[1] for o, s in zip(offs, sheets)) + 2 * pad
    owner = np.full((height, width), -1, dtype=np.int32)
    for i, ((ox, oy), s) in enumerate(zip(offs, sheets)):
        w, h = s.size
        owner[oy + pad - _MARGIN:oy + h + pad + _MARGIN,
              ox + pad - _MARGIN:ox + w + pad + _MARGIN] = i
    move = np.array(offs, dtype=np.float64)

    def whose(pts: np.ndarray) -> np.ndarray:
        c = np.floor(pts).astype(np.int64) + pad
        inside = (c[:, 0] >= 0) & (c[:, 0] < width) & (c[:, 1] >= 0) & (c[:, 1] < height)
        got = np.full(len(c), -1, dtype=np.int64)
        got[inside] = owner[c[inside, 1], c[inside, 0]]
        return got

    for level in levels:
        items = map_items(board, level)
        # where each item starts, all looked up at once (a dot list is split dot by dot)
        starts = np.zeros((len(items), 2))
        for k, it in enumerate(items):
            if isinstance(it, Dots):
                continue
            try:
                starts[k] = (it.rings[0][0] if isinstance(it, Poly) else it.center
                             if isinstance(it, Circle) else it.pos if isinstance(it, Text)
                             else it.points[0])
            except IndexError:
                return  # an empty shape: whose it is cannot be told
        owners = whose(starts).tolist()
        per: list[list[Item]] = [[] for _ in sheets]
        for it, i in zip(items, owners):
            if isinstance(it, Dots):
                at = whose(it.points)
                if (at < 0).any():
                    return
                for i in np.unique(at):
                    per[i].append(Dots(it.points[at == i] - move[i], it.radius, it.color,
                                       it.layer, it.kind))
                continue
            if i < 0:
                return  # drawn far outside its sheet: compiled alone
            _move_back(it, move[i])
            per[i].append(it)
        for s, mine in zip(sheets, per):
            if not any(getattr(it, "cap", "") == "flat" and it.kind in _HATCHED
                       for it in mine):
                _get(_key(s, None, level), (s, None), lambda mine=mine: mine)


def _move_back(it: Item, by: np.ndarray) -> None:
    """Move an item of the shared board back by ``by`` in place (nothing else holds it)."""
    if isinstance(it, Poly):
        it.rings = [r - by for r in it.rings]
    elif isinstance(it, Circle):
        it.center = (it.center[0] - by[0], it.center[1] - by[1])
    elif isinstance(it, Text):
        it.pos = (it.pos[0] - by[0], it.pos[1] - by[1])
    else:
        it.points = it.points - by


def extras_items(extras: m.Extras, lattice: str) -> list[Item]:
    """The display list of the layout's street furniture (world frame, level 0)."""
    def build() -> list[Item]:
        board = compile_board(m.Layout(lattice=lattice, extras=extras), {})
        return map_items(board, 0)

    return _get(("extras", id(extras), lattice), (extras,), build)
