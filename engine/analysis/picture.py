"""PNG pictures of the lenses, drawn with the project's one renderer (engine.render)."""

from __future__ import annotations

import numpy as np

from engine.analysis.lens import LensMap
from engine.analysis.ramp import bands
from engine.board import Board
from engine.model import Scenario

PX_PER_DOT = 16
DOT_R = 0.34
TITLES = {"exposure": "exposure of {side}: how many enemy set-up dots see each dot",
          "tempo": "tempo of {side}: turn its fastest character first stands there",
          "lead": "lead of {side}: turns ahead (+) or behind (-) the other side"}


def lens_png(board: Board, scenario: Scenario | None, lens: LensMap, level: int) -> bytes:
    """The map of ``level`` with the lens drawn over its dots, and the ramp as a legend."""
    from engine.render.backend import raster
    from engine.render.display import Circle, Text, build_scene
    from engine.render.display import Dots as DotItems
    from engine.render.metrics import text_width

    sc = build_scene(board, scenario, level)
    m = lens.on_level(level)
    pts = board.lattice.points(m.dots[:, :2]) if len(m.dots) else np.zeros((0, 2))
    used = []
    for band in bands(m):
        if not band.mask.any():
            continue
        used.append(band)
        if band.filled:
            sc.items.append(DotItems(pts[band.mask], DOT_R, band.colour))
        else:
            sc.items += [Circle((float(x), float(y)), DOT_R * 0.8, stroke=band.colour, width=0.14)
                         for x, y in pts[band.mask]]
    x0, y0, x1, y1 = sc.map_box
    cx0, cy0, cx1, cy1 = sc.canvas
    ly = cy1 + 0.2
    sc.frame.append(Text((x0, ly + 0.5), TITLES.get(lens.kind, lens.kind).format(side=lens.side)
                         + _info(lens), 0.68, "#1b1b1b", bold=True))
    ly += 1.0
    col_w = max([4.0] + [1.6 + text_width(b.label, 0.57) for b in used])
    per_row = max(1, int((max(cx1 - cx0, 8.0) - 1.0) // col_w))
    for i, band in enumerate(used):
        ex = x0 + (i % per_row) * col_w
        ey = ly + (i // per_row) * 0.9
        if band.filled:
            sc.frame.append(Circle((ex + 0.3, ey + 0.35), DOT_R, fill=band.colour))
        else:
            sc.frame.append(Circle((ex + 0.3, ey + 0.35), DOT_R * 0.8, stroke=band.colour,
                                   width=0.14))
        sc.frame.append(Text((ex + 0.9, ey + 0.55), band.label, 0.57, "#1b1b1b"))
    rows = -(-len(used) // per_row) if used else 0
    sc.canvas = (cx0, cy0, cx1, ly + rows * 0.9 + 0.6)
    return raster().png(sc, PX_PER_DOT)


def _info(lens: LensMap) -> str:
    if lens.kind == "exposure":
        return f" ({lens.info.get('sources', 0)} set-up dots; rings: only through cover)"
    if lens.kind == "tempo":
        if lens.info.get("units") == "m":
            per = lens.info.get("metres_per_turn", {})
            return f" (fastest walks {per.get('fastest', 0):g} m a turn)"
        mr = lens.info.get("move_ratio", {})
        return f" (move ratio {mr.get('fastest')}, 12 MP a turn)"
    return ""
