"""Reading and writing the feature records of a level (and of a layout's street extras).

Each reader takes one YAML value and an :class:`At`, checks keys, types, enum values and
geometry, and returns the model object with ``id`` as written (``""`` when absent; the caller
generates ids once the whole sheet is read).  Each writer returns plain data with keys in the
order of SPEC section 3: ``id`` first, ``note`` last, defaults left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.io.fields import (
    At,
    Rec,
    barrier_class,
    boolean,
    choice,
    class_out,
    feature_id,
    fmt_point,
    integer,
    list_of,
    point,
    point_out,
    points,
    points_out,
    put,
    text,
)
from engine.io.geometry import check_polygon, check_segments, on_wall
from engine.io.quick_records import quick_area, quick_opening, quick_stair, quick_wall
from engine.io.record_keys import AREA_EXTRA, HOLE_KEYS, OPENING_KEYS, STAIR_KEYS, WALL_KEYS
from engine.model import (
    AREA_KINDS,
    DARKNESS,
    LINE_KINDS,
    LOS_EFFECTS,
    OPENING_STATES,
    STANDABLE,
    WALL_CLASSES,
    WINDOW_CLASSES,
    Area,
    Climb,
    Elevator,
    Line,
    Opening,
    Stair,
    Tree,
    Wall,
)

#: keys an area of each kind accepts besides id, kind, polygon, note
#: keys a line of each kind accepts besides id, kind, path, note
LINE_EXTRA: dict[str, tuple[str, ...]] = {"low-wall": ("cost", "los", "class"), "fence": ("class",)}

#: singular names used in generated ids (L0-wall-3 = level 0, 4th wall)
SINGULAR = {
    "walls": "wall", "doors": "door", "windows": "window", "holes": "hole", "areas": "area",
    "lines": "line", "trees": "tree", "stairs": "stair", "elevators": "elevator",
    "climbs": "climb",
}


class IdBook:
    """Ids already used in one namespace (a sheet, or a layout), with the line of first use."""

    def __init__(self, what: str = "id"):
        self.what = what
        self.used: dict[str, int | None] = {}

    def claim(self, ident: str, at: At) -> None:
        if not ident:
            return
        if ident in self.used:
            first = self.used[ident]
            also = f" (first used on line {first})" if first else ""
            at.fail(f"duplicate {self.what} '{ident}'{also}")
        self.used[ident] = at.line

    def fresh(self, base: str) -> str:
        """A new id: ``base``, or ``base-2``, ``base-3`` ... when that is taken."""
        ident, n = base, 1
        while ident in self.used:
            n += 1
            ident = f"{base}-{n}"
        self.used[ident] = None
        return ident


def _id(r: Rec, book: IdBook) -> str:
    ident = r.get("id", feature_id, "")
    book.claim(ident, r.at("id"))
    return ident


def _kind_rec(v: Any, at: At, what: str, kinds: tuple[str, ...], base: tuple[str, ...],
              extra: dict[str, tuple[str, ...]], geom: str) -> Rec:
    """A record whose allowed keys depend on its ``kind``."""
    if not isinstance(v, Mapping):
        Rec(v, at, what, ())
    kind = v.get("kind")
    if kind is None:
        Rec(v, at, what, base + ("kind",), ("kind",))
    kind = choice(kinds)(kind, At(at.file, getattr(v, "value_lines", {}).get("kind", at.line), "kind"))
    allowed = base + extra.get(kind, ()) + ("note",)
    return Rec(v, at, f"{kind} {what}", allowed, ("kind", geom))


def _polygon(r: Rec, key: str, what: str) -> tuple[tuple[float, float], ...]:
    pts = r.get(key, points(3))
    check_polygon(pts, r.at(key), what)
    return pts


def _path(r: Rec, key: str, what: str) -> tuple[tuple[float, float], ...]:
    pts = r.get(key, points(2))
    check_segments(pts, r.at(key), what, r.raw(key))
    return pts


# --------------------------------------------------------------------------- readers


def read_wall(v: Any, at: At, book: IdBook, vertices: int | None = None) -> Wall:
    """A wall; ``vertices`` is the vertex limit when the caller has read it already."""
    quick = quick_wall(v, at, book, vertices)
    if quick is not None:
        return quick
    r = Rec(v, at, "wall", WALL_KEYS, ("path",))
    return Wall(
        id=_id(r, book),
        path=_path(r, "path", "wall"),
        cls=r.get("class", barrier_class(WALL_CLASSES)),
        exterior=r.get("exterior", boolean, False),
        note=r.get("note", text, ""),
    )


def read_opening(
    kind: str, v: Any, at: At, book: IdBook, cover: Any, vertices: int | None = None
) -> Opening:
    """A door, window or hole; its span must lie on a wall (or fence) of its level."""
    quick = quick_opening(kind, v, at, book, cover, vertices)
    if quick is not None:
        return quick
    if kind == "hole":
        r = Rec(v, at, kind, HOLE_KEYS, ("span",))
    else:
        r = Rec(v, at, kind, OPENING_KEYS, ("span",))
    ident = _id(r, book)
    span = r.get("span", points(2))
    span_at = r.at("span")
    if len(span) != 2:
        span_at.fail(f"'span' of a {kind} must be exactly two points [[x, y], [x, y]]")
    check_segments(span, span_at, f"{kind} span")
    if not on_wall(span, cover):
        span_at.fail(
            f"{kind} span {fmt_point(span[0])}-{fmt_point(span[1])} does not lie on a wall of its level"
        )
    names = WINDOW_CLASSES if kind == "window" else WALL_CLASSES
    return Opening(
        kind=kind,  # type: ignore[arg-type]
        id=ident,
        span=(span[0], span[1]),
        state=r.get("state", choice(OPENING_STATES), "open"),
        cls=r.get("class", barrier_class(names)),
        note=r.get("note", text, ""),
    )


def read_area(v: Any, at: At, book: IdBook, vertices: int | None = None) -> Area:
    """An area; ``vertices`` is the vertex limit when the caller has read it already."""
    quick = quick_area(v, at, book, vertices)
    if quick is not None:
        return quick
    r = _kind_rec(v, at, "area", AREA_KINDS, ("id", "kind", "polygon"), AREA_EXTRA, "polygon")
    kind = r.raw("kind")
    if kind == "modifier" and "target_modifier" not in r:
        r.fail("modifier area is missing 'target_modifier'")
    return Area(
        id=_id(r, book),
        kind=kind,
        polygon=_polygon(r, "polygon", f"{kind} area"),
        cost=r.get("cost", integer(0)),
        los=r.get("los", choice(LOS_EFFECTS)),
        standable=r.get("standable", choice(STANDABLE)),
        darkness=r.get("darkness", choice(DARKNESS)),
        target_modifier=r.get("target_modifier", integer(-20, 20)),
        effect=r.get("effect", text),
        cls=r.get("class", barrier_class(WALL_CLASSES)),
        note=r.get("note", text, ""),
    )


def read_line(v: Any, at: At, book: IdBook) -> Line:
    r = _kind_rec(v, at, "line", LINE_KINDS, ("id", "kind", "path"), LINE_EXTRA, "path")
    kind = r.raw("kind")
    return Line(
        id=_id(r, book),
        kind=kind,
        path=_path(r, "path", kind),
        cost=r.get("cost", integer(0)),
        los=r.get("los", choice(LOS_EFFECTS)),
        cls=r.get("class", barrier_class(WALL_CLASSES)),
        note=r.get("note", text, ""),
    )


def read_tree(v: Any, at: At, book: IdBook) -> Tree:
    r = Rec(v, at, "tree", ("id", "trunk", "canopy", "note"), ("trunk",))
    ident = _id(r, book)
    canopy = _polygon(r, "canopy", "tree canopy") if "canopy" in r else ()
    return Tree(id=ident, trunk=r.get("trunk", point), canopy=canopy, note=r.get("note", text, ""))


def _level_to(r: Rec, key: str, level: int, height: int, what: str) -> int:
    to = r.get(key, integer())
    where = r.at(key)
    if to < 0 or to > height:
        where.fail(f"{what} goes to level {to}, outside levels 0..{height} of this sheet")
    if to == level:
        where.fail(f"{what} on level {level} goes to its own level")
    return to


def read_stair(v: Any, at: At, book: IdBook, level: int, height: int) -> Stair:
    quick = quick_stair(v, at, book, level, height)
    if quick is not None:
        return quick
    r = Rec(v, at, "stair", STAIR_KEYS, ("at", "to"))
    return Stair(
        id=_id(r, book), at=r.get("at", point), to=_level_to(r, "to", level, height, "stair"),
        note=r.get("note", text, ""),
    )


def read_elevator(v: Any, at: At, book: IdBook, level: int, height: int) -> Elevator:
    r = Rec(v, at, "elevator", ("id", "at", "levels", "note"), ("at", "levels"))
    ident = _id(r, book)
    levels = r.get("levels", list_of(integer()))
    where = r.at("levels")
    if len(levels) < 2:
        where.fail("an elevator needs at least 2 levels")
    if len(set(levels)) != len(levels):
        where.fail("an elevator lists a level twice")
    for k in levels:
        if k < 0 or k > height:
            where.fail(f"elevator serves level {k}, outside levels 0..{height} of this sheet")
    if level not in levels:
        where.fail(f"an elevator on level {level} must list level {level}")
    return Elevator(id=ident, at=r.get("at", point), levels=levels, note=r.get("note", text, ""))


def read_climb(v: Any, at: At, book: IdBook, level: int, height: int) -> Climb:
    r = Rec(v, at, "climb", ("id", "at", "to", "assisted", "note"), ("at", "to"))
    return Climb(
        id=_id(r, book), at=r.get("at", point), to=_level_to(r, "to", level, height, "climb"),
        assisted=r.get("assisted", boolean, False), note=r.get("note", text, ""),
    )


# --------------------------------------------------------------------------- writers


def _start(ident: str) -> dict[str, Any]:
    return {"id": ident} if ident else {}


def _end(d: dict[str, Any], note: str) -> dict[str, Any]:
    put(d, "note", note, "")
    return d


def wall_out(w: Wall) -> dict[str, Any]:
    d = _start(w.id)
    d["path"] = points_out(w.path)
    put(d, "class", class_out(w.cls))
    put(d, "exterior", w.exterior, False)
    return _end(d, w.note)


def opening_out(o: Opening) -> dict[str, Any]:
    d = _start(o.id)
    d["span"] = points_out(o.span)
    if o.kind != "hole":
        put(d, "state", o.state, "open")
        put(d, "class", class_out(o.cls))
    return _end(d, o.note)


def area_out(a: Area) -> dict[str, Any]:
    d = _start(a.id)
    d["kind"] = a.kind
    d["polygon"] = points_out(a.polygon)
    for key in ("cost", "los", "standable", "darkness", "target_modifier", "effect"):
        put(d, key, getattr(a, key))
    put(d, "class", class_out(a.cls))
    return _end(d, a.note)


def line_out(ln: Line) -> dict[str, Any]:
    d = _start(ln.id)
    d["kind"] = ln.kind
    d["path"] = points_out(ln.path)
    put(d, "cost", ln.cost)
    put(d, "los", ln.los)
    put(d, "class", class_out(ln.cls))
    return _end(d, ln.note)


def tree_out(t: Tree) -> dict[str, Any]:
    d = _start(t.id)
    d["trunk"] = point_out(t.trunk)
    put(d, "canopy", points_out(t.canopy))
    return _end(d, t.note)


def stair_out(s: Stair) -> dict[str, Any]:
    d = _start(s.id)
    d["at"] = point_out(s.at)
    d["to"] = s.to
    return _end(d, s.note)


def elevator_out(e: Elevator) -> dict[str, Any]:
    d = _start(e.id)
    d["at"] = point_out(e.at)
    d["levels"] = list(e.levels)
    return _end(d, e.note)


def climb_out(c: Climb) -> dict[str, Any]:
    d = _start(c.id)
    d["at"] = point_out(c.at)
    d["to"] = c.to
    put(d, "assisted", c.assisted, False)
    return _end(d, c.note)
