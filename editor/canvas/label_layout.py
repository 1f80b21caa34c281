"""Names on the canvas kept clear of each other, of the objectives' symbols and of the board's edge.

Canvas names are screen-sized (they ignore the zoom), so whether two of them collide depends on
the zoom: the canvas view lays them out again whenever the zoom, the part shown or the names
change.  A name stays at its home (where the scene put it, next to what it names) when that is
clear; else it takes the nearest clear spot on rings around home (half a line apart), moved
inside the board, over the building or zone it names when one is clear.  Names of a dot go
first, then by the room they have to move in, smallest first.  The choice is the exports' label placer (:mod:`engine.render.labels`), fed
with the boxes Qt measures, in the view's pixels.  Only the names' offsets change (view state):
the document and the points the names are anchored to do not.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsView

from editor.canvas.items import CanvasLabel
from engine.render.labels import Placer, spread

#: pixels kept clear around each name, so two names never touch
PAD = 1.5
#: rings of spots tried around home, half a line apart (up to three lines away)
RINGS = 6
#: more names than this in view are left at home: nudges cannot untangle a whole city seen
#: from afar, and the placer compares every name with every other
MAX_LABELS = 80
#: names anchored this far (pixels) outside the view are left alone
MARGIN_PX = 200.0


def layout_key(view: QGraphicsView, names_version: int) -> tuple:
    """What the layout depends on: the zoom, the part shown and the names (their scene's
    ``names_version``, bumped whenever a name is made or moved)."""
    t = view.viewportTransform()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return (t.m11(), t.m12(), t.m21(), t.m22()), shown.getRect(), names_version


class Names:
    """The scene's names and the scene points they name, as an array: kept while the scene's
    names_version holds, so a pan step picks the names near the view without asking each."""

    def __init__(self, labels: list[CanvasLabel]):
        self.labels = labels
        self.at = np.array([(p.x(), p.y()) for p in map(anchor, labels)],
                           dtype=float).reshape(-1, 2)
        #: the ones away from home
        self.moved = {i for i, lab in enumerate(labels) if lab.moved}


def lay_out(view: QGraphicsView, names: Names, blocks: list[QRectF], board: QRectF) -> None:
    """Give each name near the part shown its home or the nearest clear spot around it;
    ``blocks`` (scene boxes) must stay uncovered, the names stay inside ``board``."""
    vt = view.viewportTransform()
    shown = QRectF(view.viewport().rect()).adjusted(-MARGIN_PX, -MARGIN_PX, MARGIN_PX, MARGIN_PX)
    xs = names.at[:, 0] * vt.m11() + names.at[:, 1] * vt.m21() + vt.dx()
    ys = names.at[:, 0] * vt.m12() + names.at[:, 1] * vt.m22() + vt.dy()
    near = np.flatnonzero((xs >= shown.left()) & (xs <= shown.right())
                          & (ys >= shown.top()) & (ys <= shown.bottom()))
    if len(near) > MAX_LABELS:  # too many to untangle: all at home
        near = near[:0]
    for i in names.moved - set(near.tolist()):  # every other name at home
        _move(names.labels[i], 0.0, 0.0)
    names.moved &= set(near.tolist())
    frame = vt.mapRect(board)
    placer = Placer(_edges(frame.adjusted(-0.01, -0.01, 0.01, 0.01)))  # rounding: inside
    for r in blocks:
        placer.block_box(*_edges(vt.mapRect(r)))
    labels = names.labels
    for i in sorted(near.tolist(), key=lambda i: (labels[i].room(), labels[i].text())):
        lab, at = labels[i], QPointF(*names.at[i])
        home = lab.home.mapRect(lab.boundingRect()).translated(xs[i], ys[i])
        home = home.adjusted(-PAD, -PAD, PAD, PAD)
        start = home  # where the spots are tried round
        if lab.mark is not None:  # zoomed out, a dot under its symbol is too little: just under
            below = vt.mapRect(lab.mark.translated(at)).bottom() + 0.01 - home.top()
            start = home.translated(0.0, max(below, 0.0))
        step = home.height() / 2
        spots = [_inside(start.translated(dx * step, dy * step), frame)
                 for dx, dy, _ in spread(0.0, 0.0, 0.0, 1.0, RINGS)]
        if lab.area is not None:  # spots over what it names first (sorted() keeps the order)
            area = vt.mapRect(lab.area.translated(at))
            spots.sort(key=lambda s: not area.contains(s.center()))
        best = spots[placer.take(_edges(s) for s in spots)]
        if _move(lab, best.left() - home.left(), best.top() - home.top()):
            names.moved.add(i)


def anchor(lab: CanvasLabel) -> QPointF:
    """The scene point ``lab`` names (its scenePos would include its own pixel offset)."""
    parent = lab.parentItem()
    return parent.mapToScene(lab.pos()) if parent is not None else lab.pos()


def _move(lab: CanvasLabel, dx: float, dy: float) -> bool:
    """Put ``lab`` at (dx, dy) pixels from its home (an unchanged item is not repainted);
    whether that is away from home."""
    t = lab.home * QTransform.fromTranslate(dx, dy)
    if lab.transform() != t:
        lab.setTransform(t)
    lab.moved = dx != 0.0 or dy != 0.0
    return lab.moved


def _inside(r: QRectF, frame: QRectF) -> QRectF:
    """``r`` shifted into ``frame`` where it fits (a name does not hang off the board)."""
    dx = dy = 0.0
    if r.width() <= frame.width():
        dx = max(frame.left() - r.left(), 0.0) + min(frame.right() - r.right(), 0.0)
    if r.height() <= frame.height():
        dy = max(frame.top() - r.top(), 0.0) + min(frame.bottom() - r.bottom(), 0.0)
    return r.translated(dx, dy)


def _edges(r: QRectF) -> tuple[float, float, float, float]:
    return (r.left(), r.top(), r.right(), r.bottom())
