"""What a printed level looks like, as backend-free primitives in dot units.

One :class:`Scene` per level: the map items (floors, areas with hatching, the dot grid, lines,
walls weighted by class, doors, windows, holes, trees, stairs, deployment zones, objectives)
and the frame items around them (title, scale bar, legend).  SVG, PNG and PDF draw exactly
these primitives, so the three pictures agree; hatching is computed here (clipped lines), so
no backend needs patterns.

Coordinates are world dots (x right, y down); widths and text sizes are in dots too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, MultiLineString, Polygon, box
from shapely.ops import unary_union

from engine import model as m
from engine.board import Board, Feature
from engine.export.font import text_width

# ----------------------------------------------------------------------------- primitives


@dataclass
class Poly:
    rings: list[np.ndarray]  # exterior first, then holes; each (N, 2)
    fill: str | None = None
    alpha: float = 1.0
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, float] | None = None


@dataclass
class Path:
    points: np.ndarray  # (N, 2)
    stroke: str = "#000000"
    width: float = 0.1
    alpha: float = 1.0
    dash: tuple[float, float] | None = None
    closed: bool = False


@dataclass
class Dots:
    points: np.ndarray  # (N, 2)
    radius: float
    color: str


@dataclass
class Circle:
    center: tuple[float, float]
    radius: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0


@dataclass
class Text:
    pos: tuple[float, float]  # baseline start (or middle/end per anchor)
    text: str
    size: float  # cap height-ish font size in dots
    color: str = "#202020"
    anchor: str = "start"  # start | middle | end
    bold: bool = False
    halo: bool = False  # a white outline so the label reads over dots and hatching


Item = Poly | Path | Dots | Circle | Text


@dataclass
class Scene:
    level: int
    title: str
    map_box: tuple[float, float, float, float]  # x0, y0, x1, y1 of the map
    canvas: tuple[float, float, float, float]  # the whole picture incl. header and legend
    items: list[Item] = field(default_factory=list)  # the map
    frame: list[Item] = field(default_factory=list)  # title, scale bar, legend
    legend: list[str] = field(default_factory=list)
    side_colours: dict[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------------- style

PAVEMENT = "#f6f5f0"
FLOOR = "#e9e4d8"
ROOF = "#d6d0c4"
OUTLINE = "#b7b0a2"
GRID = "#8c8c8c"
INK = "#1b1b1b"
SIDE_COLOURS = ("#c0392b", "#1f6fb2", "#2e8b57", "#8e44ad", "#d35400", "#16a085")

WALL_WIDTH = {"thin": 0.10, "average": 0.16, "thick": 0.26}
DOT_RADIUS = 0.07

#: area kind -> (fill, alpha, stroke, hatch angle or None, hatch colour)
AREA_STYLE: dict[str, tuple[str, float, str | None, float | None, str]] = {
    "rubble": ("#b08a5a", 0.22, "#8a6a40", 45.0, "#8a6a40"),
    "undergrowth": ("#6c9a4a", 0.22, "#4d7a32", -45.0, "#4d7a32"),
    "obstacle": ("#8f8f8f", 0.45, "#505050", None, ""),
    "foliage": ("#4f8f3f", 0.30, "#3f6f2f", None, ""),
    "dark": ("#1c2350", 0.24, "#1c2350", None, ""),
    "smoke": ("#9aa4b0", 0.35, "#6f7a88", None, ""),
    "modifier": ("#f2c94c", 0.30, "#c9a227", None, ""),
    "hazard": ("#e4572e", 0.15, "#c0392b", 30.0, "#c0392b"),
    "water": ("#3f8fd2", 0.45, "#2a6fa8", None, ""),
}
LINE_STYLE: dict[str, tuple[str, float, tuple[float, float] | None]] = {
    "step": ("#8a6a40", 0.06, (0.22, 0.12)),
    "incline": ("#8a6a40", 0.06, (0.08, 0.10)),
    "contour": ("#8a6a40", 0.09, None),
    "low-wall": ("#6d6d6d", 0.14, None),
    "fence": ("#333333", 0.09, (0.30, 0.10)),
}
DOOR, DOOR_OPEN = "#8b4513", "#c98b4a"
WINDOW, WINDOW_REINFORCED, GLASS = "#7fbfea", "#3b7fb8", "#1f4f7a"
HOLE = "#e4572e"
CANOPY, TRUNK = "#4f8f3f", "#6b4423"

LEGEND_LABELS = {
    "wall": "Wall: thin, average, thick", "door": "Door: closed, open",
    "window": "Window: closed, open", "hole": "Hole", "fence": "Fence",
    "low-wall": "Low wall", "step": "Step", "incline": "Incline", "contour": "Contour line",
    "rubble": "Rubble (+1 MP)", "undergrowth": "Undergrowth (+1 MP)", "obstacle": "Obstacle",
    "foliage": "Foliage", "dark": "Darkness", "smoke": "Smoke", "modifier": "Target modifier",
    "hazard": "Hazard", "water": "Water (no standing)", "tree": "Tree: trunk, canopy", "stair": "Stairs to level n",
    "elevator": "Elevator", "climb": "Climb point", "dot": "Dot (2 m)",
}


# -------------------------------------------------------------------------------- helpers


def rings_of(g: Any) -> list[list[np.ndarray]]:
    """Polygon rings of a (multi)polygon: one list of rings per part."""
    out = []
    for p in getattr(g, "geoms", [g]):
        if p.geom_type != "Polygon" or p.is_empty:
            continue
        out.append([np.asarray(p.exterior.coords)[:, :2]]
                   + [np.asarray(r.coords)[:, :2] for r in p.interiors])
    return out


def lines_of(g: Any) -> list[np.ndarray]:
    if g.is_empty:
        return []
    if g.geom_type == "LineString":
        return [np.asarray(g.coords)[:, :2]]
    if g.geom_type == "LinearRing":
        return [np.asarray(g.coords)[:, :2]]
    if g.geom_type == "Polygon":
        return [np.asarray(g.exterior.coords)[:, :2]]
    return [a for part in getattr(g, "geoms", []) for a in lines_of(part)]


def hatch(g: Any, angle: float, spacing: float = 0.35) -> list[np.ndarray]:
    """Parallel lines at ``angle`` degrees clipped to a polygon (hatching without patterns)."""
    if g.is_empty:
        return []
    x0, y0, x1, y1 = g.bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = math.hypot(x1 - x0, y1 - y0) / 2 + spacing
    t = math.radians(angle)
    d = np.array([math.cos(t), math.sin(t)])
    nrm = np.array([-d[1], d[0]])
    offs = np.arange(-r, r + 1e-9, spacing)
    segs = [((cx, cy) + o * nrm - r * d, (cx, cy) + o * nrm + r * d) for o in offs]
    clipped = MultiLineString([tuple(map(tuple, s)) for s in segs]).intersection(g)
    return lines_of(clipped)


def wall_width(f: Feature) -> float:
    cls = f.props.get("class", "average")
    if cls in WALL_WIDTH:
        return WALL_WIDTH[cls]
    bar = f.props.get("custom", (12, 0))[0]  # an author's own (DMZ-scale) barrier value
    return 0.10 if bar < 10 else (0.16 if bar < 16 else 0.26)


def _poly_items(g: Any, **style: Any) -> list[Poly]:
    return [Poly(r, **style) for r in rings_of(g)]


def _line_items(g: Any, **style: Any) -> list[Path]:
    return [Path(p, **style) for p in lines_of(g)]


# --------------------------------------------------------------------------- the scenes


def level_box(board: Board, level: int) -> tuple[float, float, float, float]:
    """The part of the world worth printing for a level: the map (0), or its floors' extent."""
    if level == 0:
        return board.bounds
    fps = [b.footprint for b in board.buildings if b.height >= level]
    if not fps:
        return board.bounds
    x0, y0, x1, y1 = unary_union(fps).bounds
    return (math.floor(x0 - 1) + 0.5, math.floor(y0 - 1) + 0.5,
            math.ceil(x1 + 1) - 0.5, math.ceil(y1 + 1) - 0.5)


def build_scenes(board: Board, scenario: m.Scenario | None) -> list[Scene]:
    return [build_scene(board, scenario, lv) for lv in board.levels]


def build_scene(board: Board, scenario: m.Scenario | None, level: int) -> Scene:
    title = (scenario.title if scenario is not None and scenario.title else "sprawlmap layout")
    mb = level_box(board, level)
    sc = Scene(level, title, mb, mb)
    present: list[str] = []
    it = sc.items
    clip = box(*mb)

    # ground
    if level == 0:
        it += _poly_items(board.pavement_area, fill=PAVEMENT)
    for b in board.buildings:
        fp = b.footprint.intersection(clip)
        if b.height > level:
            it += _poly_items(fp, fill=FLOOR)
        elif b.height == level:
            it += _poly_items(fp, fill=ROOF, stroke=OUTLINE, width=0.05)
        else:
            it += _poly_items(fp, stroke=OUTLINE, width=0.04, dash=(0.2, 0.15))

    feats = board.features(level)
    # areas, lowest first
    for kind in ("water", "rubble", "undergrowth", "foliage", "obstacle", "modifier", "hazard",
                 "smoke", "dark"):
        for f in feats:
            if f.kind != kind:
                continue
            fill, alpha, stroke, ang, hcol = AREA_STYLE[kind]
            if kind == "dark" and f.props.get("darkness") == "full":
                alpha = 0.34
            if kind == "obstacle" and f.props.get("los") == "blocks":
                alpha = 0.75
            it += _poly_items(f.geom, fill=fill, alpha=alpha, stroke=stroke, width=0.04,
                              dash=(0.15, 0.1) if kind == "dark" else None)
            if ang is not None:
                it += [Path(p, stroke=hcol, width=0.03, alpha=0.8) for p in hatch(f.geom, ang)]
            present.append(kind)
    # the dot grid: every standable dot of the level
    dots = board.dots(level)
    if len(dots):
        it.append(Dots(board.lattice.points(dots), DOT_RADIUS, GRID))
        present.append("dot")
    # lines
    for f in feats:
        if f.kind in LINE_STYLE and f.kind != "fence":
            col, w, dash = LINE_STYLE[f.kind]
            it += _line_items(f.geom, stroke=col, width=w, dash=dash)
            present.append(f.kind)
    # trees
    for f in feats:
        if f.kind == "canopy":
            it += _poly_items(f.geom, fill=CANOPY, alpha=0.22, stroke="#3f6f2f", width=0.03)
            present.append("tree")
    for f in feats:
        if f.kind == "trunk":
            c = f.geom.centroid
            it.append(Circle((c.x, c.y), 0.25, fill=TRUNK, stroke="#3b2612", width=0.03))
            present.append("tree")
    # walls and fences
    for f in feats:
        if f.kind == "wall":
            it += _line_items(f.geom, stroke=INK, width=wall_width(f))
            present.append("wall")
        elif f.kind == "fence":
            col, w, dash = LINE_STYLE["fence"]
            it += _line_items(f.geom, stroke=col, width=max(w, wall_width(f) * 0.6), dash=dash)
            present.append("fence")
    # openings
    for f in feats:
        if f.kind in ("door", "window", "hole"):
            it += opening_items(f)
            present.append(f.kind)
    # level links
    for f in feats:
        if f.kind in ("stair", "elevator", "climb"):
            it += link_items(f)
            present.append(f.kind)
    if scenario is not None:
        sc.side_colours = {s.id: SIDE_COLOURS[i % len(SIDE_COLOURS)]
                           for i, s in enumerate(scenario.sides)}
        scenario_items(board, scenario, level, it, present)
    sc.legend = list(dict.fromkeys(present))
    frame(sc, board)
    return sc


def opening_items(f: Feature) -> list[Item]:
    closed = f.props.get("state") == "closed"
    out: list[Item] = []
    if f.kind == "door":
        for p in lines_of(f.geom):
            out.append(Path(p, stroke=DOOR if closed else DOOR_OPEN, width=0.2 if closed else 0.1))
            out += _jambs(p, DOOR)
    elif f.kind == "window":
        col = WINDOW_REINFORCED if f.props.get("class") == "reinforced" else WINDOW
        for p in lines_of(f.geom):
            out.append(Path(p, stroke=col, width=0.18))
            if closed:
                out.append(Path(p, stroke=GLASS, width=0.035))
            out += _jambs(p, INK)
    else:
        for p in lines_of(f.geom):
            out.append(Path(p, stroke=HOLE, width=0.09, dash=(0.12, 0.08)))
    return out


def _jambs(p: np.ndarray, colour: str) -> list[Item]:
    """Short ticks across the wall at both ends of an opening, so it reads as a frame."""
    a, b = p[0], p[-1]
    d = b - a
    n = np.hypot(*d)
    if n < 1e-9:
        return []
    nrm = np.array([-d[1], d[0]]) / n * 0.16
    return [Path(np.array([e - nrm, e + nrm]), stroke=colour, width=0.05) for e in (a, b)]


def link_items(f: Feature) -> list[Item]:
    x, y = f.geom.x, f.geom.y
    h = 0.34
    sq = np.array([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h), (x - h, y - h)])
    out: list[Item] = [Poly([sq], fill="#ffffff", stroke="#303030", width=0.04)]
    if f.kind == "stair":
        for k in (-0.17, 0.0, 0.17):
            out.append(Path(np.array([(x - h, y + k), (x + h, y + k)]), stroke="#303030",
                            width=0.03))
        out.append(Text((x + h + 0.05, y - h + 0.05), str(f.props.get("to", "")), 0.32,
                        "#303030", bold=True))
    elif f.kind == "elevator":
        out.append(Text((x, y + 0.13), "E", 0.4, "#303030", "middle", bold=True))
    else:
        for k in (-0.16, 0.16):
            out.append(Path(np.array([(x + k, y - h), (x + k, y + h)]), stroke="#303030",
                            width=0.03))
        for k in (-0.17, 0.0, 0.17):
            out.append(Path(np.array([(x - 0.16, y + k), (x + 0.16, y + k)]),
                            stroke="#303030", width=0.03))
    return out


def scenario_items(board: Board, sc: m.Scenario, level: int, it: list[Item],
                   present: list[str]) -> None:
    from engine.scenario_checks import edge_dots, exit_edge

    colours = {s.id: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sc.sides)}
    x0, y0, x1, y1 = board.bounds
    used: dict[tuple[float, float], int] = {}

    def label(pos: tuple[float, float], text: str, size: float, col: str, anchor: str) -> None:
        """A bold label kept inside the map; labels at the same spot stack downwards."""
        n = used.get(pos, 0)
        used[pos] = n + 1
        x, y = pos[0], pos[1] + n * size * 1.5
        w = text_width(text, size)
        left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        shift = max(x0 + 0.2 - left, 0.0) - max(left + w - (x1 - 0.2), 0.0)
        it.append(Text((x + shift, y), text, size, col, anchor, bold=True, halo=True))

    for s in sc.sides:
        dep = s.deployment
        if dep is None:
            continue
        col = colours[s.id]
        if dep.polygon is not None:
            if dep.level != level:
                continue
            g = Polygon(dep.polygon)
        else:
            if level != 0:
                continue
            dd = dep.depth or 3
            g = {"west": box(x0, y0, x0 + dd, y1), "east": box(x1 - dd, y0, x1, y1),
                 "north": box(x0, y0, x1, y0 + dd), "south": box(x0, y1 - dd, x1, y1)
                 }[dep.edge or "west"]
        it += _poly_items(g, fill=col, alpha=0.14, stroke=col, width=0.09, dash=(0.35, 0.15))
        name = s.name or s.id
        if dep.polygon is None:  # a strip along an edge: label inside it, from the edge
            gx0, gy0, gx1, gy1 = g.bounds
            pos, anchor = {"west": ((gx0 + 0.3, gy0 + 1.2), "start"),
                           "east": ((gx1 - 0.3, gy0 + 1.2), "end"),
                           "north": (((gx0 + gx1) / 2, gy0 + 1.0), "middle"),
                           "south": (((gx0 + gx1) / 2, gy1 - 0.4), "middle")}[dep.edge or "west"]
            label(pos, name, 0.7, col, anchor)
        else:
            c = g.representative_point()
            label((c.x, c.y + 0.25), name, 0.7, col, "middle")
        present.append(f"side:{s.id}")
    for o in sc.objectives:
        col = colours.get(o.side, INK)
        name = o.id or o.kind
        lv = None
        if o.at is not None:
            lv = o.at[2] if len(o.at) > 2 else 0
        if o.at is not None and lv == level:
            x, y = board.lattice.point((o.at[0], o.at[1]))
            it.append(Circle((x, y), 0.42, fill="#ffffff", stroke=col, width=0.1))
            it.append(Circle((x, y), 0.18, fill=col))
            label((x + 0.55, y - 0.35), f"{name} ({o.kind})", 0.45, col, "start")
            present.append("objective")
        elif o.area is not None and o.level == level:
            g = Polygon(o.area)
            it += _poly_items(g, fill=col, alpha=0.10, stroke=col, width=0.1, dash=(0.15, 0.12))
            c = g.representative_point()
            turns = f", {o.turns} turns" if o.turns else ""
            label((c.x, c.y), f"{name} (hold{turns})", 0.45, col, "middle")
            present.append("objective")
        edge = exit_edge(o)
        if edge is not None and level == 0:
            d = edge_dots(board, edge)
            if len(d):
                seg = {"west": [(x0, y0), (x0, y1)], "east": [(x1, y0), (x1, y1)],
                       "north": [(x0, y0), (x1, y0)], "south": [(x0, y1), (x1, y1)]}[edge]
                it.append(Path(np.array(seg), stroke=col, width=0.22, alpha=0.8))
                mx, my = (seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2
                inset = {"west": (0.4, 0), "east": (-0.4, 0), "north": (0, 0.8),
                         "south": (0, -0.4)}[edge]
                anchor = {"west": "start", "east": "end"}.get(edge, "middle")
                label((mx + inset[0], my + inset[1]), f"exit: {name}", 0.45, col, anchor)
                present.append("objective")


# -------------------------------------------------------------------------------- framing

HEADER = 2.6
MARGIN = 1.0
ENTRY_W = 9.0
ROW_H = 1.1


def frame(sc: Scene, board: Board) -> None:
    """Title and scale bar above the map, legend below; sets the canvas box."""
    x0, y0, x1, y1 = sc.map_box
    lvl = "street level" if sc.level == 0 else f"level {sc.level}"
    sub = f"{lvl}  -  1 dot = 2 m, 1 level = 4 m"
    width = max(x1 - x0, 3 * ENTRY_W, 13 + text_width(sc.title, 1.0), 13 + text_width(sub, 0.5))
    cx0, cx1 = x0 - MARGIN, x0 + width + MARGIN
    top = y0 - MARGIN - HEADER
    f = sc.frame
    f.append(Text((x0, top + 1.2), sc.title, 1.0, INK, bold=True))
    f.append(Text((x0, top + 2.1), sub, 0.5, "#505050"))
    # scale bar: 10 dots = 20 m, alternating 2-dot blocks
    bx1 = x0 + width
    bx0 = bx1 - 10
    by = top + 1.5
    for k in range(5):
        col = INK if k % 2 == 0 else "#ffffff"
        r = np.array([(bx0 + 2 * k, by), (bx0 + 2 * k + 2, by), (bx0 + 2 * k + 2, by + 0.35),
                      (bx0 + 2 * k, by + 0.35), (bx0 + 2 * k, by)])
        f.append(Poly([r], fill=col, stroke=INK, width=0.04))
    f.append(Text((bx0, by - 0.25), "0", 0.4, INK, "middle"))
    f.append(Text((bx0 + 10, by - 0.25), "20 m", 0.4, INK, "middle"))
    f.append(Text((bx0 + 5, by - 0.25), "10", 0.4, INK, "middle"))
    # legend entries
    entries = legend_entries(sc, board)
    entry_w = max([ENTRY_W] + [2.2 + text_width(label, 0.45) for label, _ in entries])
    per_row = max(1, int((width + 1e-9) // entry_w))
    ly = y1 + 0.9
    for i, (label, swatch) in enumerate(entries):
        ex = x0 + (i % per_row) * entry_w
        ey = ly + (i // per_row) * ROW_H
        f += [_shift(s, ex, ey) for s in swatch]
        f.append(Text((ex + 1.6, ey + 0.62), label, 0.45, INK))
    rows = math.ceil(len(entries) / per_row) if entries else 0
    bottom = ly + rows * ROW_H + MARGIN
    sc.canvas = (cx0, top - 0.2, cx1, bottom)
    f.insert(0, Poly([np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])],
                     stroke="#707070", width=0.05))


def _shift(item: Item, dx: float, dy: float) -> Item:
    off = np.array([dx, dy])
    if isinstance(item, Poly):
        return Poly([r + off for r in item.rings], item.fill, item.alpha, item.stroke,
                    item.width, item.dash)
    if isinstance(item, Path):
        return Path(item.points + off, item.stroke, item.width, item.alpha, item.dash)
    if isinstance(item, Dots):
        return Dots(item.points + off, item.radius, item.color)
    if isinstance(item, Circle):
        return Circle((item.center[0] + dx, item.center[1] + dy), item.radius, item.fill,
                      item.stroke, item.width)
    return Text((item.pos[0] + dx, item.pos[1] + dy), item.text, item.size, item.color,
                item.anchor, item.bold, item.halo)


def _sample_line(**kw: Any) -> list[Item]:
    return [Path(np.array([(0.1, 0.45), (1.3, 0.45)]), **kw)]


def _sample_box(**kw: Any) -> list[Item]:
    r = np.array([(0.1, 0.05), (1.3, 0.05), (1.3, 0.85), (0.1, 0.85), (0.1, 0.05)])
    return [Poly([r], **kw)]


def legend_entries(sc: Scene, board: Board) -> list[tuple[str, list[Item]]]:
    """(label, swatch items in a 1.4 x 0.9 box at the origin) for what the level shows."""
    out: list[tuple[str, list[Item]]] = []
    for key in sc.legend:
        sw: list[Item]
        if key == "wall":
            sw = [Path(np.array([(0.1, y), (1.3, y)]), stroke=INK, width=w)
                  for y, w in ((0.15, 0.10), (0.45, 0.16), (0.78, 0.26))]
        elif key == "door":
            sw = [Path(np.array([(0.1, 0.25), (1.3, 0.25)]), stroke=DOOR, width=0.2),
                  Path(np.array([(0.1, 0.7), (1.3, 0.7)]), stroke=DOOR_OPEN, width=0.1)]
        elif key == "window":
            sw = [Path(np.array([(0.1, 0.25), (1.3, 0.25)]), stroke=WINDOW, width=0.18),
                  Path(np.array([(0.1, 0.25), (1.3, 0.25)]), stroke=GLASS, width=0.035),
                  Path(np.array([(0.1, 0.7), (1.3, 0.7)]), stroke=WINDOW, width=0.18)]
        elif key == "hole":
            sw = _sample_line(stroke=HOLE, width=0.09, dash=(0.12, 0.08))
        elif key in LINE_STYLE:
            col, w, dash = LINE_STYLE[key]
            sw = _sample_line(stroke=col, width=w, dash=dash)
        elif key in AREA_STYLE:
            fill, alpha, stroke, ang, hcol = AREA_STYLE[key]
            sw = _sample_box(fill=fill, alpha=alpha, stroke=stroke, width=0.04)
            if ang is not None:
                g = Polygon([(0.1, 0.05), (1.3, 0.05), (1.3, 0.85), (0.1, 0.85)])
                sw += [Path(p, stroke=hcol, width=0.03) for p in hatch(g, ang, 0.3)]
        elif key == "tree":
            sw = [Circle((0.7, 0.45), 0.42, fill=CANOPY, stroke="#3f6f2f", width=0.03),
                  Circle((0.7, 0.45), 0.18, fill=TRUNK)]
        elif key in ("stair", "elevator", "climb"):
            f = Feature(key, "legend", 0, shapely.Point(0.7, 0.45),
                        props={"to": "n", "levels": ()})
            sw = link_items(f)
        elif key == "dot":
            sw = [Dots(np.array([(0.3, 0.45), (0.7, 0.45), (1.1, 0.45)]), DOT_RADIUS, GRID)]
        elif key == "objective":
            sw = [Circle((0.7, 0.45), 0.38, fill="#ffffff", stroke=INK, width=0.1),
                  Circle((0.7, 0.45), 0.16, fill=INK)]
        elif key.startswith("side:"):
            continue
        else:
            continue
        out.append((LEGEND_LABELS.get(key, key.title()), sw))
    # one entry per deployed side, in its colour
    sides = [k[5:] for k in sc.legend if k.startswith("side:")]
    for sid in sides:
        col = sc.side_colours.get(sid, INK)
        out.append((f"Deployment: {sid}", _sample_box(fill=col, alpha=0.14, stroke=col,
                                                       width=0.09, dash=(0.35, 0.15))))
    return out


def all_items(sc: Scene) -> list[Item]:
    return sc.items + sc.frame


def item_count(scenes: list[Scene]) -> int:
    return sum(len(s.items) + len(s.frame) for s in scenes)


__all__ = ["Circle", "Dots", "Item", "LineString", "Path", "Poly", "Scene", "Text",
           "build_scene", "build_scenes", "level_box"]
