"""Walls and openings read straight into the model when nothing in them is wrong.

Why: a 16x16-block city's sheets hold 16.5k openings and 5.5k walls. The checked readers of
:mod:`engine.io.features` build a :class:`~engine.io.fields.Rec` and an
:class:`~engine.io.fields.At` per field so that any fault names its line; for records with no
fault that was most of the time spent building sheets. These functions make the same checks
on the values alone and return the same model object, or None at the first thing they do not
accept: the checked reader then reads the record and reports the fault in its own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import limits
from engine.io.fields import ID_RE, At
from engine.io.geometry import on_wall, upright_rectangle
from engine.io.record_keys import (
    AREA_BASE,
    AREA_EXTRA,
    HOLE_KEYS,
    OPENING_KEYS,
    STAIR_KEYS,
    WALL_KEYS,
)
from engine.model import (
    AREA_KINDS,
    DARKNESS,
    LOS_EFFECTS,
    OPENING_STATES,
    STANDABLE,
    WALL_CLASSES,
    WINDOW_CLASSES,
    Area,
    Opening,
    Point,
    Stair,
    Wall,
)

_WALL_KEYS = frozenset(WALL_KEYS)
_OPENING_KEYS = frozenset(OPENING_KEYS)
_HOLE_KEYS = frozenset(HOLE_KEYS)
_STAIR_KEYS = frozenset(STAIR_KEYS)
_AREA_BASE = frozenset(AREA_BASE)
_AREA_KEYS = {kind: _AREA_BASE | frozenset(extra) for kind, extra in AREA_EXTRA.items()}


def quick_points(v: Any, least: int, most: int | None = None) -> tuple[Point, ...] | None:
    """What :func:`engine.io.fields.points` reads from ``v``, or None if it would complain.
    ``most`` is the vertex limit if the caller has read it already (it is an environment
    variable: reading it per record was a tenth of the time)."""
    if not isinstance(v, list | tuple) or len(v) < least:
        return None
    if len(v) > (limits.limit("vertices") if most is None else most):
        return None
    out = []
    for p in v:
        if not isinstance(p, list | tuple) or len(p) != 2:
            return None
        x, y = p
        if (type(x) is not float and type(x) is not int) or (type(y) is not float and type(y) is not int):
            return None  # bools, text, subclasses: the checked reader decides
        try:
            fx, fy = float(x), float(y)
        except OverflowError:
            return None
        if fx - fx != 0.0 or fy - fy != 0.0:  # inf or nan
            return None
        out.append((fx, fy))
    return tuple(out)


def _keys_in(v: Mapping[Any, Any], allowed: frozenset[str]) -> bool:
    if isinstance(v, dict):
        return v.keys() <= allowed
    return all(key in allowed for key in v)


def _class(v: Any, names: Sequence[str]) -> tuple[bool, Any]:
    """``(accepted, class)``: a class name, or absent; an explicit barrier is left to the
    checked reader."""
    if v is None:
        return True, None
    return (type(v) is str and v in names), v


def _claim(v: Mapping[str, Any], at: At, book: Any) -> str | None:
    """The record's id claimed in ``book`` ("" if none), or None if the checked reader must
    read it (not an id, or already used: it then reports the line of the first use)."""
    ident = v.get("id")
    if ident is None:
        return ""
    if type(ident) is int:
        ident = str(ident)
    if type(ident) is not str or not ID_RE.match(ident) or ident in book.used:
        return None
    line = getattr(v, "line", None) or at.line
    book.claim(ident, At(at.file, getattr(v, "value_lines", {}).get("id", line), "id"))
    return ident


def quick_wall(v: Any, at: At, book: Any, vertices: int | None = None) -> Wall | None:
    """:func:`engine.io.features.read_wall` of a record with no fault, else None."""
    if not isinstance(v, Mapping) or not _keys_in(v, _WALL_KEYS):
        return None
    path = quick_points(v.get("path"), 2, vertices)
    if path is None or any(path[i] == path[i - 1] for i in range(1, len(path))):
        return None
    ok, cls = _class(v.get("class"), WALL_CLASSES)
    exterior = v.get("exterior", False)
    if exterior is None:
        exterior = False
    note = v.get("note", "")
    if note is None:
        note = ""
    if not ok or type(exterior) is not bool or type(note) is not str:
        return None
    ident = _claim(v, at, book)
    if ident is None:
        return None
    return Wall(id=ident, path=path, cls=cls, exterior=exterior, note=note)


def quick_opening(
    kind: str, v: Any, at: At, book: Any, cover: Any, vertices: int | None = None
) -> Opening | None:
    """:func:`engine.io.features.read_opening` of a record with no fault, else None."""
    if not isinstance(v, Mapping) or not _keys_in(v, _HOLE_KEYS if kind == "hole" else _OPENING_KEYS):
        return None
    span = quick_points(v.get("span"), 2, vertices)
    if span is None or len(span) != 2 or span[0] == span[1] or not on_wall(span, cover):
        return None
    state = v.get("state")
    if state is None:
        state = "open"
    ok, cls = _class(v.get("class"), WINDOW_CLASSES if kind == "window" else WALL_CLASSES)
    note = v.get("note")
    if note is None:
        note = ""
    if not ok or type(state) is not str or state not in OPENING_STATES or type(note) is not str:
        return None
    ident = _claim(v, at, book)
    if ident is None:
        return None
    return Opening(kind=kind, id=ident, span=(span[0], span[1]), state=state, cls=cls, note=note)  # type: ignore[arg-type]


def _word(v: Any, words: Sequence[str]) -> bool:
    return v is None or (type(v) is str and v in words)


def _whole(v: Any, lo: int, hi: int | None = None) -> bool:
    return v is None or (type(v) is int and lo <= v and (hi is None or v <= hi))


def quick_area(v: Any, at: At, book: Any, vertices: int | None = None) -> Area | None:
    """:func:`engine.io.features.read_area` of a record with no fault, else None (an area
    that is not an upright rectangle is left to the checked reader's shapely checks)."""
    if not isinstance(v, Mapping):
        return None
    kind = v.get("kind")
    if type(kind) is not str or kind not in AREA_KINDS or not _keys_in(v, _AREA_KEYS.get(kind, _AREA_BASE)):
        return None
    polygon = quick_points(v.get("polygon"), 3, vertices)
    if polygon is None or not upright_rectangle(polygon):
        return None
    get = v.get
    cost, los, standable = get("cost"), get("los"), get("standable")
    darkness, modifier, effect = get("darkness"), get("target_modifier"), get("effect")
    ok, cls = _class(get("class"), WALL_CLASSES)
    note = get("note")
    if note is None:
        note = ""
    if not (ok and _whole(cost, 0) and _word(los, LOS_EFFECTS) and _word(standable, STANDABLE)
            and _word(darkness, DARKNESS) and _whole(modifier, -20, 20)
            and (effect is None or type(effect) is str) and type(note) is str):
        return None
    if kind == "modifier" and modifier is None:
        return None
    ident = _claim(v, at, book)
    if ident is None:
        return None
    return Area(id=ident, kind=kind, polygon=polygon, cost=cost, los=los, standable=standable,
                darkness=darkness, target_modifier=modifier, effect=effect, cls=cls, note=note)


def quick_stair(v: Any, at: At, book: Any, level: int, height: int) -> Stair | None:
    """:func:`engine.io.features.read_stair` of a record with no fault, else None."""
    if not isinstance(v, Mapping) or not _keys_in(v, _STAIR_KEYS):
        return None
    spot = quick_points([v.get("at")], 1, 1)
    to, note = v.get("to"), v.get("note")
    if note is None:
        note = ""
    if spot is None or type(to) is not int or not 0 <= to <= height or to == level or type(note) is not str:
        return None
    ident = _claim(v, at, book)
    if ident is None:
        return None
    return Stair(id=ident, at=spot[0], to=to, note=note)
