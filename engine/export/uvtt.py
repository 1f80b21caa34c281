"""Universal VTT (``.dd2vtt``): a map image plus walls and doors in grid units, one per level.

The format (version 0.3, as written by Dungeondraft and read by Foundry, Roll20 importers,
Arkenforge, ...) is JSON: ``resolution`` (origin, size in grid squares, pixels per grid),
``line_of_sight`` (wall polylines), ``portals`` (doors and windows: position, the two ends,
rotation in radians, closed, freestanding), ``lights``, ``environment`` and ``image`` (base64
PNG).  One grid square is one dot spacing and the map origin is the top-left corner of the
map box, so a dot sits in the middle of its square exactly as on the printed sheet.

Walls are walls and fences of the level (as cut by their openings); blocking obstacles and tree
trunks go to ``objects_line_of_sight`` as closed outlines; doors and windows become portals.
"""

from __future__ import annotations

import base64
import json
import math
from typing import Any

from engine.board import Board
from engine.render.backend import raster
from engine.render.display import Scene, lines_of

FORMAT = 0.3
#: pixels per grid square of the embedded image, and the largest side we allow
DEFAULT_PPG = 64
MAX_SIDE = 4096


def _pt(x: float, y: float) -> dict[str, float]:
    return {"x": round(float(x), 4), "y": round(float(y), 4)}


def ppg_for(sc: Scene, ppg: int = DEFAULT_PPG) -> int:
    """Pixels per grid square, lowered so that neither image side exceeds ``MAX_SIDE``."""
    x0, y0, x1, y1 = sc.map_box
    side = max(x1 - x0, y1 - y0)
    return int(max(8, min(ppg, math.floor(MAX_SIDE / side))))


def walls_of(board: Board, level: int, origin: tuple[float, float]) -> list[list[dict]]:
    ox, oy = origin
    out = []
    for f in board.features(level):
        if f.kind in ("wall", "fence"):
            for p in lines_of(f.geom):
                out.append([_pt(x - ox, y - oy) for x, y in p])
    return out


def objects_of(board: Board, level: int, origin: tuple[float, float]) -> list[list[dict]]:
    ox, oy = origin
    out = []
    for f in board.features(level):
        solid = f.kind == "trunk" or (f.kind == "obstacle" and f.props.get("los") == "blocks")
        if solid:
            for p in lines_of(f.geom.boundary if f.geom.geom_type != "LineString" else f.geom):
                out.append([_pt(x - ox, y - oy) for x, y in p])
    return out


def portals_of(board: Board, level: int, origin: tuple[float, float]) -> list[dict[str, Any]]:
    ox, oy = origin
    out = []
    for f in board.features(level):
        if f.kind not in ("door", "window"):
            continue
        for p in lines_of(f.geom):
            a, b = p[0], p[-1]
            out.append({
                "position": _pt((a[0] + b[0]) / 2 - ox, (a[1] + b[1]) / 2 - oy),
                "bounds": [_pt(a[0] - ox, a[1] - oy), _pt(b[0] - ox, b[1] - oy)],
                "rotation": round(math.atan2(b[1] - a[1], b[0] - a[0]), 6),
                "closed": f.props.get("state") == "closed",
                "freestanding": False,
            })
    return out


def uvtt_data(board: Board, sc: Scene, light: str = "day", ppg: int = DEFAULT_PPG
              ) -> dict[str, Any]:
    """The ``.dd2vtt`` document of one level (a JSON-ready dict)."""
    x0, y0, x1, y1 = sc.map_box
    origin = (x0, y0)
    px = ppg_for(sc, ppg)
    ambient = {"day": "ffffffff", "partial-darkness": "ff7f7f7f",
               "full-darkness": "ff1f1f1f"}.get(light, "ffffffff")
    return {
        "format": FORMAT,
        "resolution": {
            "map_origin": _pt(0, 0),
            "map_size": {"x": int(round(x1 - x0)), "y": int(round(y1 - y0))},
            "pixels_per_grid": px,
        },
        "line_of_sight": walls_of(board, sc.level, origin),
        "objects_line_of_sight": objects_of(board, sc.level, origin),
        "portals": portals_of(board, sc.level, origin),
        "environment": {"baked_lighting": True, "ambient_light": ambient},
        "lights": [],
        "image": base64.b64encode(raster().png(sc, px, map_only=True)).decode("ascii"),
        "software": "sprawlmap",
        "creator": "sprawlmap",
    }


def uvtt_bytes(board: Board, sc: Scene, light: str = "day", ppg: int = DEFAULT_PPG) -> bytes:
    return json.dumps(uvtt_data(board, sc, light, ppg), separators=(",", ":")
                      ).encode("utf-8")


__all__ = ["uvtt_bytes", "uvtt_data"]
