"""A hex layout: placing and turning keep every sheet dot on a world dot."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from engine.lattice import get_lattice
from engine.model import Layout, Placement, Scenario, Sheet

HEX = get_lattice("hex")


def box(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def hex_scenario():
    pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                size=(30, 24), outline=box(-0.5, -0.5, 30.0, 20.5))
    hut = Sheet(id="hut", title="Hut", kind="building", lattice="hex", size=(6, 4),
                outline=box(-0.5, -0.5, 6.0, 3.0), height=1)
    sc = Scenario(title="hex", layout=Layout(lattice="hex",
                                              pavement=(Placement("hex-pav", (0, 0)),)))
    return sc, {s.id: s for s in (pav, hut)}


def on_grain(r) -> bool:
    """Every dot of the sheet lands exactly on a world dot."""
    dots = np.array([(c, rr) for c in range(r.sheet.size[0]) for rr in range(r.sheet.size[1])])
    pts = r.transform.apply_array(HEX.points(dots))
    back = np.array([HEX.point(HEX.dot_at(tuple(p))) for p in pts])
    return bool(np.allclose(pts, back, atol=1e-9))


def test_hex_place_drag_and_turn_keep_the_grain(make_editor):
    sc, lib = hex_scenario()
    win, d = make_editor(sc, lib, centre=(14.0, 9.0))
    win.arm_place("sheet:hut")
    d.hover(14.3, 9.1)
    d.click(14.3, 9.1)
    r = next(x for x in win.doc.resolved() if not x.pavement)
    assert on_grain(r)
    c0 = r.footprint.centroid
    assert abs(c0.x - 14.3) < 1.0 and abs(c0.y - 9.1) < 1.0
    d.key(Qt.Key.Key_R)  # 60 degrees on a hex lattice
    r = next(x for x in win.doc.resolved() if not x.pavement)
    assert r.placement.rotation == 60 and on_grain(r)
    c1 = r.footprint.centroid
    assert abs(c1.x - c0.x) < 1.0 and abs(c1.y - c0.y) < 1.0
    d.drag((c1.x, c1.y), (c1.x + 3.0, c1.y + 1.8))
    r = next(x for x in win.doc.resolved() if not x.pavement)
    assert on_grain(r) and r.footprint.centroid.x > c1.x + 2.0
