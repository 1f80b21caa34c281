"""The one style table: how every feature kind looks on the canvas, in print and in pictures.

Colours are ``#rrggbb`` with a separate opacity; widths and dash lengths are in dots, so line
weights scale like ink on paper.  The editor canvas, the legend, the PNG/SVG/PDF exports and
the VTT image all read these values through :mod:`engine.render.display`; nothing else keeps
colours of its own.
"""

from __future__ import annotations

from typing import NamedTuple

PAPER = "#ffffff"
PAVEMENT = "#efeee8"
FLOOR = "#e6dcc6"
ROOF = "#cfc5b2"
OUTLINE = "#a39a88"
GRID = "#707070"
INK = "#1b1b1b"
MUTED = "#505050"

#: one colour per side, in the order the scenario lists its sides
SIDE_COLOURS = ("#1f5fd6", "#d0342c", "#23964f", "#c98a00", "#8e44ad", "#16a085")

#: wall, fence and door weight by barrier class (explicit barrier values take the nearest band)
WALL_WIDTH = {"thin": 0.10, "average": 0.16, "thick": 0.26}
DOT_RADIUS = 0.07


class AreaStyle(NamedTuple):
    fill: str
    alpha: float
    stroke: str
    hatch: float | None  # hatch angle in degrees, None for a plain tint
    dash: tuple[float, float] | None = None


AREA_STYLE: dict[str, AreaStyle] = {
    "rubble": AreaStyle("#9c7748", 0.25, "#7a5a30", 45.0),
    "undergrowth": AreaStyle("#5f8f3e", 0.25, "#436f28", -45.0),
    "obstacle": AreaStyle("#8a8a90", 0.45, "#505058", None),
    "foliage": AreaStyle("#4f9a3f", 0.30, "#3a7030", None),
    "dark": AreaStyle("#1c2350", 0.24, "#1c2350", None, (0.15, 0.10)),
    "smoke": AreaStyle("#9aa4b0", 0.35, "#6f7a88", None, (0.15, 0.10)),
    "modifier": AreaStyle("#f2c94c", 0.30, "#c9a227", None, (0.15, 0.10)),
    "hazard": AreaStyle("#d63a2a", 0.18, "#b02a1c", 30.0),
    "water": AreaStyle("#4a90c8", 0.35, "#2f6f9f", None),
}
FULL_DARK_ALPHA = 0.34  # darkness: full
BLOCKING_OBSTACLE_ALPHA = 0.75  # an obstacle that blocks sight
HATCH_WIDTH, HATCH_SPACING = 0.03, 0.35


class LineStyle(NamedTuple):
    colour: str
    width: float
    dash: tuple[float, float] | None


LINE_STYLE: dict[str, LineStyle] = {
    "step": LineStyle("#7a5a30", 0.06, (0.22, 0.12)),
    "incline": LineStyle("#7a5a30", 0.06, (0.08, 0.10)),
    "contour": LineStyle("#7a5a30", 0.09, None),
    "low-wall": LineStyle("#6d6d6d", 0.14, None),
    "fence": LineStyle("#333333", 0.09, (0.30, 0.10)),
}

DOOR, DOOR_OPEN = "#8b4513", "#c98b4a"
WINDOW, WINDOW_REINFORCED, GLASS = "#7fbfea", "#3b7fb8", "#1f4f7a"
HOLE = "#e4572e"
CANOPY, CANOPY_EDGE, TRUNK, TRUNK_EDGE = "#4f9a3f", "#3a7030", "#6b4423", "#3b2612"
LINK = "#303030"  # stairs, elevators, climb points
LABEL = "#202020"

#: font sizes (em) in dots
TEXT_BUILDING, TEXT_SIDE, TEXT_OBJECTIVE, TEXT_SMALL = 0.62, 0.9, 0.6, 0.45


def side_colour(index: int) -> str:
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]


def wall_width(props: dict) -> float:
    """Stroke width of a wall, fence or door from its class (or barrier value)."""
    cls = props.get("class", "average")
    if cls in WALL_WIDTH:
        return WALL_WIDTH[cls]
    bar = props.get("custom", (12, 0))[0]  # an author's own (DMZ-scale) barrier value
    return 0.10 if bar < 10 else (0.16 if bar < 16 else 0.26)


def rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


__all__ = ["AREA_STYLE", "LINE_STYLE", "SIDE_COLOURS", "AreaStyle", "LineStyle", "rgb",
           "side_colour", "wall_width"]
