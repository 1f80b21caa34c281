"""Small helpers for drawing mapsheets on the dot grid and writing them as SPEC section 3 YAML.

The sheets in ``mapsheets/`` are regular (rectangular rooms, walls between dot rows), so they are
written by a script rather than by hand: a wall is named by the dot rows/columns it separates,
an opening by the dots it lets through, and the script turns that into half-integer coordinates.
That keeps every opening exactly on its wall and every wall off the dots.

Conventions (sheet frame, dots 0..W-1 by 0..H-1):

* ``y_between(r)`` is the wall line between dot rows ``r`` and ``r + 1`` (``r + 0.5``);
  ``-1`` gives the north exterior line ``-0.5``.
* ``cells(c0, r0, c1, r1)`` is the union of the cells of dots ``c0..c1`` x ``r0..r1``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

Pt = list[float]


def _num(v: float) -> float | int:
    """Write 3.0 as 3 and keep halves as 3.5, so the YAML reads like the sheet."""
    v = round(float(v), 4)
    return int(v) if v == int(v) else v


def pts(*points: tuple[float, float]) -> list[Pt]:
    return [[_num(x), _num(y)] for x, y in points]


def rect(x0: float, y0: float, x1: float, y1: float) -> list[Pt]:
    """Axis-aligned rectangle polygon (clockwise on screen, y down)."""
    return pts((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def cells(c0: int, r0: int, c1: int, r1: int, inset: float = 0.0) -> list[Pt]:
    """Polygon covering the cells of dots c0..c1 x r0..r1, optionally shrunk by ``inset``."""
    return rect(c0 - 0.5 + inset, r0 - 0.5 + inset, c1 + 0.5 - inset, r1 + 0.5 - inset)


def box_path(c0: int, r0: int, c1: int, r1: int) -> list[Pt]:
    """Closed wall path around dots c0..c1 x r0..r1 (walls between dots)."""
    x0, y0, x1, y1 = c0 - 0.5, r0 - 0.5, c1 + 0.5, r1 + 0.5
    return pts((x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0))


def hline(r: int, c0: int, c1: int) -> list[Pt]:
    """Horizontal line between dot rows r and r+1, spanning the columns c0..c1."""
    y = r + 0.5
    return pts((c0 - 0.5, y), (c1 + 0.5, y))


def vline(c: int, r0: int, r1: int) -> list[Pt]:
    """Vertical line between dot columns c and c+1, spanning the rows r0..r1."""
    x = c + 0.5
    return pts((x, r0 - 0.5), (x, r1 + 0.5))


def hbar(r: int, c0: int, c1: int, half: float = 0.2) -> list[Pt]:
    """Thin obstacle lying between dot rows r and r+1 (crossed, never stood on)."""
    y = r + 0.5
    return rect(c0 - 0.5, y - half, c1 + 0.5, y + half)


def vbar(c: int, r0: int, r1: int, half: float = 0.2) -> list[Pt]:
    """Thin obstacle lying between dot columns c and c+1."""
    x = c + 0.5
    return rect(x - half, r0 - 0.5, x + half, r1 + 0.5)


def octagon(cx: float, cy: float, rad: float) -> list[Pt]:
    """A round canopy as an octagon."""
    out = []
    for k in range(8):
        a = math.radians(22.5 + 45 * k)
        out.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts(*out)


# --------------------------------------------------------------------------- sheet model


@dataclass
class LevelDraft:
    level: int
    sheet: SheetDraft
    lists: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    note: str = ""

    def _add(self, key: str, prefix: str, item: dict[str, Any]) -> LevelDraft:
        fid = item.pop("id", None) or self.sheet.auto_id(prefix, self.level)
        self.sheet.claim(fid)
        ordered = {"id": fid}
        ordered.update({k: v for k, v in item.items() if v is not None})
        self.lists.setdefault(key, []).append(ordered)
        return self

    # walls and openings
    def wall(self, path: list[Pt], cls: str | None = None, exterior: bool = False,
             id: str | None = None, note: str | None = None) -> LevelDraft:
        item: dict[str, Any] = {"id": id, "path": path, "class": cls}
        if exterior:
            item["exterior"] = True
        item["note"] = note
        return self._add("walls", "w", item)

    def door(self, span: list[Pt], state: str = "closed", cls: str | None = None,
             id: str | None = None, note: str | None = None) -> LevelDraft:
        return self._add("doors", "d", {"id": id, "span": span, "state": state, "class": cls,
                                        "note": note})

    def window(self, span: list[Pt], state: str = "closed", cls: str | None = None,
               id: str | None = None, note: str | None = None) -> LevelDraft:
        return self._add("windows", "win", {"id": id, "span": span, "state": state,
                                            "class": cls, "note": note})

    def hole(self, span: list[Pt], id: str | None = None, note: str | None = None) -> LevelDraft:
        return self._add("holes", "h", {"id": id, "span": span, "note": note})

    # areas
    def area(self, kind: str, polygon: list[Pt], id: str | None = None, **props: Any) -> LevelDraft:
        item: dict[str, Any] = {"id": id, "kind": kind, "polygon": polygon}
        note = props.pop("note", None)
        item.update(props)
        item["note"] = note
        return self._add("areas", kind[:3], item)

    def obstacle(self, polygon: list[Pt], cost: int = 1, los: str = "interrupts",
                 standable: str = "none", id: str | None = None,
                 note: str | None = None) -> LevelDraft:
        return self.area("obstacle", polygon, id=id, cost=cost, los=los, standable=standable,
                         note=note)

    # lines
    def line(self, kind: str, path: list[Pt], id: str | None = None, **props: Any) -> LevelDraft:
        item: dict[str, Any] = {"id": id, "kind": kind, "path": path}
        note = props.pop("note", None)
        cls = props.pop("cls", None)
        if cls is not None:
            item["class"] = cls
        item.update(props)
        item["note"] = note
        return self._add("lines", kind[:3], item)

    def tree(self, trunk: tuple[float, float], canopy_radius: float = 1.6,
             id: str | None = None, note: str | None = None) -> LevelDraft:
        return self._add("trees", "t", {"id": id, "trunk": pts(trunk)[0],
                                        "canopy": octagon(trunk[0], trunk[1], canopy_radius),
                                        "note": note})

    # level changes
    def stair(self, at: tuple[int, int], to: int, id: str | None = None,
              note: str | None = None) -> LevelDraft:
        return self._add("stairs", "s", {"id": id, "at": list(at), "to": to, "note": note})

    def elevator(self, at: tuple[int, int], levels: list[int], id: str | None = None,
                 note: str | None = None) -> LevelDraft:
        return self._add("elevators", "e", {"id": id, "at": list(at), "levels": levels,
                                            "note": note})

    def climb(self, at: tuple[int, int], to: int, assisted: bool = False, id: str | None = None,
              note: str | None = None) -> LevelDraft:
        return self._add("climbs", "c", {"id": id, "at": list(at), "to": to,
                                         "assisted": assisted, "note": note})

    # convenience
    def exterior(self, w: int, h: int, cls: str | None = None, note: str | None = None,
                 id: str | None = None) -> LevelDraft:
        return self.wall(box_path(0, 0, w - 1, h - 1), cls=cls, exterior=True,
                         id=id or ("ext" if self.level == 0 else f"ext-{self.level}"), note=note)


@dataclass
class SheetDraft:
    id: str
    title: str
    size: tuple[int, int]
    kind: str = "building"
    height: int = 1
    defaults: dict[str, str] = field(default_factory=lambda: {
        "wall": "average", "door": "average", "window": "standard"})
    notes: str = ""
    levels: dict[int, LevelDraft] = field(default_factory=dict)
    _ids: set[str] = field(default_factory=set)
    _counter: int = 0

    def level(self, k: int, note: str = "") -> LevelDraft:
        if k not in self.levels:
            self.levels[k] = LevelDraft(k, self)
        if note:
            self.levels[k].note = note
        return self.levels[k]

    def auto_id(self, prefix: str, level: int) -> str:
        while True:
            self._counter += 1
            fid = f"{prefix}{self._counter}" if level == 0 else f"l{level}-{prefix}{self._counter}"
            if fid not in self._ids:
                return fid

    def claim(self, fid: str) -> None:
        if fid in self._ids:
            raise ValueError(f"{self.id}: duplicate feature id {fid!r}")
        self._ids.add(fid)

    def to_data(self) -> dict[str, Any]:
        w, h = self.size
        data: dict[str, Any] = {
            "format": "sprawlmap/mapsheet@1",
            "id": self.id,
            "title": self.title,
            "kind": self.kind,
            "lattice": "square",
            "size": [w, h],
            "outline": rect(-0.5, -0.5, w - 0.5, h - 0.5),
            "height": self.height,
            "defaults": dict(self.defaults),
            "levels": [],
            "notes": self.notes,
        }
        order = ("walls", "doors", "windows", "holes", "areas", "lines", "trees", "stairs",
                 "elevators", "climbs")
        for k in sorted(self.levels):
            lv = self.levels[k]
            entry: dict[str, Any] = {"level": k}
            for key in order:
                if lv.lists.get(key):
                    entry[key] = lv.lists[key]
            if lv.note:
                entry["note"] = lv.note
            data["levels"].append(entry)
        return data


# --------------------------------------------------------------------------- YAML writer


def _flow(v: Any) -> str:
    """One value in YAML flow style (JSON strings are valid YAML double-quoted scalars)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(_num(v))
    if isinstance(v, str):
        if v and all(ch.isalnum() or ch in "-_." for ch in v) and not v[0].isdigit() \
                and v not in ("true", "false", "null", "on", "off", "yes", "no", "none"):
            return v
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {type(v).__name__}")


def _block_str(key: str, text: str, indent: str) -> str:
    if "\n" not in text:
        return f"{indent}{key}: {_flow(text)}\n"
    body = "".join(f"{indent}  {ln}\n" if ln else "\n" for ln in text.rstrip("\n").split("\n"))
    return f"{indent}{key}: |\n{body}"


def dump_sheet(data: dict[str, Any], header: str = "") -> str:
    """The sheet as YAML: block style for the structure, one flow mapping per feature."""
    out = [f"# {ln}\n" if ln else "#\n" for ln in header.splitlines()]
    for key in ("format", "id", "title", "kind", "lattice", "size", "outline", "height",
                "defaults"):
        out.append(f"{key}: {_flow(data[key])}\n")
    out.append("levels:\n")
    for lv in data["levels"]:
        out.append(f"  - level: {lv['level']}\n")
        if "note" in lv:
            out.append(_block_str("note", lv["note"], "    "))
        for key, items in lv.items():
            if key in ("level", "note"):
                continue
            out.append(f"    {key}:\n")
            for it in items:
                out.append(f"      - {_flow(it)}\n")
    out.append(_block_str("notes", data["notes"], ""))
    return "".join(out)
