"""Display lists for canvas items: each placed sheet (or cut piece) compiled alone in its own
frame, drawn from the same display list and style table as the exports.

A placement item paints its sheet in the sheet's frame (so dragging it only moves the item's
transform); the sheet is compiled once into a small board and its display list cached per
level.  Sheets are immutable: an edit makes a new object, which misses the cache.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from engine import model as m
from engine.board import compile_board
from engine.render.display import Item, map_items

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


def sheet_items(sheet: m.Sheet, piece: m.Piece | None, level: int) -> list[Item]:
    """The display list of ``level`` of ``sheet`` (clipped to ``piece``) in the sheet's frame."""
    def build() -> list[Item]:
        pl = m.Placement(sheet.id, (0, 0), piece=piece.id if piece else None, id=sheet.id)
        kw: dict[str, Any] = ({"pavement": (pl,)} if sheet.kind == "pavement"
                              else {"placements": (pl,)})
        lay = m.Layout(lattice=sheet.lattice, pieces=(piece,) if piece else (), **kw)
        board = compile_board(lay, {sheet.id: sheet})
        return map_items(board, level)

    return _get(("sheet", id(sheet), id(piece), level), (sheet, piece), build)


def extras_items(extras: m.Extras, lattice: str) -> list[Item]:
    """The display list of the layout's street furniture (world frame, level 0)."""
    def build() -> list[Item]:
        board = compile_board(m.Layout(lattice=lattice, extras=extras), {})
        return map_items(board, 0)

    return _get(("extras", id(extras), lattice), (extras,), build)
