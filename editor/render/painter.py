"""Draw display-list primitives with a QPainter (world dots in, whatever transform is set).

Text is set in Helvetica (Arial, Liberation Sans, DejaVu Sans when those are missing) and, when
the system font is wider than Helvetica's metrics, squeezed to Helvetica's advance, so labels fill
exactly the boxes the engine's label placer reserved.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np
import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)

from engine.render.display import Cells, Circle, Dots, Item, Path, Poly, Text
from engine.render.metrics import text_width

FAMILIES = ["Helvetica", "Arial", "Liberation Sans", "Nimbus Sans", "DejaVu Sans"]
_CAPS = {"round": Qt.PenCapStyle.RoundCap, "flat": Qt.PenCapStyle.FlatCap,
         "square": Qt.PenCapStyle.SquareCap}
_REF_PT = 100.0
ALWAYS = ("ground", "grid", "frame", "")  # fonts are measured at this size, then scaled to the item's size


def colour(hex_: str, alpha: float = 1.0) -> QColor:
    c = QColor(hex_)
    c.setAlphaF(max(0.0, min(1.0, alpha)))
    return c


def _font(bold: bool) -> QFont:
    f = QFont()
    f.setFamilies(FAMILIES)
    f.setPointSizeF(_REF_PT)
    f.setBold(bold)
    f.setKerning(True)
    f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    return f


_FONTS: dict[bool, tuple[QFont, QFontMetricsF]] = {}


def font(bold: bool) -> tuple[QFont, QFontMetricsF]:
    if bold not in _FONTS:
        f = _font(bold)
        _FONTS[bold] = (f, QFontMetricsF(f))
    return _FONTS[bold]


def _pen(c: str, width: float, alpha: float = 1.0, dash: tuple[float, float] | None = None,
         cap: str = "round") -> QPen:
    """A pen, shared: a painter copies the pen it is given, and nobody changes these (a
    city's first paint asked for ~30 000 pens of a few dozen kinds)."""
    return _shared_pen(c, float(width), float(alpha), tuple(dash) if dash else None, cap)


@lru_cache(maxsize=512)
def _shared_pen(c: str, width: float, alpha: float, dash: tuple[float, float] | None,
                cap: str) -> QPen:
    pen = QPen(colour(c, alpha), width)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    pen.setCapStyle(_CAPS.get(cap, Qt.PenCapStyle.RoundCap) if not dash
                    else Qt.PenCapStyle.FlatCap)
    if dash and width > 0:
        pen.setDashPattern([dash[0] / width, dash[1] / width])
    return pen


def polygon(points) -> QPolygonF:
    """``points`` (N x 2 numbers) as a QPolygonF, written straight into its memory.

    Why: a QPointF made per point from Python costs ~1 us, and a 16x16 city's first paint made
    ~3 million of them for the sheets' dots (~5 s).  A QPolygonF is a contiguous array of
    (x, y) doubles, so numpy fills it in one copy (the way pyqtgraph builds its polylines).
    """
    xy = np.ascontiguousarray(points, dtype=np.float64).reshape(-1, 2)
    poly = QPolygonF()
    poly.resize(len(xy))
    if len(xy):
        buf = shiboken6.VoidPtr(poly.data(), xy.nbytes, True)
        np.frombuffer(buf, dtype=np.float64).reshape(-1, 2)[:] = xy
    return poly


def _ring_path(rings) -> QPainterPath:
    p = QPainterPath()
    p.setFillRule(Qt.FillRule.OddEvenFill)
    for r in rings:
        p.addPolygon(polygon(r))
        p.closeSubpath()
    return p


def _line_path(points, closed: bool = False) -> QPainterPath:
    p = QPainterPath()
    p.addPolygon(polygon(points))  # an open subpath: moveTo the first point, lineTo the rest
    if closed:
        p.closeSubpath()
    return p


def paint_item(p: QPainter, it: Item) -> None:
    if isinstance(it, Poly):
        path = _ring_path(it.rings)
        if it.fill:
            p.fillPath(path, QBrush(colour(it.fill, it.alpha)))
        if it.stroke and it.width > 0:
            p.strokePath(path, _pen(it.stroke, it.width, 1.0, it.dash))
    elif isinstance(it, Path):
        if len(it.points) < 2:
            return
        pen = _pen(it.stroke, it.width, it.alpha, it.dash, it.cap)
        if it.alpha < 1:
            # one stroke shape, so a translucent line does not darken where it meets itself
            stroker = QPainterPathStroker(pen)
            p.fillPath(stroker.createStroke(_line_path(it.points, it.closed)),
                       QBrush(pen.color()))
        else:
            p.strokePath(_line_path(it.points, it.closed), pen)
    elif isinstance(it, Dots):
        if not len(it.points):
            return
        p.save()  # one call: round-capped points of the dot's diameter
        pen = QPen(colour(it.color), 2 * it.radius)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        p.drawPoints(polygon(it.points))
        p.restore()
    elif isinstance(it, Cells):
        h = it.size / 2
        p.save()
        p.setPen(Qt.PenStyle.NoPen)
        for (x, y), (r, g, b) in zip(it.points, it.colours):
            p.fillRect(QRectF(float(x) - h, float(y) - h, it.size, it.size),
                       QColor(int(r), int(g), int(b), round(255 * it.alpha)))
        p.restore()
    elif isinstance(it, Circle):
        p.save()
        p.setBrush(QBrush(colour(it.fill)) if it.fill else Qt.BrushStyle.NoBrush)
        p.setPen(_pen(it.stroke, it.width) if it.stroke and it.width > 0 else Qt.PenStyle.NoPen)
        p.drawEllipse(QPointF(*it.center), it.radius, it.radius)
        p.restore()
    elif isinstance(it, Text):
        paint_text(p, it)
    else:
        raise TypeError(f"cannot draw {type(it).__name__}")


def paint_text(p: QPainter, it: Text) -> None:
    f, fm = font(it.bold)
    natural = fm.horizontalAdvance(it.text)
    if natural <= 0:
        return
    target = text_width(it.text, _REF_PT, it.bold)
    sx = min(1.0, target / natural)
    w = natural * sx
    left = {"start": 0.0, "middle": -w / 2, "end": -w}.get(it.anchor, 0.0)
    path = QPainterPath()
    path.addText(0, 0, f, it.text)
    k = it.size / _REF_PT
    p.save()
    p.translate(it.pos[0], it.pos[1])
    p.scale(k, k)
    p.translate(left, 0)
    p.scale(sx, 1.0)
    if it.halo:
        halo = QPen(QColor(255, 255, 255), _REF_PT * 0.22)
        halo.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        p.strokePath(path, halo)
    p.fillPath(path, QBrush(colour(it.color)))
    p.restore()


def paint_items(p: QPainter, items: Iterable[Item], layers: set[str] | None = None) -> None:
    """Paint ``items`` in order; with ``layers``, only those whose layer is listed (items of
    the ``ground``, ``grid`` and ``frame`` layers always)."""
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    for it in items:
        if layers is not None and it.layer not in layers and it.layer not in ALWAYS:
            continue
        paint_item(p, it)


__all__ = ["colour", "font", "paint_item", "paint_items", "paint_text", "polygon"]
