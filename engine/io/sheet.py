"""Mapsheet files (SPEC section 3): data <-> :class:`engine.model.Sheet`."""

from __future__ import annotations

from typing import Any

from engine import limits
from engine.errors import LoadError
from engine.io import features as F
from engine.io.fields import (
    At,
    Rec,
    barrier_class,
    choice,
    class_out,
    int_tuple,
    integer,
    points,
    points_out,
    put,
    seq,
    sheet_id,
    text,
)
from engine.io.geometry import check_polygon, wall_cover
from engine.io.versions import format_string, read_format
from engine.model import LEVEL_LISTS, WALL_CLASSES, WINDOW_CLASSES, Defaults, Level, Sheet

SHEET_KEYS = (
    "format", "id", "title", "kind", "lattice", "size", "outline", "height", "defaults", "levels",
    "notes",
)
LEVEL_KEYS = ("level",) + LEVEL_LISTS + ("note",)
SHEET_KINDS = ("building", "pavement")
LATTICES = ("square", "hex")
#: tallest building a sheet may describe (stories)
MAX_HEIGHT = 200


def sheet_from_data(data: Any, file: str | None = None) -> Sheet:
    """A Sheet from mapsheet data (a parsed file, or plain dicts from the editor)."""
    _, data = read_format(data, file, ("mapsheet",))
    return read_sheet(data, At(file, getattr(data, "line", None), "sheet"))


def read_inline_sheet(v: Any, at: At) -> Sheet:
    """A sheet inlined in a layout bundle: ``format`` may be left out (it is the current one)."""
    if isinstance(v, dict) and "format" in v:
        _, v = read_format(v, at.file, ("mapsheet",))
    return read_sheet(v, at)


def _defaults(v: Any, at: At) -> Defaults:
    r = Rec(v, at, "defaults", ("wall", "door", "window"))
    return Defaults(
        wall=r.get("wall", barrier_class(WALL_CLASSES), "average"),
        door=r.get("door", barrier_class(WALL_CLASSES), "average"),
        window=r.get("window", barrier_class(WINDOW_CLASSES), "standard"),
    )


def read_sheet(v: Any, at: At) -> Sheet:
    r = Rec(v, at, "mapsheet", SHEET_KEYS, ("id", "title", "kind", "size", "outline"))
    ident = r.get("id", sheet_id)
    kind = r.get("kind", choice(SHEET_KINDS))
    if kind == "building":
        height = r.get("height", integer(1, MAX_HEIGHT), 1)
    else:
        height = r.get("height", integer(0), 0)
        if height:
            r.at("height").fail(f"a pavement sheet has height 0 (only level 0), not {height}")
    outline = r.get("outline", points(3))
    check_polygon(outline, r.at("outline"), "outline")
    book = F.IdBook()
    levels: list[Level] = []
    seen: dict[int, int | None] = {}
    raw_levels = r.raw("levels")
    if raw_levels is not None:
        items = seq(raw_levels, r.at("levels"))
        most = limits.limit("vertices")  # read once a sheet, not once a record
        for i, item in enumerate(items):
            lv_at = r.at("levels").item(items, i)
            lv = _level(item, lv_at, book, kind, height, seen, most)
            levels.append(lv)
    levels = [_fill_ids(lv, book) for lv in levels]
    return Sheet(
        id=ident,
        title=r.get("title", text),
        kind=kind,
        lattice=r.get("lattice", choice(LATTICES), "square"),
        size=r.get("size", int_tuple((2,), lo=1)),
        outline=outline,
        height=height,
        defaults=r.get("defaults", _defaults, Defaults()),
        levels=tuple(levels),
        notes=r.get("notes", text, ""),
    )


def _level(v: Any, at: At, book: F.IdBook, kind: str, height: int, seen: dict[int, int | None],
           most: int) -> Level:
    r = Rec(v, at, "level", LEVEL_KEYS, ("level",))
    k = r.get("level", integer(0))
    k_at = r.at("level")
    if k > height:
        if kind == "pavement":
            k_at.fail(f"level {k} is above the pavement (a pavement sheet has only level 0)")
        k_at.fail(f"level {k} is above the building (height {height}: the roof is level {height})")
    if k in seen:
        k_at.fail(f"level {k} is listed twice (first on line {seen[k]})")
    seen[k] = k_at.line

    def many(key: str, read: Any) -> tuple[Any, ...]:
        if key not in r:
            return ()
        key_at = r.at(key)
        items = seq(r.raw(key), key_at)
        return tuple(read(x, key_at.item(items, i)) for i, x in enumerate(items))

    walls = many("walls", lambda x, a: F.read_wall(x, a, book, most))
    lines = many("lines", lambda x, a: F.read_line(x, a, book))
    cover = wall_cover([w.path for w in walls] + [ln.path for ln in lines if ln.kind == "fence"])
    return Level(
        level=k,
        walls=walls,
        doors=many("doors", lambda x, a: F.read_opening("door", x, a, book, cover, most)),
        windows=many("windows", lambda x, a: F.read_opening("window", x, a, book, cover, most)),
        holes=many("holes", lambda x, a: F.read_opening("hole", x, a, book, cover, most)),
        areas=many("areas", lambda x, a: F.read_area(x, a, book, most)),
        lines=lines,
        trees=many("trees", lambda x, a: F.read_tree(x, a, book)),
        stairs=many("stairs", lambda x, a: F.read_stair(x, a, book, k, height)),
        elevators=many("elevators", lambda x, a: F.read_elevator(x, a, book, k, height)),
        climbs=many("climbs", lambda x, a: F.read_climb(x, a, book, k, height)),
        note=r.get("note", text, ""),
    )


def _fill_ids(lv: Level, book: F.IdBook) -> Level:
    """Give every feature without an id a stable one: ``L<level>-<kind>-<index in its list>``.

    The features were made by this read and nobody holds them yet, so each gets its id in
    place (copying them with ``dataclasses.replace`` was ~10% of reading a 16x16 city)."""
    for key in LEVEL_LISTS:
        single = F.SINGULAR[key]
        for i, f in enumerate(getattr(lv, key)):
            if not f.id:
                object.__setattr__(f, "id", book.fresh(f"L{lv.level}-{single}-{i}"))
    return lv


# --------------------------------------------------------------------------- writing

_WRITERS = {
    "walls": F.wall_out, "doors": F.opening_out, "windows": F.opening_out, "holes": F.opening_out,
    "areas": F.area_out, "lines": F.line_out, "trees": F.tree_out, "stairs": F.stair_out,
    "elevators": F.elevator_out, "climbs": F.climb_out,
}


def level_to_data(lv: Level) -> dict[str, Any]:
    d: dict[str, Any] = {"level": lv.level}
    for key in LEVEL_LISTS:
        items = getattr(lv, key)
        if items:
            d[key] = [_WRITERS[key](f) for f in items]
    put(d, "note", lv.note, "")
    return d


def _defaults_out(df: Defaults) -> dict[str, Any]:
    d: dict[str, Any] = {}
    base = Defaults()
    for key in ("wall", "door", "window"):
        put(d, key, class_out(getattr(df, key)), getattr(base, key))
    return d


def sheet_to_data(sheet: Sheet, with_format: bool = True) -> dict[str, Any]:
    """Plain YAML-ready data for a sheet, keys in SPEC order, defaults left out."""
    if not isinstance(sheet, Sheet):
        raise LoadError(f"not a Sheet: {type(sheet).__name__}")
    d: dict[str, Any] = {"format": format_string("mapsheet")} if with_format else {}
    d["id"] = sheet.id
    d["title"] = sheet.title
    d["kind"] = sheet.kind
    d["lattice"] = sheet.lattice
    d["size"] = list(sheet.size)
    d["outline"] = points_out(sheet.outline)
    d["height"] = sheet.height
    put(d, "defaults", _defaults_out(sheet.defaults))
    put(d, "levels", [level_to_data(lv) for lv in sheet.levels])
    put(d, "notes", sheet.notes, "")
    return d
