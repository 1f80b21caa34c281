"""Typed field readers over located YAML data: each failure names the offending line.

A reader turns one YAML value into a model value or raises :class:`LoadError` with the line of
that value.  :class:`Rec` reads one mapping as a record: it refuses unknown keys (naming the key
and its line) and reports missing required keys at the mapping's line.  The same code accepts
plain ``dict``/``list``/``tuple`` data from the editor; then errors carry no line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, TypeVar

from engine import limits
from engine.errors import LoadError
from engine.model import Barrier

T = TypeVar("T")
Conv = Callable[[Any, "At"], Any]

#: sheet and piece ids (they become file names and CLI words)
SHEET_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
#: feature, placement, side, character and objective ids ('/' is the board's separator)
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def describe(v: Any) -> str:
    """How a YAML value reads to a user ("a number", "text", ...)."""
    if v is None:
        return "nothing (null)"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int | float):
        return f"the number {v}"
    if isinstance(v, str):
        return f"the text {v!r}" if len(v) <= 30 else "text"
    if isinstance(v, Mapping):
        return "a mapping"
    if isinstance(v, list | tuple):
        return "a list"
    return type(v).__name__


def fmt_point(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{x:g}" for x in p) + ")"


class At:
    """Where a value came from: file, line and the key it was under (for messages).

    Never changed once made. A plain slotted class, not a frozen dataclass: readers make one
    per field, ~100k for a 16x16-block city, and a frozen dataclass takes three times as long
    to make."""

    __slots__ = ("file", "line", "name")

    def __init__(self, file: str | None, line: int | None, name: str):
        self.file = file
        self.line = line
        self.name = name

    def __repr__(self) -> str:
        return f"At(file={self.file!r}, line={self.line!r}, name={self.name!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, At):
            return NotImplemented
        return (self.file, self.line, self.name) == (other.file, other.line, other.name)

    def __hash__(self) -> int:
        return hash((self.file, self.line, self.name))

    def fail(self, message: str, line: int | None = None) -> NoReturn:
        raise LoadError(message, self.file, line if line is not None else self.line)

    def item(self, seq: Any, i: int) -> At:
        lines = getattr(seq, "item_lines", None)
        line = lines[i] if lines and i < len(lines) else self.line
        return At(self.file, line, self.name)

    def named(self, name: str) -> At:
        return At(self.file, self.line, name)


def line_of(value: Any) -> int | None:
    return getattr(value, "line", None)


class Rec:
    """One mapping read as a record with a fixed set of keys."""

    def __init__(
        self, value: Any, at: At, what: str, allowed: Sequence[str], required: Sequence[str] = ()
    ):
        if not isinstance(value, Mapping):
            at.fail(f"{what} must be a mapping (key: value, ...), not {describe(value)}")
        self.m = value
        self.what = what
        self.file = at.file
        self.line = line_of(value) or at.line
        key_lines = getattr(value, "key_lines", {})
        for key in value:
            if key not in allowed:
                where = key_lines.get(key, self.line)
                raise LoadError(
                    f"unknown key '{key}' in {what} (allowed: {', '.join(allowed)})", self.file, where
                )
        for key in required:
            if value.get(key) is None:
                if key in value:
                    self.at(key).fail(f"'{key}' of {what} must not be empty")
                raise LoadError(f"{what} is missing '{key}'", self.file, self.line)

    def __contains__(self, key: str) -> bool:
        return self.m.get(key) is not None

    def at(self, key: str) -> At:
        lines = getattr(self.m, "value_lines", {})
        return At(self.file, lines.get(key, self.line), key)

    def key_at(self, key: str) -> At:
        lines = getattr(self.m, "key_lines", {})
        return At(self.file, lines.get(key, self.line), key)

    def get(self, key: str, conv: Conv, default: Any = None) -> Any:
        """The converted value of ``key``, or ``default`` when absent or null."""
        v = self.m.get(key)
        if v is None:
            return default
        return conv(v, self.at(key))

    def raw(self, key: str) -> Any:
        return self.m.get(key)

    def fail(self, message: str) -> NoReturn:
        raise LoadError(message, self.file, self.line)


# --------------------------------------------------------------------------- scalars


def text(v: Any, at: At) -> str:
    if not isinstance(v, str):
        at.fail(f"'{at.name}' must be text, not {describe(v)}")
    return v


def boolean(v: Any, at: At) -> bool:
    if not isinstance(v, bool):
        at.fail(f"'{at.name}' must be true or false, not {describe(v)}")
    return v


def integer(lo: int | None = None, hi: int | None = None) -> Conv:
    def conv(v: Any, at: At) -> int:
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int):
            at.fail(f"'{at.name}' must be a whole number, not {describe(v)}")
        if lo is not None and v < lo:
            at.fail(f"'{at.name}' must be at least {lo}, not {v}")
        if hi is not None and v > hi:
            at.fail(f"'{at.name}' must be at most {hi}, not {v}")
        return v

    return conv


def number(v: Any, at: At) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        at.fail(f"'{at.name}' must be a number, not {describe(v)}")
    try:
        f = float(v)
    except OverflowError:  # a whole number of more than 308 digits
        at.fail(f"'{at.name}' is too large a number")
    if not math.isfinite(f):
        at.fail(f"'{at.name}' must be a finite number, not {v}")
    return f


def choice(options: Sequence[str]) -> Conv:
    def conv(v: Any, at: At) -> str:
        if not isinstance(v, str) or v not in options:
            at.fail(f"'{at.name}' must be one of {' | '.join(options)}, not {describe(v)}")
        return v

    return conv


def ident(pattern: re.Pattern[str] = ID_RE, hint: str = "letters, digits, '-', '_' and '.'") -> Conv:
    def conv(v: Any, at: At) -> str:
        if isinstance(v, int) and not isinstance(v, bool):
            v = str(v)
        if not isinstance(v, str) or not pattern.match(v):
            at.fail(f"'{at.name}' must be an id made of {hint}, not {describe(v)}")
        return v

    return conv


sheet_id = ident(SHEET_ID_RE, "lower-case letters, digits and '-'")
feature_id = ident()


# --------------------------------------------------------------------------- sequences


def seq(v: Any, at: At, what: str = "a list") -> Sequence[Any]:
    if isinstance(v, str) or not isinstance(v, list | tuple):
        at.fail(f"'{at.name}' must be {what}, not {describe(v)}")
    return v


def list_of(conv: Conv) -> Conv:
    def read(v: Any, at: At) -> tuple[Any, ...]:
        items = seq(v, at)
        return tuple(conv(x, at.item(items, i)) for i, x in enumerate(items))

    return read


def point(v: Any, at: At) -> tuple[float, float]:
    items = v if isinstance(v, list | tuple) else None
    if items is None or len(items) != 2:
        at.fail(f"'{at.name}' must be a point [x, y], not {describe(v)}")
    return (number(items[0], at), number(items[1], at))


def points(min_count: int) -> Conv:
    def read(v: Any, at: At) -> tuple[tuple[float, float], ...]:
        items = seq(v, at, "a list of points [[x, y], ...]")
        limits.check("vertices", len(items), at.file, at.line)
        pts = tuple(point(p, at.item(items, i)) for i, p in enumerate(items))
        if len(pts) < min_count:
            at.fail(f"'{at.name}' needs at least {min_count} points, has {len(pts)}")
        return pts

    return read


def int_tuple(lengths: Sequence[int], lo: int | None = None) -> Conv:
    names = ("c", "r", "l")
    shape = " or ".join("[" + ", ".join(names[:n]) + "]" for n in lengths)

    def read(v: Any, at: At) -> tuple[int, ...]:
        items = v if isinstance(v, list | tuple) else None
        if items is None or len(items) not in lengths:
            at.fail(f"'{at.name}' must be {shape} of whole numbers, not {describe(v)}")
        return tuple(integer(lo)(x, at) for x in items)

    return read


def barrier_class(names: Sequence[str]) -> Conv:
    """A class name from ``names`` or an explicit ``{barrier: N, armor: M}``."""

    def read(v: Any, at: At) -> str | Barrier:
        if isinstance(v, Mapping):
            r = Rec(v, at, "class", ("barrier", "armor"), ("barrier",))
            return Barrier(r.get("barrier", integer(0)), r.get("armor", integer(0), 0))
        if not isinstance(v, str) or v not in names:
            at.fail(
                f"'{at.name}' must be one of {' | '.join(names)} or {{barrier: N, armor: M}}, "
                f"not {describe(v)}"
            )
        return v

    return read


def pairs(value_conv: Callable[[str], Conv], what: str, keys: Sequence[str] | None = None) -> Conv:
    """A mapping kept as a tuple of (key, value) pairs in file order.

    ``value_conv(key)`` gives the reader for each value; ``keys`` (if given) are the only keys
    allowed.
    """

    def read(v: Any, at: At) -> tuple[tuple[str, Any], ...]:
        if not isinstance(v, Mapping):
            at.fail(f"'{at.name}' must be a mapping, not {describe(v)}")
        r = Rec(v, at, what, tuple(keys) if keys is not None else tuple(v))
        out = []
        for key in v:
            if not isinstance(key, str) or not key:
                at.fail(f"keys of '{at.name}' must be words")
            if v[key] is None:
                r.at(key).fail(f"'{key}' of {what} must not be empty")
            out.append((key, r.get(key, value_conv(key))))
        return tuple(out)

    return read


# --------------------------------------------------------------------------- writing helpers


def num_out(x: float) -> int | float:
    """A coordinate as written: whole numbers without '.0'."""
    return int(x) if float(x).is_integer() else float(x)


def point_out(p: Sequence[float]) -> list[int | float]:
    return [num_out(x) for x in p]


def points_out(ps: Sequence[Sequence[float]]) -> list[list[int | float]]:
    return [point_out(p) for p in ps]


def class_out(c: str | Barrier | None) -> Any:
    if isinstance(c, Barrier):
        d: dict[str, Any] = {"barrier": c.barrier}
        if c.armor:
            d["armor"] = c.armor
        return d
    return c


def put(d: dict[str, Any], key: str, value: Any, default: Any = None) -> None:
    """Set ``key`` unless ``value`` equals its default (keeps saved files tidy)."""
    if value is None or value == default:
        return
    if isinstance(value, tuple | list | dict) and not value and not default:
        return
    d[key] = value
