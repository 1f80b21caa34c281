"""A zone on one page: the grid of blocks, the players' edges and entries, the River and the
barriers, as a display-list :class:`~engine.render.display.Scene` that the project's SVG and
PNG writers draw (and the editor's one-page PDF printer).

Units: one block is ``UNIT`` wide (its height follows ``block_size``), so any zone fits a page.
"""

from __future__ import annotations

import os
from pathlib import Path as FilePath

import numpy as np

from engine.errors import SprawlmapError
from engine.render.display import Path, Poly, Scene, Text
from engine.zone import rules
from engine.zone.model import Block, Zone

UNIT = 10.0
PLAYER_COLOURS = ("#c0392b", "#1f6fb2", "#2e8b57", "#8e44ad")
RIVER, SLOT, GAP, CARD = "#4a90c8", "#f4f1ea", "#d0d0d0", "#b9a9d6"
BARRIER = "#e4572e"
INK = "#1b1b1b"


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], dtype=float)


def tile(z: Zone) -> tuple[float, float]:
    bw, bh = z.block_size
    return (UNIT, UNIT * bh / bw)


def zone_scene(z: Zone) -> Scene:
    tw, th = tile(z)
    W, H = z.cols * tw, z.rows * th
    river = z.river_blocks()
    items: list = []
    for r in range(z.rows):
        for c in range(z.cols):
            b: Block = (c, r)
            x0, y0 = c * tw, r * th
            if not z.has_block(b):
                items.append(Poly([_rect(x0, y0, x0 + tw, y0 + th)], fill=GAP, alpha=0.6))
                continue
            zb = z.block(b)
            fill = RIVER if b in river else CARD if zb and zb.card == "face-down" else SLOT
            items.append(Poly([_rect(x0, y0, x0 + tw, y0 + th)], fill=fill, stroke=INK, width=0.08))
            items.append(Text((x0 + 0.4, y0 + 1.0), f"{c},{r}", 0.7, INK))
            label = zb.label if zb and zb.label else ("River" if b in river else "")
            if label:
                items.append(Text((x0 + tw / 2, y0 + th / 2 + 0.3), label[:18], 0.8, INK, "middle", halo=True))
            if zb and zb.layout:
                items.append(Text((x0 + tw / 2, y0 + th - 0.6), FilePath(zb.layout).name[:22], 0.55,
                                  "#505050", "middle"))
    for br in z.barriers:
        a, b = br.between
        seg = _shared(z, a, b)
        if seg is None:
            continue
        items.append(Path(np.array(seg), stroke=BARRIER, width=0.6, cap="flat"))
        mx, my = (seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2
        items.append(Text((mx, my + 0.3), f"Body {br.body}", 0.7, INK, "middle", bold=True, halo=True))
    frame: list = []
    for i, p in enumerate(z.players):
        col = PLAYER_COLOURS[i % 4]
        for b in rules.entries(z, p.id):
            x0, y0 = b[0] * tw, b[1] * th
            bar = {"north": (x0 + 0.5, y0 - 0.9, x0 + tw - 0.5, y0 - 0.3),
                   "south": (x0 + 0.5, y0 + th + 0.3, x0 + tw - 0.5, y0 + th + 0.9),
                   "west": (x0 - 0.9, y0 + 0.5, x0 - 0.3, y0 + th - 0.5),
                   "east": (x0 + tw + 0.3, y0 + 0.5, x0 + tw + 0.9, y0 + th - 0.5)}[p.safehouse]
            frame.append(Poly([_rect(*bar)], fill=col))
        name = f"{p.name or 'Player ' + p.id} ({p.id}): safehouse"
        pos = {"north": (W / 2, -1.6), "south": (W / 2, H + 2.4),
               "west": (-1.4, H + 2.4 + 1.2 * i), "east": (W + 1.4, H + 2.4 + 1.2 * i)}[p.safehouse]
        anchor = {"west": "start", "east": "end"}.get(p.safehouse, "middle")
        text = name + {"west": " <- west edge", "east": " -> east edge"}.get(p.safehouse, "")
        frame.append(Text(pos, text, 0.9, col, anchor, bold=True))
    n_side = sum(p.safehouse in ("west", "east") for p in z.players)
    top = -6.2
    bottom = H + 3.5 + 1.2 * n_side + 2.0
    frame.append(Text((-1.4, top + 1.6), z.title or "Zone", 1.3, INK, bold=True))
    sub = f"{z.cols} x {z.rows} blocks of {z.block_size[0]} x {z.block_size[1]} dots"
    if z.river:
        sub += f"; River crossed by {', '.join(z.river.crossing) or 'nobody'}"
    frame.append(Text((-1.4, top + 2.7), sub, 0.65, "#505050"))
    frame.append(Text((-1.4, bottom - 0.6), "blue: River   red line: barrier (Body)   "
                      "coloured bars: a player's entry blocks   grey: no block", 0.6, "#505050"))
    map_box = (0.0, 0.0, W, H)
    canvas = (-3.0, top, max(W + 3.0, 40.0), bottom)
    return Scene(level=0, title=z.title or "Zone", map_box=map_box, canvas=canvas, items=items,
                 frame=frame)


def _shared(z: Zone, a: Block, b: Block) -> tuple[tuple[float, float], tuple[float, float]] | None:
    tw, th = tile(z)
    x0, y0 = a[0] * tw, a[1] * th
    d = (b[0] - a[0], b[1] - a[1])
    return {(1, 0): ((x0 + tw, y0), (x0 + tw, y0 + th)), (-1, 0): ((x0, y0), (x0, y0 + th)),
            (0, 1): ((x0, y0 + th), (x0 + tw, y0 + th)), (0, -1): ((x0, y0), (x0 + tw, y0))}.get(d)


def write_picture(z: Zone, path: str | os.PathLike[str], px_per_unit: float = 24.0) -> FilePath:
    """Write the zone as SVG or PNG (by the file's suffix); PDF comes from the editor's printer."""
    from engine.export.files import atomic_write

    out = FilePath(path)
    sc = zone_scene(z)
    suffix = out.suffix.lower()
    if suffix == ".svg":
        from engine.export.svg import render_svg

        x0, y0, x1, y1 = sc.canvas
        return atomic_write(out, render_svg(sc, dot_mm=min(190 / (x1 - x0), 277 / (y1 - y0))))
    if suffix == ".png":
        from engine.render.backend import raster

        return atomic_write(out, raster().png(sc, px_per_unit))
    raise SprawlmapError(f"{out}: a zone picture is .svg or .png here (PDF: print from the editor)")
