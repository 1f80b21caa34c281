"""The ``layout:`` body of layout and scenario files (SPEC section 4): data <-> Layout."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import limits
from engine.io import features as F
from engine.io import sources
from engine.io.fields import (
    At,
    Rec,
    boolean,
    choice,
    feature_id,
    int_tuple,
    integer,
    points,
    points_out,
    put,
    seq,
    sheet_id,
    text,
)
from engine.io.geometry import check_polygon
from engine.io.sheet import LATTICES, read_inline_sheet, sheet_to_data
from engine.model import Extras, Layout, Piece, Placement

LAYOUT_KEYS = ("lattice", "pavement", "placements", "pieces", "extras", "sheets")
PLACEMENT_KEYS = ("id", "sheet", "piece", "at", "rotation", "mirror", "note")
ROTATION_STEP = {"square": 90, "hex": 60}


def _items(r: Rec, key: str) -> list[tuple[Any, At]]:
    if key not in r:
        return []
    at = r.at(key)
    items = seq(r.raw(key), at)
    return [(x, at.item(items, i)) for i, x in enumerate(items)]


def read_layout(v: Any, at: At) -> Layout:
    r = Rec(v, at, "layout", LAYOUT_KEYS)
    lattice = r.get("lattice", choice(LATTICES), "square")
    step = ROTATION_STEP[lattice]

    pieces: dict[str, Piece] = {}
    piece_lines: dict[str, int | None] = {}
    for item, item_at in _items(r, "pieces"):
        p = Rec(item, item_at, "piece", ("id", "sheet", "polygon", "note"), ("id", "sheet", "polygon"))
        ident = p.get("id", sheet_id)
        if ident in pieces:
            p.at("id").fail(f"duplicate piece id '{ident}' (first used on line {piece_lines[ident]})")
        polygon = p.get("polygon", points(3))
        check_polygon(polygon, p.at("polygon"), "piece polygon")
        pieces[ident] = Piece(id=ident, sheet=p.get("sheet", sheet_id), polygon=polygon,
                              note=p.get("note", text, ""))
        piece_lines[ident] = p.at("id").line

    book = F.IdBook("placement id")

    def placement(item: Any, item_at: At, what: str) -> tuple[Placement, At]:
        p = Rec(item, item_at, what, PLACEMENT_KEYS, ("sheet", "at"))
        ident = p.get("id", feature_id, "")
        book.claim(ident, p.at("id"))
        sheet = p.get("sheet", sheet_id)
        piece = p.get("piece", sheet_id)
        if piece is not None:
            if piece not in pieces:
                p.at("piece").fail(f"piece '{piece}' is not defined in 'pieces'")
            if pieces[piece].sheet != sheet:
                p.at("piece").fail(f"piece '{piece}' is cut from sheet '{pieces[piece].sheet}', not '{sheet}'")
        rotation = p.get("rotation", integer(), 0)
        if rotation % step:
            p.at("rotation").fail(f"rotation {rotation} is not a multiple of {step} on a {lattice} lattice")
        pl = Placement(
            id=ident, sheet=sheet, piece=piece, at=p.get("at", int_tuple((2,))),
            rotation=rotation, mirror=p.get("mirror", boolean, False), note=p.get("note", text, ""),
        )
        return pl, At(item_at.file, p.line, what)

    raw_placed = _items(r, "placements")
    limits.check("buildings", len(raw_placed), r.file, r.key_at("placements").line)
    pavement = [placement(x, a, "pavement placement") for x, a in _items(r, "pavement")]
    placed = [placement(x, a, "placement") for x, a in raw_placed]

    def fill(pl: Placement, pl_at: At) -> Placement:
        if not pl.id:
            n = 1
            while f"{pl.sheet}-{n}" in book.used:
                n += 1
            pl = replace(pl, id=book.fresh(f"{pl.sheet}-{n}"))
        sources.remember(pl, pl_at.file, pl_at.line)
        return pl

    sheets = []
    seen_sheets: dict[str, int | None] = {}
    for item, item_at in _items(r, "sheets"):
        sh = read_inline_sheet(item, item_at)
        if sh.id in seen_sheets:
            item_at.fail(f"sheet '{sh.id}' is inlined twice (first on line {seen_sheets[sh.id]})")
        seen_sheets[sh.id] = item_at.line
        sheets.append(sh)

    return Layout(
        lattice=lattice,
        pavement=tuple(fill(pl, a) for pl, a in pavement),
        placements=tuple(fill(pl, a) for pl, a in placed),
        pieces=tuple(pieces.values()),
        extras=r.get("extras", read_extras, Extras()),
        sheets=tuple(sheets),
    )


def read_extras(v: Any, at: At) -> Extras:
    """Street furniture in world coordinates; generated ids are ``area-0``, ``line-0`` ..."""
    r = Rec(v, at, "extras", ("areas", "lines", "trees"))
    book = F.IdBook()
    areas = tuple(F.read_area(x, a, book) for x, a in _items(r, "areas"))
    lines = tuple(F.read_line(x, a, book) for x, a in _items(r, "lines"))
    trees = tuple(F.read_tree(x, a, book) for x, a in _items(r, "trees"))

    def fill(items: tuple[Any, ...], single: str) -> tuple[Any, ...]:
        return tuple(f if f.id else replace(f, id=book.fresh(f"{single}-{i}")) for i, f in enumerate(items))

    return Extras(areas=fill(areas, "area"), lines=fill(lines, "line"), trees=fill(trees, "tree"))


# --------------------------------------------------------------------------- writing


def placement_to_data(pl: Placement) -> dict[str, Any]:
    d: dict[str, Any] = {"id": pl.id} if pl.id else {}
    d["sheet"] = pl.sheet
    put(d, "piece", pl.piece)
    d["at"] = list(pl.at)
    put(d, "rotation", pl.rotation, 0)
    put(d, "mirror", pl.mirror, False)
    put(d, "note", pl.note, "")
    return d


def layout_to_data(layout: Layout) -> dict[str, Any]:
    d: dict[str, Any] = {"lattice": layout.lattice}
    put(d, "pavement", [placement_to_data(p) for p in layout.pavement])
    put(d, "placements", [placement_to_data(p) for p in layout.placements])
    pieces = []
    for pc in layout.pieces:
        item = {"id": pc.id, "sheet": pc.sheet, "polygon": points_out(pc.polygon)}
        put(item, "note", pc.note, "")
        pieces.append(item)
    put(d, "pieces", pieces)
    extras: dict[str, Any] = {}
    put(extras, "areas", [F.area_out(a) for a in layout.extras.areas])
    put(extras, "lines", [F.line_out(ln) for ln in layout.extras.lines])
    put(extras, "trees", [F.tree_out(t) for t in layout.extras.trees])
    put(d, "extras", extras)
    put(d, "sheets", [sheet_to_data(s) for s in layout.sheets])
    return d
