"""Universal VTT (``.dd2vtt``): a map image plus walls, portals and lights, one file per level.

The format (version 0.3, as written by Dungeondraft) is JSON: ``resolution`` (origin, size in
grid squares, pixels per grid), ``line_of_sight`` (wall polylines), ``objects_line_of_sight``,
``portals`` (position, the two ends, rotation in radians, closed, freestanding), ``lights``,
``environment`` and ``image`` (base64 PNG).  One grid square is one dot spacing.

Written for the way Foundry VTT's "Universal Battlemap Importer" (github.com/moo-man/
FVTT-DD-Import, ``ddimport.js``, ``GetDoors``/``GetLights``/``_getLargestDimensions``) reads it:

- a portal becomes a door when ``closed`` is true and a see-through (proximity) wall when it is
  false: ``closed`` says "blocks light", not the door's state.  So every door is written
  ``closed: true`` (the importer makes it an openable door) and every window ``closed: false``
  (seen through, not walked through); holes are gaps in the walls.
- in its multi-level mode every file is a level of one scene, sized to the largest map, each
  level's walls placed at ``(point - map_origin) * pixels_per_grid``.  So every level is
  written on one shared frame: the same ``map_origin`` (0, 0 at the frame's top-left corner),
  ``map_size`` and ``pixels_per_grid``; a dot sits in the middle of its square on every level.
- a light is ``position`` (grid units), ``range`` (grid squares), ``intensity`` and ``color``
  as ``AARRGGBB`` hex; lights outside the map are dropped by the importer.
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
#: words in a target-modifier area's note that make it a lit area (a light in the VTT file)
LIT_WORDS = ("light", "lamp", "neon", "spotlight", "lit ")


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
    """Doors (``closed: true``: an openable door) and windows (``closed: false``: seen
    through), whatever their state in the scenario; see the module docstring."""
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
                "closed": f.kind == "door",
                "freestanding": False,
            })
    return out


def lit(note: str) -> bool:
    n = f"{note.lower()} "
    return any(w in n for w in LIT_WORDS)


def lights_of(board: Board, level: int, origin: tuple[float, float]) -> list[dict[str, Any]]:
    """A light over every lit area (a target-modifier area whose note speaks of lights): at the
    area's centre, reaching its farthest corner."""
    ox, oy = origin
    out = []
    for f in board.features(level):
        if f.kind != "modifier" or not lit(str(f.props.get("note", ""))):
            continue
        c = f.geom.centroid
        reach = max(math.hypot(x - c.x, y - c.y) for x, y in f.geom.exterior.coords)
        out.append({"position": _pt(c.x - ox, c.y - oy), "range": round(reach, 3),
                     "intensity": 1.0, "color": "ffffffff", "shadows": True})
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
        "lights": lights_of(board, sc.level, origin),
        "image": base64.b64encode(raster().png(sc, px, map_only=True)).decode("ascii"),
        "software": "sprawlmap",
        "creator": "sprawlmap",
    }


def uvtt_bytes(board: Board, sc: Scene, light: str = "day", ppg: int = DEFAULT_PPG) -> bytes:
    return json.dumps(uvtt_data(board, sc, light, ppg), separators=(",", ":")).encode("utf-8")


__all__ = ["lights_of", "portals_of", "uvtt_bytes", "uvtt_data"]
