"""Check the geometry of the mapsheets with shapely, independently of the engine.

Usage: ``python3 mapsheets/tools/check_sheets.py [--draw] [SHEET.yaml ...]``

Checks, per sheet: keys as in SPEC section 3; a valid outline holding every feature; walls,
lines and areas inside the outline; every door/window/hole lying exactly on one segment of a
wall or fence path of its level (and not overlapping another opening); stairs, elevators and
climbs on dots inside the outline, off walls and off non-standable obstacles, joining levels
that exist; no dot lying on a wall; unique ids; and reachability: every standable dot of every
level of a building can be reached from outside the building by stepping between adjacent dots
without touching a wall outside an opening or a fence (doors of any state count as passable;
level changes go through stairs, elevators and climbs).  ``--draw`` prints each level as text.

Exit status 0 when every sheet is clean, 1 otherwise.
"""

from __future__ import annotations

import sys
from collections import deque
from pathlib import Path
from typing import Any

import yaml
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

SHEETS = Path(__file__).resolve().parents[1]
EPS = 1e-9

TOP_KEYS = {"format", "id", "title", "kind", "lattice", "size", "outline", "height", "defaults",
            "levels", "notes"}
LEVEL_KEYS = {"level", "walls", "doors", "windows", "holes", "areas", "lines", "trees", "stairs",
              "elevators", "climbs", "note"}
FEATURE_KEYS = {
    "walls": {"id", "note", "path", "class", "exterior"},
    "doors": {"id", "note", "span", "state", "class"},
    "windows": {"id", "note", "span", "state", "class"},
    "holes": {"id", "note", "span"},
    "areas": {"id", "note", "kind", "polygon", "cost", "los", "standable", "darkness",
              "target_modifier", "effect"},
    "lines": {"id", "note", "kind", "path", "cost", "los", "class"},
    "trees": {"id", "note", "trunk", "canopy"},
    "stairs": {"id", "note", "at", "to"},
    "elevators": {"id", "note", "at", "levels"},
    "climbs": {"id", "note", "at", "to", "assisted"},
}
AREA_KINDS = {"rubble", "undergrowth", "obstacle", "foliage", "dark", "smoke", "modifier",
              "hazard"}
LINE_KINDS = {"step", "incline", "contour", "low-wall", "fence"}
WALL_CLASSES = {"thin", "average", "thick"}
WINDOW_CLASSES = {"standard", "reinforced"}


class Report:
    def __init__(self, name: str) -> None:
        self.name = name
        self.problems: list[str] = []

    def bad(self, msg: str) -> None:
        self.problems.append(f"{self.name}: {msg}")


def _blocking(level: dict[str, Any]) -> Any:
    """Walls minus their openings, plus fences: what a step may not touch."""
    walls = [LineString(w["path"]) for w in level.get("walls", [])]
    walls += [LineString(ln["path"]) for ln in level.get("lines", []) if ln["kind"] == "fence"]
    if not walls:
        return None
    geom = unary_union(walls)
    for key in ("doors", "windows", "holes"):
        for op in level.get(key, []):
            geom = geom.difference(LineString(op["span"]).buffer(1e-6, cap_style="flat"))
    return geom


def _obstacle_blocks(level: dict[str, Any]) -> list[Polygon]:
    return [Polygon(a["polygon"]) for a in level.get("areas", [])
            if a["kind"] == "obstacle" and a.get("los") == "blocks"
            and a.get("standable", "on") == "none"]


def _unstandable(level: dict[str, Any]) -> list[Polygon]:
    return [Polygon(a["polygon"]) for a in level.get("areas", [])
            if a["kind"] == "obstacle" and a.get("standable", "on") == "none"]


def check(path: Path, draw: bool = False) -> list[str]:
    rep = Report(path.name)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for k in set(data) - TOP_KEYS:
        rep.bad(f"unknown key {k!r}")
    if data.get("format") != "sprawlmap/mapsheet@1":
        rep.bad("format is not sprawlmap/mapsheet@1")
    if data.get("id") != path.stem:
        rep.bad(f"id {data.get('id')!r} differs from the file name")
    w, h = data["size"]
    height = data["height"]
    outline = Polygon(data["outline"])
    if not outline.is_valid or outline.area <= 0:
        rep.bad("outline is not a valid polygon")
    inside = outline.buffer(EPS)
    dots = [(c, r) for c in range(w) for r in range(h) if outline.contains(Point(c, r))]
    if len(dots) != w * h:
        rep.bad("outline does not hold every dot of the size box")
    ids: set[str] = set()
    levels = {lv["level"]: lv for lv in data["levels"]}
    top = height if data["kind"] == "building" else 0
    for k, lv in levels.items():
        for key in set(lv) - LEVEL_KEYS:
            rep.bad(f"level {k}: unknown key {key!r}")
        if not 0 <= k <= top:
            rep.bad(f"level {k} outside 0..{top}")
        for key, items in lv.items():
            if key not in FEATURE_KEYS:
                continue
            for it in items:
                for extra in set(it) - FEATURE_KEYS[key]:
                    rep.bad(f"level {k} {key} {it.get('id')}: unknown key {extra!r}")
                fid = it.get("id")
                if not fid:
                    rep.bad(f"level {k} {key}: feature without id")
                elif fid in ids:
                    rep.bad(f"duplicate id {fid!r}")
                ids.add(fid)
        walls = lv.get("walls", [])
        segments = []
        for wl in walls:
            ls = LineString(wl["path"])
            if not inside.contains(ls):
                rep.bad(f"wall {wl['id']} leaves the outline")
            if wl.get("class") not in (None, *WALL_CLASSES):
                rep.bad(f"wall {wl['id']}: bad class {wl.get('class')}")
            pth = wl["path"]
            segments += [LineString([pth[i], pth[i + 1]]) for i in range(len(pth) - 1)]
        for ln in lv.get("lines", []):
            if ln["kind"] == "fence":  # gates: openings may sit on fences too
                pth = ln["path"]
                segments += [LineString([pth[i], pth[i + 1]]) for i in range(len(pth) - 1)]
        spans = []
        for key in ("doors", "windows", "holes"):
            for op in lv.get(key, []):
                sp = LineString(op["span"])
                if sp.length <= 0:
                    rep.bad(f"{op['id']}: empty span")
                if not any(seg.buffer(1e-7).contains(sp) for seg in segments):
                    rep.bad(f"level {k} {key} {op['id']} does not lie on one wall segment")
                for other_id, other in spans:
                    if sp.intersection(other).length > EPS:
                        rep.bad(f"{op['id']} overlaps {other_id}")
                spans.append((op["id"], sp))
                classes = WINDOW_CLASSES if key == "windows" else WALL_CLASSES
                if op.get("class") not in (None, *classes):
                    rep.bad(f"{op['id']}: bad class {op.get('class')}")
        for a in lv.get("areas", []):
            poly = Polygon(a["polygon"])
            if a["kind"] not in AREA_KINDS:
                rep.bad(f"{a['id']}: unknown area kind {a['kind']}")
            if not poly.is_valid or poly.area <= 0:
                rep.bad(f"{a['id']}: invalid polygon")
            if not inside.contains(poly):
                rep.bad(f"{a['id']}: polygon leaves the outline")
            if a["kind"] == "modifier" and "target_modifier" not in a:
                rep.bad(f"{a['id']}: modifier without target_modifier")
            if a["kind"] == "hazard" and not a.get("effect"):
                rep.bad(f"{a['id']}: hazard without effect")
        for ln in lv.get("lines", []):
            if ln["kind"] not in LINE_KINDS:
                rep.bad(f"{ln['id']}: unknown line kind")
            if not inside.contains(LineString(ln["path"])):
                rep.bad(f"{ln['id']}: line leaves the outline")
        for t in lv.get("trees", []):
            if not inside.contains(Point(t["trunk"])) or not inside.contains(Polygon(t["canopy"])):
                rep.bad(f"{t['id']}: tree leaves the outline")
        blocking = _blocking(lv)
        for c, r in dots:
            if blocking is not None and blocking.distance(Point(c, r)) < 0.25:
                rep.bad(f"level {k}: dot ({c},{r}) lies on a wall")
        unst = _unstandable(lv)
        for key in ("stairs", "elevators", "climbs"):
            for it in lv.get(key, []):
                c, r = it["at"]
                if (c, r) not in dots:
                    rep.bad(f"{it['id']}: not on a dot inside the outline")
                if any(p.contains(Point(c, r)) for p in unst):
                    rep.bad(f"{it['id']}: on a non-standable obstacle")
                targets = it["levels"] if key == "elevators" else [k, it["to"]]
                for t in targets:
                    if not 0 <= t <= top:
                        rep.bad(f"{it['id']}: joins missing level {t}")
                if key == "stairs" and it["to"] not in (k - 1, k + 1):
                    rep.bad(f"{it['id']}: stairs must join adjacent levels")
    if data["kind"] == "building":
        _reachability(rep, data, levels, dots, top)
    if draw:
        for k in sorted(set(levels) | set(range(top + 1))):
            print(f"--- {data['id']} level {k}")
            print(render(levels.get(k, {}), w, h))
    return rep.problems


def _reachability(rep: Report, data: dict[str, Any], levels: dict[int, dict[str, Any]],
                  dots: list[tuple[int, int]], top: int) -> None:
    """Flood from the dots just outside the building through openings, stairs and lifts."""
    w, h = data["size"]
    ring = [(c, r) for c in range(-1, w + 1) for r in range(-1, h + 1)
            if c in (-1, w) or r in (-1, h)]
    standable: dict[int, set[tuple[int, int]]] = {}
    graph_block: dict[int, Any] = {}
    for k in range(top + 1):
        lv = levels.get(k, {})
        # an unlisted level is a plain floor inside its exterior wall, so nothing leads in
        blk = _blocking(lv) if lv else (LineString(data["outline"] + [data["outline"][0]])
                                       if k < top else None)
        extra = _obstacle_blocks(lv)
        if extra:
            blk = unary_union([g for g in [blk, *extra] if g is not None])
        graph_block[k] = blk
        unst = _unstandable(lv)
        standable[k] = {d for d in dots if not any(p.contains(Point(d)) for p in unst)}
    seen: set[tuple[int, int, int]] = set()
    queue: deque[tuple[int, int, int]] = deque((c, r, 0) for c, r in ring)
    seen.update(queue)
    links: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
    for k, lv in levels.items():
        for st in lv.get("stairs", []) + lv.get("climbs", []):
            a, b = (*st["at"], k), (*st["at"], st["to"])
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
        for el in lv.get("elevators", []):
            for x in el["levels"]:
                for y in el["levels"]:
                    if x != y:
                        links.setdefault((*el["at"], x), []).append((*el["at"], y))
    while queue:
        c, r, k = queue.popleft()
        nxt = [(c + dc, r + dr, k) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]
        for n in nxt:
            if n in seen:
                continue
            inside_n = (n[0], n[1]) in standable[k]
            outside_n = k == 0 and (n[0], n[1]) in ring
            if not inside_n and not outside_n:
                continue
            blk = graph_block[k]
            if blk is not None and LineString([(c, r), (n[0], n[1])]).intersects(blk):
                continue
            seen.add(n)
            queue.append(n)
        for n in links.get((c, r, k), []):
            if n not in seen and n[2] in standable:
                seen.add(n)
                queue.append(n)
    for k in range(top + 1):
        missing = sorted(d for d in standable[k] if (*d, k) not in seen)
        if missing:
            rep.bad(f"level {k}: {len(missing)} standable dots cannot be reached, e.g. "
                    f"{missing[:6]}")


def render(lv: dict[str, Any], w: int, h: int) -> str:
    """Text picture, two characters per dot: '.' dot, '#' wall, 'D' door, 'W' window, 'H'
    hole, 'o' obstacle, '~' hazard, '*' dark, 'S' stair, 'E' elevator, 'C' climb."""
    gw, gh = 2 * w + 1, 2 * h + 1
    grid = [[" "] * gw for _ in range(gh)]
    for c in range(w):
        for r in range(h):
            grid[2 * r + 1][2 * c + 1] = "."

    def put(x: float, y: float, ch: str) -> None:
        gx, gy = round(2 * x + 1), round(2 * y + 1)
        if 0 <= gx < gw and 0 <= gy < gh:
            grid[gy][gx] = ch

    def trace(p: list[list[float]], ch: str) -> None:
        for i in range(len(p) - 1):
            (x0, y0), (x1, y1) = p[i], p[i + 1]
            n = int(max(abs(x1 - x0), abs(y1 - y0)) * 2)
            for j in range(n + 1):
                t = j / n if n else 0
                put(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, ch)

    for a in lv.get("areas", []):
        ch = {"obstacle": "o", "hazard": "~", "dark": "*", "rubble": "%", "modifier": "+",
              "foliage": "f", "undergrowth": "u", "smoke": "s"}[a["kind"]]
        poly = Polygon(a["polygon"])
        for c in range(w):
            for r in range(h):
                if poly.contains(Point(c, r)):
                    put(c, r, ch)
        if a["kind"] == "obstacle" and not any(poly.contains(Point(c, r))
                                               for c in range(w) for r in range(h)):
            x0, y0, x1, y1 = poly.bounds
            trace([[x0 + 0.0, (y0 + y1) / 2], [x1, (y0 + y1) / 2]] if x1 - x0 > y1 - y0
                  else [[(x0 + x1) / 2, y0], [(x0 + x1) / 2, y1]], "=")
    for ln in lv.get("lines", []):
        trace(ln["path"], {"fence": "#", "low-wall": "m", "step": "_"}.get(ln["kind"], "-"))
    for wl in lv.get("walls", []):
        trace(wl["path"], "#")
    for key, ch in (("doors", "D"), ("windows", "W"), ("holes", "H")):
        for op in lv.get(key, []):
            (x0, y0), (x1, y1) = op["span"]
            n = int(max(abs(x1 - x0), abs(y1 - y0)) * 2)
            for j in range(1, n):
                put(x0 + (x1 - x0) * j / n, y0 + (y1 - y0) * j / n, ch)
    for key, ch in (("stairs", "S"), ("elevators", "E"), ("climbs", "C")):
        for it in lv.get(key, []):
            put(it["at"][0], it["at"][1], ch)
    for t in lv.get("trees", []):
        put(t["trunk"][0], t["trunk"][1], "T")
    return "\n".join("".join(row) for row in grid)


def main(argv: list[str]) -> int:
    draw = "--draw" in argv
    files = [Path(a) for a in argv if not a.startswith("--")] or sorted(SHEETS.glob("*.yaml"))
    problems = []
    for f in files:
        problems += check(f, draw)
    for p in problems:
        print(p)
    print(f"{len(files)} sheets checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
