"""The display list: what a level of the compiled board looks like, as backend-free primitives.

One :class:`Scene` per level holds the map items (ground, areas with their hatching, the dot
grid, lines, walls weighted by class, openings, trees, stairs, building names, the scenario) and
the frame items around them (title, scale bar, legend).  Every picture is drawn from these
primitives with the colours of :mod:`engine.render.style`: the editor canvas and the PNG/VTT
image through the Qt painter, SVG and PDF through their writers.  Hatching is computed here
(clipped lines), so no backend needs patterns; labels are placed here, clear of walls, symbols
and each other (:mod:`engine.render.labels`).

Coordinates are world dots (x right, y down); widths and font sizes are in dots too.  Each
primitive names its ``layer`` (the editor's layer switches) and the ``kind`` of what it shows.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, MultiLineString, Polygon, box
from shapely.ops import unary_union

from engine import model as m
from engine.board import Board, Feature
from engine.render import style as st
from engine.render.labels import Placer, around, spread
from engine.render.metrics import text_width
from engine.rules import get_ruleset
from engine.rules.base import terrain_words

# ----------------------------------------------------------------------------- primitives


@dataclass
class Poly:
    rings: list[np.ndarray]  # exterior first, then holes; each (N, 2)
    fill: str | None = None
    alpha: float = 1.0
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, float] | None = None
    layer: str = ""
    kind: str = ""


@dataclass
class Path:
    points: np.ndarray  # (N, 2)
    stroke: str = "#000000"
    width: float = 0.1
    alpha: float = 1.0
    dash: tuple[float, float] | None = None
    closed: bool = False
    layer: str = ""
    kind: str = ""
    cap: str = "round"  # round | flat | square


@dataclass
class Dots:
    points: np.ndarray  # (N, 2)
    radius: float
    color: str
    layer: str = "grid"
    kind: str = "dot"


@dataclass
class Circle:
    center: tuple[float, float]
    radius: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    layer: str = ""
    kind: str = ""


@dataclass
class Text:
    pos: tuple[float, float]  # baseline point (start, middle or end per anchor)
    text: str
    size: float  # font size (em) in dots
    color: str = st.LABEL
    anchor: str = "start"  # start | middle | end
    bold: bool = False
    halo: bool = False  # a white outline so the label reads over dots and hatching
    layer: str = "labels"
    kind: str = "label"


@dataclass
class Cells:
    """A value per dot as coloured cells (analysis maps): ``colours`` (N, 3) RGB, ``alpha``."""

    points: np.ndarray  # (N, 2) dot centres
    colours: np.ndarray  # (N, 3) uint8
    size: float = 1.0  # cell side in dots
    alpha: float = 0.55
    layer: str = "analysis"
    kind: str = "value"


Item = Poly | Path | Dots | Circle | Text | Cells


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
    side_names: dict[str, str] = field(default_factory=dict)
    #: what is printed on this level (floors, or the pavement); tiles outside it are blank
    content: Any = None
    #: (name, footprint) of each building shown on this level
    buildings: list[tuple[str, Any]] = field(default_factory=list)
    #: the scenario's ruleset: the legend gives terrain costs in its units
    ruleset: str = "dmz1990"


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
    if g.geom_type in ("LineString", "LinearRing"):
        return [np.asarray(g.coords)[:, :2]]
    if g.geom_type == "Polygon":
        return [np.asarray(g.exterior.coords)[:, :2]]
    return [a for part in getattr(g, "geoms", []) for a in lines_of(part)]


def hatch(g: Any, angle: float, spacing: float = st.HATCH_SPACING) -> list[np.ndarray]:
    """Parallel lines at ``angle`` degrees clipped to a polygon (hatching without patterns).

    The lines sit on a world-fixed family (offsets are multiples of ``spacing`` from the
    origin), so hatching drawn piece by piece joins up."""
    if g.is_empty:
        return []
    x0, y0, x1, y1 = g.bounds
    t = math.radians(angle)
    d = np.array([math.cos(t), math.sin(t)])
    nrm = np.array([-d[1], d[0]])
    corners = np.array([(x0, y0), (x1, y0), (x0, y1), (x1, y1)])
    proj = corners @ nrm
    lo, hi = math.floor(proj.min() / spacing), math.ceil(proj.max() / spacing)
    along = corners @ d
    a0, a1 = along.min() - 1, along.max() + 1
    segs = [(tuple(k * spacing * nrm + a0 * d), tuple(k * spacing * nrm + a1 * d))
            for k in range(lo, hi + 1)]
    if not segs:
        return []
    return lines_of(MultiLineString(segs).intersection(g))


def darker(colour: str, factor: float = 1.3) -> str:
    r, g, b = (v / 255 for v in st.rgb(colour))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    r, g, b = colorsys.hsv_to_rgb(h, s, v / factor)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _polys(g: Any, **style: Any) -> list[Poly]:
    return [Poly(r, **style) for r in rings_of(g)]


def _paths(g: Any, **style: Any) -> list[Path]:
    return [Path(p, **style) for p in lines_of(g)]


# ----------------------------------------------------------------------- per feature kind

AREA_ORDER = ("water", "rubble", "undergrowth", "foliage", "obstacle", "modifier", "hazard",
              "smoke", "dark")


def area_items(kind: str, geom: Any, props: Mapping[str, Any]) -> list[Item]:
    s = st.AREA_STYLE.get(kind, st.AREA_STYLE["obstacle"])
    alpha = s.alpha
    if kind == "dark" and props.get("darkness") == "full":
        alpha = st.FULL_DARK_ALPHA
    if kind == "obstacle" and props.get("los") == "blocks":
        alpha = st.BLOCKING_OBSTACLE_ALPHA
    out: list[Item] = _polys(geom, fill=s.fill, alpha=alpha, stroke=s.stroke, width=0.04,
                             dash=s.dash, layer="areas", kind=kind)
    if s.hatch is not None:
        out += [Path(p, stroke=s.stroke, width=st.HATCH_WIDTH, alpha=0.8, layer="areas",
                     kind=kind, cap="flat") for p in hatch(geom, s.hatch)]
    return out


def line_items(kind: str, geom: Any, props: Mapping[str, Any]) -> list[Item]:
    s = st.LINE_STYLE.get(kind, st.LINE_STYLE["step"])
    w = max(s.width, st.wall_width(props) * 0.6) if kind == "fence" else s.width
    return _paths(geom, stroke=s.colour, width=w, dash=s.dash, layer="lines", kind=kind,
                  cap="flat" if s.dash else "round")


def wall_items(geom: Any, props: Mapping[str, Any]) -> list[Item]:
    return _paths(geom, stroke=st.INK, width=st.wall_width(props), layer="walls", kind="wall",
                  cap="square")


def opening_items(kind: str, geom: Any, props: Mapping[str, Any]) -> list[Item]:
    closed = props.get("state") == "closed"
    out: list[Item] = []
    for p in lines_of(geom):
        if kind == "door":
            out.append(Path(p, stroke=st.DOOR if closed else st.DOOR_OPEN,
                            width=0.2 if closed else 0.1, layer="openings", kind="door",
                            cap="flat"))
            out += _jambs(p, st.DOOR)
        elif kind == "window":
            col = st.WINDOW_REINFORCED if props.get("class") == "reinforced" else st.WINDOW
            out.append(Path(p, stroke=col, width=0.18, layer="openings", kind="window",
                            cap="flat"))
            if closed:
                out.append(Path(p, stroke=st.GLASS, width=0.035, layer="openings",
                                kind="window", cap="flat"))
            out += _jambs(p, st.INK)
        else:
            out.append(Path(p, stroke=st.HOLE, width=0.09, dash=(0.12, 0.08), layer="openings",
                            kind="hole", cap="flat"))
    return out


def _jambs(p: np.ndarray, colour: str) -> list[Item]:
    """Short ticks across the wall at both ends of an opening, so it reads as a frame."""
    a, b = p[0], p[-1]
    d = b - a
    n = float(np.hypot(*d))
    if n < 1e-9:
        return []
    nrm = np.array([-d[1], d[0]]) / n * 0.16
    return [Path(np.array([e - nrm, e + nrm]), stroke=colour, width=0.05, layer="openings",
                 kind="jamb", cap="flat") for e in (a, b)]


LINK_HALF = 0.34


def link_items(kind: str, x: float, y: float, to: Any = "") -> list[Item]:
    """Stairs (treads and the level they lead to), elevator ("E"), climb point (a ladder)."""
    h = LINK_HALF
    sq = np.array([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h), (x - h, y - h)])
    kw = {"layer": "stairs", "kind": kind}
    out: list[Item] = [Poly([sq], fill="#ffffff", stroke=st.LINK, width=0.04, **kw)]
    if kind == "stair":
        for k in (-0.17, 0.0, 0.17):
            out.append(Path(np.array([(x - h, y + k), (x + h, y + k)]), stroke=st.LINK,
                            width=0.03, cap="flat", **kw))
        out.append(Text((x + h + 0.05, y - h + 0.3), str(to), 0.42, st.LINK, bold=True,
                        layer="stairs", kind=kind))
    elif kind == "elevator":
        out.append(Text((x, y + 0.19), "E", 0.52, st.LINK, "middle", bold=True,
                        layer="stairs", kind=kind))
    else:
        for k in (-0.16, 0.16):
            out.append(Path(np.array([(x + k, y - h), (x + k, y + h)]), stroke=st.LINK,
                            width=0.03, cap="flat", **kw))
        for k in (-0.17, 0.0, 0.17):
            out.append(Path(np.array([(x - 0.16, y + k), (x + 0.16, y + k)]), stroke=st.LINK,
                            width=0.03, cap="flat", **kw))
    return out


def tree_items(f: Feature) -> list[Item]:
    if f.kind == "canopy":
        return _polys(f.geom, fill=st.CANOPY, alpha=0.22, stroke=st.CANOPY_EDGE, width=0.03,
                      layer="areas", kind="canopy")
    c = f.geom.centroid
    return [Circle((c.x, c.y), 0.25, fill=st.TRUNK, stroke=st.TRUNK_EDGE, width=0.03,
                   layer="areas", kind="trunk")]


def objective_icon(kind: str, x: float, y: float, r: float, colour: str) -> list[Item]:
    """The symbol of an objective kind on a white disc ringed in the side's colour.

    reach: a flag; hold: a shield; retrieve: a case; eliminate: cross-hairs; exit: an arrow
    out; protect: a person in a ring; anything else: a diamond."""
    ink = darker(colour)
    s = r * 0.6
    kw = {"layer": "scenario", "kind": "objective"}

    def pts(*xy: tuple[float, float]) -> np.ndarray:
        return np.array([(x + a * s, y + b * s) for a, b in xy])

    def line(*xy: tuple[float, float]) -> Path:
        return Path(pts(*xy), stroke=ink, width=r * 0.14, **kw)

    def shape(*xy: tuple[float, float], fill: bool = True) -> Poly:
        ring = pts(*xy, xy[0])
        return Poly([ring], fill=colour if fill else None, stroke=ink, width=r * 0.14, **kw)

    out: list[Item] = [Circle((x, y), r, fill="#ffffff", stroke=colour, width=r * 0.16, **kw)]
    if kind == "reach":
        out += [line((-0.55, 0.9), (-0.55, -0.9)),
                shape((-0.55, -0.9), (0.8, -0.5), (-0.55, -0.05))]
    elif kind == "hold":
        t = np.linspace(0, 1, 7)
        right = [(0.8 - 0.05 * u - 0.75 * u * u, -0.6 + 1.55 * u) for u in t]
        out.append(shape((0, -0.95), *right, (0, 0.95), *[(-a, b) for a, b in right[::-1]]))
    elif kind == "retrieve":
        out += [shape((-0.85, -0.35), (0.85, -0.35), (0.85, 0.75), (-0.85, 0.75)),
                shape((-0.3, -0.75), (0.3, -0.75), (0.3, -0.35), (-0.3, -0.35), fill=False)]
    elif kind == "eliminate":
        out.append(Circle((x, y), s * 0.6, stroke=ink, width=r * 0.14, **kw))
        out += [line(a, b) for a, b in (((0, -1), (0, -0.3)), ((0, 0.3), (0, 1)),
                                        ((-1, 0), (-0.3, 0)), ((0.3, 0), (1, 0)))]
    elif kind == "exit":
        out += [line((0.85, -0.9), (0.85, 0.9)), line((-0.85, 0), (0.35, 0)),
                shape((0.6, 0), (0.05, -0.5), (0.05, 0.5))]
    elif kind == "protect":
        out.append(Circle((x, y), s * 0.95, stroke=ink, width=r * 0.14, **kw))
        out.append(Circle((x, y - 0.25 * s), s * 0.25, fill=colour, stroke=ink,
                          width=r * 0.1, **kw))
        t = np.linspace(0, math.pi, 9)
        out.append(shape(*[(0.5 * math.cos(a), 0.6 - 0.5 * math.sin(a)) for a in t]))
    else:
        out.append(shape((0, -0.8), (0.8, 0), (0, 0.8), (-0.8, 0)))
    return out


# ----------------------------------------------------------------------- the level's map


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


def level_content(board: Board, level: int) -> Any:
    """What a level prints: the pavement and every footprint (0), or the floors and roofs."""
    if level == 0:
        return unary_union([board.pavement_area] + [b.footprint for b in board.buildings])
    return unary_union([b.footprint for b in board.buildings if b.height >= level])


def map_items(board: Board, level: int, clip: tuple[float, float, float, float] | None = None,
              present: list[str] | None = None) -> list[Item]:
    """The board's own drawing of ``level`` (no scenario, no names): ground to stairs."""
    present = present if present is not None else []
    it: list[Item] = []
    cb = box(*(clip or board.bounds))
    if level == 0 and not board.pavement_area.is_empty:
        it += _polys(board.pavement_area.intersection(cb), fill=st.PAVEMENT, layer="ground",
                     kind="pavement")
    for b in board.buildings:
        fp = b.footprint.intersection(cb)
        if b.height > level:
            it += _polys(fp, fill=st.FLOOR, layer="ground", kind="floor")
        elif b.height == level:
            it += _polys(fp, fill=st.ROOF, stroke=st.OUTLINE, width=0.05, layer="ground",
                         kind="roof")
        else:
            it += _polys(fp, stroke=st.OUTLINE, width=0.04, dash=(0.2, 0.15), layer="ground",
                         kind="below")
    feats = board.features(level)
    by_kind: dict[str, list[Feature]] = {}
    for f in feats:
        by_kind.setdefault(f.kind, []).append(f)
    for kind in AREA_ORDER:
        for f in by_kind.get(kind, ()):
            it += area_items(kind, f.geom, f.props)
            present.append(kind)
    dots = board.dots(level)
    if len(dots):
        it.append(Dots(board.lattice.points(dots), st.DOT_RADIUS, st.GRID))
        present.append("dot")
    for kind in ("step", "incline", "contour", "low-wall"):
        for f in by_kind.get(kind, ()):
            it += line_items(kind, f.geom, f.props)
            present.append(kind)
    for kind in ("canopy", "trunk"):
        for f in by_kind.get(kind, ()):
            it += tree_items(f)
            present.append("tree")
    for f in by_kind.get("wall", ()):
        it += wall_items(f.geom, f.props)
        present.append("wall")
    for f in by_kind.get("fence", ()):
        it += line_items("fence", f.geom, f.props)
        present.append("fence")
    for kind in ("door", "window", "hole"):
        for f in by_kind.get(kind, ()):
            it += opening_items(kind, f.geom, f.props)
            present.append(kind)
    for kind in ("stair", "elevator", "climb"):
        for f in by_kind.get(kind, ()):
            it += link_items(kind, f.geom.x, f.geom.y, f.props.get("to", ""))
            present.append(kind)
    return it


def _placer(board: Board, level: int, mb: tuple[float, float, float, float]) -> Placer:
    """A label placer that knows the level's walls, openings and symbols."""
    pl = Placer(mb)
    geoms, radii = [], []
    for f in board.features(level):
        if f.kind in ("wall", "fence", "door", "window", "hole", "low-wall"):
            geoms.append(f.geom)
            radii.append(max(st.wall_width(f.props), 0.2) / 2 + 0.02)
        elif f.kind in ("stair", "elevator", "climb"):
            x, y = f.geom.x, f.geom.y
            pl.block_box(x - LINK_HALF, y - LINK_HALF, x + LINK_HALF + 0.4, y + LINK_HALF)
        elif f.kind == "trunk":
            pl.block(f.geom.buffer(0.1))
    if geoms:  # one vectorised buffer for every wall of the level
        for g in shapely.buffer(np.array(geoms, dtype=object), np.array(radii), quad_segs=2):
            pl.block(g)
    return pl


def building_names(board: Board, level: int, pl: Placer, it: list[Item],
                   scene: Scene) -> None:
    """Each building shown on the level named once, near the middle of its footprint."""
    for b in board.buildings:
        if b.height < level:
            continue
        name = b.sheet.title or b.sheet.id
        c = b.footprint.representative_point()
        x, y, anchor = pl.place(name, st.TEXT_BUILDING, spread(c.x, c.y, st.TEXT_BUILDING))
        it.append(Text((x, y), name, st.TEXT_BUILDING, st.MUTED, anchor, bold=True, halo=True,
                       kind="building"))
        scene.buildings.append((name, b.footprint))


def zone_polygon(dep: m.Deployment, bounds: tuple[float, float, float, float]) -> Polygon:
    """A deployment as a polygon: its own, or the band of ``depth`` dots along its edge."""
    if dep.polygon is not None:
        return Polygon(dep.polygon)
    x0, y0, x1, y1 = bounds
    d = dep.depth or 3
    return {"west": box(x0, y0, x0 + d, y1), "east": box(x1 - d, y0, x1, y1),
            "north": box(x0, y0, x1, y0 + d), "south": box(x0, y1 - d, x1, y1)
            }[dep.edge or "west"]


def scenario_items(sc: m.Scenario, level: int, bounds: tuple[float, float, float, float],
                   point: Callable[[tuple[int, int]], tuple[float, float]],
                   pl: Placer | None = None, present: list[str] | None = None,
                   has_edge: Callable[[str], bool] | None = None) -> list[Item]:
    """Deployment zones, objectives and exit edges of ``level`` (labels kept clear by ``pl``)."""
    pl = pl or Placer(bounds)
    present = present if present is not None else []
    it: list[Item] = []
    labels: list[tuple[str, float, str, list[tuple[float, float, str]]]] = []
    colours = {s.id: st.side_colour(i) for i, s in enumerate(sc.sides)}
    x0, y0, x1, y1 = bounds
    for s in sc.sides:
        dep = s.deployment
        if dep is None:
            continue
        if (dep.level if dep.polygon is not None else 0) != level:
            continue
        col = colours[s.id]
        g = zone_polygon(dep, bounds)
        it += _polys(g, fill=col, alpha=0.14, stroke=col, width=0.09, dash=(0.35, 0.15),
                     layer="scenario", kind="deployment")
        c = g.representative_point()
        gx0, gy0, gx1, gy1 = g.bounds
        if dep.polygon is None and dep.edge in ("west", "east"):
            x, anchor = (gx0 + 0.3, "start") if dep.edge == "west" else (gx1 - 0.3, "end")
            cands = [(x, yy, anchor) for yy in np.linspace(gy0 + 1.5, gy1 - 0.5, 9)]
        else:
            cands = spread(c.x, c.y + 0.3, st.TEXT_SIDE)
        labels.append((s.name or s.id, st.TEXT_SIDE, darker(col), cands))
        present.append(f"side:{s.id}")
    for o in sc.objectives:
        col = colours.get(o.side, st.INK)
        name = o.id or o.kind
        lv = (o.at[2] if len(o.at) > 2 else 0) if o.at is not None else None
        if o.at is not None and lv == level:
            x, y = point((o.at[0], o.at[1]))
            it += objective_icon(o.kind, x, y, 0.42, col)
            pl.block_box(x - 0.45, y - 0.45, x + 0.45, y + 0.45)
            labels.append((f"{name} ({o.kind})", st.TEXT_OBJECTIVE, darker(col),
                           around(x, y, st.TEXT_OBJECTIVE)))
            present.append("objective")
        elif o.area is not None and o.level == level:
            g = Polygon(o.area)
            it += _polys(g, fill=col, alpha=0.10, stroke=col, width=0.1, dash=(0.15, 0.12),
                         layer="scenario", kind="hold")
            c = g.representative_point()
            turns = f", {o.turns} turns" if o.turns else ""
            labels.append((f"{name} (hold{turns})", st.TEXT_OBJECTIVE, darker(col),
                           spread(c.x, c.y, st.TEXT_OBJECTIVE, 0.6)))
            present.append("objective")
        edge = _exit_edge(o)
        if edge is not None and level == 0 and (has_edge is None or has_edge(edge)):
            seg = {"west": [(x0, y0), (x0, y1)], "east": [(x1, y0), (x1, y1)],
                   "north": [(x0, y0), (x1, y0)], "south": [(x0, y1), (x1, y1)]}[edge]
            it.append(Path(np.array(seg), stroke=col, width=0.22, alpha=0.8, layer="scenario",
                           kind="exit"))
            mx, my = (seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2
            inset = {"west": (0.4, 0), "east": (-0.4, 0), "north": (0, 0.9),
                     "south": (0, -0.4)}[edge]
            anchor = {"west": "start", "east": "end"}.get(edge, "middle")
            cands = [(mx + inset[0], my + inset[1] + k, anchor) for k in (0, 1, -1, 2, -2, 3)]
            labels.append((f"exit: {name}", st.TEXT_OBJECTIVE, darker(col), cands))
            present.append("objective")
    for text, size, col, cands in labels:
        x, y, anchor = pl.place(text, size, cands)
        it.append(Text((x, y), text, size, col, anchor, bold=True, halo=True, layer="scenario",
                       kind="scenario-label"))
    return it


def _exit_edge(o: m.Objective) -> str | None:
    if o.edge:
        return o.edge
    if o.then and o.then.startswith("exit-"):
        return o.then[len("exit-"):]
    return None


def build_scenes(board: Board, scenario: m.Scenario | None, levels: list[int] | None = None,
                 player_safe: bool = False, shared_frame: bool = False,
                 names: bool = True) -> list[Scene]:
    """One scene per level (``levels``: a subset, in board order)."""
    lvls = [lv for lv in board.levels if levels is None or lv in levels]
    box_ = board_box(board) if shared_frame else None
    return [build_scene(board, scenario, lv, player_safe=player_safe, map_box=box_, names=names)
            for lv in lvls]


def board_box(board: Board) -> tuple[float, float, float, float]:
    """One frame for every level: the map's bounds and every building."""
    x0, y0, x1, y1 = board.bounds
    for b in board.buildings:
        bx0, by0, bx1, by1 = b.footprint.bounds
        x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
    return (x0, y0, x1, y1)


def build_scene(board: Board, scenario: m.Scenario | None, level: int,
                player_safe: bool = False,
                map_box: tuple[float, float, float, float] | None = None,
                names: bool = True) -> Scene:
    """The display list of one level: the map, names, the scenario (unless ``player_safe``)
    and the frame (title, scale bar, legend)."""
    title = (scenario.title if scenario is not None and scenario.title else "sprawlmap layout")
    mb = map_box or level_box(board, level)
    sc = Scene(level, title, mb, mb)
    if scenario is not None:
        sc.ruleset = scenario.ruleset
    sc.content = level_content(board, level).intersection(box(*mb))
    present: list[str] = []
    sc.items = map_items(board, level, mb, present)
    pl = _placer(board, level, mb)
    if scenario is not None:
        sc.side_colours = {s.id: st.side_colour(i) for i, s in enumerate(scenario.sides)}
        sc.side_names = {s.id: s.name or s.id for s in scenario.sides}
        if not player_safe:
            from engine.scenario_checks import edge_dots

            sc.items += scenario_items(
                scenario, level, board.bounds, lambda d: board.lattice.point(d), pl, present,
                has_edge=lambda e: len(edge_dots(board, e)) > 0)
    if names:
        building_names(board, level, pl, sc.items, sc)
    sc.legend = list(dict.fromkeys(present))
    frame(sc)
    return sc


# ------------------------------------------------------------------------ value grids


def ramp(t: float) -> tuple[int, int, int]:
    """A colour-blind-safe ramp from dark blue (0) through teal and green to yellow (1)."""
    stops = ((0.0, (68, 1, 84)), (0.25, (59, 82, 139)), (0.5, (33, 145, 140)),
             (0.75, (94, 201, 98)), (1.0, (253, 231, 37)))
    t = min(1.0, max(0.0, t))
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            u = (t - t0) / (t1 - t0) if t1 > t0 else 0.0
            return tuple(round(a + (b - a) * u) for a, b in zip(c0, c1))  # type: ignore[return-value]
    return stops[-1][1]


def value_grid(board: Board, level: int, values: Mapping[tuple[int, int], float],
               lo: float | None = None, hi: float | None = None,
               colour: Callable[[float], tuple[int, int, int]] = ramp,
               alpha: float = 0.55) -> Cells:
    """A per-dot value map of ``level`` as coloured cells (for analysis pictures).

    ``values`` maps dots (c, r) to numbers; ``lo``..``hi`` (default: their range) spans the
    colour ramp.  Add the result to a scene's ``items`` (after the ground, before the walls)
    to draw it with any backend."""
    keys = list(values)
    if not keys:
        return Cells(np.zeros((0, 2)), np.zeros((0, 3), dtype=np.uint8), alpha=alpha)
    v = np.array([float(values[k]) for k in keys])
    lo = float(v.min()) if lo is None else lo
    hi = float(v.max()) if hi is None else hi
    span = (hi - lo) or 1.0
    cols = np.array([colour((x - lo) / span) for x in v], dtype=np.uint8)
    pts = board.lattice.points(np.array(keys, dtype=int))
    return Cells(pts, cols, 1.0, alpha)


def with_values(sc: Scene, cells: Cells) -> Scene:
    """A copy of ``sc`` with ``cells`` drawn over the ground and under everything else."""
    n = sum(1 for i in sc.items if getattr(i, "layer", "") == "ground")
    return replace(sc, items=sc.items[:n] + [cells] + sc.items[n:])


# -------------------------------------------------------------------------------- framing

HEADER = 2.6
MARGIN = 1.0
ENTRY_W = 9.0
ROW_H = 1.1
LEGEND_TEXT = 0.6

LEGEND_LABELS = {
    "wall": "Wall: thin, average, thick", "door": "Door: closed, open",
    "window": "Window: closed, open", "hole": "Hole", "fence": "Fence",
    "low-wall": "Low wall", "step": "Step", "incline": "Incline", "contour": "Contour line",
    "rubble": "Rubble", "undergrowth": "Undergrowth", "obstacle": "Obstacle",
    "foliage": "Foliage", "dark": "Darkness", "smoke": "Smoke", "modifier": "Target modifier",
    "hazard": "Hazard", "water": "Water", "tree": "Tree: trunk, canopy",
    "stair": "Stairs to level n", "elevator": "Elevator", "climb": "Climb point",
    "dot": "Dot (2 m)", "objective": "Objective",
}


def frame(sc: Scene) -> None:
    """Title and scale bar above the map, legend below; sets the canvas box."""
    x0, y0, x1, y1 = sc.map_box
    lvl = "street level" if sc.level == 0 else f"level {sc.level}"
    sub = f"{lvl}  -  1 dot = 2 m, 1 level = 4 m"
    width = max(x1 - x0, 3 * ENTRY_W, 13 + text_width(sc.title, 1.35, True),
                13 + text_width(sub, 0.68))
    cx0, cx1 = x0 - MARGIN, x0 + width + MARGIN
    top = y0 - MARGIN - HEADER
    f = sc.frame
    kw = {"layer": "frame", "kind": "frame"}
    f.append(Text((x0, top + 1.2), sc.title, 1.35, st.INK, bold=True, **kw))
    f.append(Text((x0, top + 2.1), sub, 0.68, st.MUTED, **kw))
    bx1 = x0 + width
    bx0 = bx1 - 10
    by = top + 1.5
    for k in range(5):  # scale bar: 10 dots = 20 m, alternating 2-dot blocks
        col = st.INK if k % 2 == 0 else "#ffffff"
        r = np.array([(bx0 + 2 * k, by), (bx0 + 2 * k + 2, by), (bx0 + 2 * k + 2, by + 0.35),
                      (bx0 + 2 * k, by + 0.35), (bx0 + 2 * k, by)])
        f.append(Poly([r], fill=col, stroke=st.INK, width=0.04, **kw))
    for dx, t in ((0, "0"), (5, "10"), (10, "20 m")):
        f.append(Text((bx0 + dx, by - 0.25), t, 0.54, st.INK, "middle", **kw))
    entries = legend_entries(sc)
    entry_w = max([ENTRY_W] + [2.2 + text_width(label, LEGEND_TEXT) for label, _ in entries])
    per_row = max(1, int((width + 1e-9) // entry_w))
    ly = y1 + 0.9
    for i, (label, swatch) in enumerate(entries):
        ex = x0 + (i % per_row) * entry_w
        ey = ly + (i // per_row) * ROW_H
        f += [shifted(s, ex, ey) for s in swatch]
        f.append(Text((ex + 1.6, ey + 0.62), label, LEGEND_TEXT, st.INK, **kw))
    rows = math.ceil(len(entries) / per_row) if entries else 0
    bottom = ly + rows * ROW_H + MARGIN
    sc.canvas = (cx0, top - 0.2, cx1, bottom)
    f.insert(0, Poly([np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])],
                     stroke="#707070", width=0.05, **kw))


def shifted(item: Item, dx: float, dy: float) -> Item:
    off = np.array([dx, dy])
    if isinstance(item, Poly):
        return replace(item, rings=[r + off for r in item.rings])
    if isinstance(item, (Path, Dots, Cells)):
        return replace(item, points=item.points + off)
    if isinstance(item, Circle):
        return replace(item, center=(item.center[0] + dx, item.center[1] + dy))
    return replace(item, pos=(item.pos[0] + dx, item.pos[1] + dy))


def _sample_box(**kw: Any) -> list[Item]:
    r = np.array([(0.1, 0.05), (1.3, 0.05), (1.3, 0.85), (0.1, 0.85), (0.1, 0.05)])
    return [Poly([r], **kw)]


def swatch(key: str) -> list[Item]:
    """A legend sample of ``key`` (a feature kind) in a 1.4 x 0.9 box at the origin."""
    y = 0.45
    line = shapely.LineString([(0.1, y), (1.3, y)])
    if key == "wall":
        return [Path(np.array([(0.1, yy), (1.3, yy)]), stroke=st.INK, width=w, cap="flat")
                for yy, w in ((0.15, 0.10), (0.45, 0.16), (0.78, 0.26))]
    if key == "door":
        return (opening_items("door", shapely.LineString([(0.1, 0.25), (1.3, 0.25)]),
                              {"state": "closed"})
                + opening_items("door", shapely.LineString([(0.1, 0.7), (1.3, 0.7)]), {}))
    if key == "window":
        return (opening_items("window", shapely.LineString([(0.1, 0.25), (1.3, 0.25)]),
                              {"state": "closed"})
                + opening_items("window", shapely.LineString([(0.1, 0.7), (1.3, 0.7)]), {}))
    if key == "hole":
        return opening_items("hole", line, {})
    if key in st.LINE_STYLE:
        return line_items(key, line, {})
    if key in st.AREA_STYLE:
        return area_items(key, box(0.1, 0.05, 1.3, 0.85), {})
    if key == "tree":
        return [Circle((0.7, 0.45), 0.42, fill=st.CANOPY, stroke=st.CANOPY_EDGE, width=0.03),
                Circle((0.7, 0.45), 0.18, fill=st.TRUNK)]
    if key in ("stair", "elevator", "climb"):
        return link_items(key, 0.7, 0.45, "n")
    if key == "dot":
        return [Dots(np.array([(0.3, 0.45), (0.7, 0.45), (1.1, 0.45)]), st.DOT_RADIUS, st.GRID)]
    if key == "objective":
        return objective_icon("reach", 0.7, 0.45, 0.4, st.INK)
    return []


#: legend entries whose label adds what crossing them costs under the scenario's ruleset
COSTED = ("rubble", "undergrowth")


def legend_label(key: str, ruleset: str = "dmz1990") -> str:
    """A legend entry's words; rubble and undergrowth say their cost the ruleset's way
    ("Rubble (+1 MP)" under DMZ, "Rubble (m walked, no extra)" under sr3, sr1, darkcon)."""
    label = LEGEND_LABELS.get(key, key.title())
    if key in COSTED:
        label += f" ({terrain_words(get_ruleset(ruleset))})"
    return label


def legend_entries(sc: Scene) -> list[tuple[str, list[Item]]]:
    """(label, swatch) for what the level shows; deployment zones by their sides' names."""
    out = [(legend_label(k, sc.ruleset), swatch(k)) for k in sc.legend
           if not k.startswith("side:") and swatch(k)]
    for k in sc.legend:
        if k.startswith("side:"):
            sid = k[5:]
            col = sc.side_colours.get(sid, st.INK)
            out.append((f"Deployment: {sc.side_names.get(sid, sid)}",
                        _sample_box(fill=col, alpha=0.14, stroke=col, width=0.09,
                                    dash=(0.35, 0.15))))
    return out


__all__ = ["Cells", "Circle", "Dots", "Item", "LineString", "Path", "Poly", "Scene", "Text",
           "area_items", "board_box", "build_scene", "build_scenes", "level_box",
           "line_items", "link_items", "map_items", "objective_icon", "opening_items",
           "ramp", "scenario_items", "value_grid", "wall_items", "with_values"]
