"""The editor's lenses: exposure/tempo shading from the engine, recomputed in the background
after an edit, and the LOS panel's side view and ruleset table for the line the tool shows."""

from __future__ import annotations

import dataclasses

import numpy as np
import samples
from PySide6.QtWidgets import QApplication

from engine import model as m
from engine.analysis.compare import RULESETS
from engine.analysis.tempo import tempo


def _two_sides():
    sc = samples.scenario()
    chars = (m.Character("Quick", move_ratio=2), m.Character("Slow", move_ratio=3))
    west = m.Side("west", deployment=m.Deployment(polygon=((-0.5, 10.5), (1.5, 10.5), (1.5, 14.5),
                                                           (-0.5, 14.5))), characters=chars)
    east = m.Side("east", deployment=m.Deployment(edge="east", depth=2), characters=chars)
    return dataclasses.replace(sc, sides=(west, east))


def _settle(win):
    win.background.wait()
    QApplication.processEvents()


def test_tempo_overlay_is_the_engine_map_and_follows_edits(make_editor):
    win, _d = make_editor(root=_two_sides())
    _settle(win)
    panel = win.lens_panel
    panel.choose("tempo", "west")
    _settle(win)
    got = panel.lens
    want = tempo(win.doc.board(), win.doc.scenario(), "west", level=0)
    assert np.array_equal(got.dots, want.dots)
    assert np.array_equal(np.nan_to_num(got.values, nan=-1), np.nan_to_num(want.values, nan=-1))
    assert panel.item is not None and panel.item.scene() is win.scene
    assert "tempo of west, level 0" in panel.status.text() and "turn 0" in panel.legend.text()
    # an edit: the shed moves onto the west side's path; the map is recomputed after it
    lay = win.doc.layout
    pl = list(lay.placements)
    pl[1] = dataclasses.replace(pl[1], at=(3, 16))
    win.doc.edit_layout(dataclasses.replace(lay, placements=tuple(pl)), "move shed")
    assert "computing" in panel.status.text()
    _settle(win)
    again = tempo(win.doc.board(), win.doc.scenario(), "west", level=0)
    assert np.array_equal(np.nan_to_num(panel.lens.values, nan=-1),
                          np.nan_to_num(again.values, nan=-1))
    assert not np.array_equal(np.nan_to_num(again.values, nan=-1),
                              np.nan_to_num(want.values, nan=-1))
    panel.choose("off")
    assert panel.item is None


def test_exposure_overlay_counts_the_other_sides_set_up_dots(make_editor):
    win, _d = make_editor(root=_two_sides())
    win.lens_panel.choose("exposure", "west")
    _settle(win)
    lens = win.lens_panel.lens
    assert lens.kind == "exposure" and lens.info["sources"] == 2 * 30  # east strip: 2 x 30 rows
    assert np.nanmax(lens.values) <= 60 and "enemy set-up dots" in win.lens_panel.status.text()


def test_los_panel_shows_the_side_view_and_every_ruleset(make_editor):
    win, d = make_editor()
    d.tool("los")
    assert win.los_dock.isVisible()  # up with the tool, before the pointer moves
    QApplication.processEvents()
    win.view.set_zoom(20.0, (20.0, 15.0))
    d.click(16.0, 14.0)
    d.hover(20.0, 19.0)  # over the wrecked car
    win.los_panel._update()  # the panel waits for the pointer to rest; do not wait here
    prof, table = win.los_panel.profile, win.los_panel.comparison
    assert prof.facts.interruptions == win.tool.facts.interruptions
    assert [mk.feature for mk in prof.marks] == ["extras/car"]
    assert win.los_panel.table.columnCount() == len(RULESETS)
    assert [win.los_panel.table.horizontalHeaderItem(i).text()
            for i in range(len(RULESETS))] == list(RULESETS)
    assert table["rulesets"]["dmz1990"]["verdict"] == "interrupted"
    assert not win.los_panel.side.pixmap().isNull()
