"""SVG text of a display-list :class:`~engine.render.display.Scene`: one drawing per level.

The viewBox is in dots (times ``U``), and ``width``/``height`` give the physical size in
millimetres at ``dot_mm`` per dot, so the drawing prints at table scale.  Text is real text in
Helvetica/Arial, the metrics the label placer used.  Nothing is referenced from outside the file.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import numpy as np

from engine.render.display import Cells, Circle, Dots, Item, Path, Poly, Scene, Text

FONT = "Helvetica, Arial, sans-serif"
#: SVG user units per dot: keeps font sizes well above 1 unit (some renderers round them)
U = 10.0


def _n(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _u(v: float) -> str:
    return _n(v * U)


def _pts(a: np.ndarray) -> str:
    return " ".join(f"{_u(x)},{_u(y)}" for x, y in a)


def _dash(d: tuple[float, float] | None) -> str:
    return f' stroke-dasharray="{_u(d[0])} {_u(d[1])}"' if d else ""


def item_svg(it: Item) -> str:
    if isinstance(it, Poly):
        d = " ".join("M" + " L".join(f"{_u(x)},{_u(y)}" for x, y in r) + " Z" for r in it.rings)
        fill = f'fill="{it.fill}"' if it.fill else 'fill="none"'
        if it.fill and it.alpha < 1:
            fill += f' fill-opacity="{_n(it.alpha)}"'
        stroke = (f' stroke="{it.stroke}" stroke-width="{_u(it.width)}" stroke-linejoin="round"'
                  + _dash(it.dash)) if it.stroke and it.width > 0 else ""
        return f'<path d="{d}" {fill}{stroke} fill-rule="evenodd"/>'
    if isinstance(it, Path):
        cap = "butt" if it.dash or it.cap == "flat" else it.cap
        op = f' stroke-opacity="{_n(it.alpha)}"' if it.alpha < 1 else ""
        tag = "polygon" if it.closed else "polyline"
        return (f'<{tag} points="{_pts(it.points)}" fill="none" stroke="{it.stroke}" '
                f'stroke-width="{_u(it.width)}" stroke-linecap="{cap}" stroke-linejoin="round"'
                f'{op}{_dash(it.dash)}/>')
    if isinstance(it, Dots):
        # one path of zero-length round-capped segments: a dot grid in a few kilobytes
        d = "".join(f"M{_u(x)},{_u(y)}h0.01" for x, y in it.points)
        return (f'<path d="{d}" stroke="{it.color}" stroke-width="{_u(2 * it.radius)}" '
                f'stroke-linecap="round" fill="none"/>')
    if isinstance(it, Cells):
        h = it.size / 2
        return "".join(
            f'<rect x="{_u(x - h)}" y="{_u(y - h)}" width="{_u(it.size)}" '
            f'height="{_u(it.size)}" fill="#{r:02x}{g:02x}{b:02x}" fill-opacity="{_n(it.alpha)}"/>'
            for (x, y), (r, g, b) in zip(it.points, it.colours.tolist()))
    if isinstance(it, Circle):
        fill = f'fill="{it.fill}"' if it.fill else 'fill="none"'
        stroke = f' stroke="{it.stroke}" stroke-width="{_u(it.width)}"' if it.stroke else ""
        return (f'<circle cx="{_u(it.center[0])}" cy="{_u(it.center[1])}" r="{_u(it.radius)}" '
                f'{fill}{stroke}/>')
    if isinstance(it, Text):
        weight = ' font-weight="bold"' if it.bold else ""
        head = (f'<text x="{_u(it.pos[0])}" y="{_u(it.pos[1])}" font-size="{_u(it.size)}" '
                f'text-anchor="{it.anchor}"{weight}')
        out = ""
        if it.halo:  # a white copy underneath, outlined: works without paint-order support
            out = (f'{head} fill="#ffffff" stroke="#ffffff" stroke-width="{_u(it.size * 0.22)}" '
                   f'stroke-linejoin="round">{escape(it.text)}</text>')
        return out + f'{head} fill="{it.color}">{escape(it.text)}</text>'
    raise TypeError(f"cannot draw {type(it).__name__}")


def render_svg(sc: Scene, dot_mm: float = 25.4) -> str:
    """The SVG document; it states its size in mm (``dot_mm`` per dot) so it prints to scale."""
    x0, y0, x1, y1 = sc.canvas
    w, h = x1 - x0, y1 - y0
    mx0, my0, mx1, my1 = sc.map_box
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'viewBox="{_u(x0)} {_u(y0)} {_u(w)} {_u(h)}" '
        f'width="{_n(w * dot_mm)}mm" height="{_n(h * dot_mm)}mm" '
        f'font-family="{FONT}">',
        f"<title>{escape(sc.title)} - level {sc.level}</title>",
        f'<rect x="{_u(x0)}" y="{_u(y0)}" width="{_u(w)}" height="{_u(h)}" fill="#ffffff"/>',
        '<defs><clipPath id="map-clip"><rect '
        f'x="{_u(mx0)}" y="{_u(my0)}" width="{_u(mx1 - mx0)}" height="{_u(my1 - my0)}"/>'
        "</clipPath></defs>",
        '<g id="map-items" clip-path="url(#map-clip)">',
    ]
    out += [item_svg(i) for i in sc.items]
    out.append("</g>")
    out.append('<g id="frame">')
    out += [item_svg(i) for i in sc.frame]
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
