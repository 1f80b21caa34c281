"""The editor's LOS tool and fan give the scenario ruleset's verdict, the one the CLI gives.

The sample house's closed front door (y = 11.5, x 5.5..6.5) is +1 cover under dmz1990 (seed
000 l.796) and an opaque barrier under sr3 (seed 001 l.486), whose Barrier Rating is that of
an average door, Average Material 4 (seed 001 l.946-962).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import samples

from editor.tools.los import AMBER, RED
from engine.sight import sight


@pytest.mark.parametrize("ruleset,colour,result", [("dmz1990", AMBER, "interrupted"),
                                                   ("sr3", RED, "blocked"),
                                                   ("sr1", AMBER, "interrupted"),
                                                   ("darkcon", RED, "blocked")])
def test_los_tool_and_fan_ask_the_scenarios_ruleset(make_editor, ruleset, colour, result):
    win, d = make_editor(root=dataclasses.replace(samples.scenario(), ruleset=ruleset))
    win.fan_box.setChecked(True)
    d.tool("los")
    d.click(6.0, 14.0)
    d.hover(6.0, 9.0)
    tool = win.tool
    want = sight(win.doc.board(), (6, 14, 0), (6, 9, 0), ruleset=ruleset)
    assert tool.verdict.result == want.result == result
    assert tool.verdict.reasons == want.reasons
    assert win.hint_label.text().startswith("Blocked: " if result == "blocked" else "Cover ")
    if ruleset == "sr3":
        assert want.mods["barrier_rating"] == 4
        assert "(Barrier Rating 4, seed 001 l.946-962)" in win.hint_label.text()
    if ruleset == "dmz1990":
        assert "(+1, seed 000 l.796;" in win.hint_label.text()
    fan = tool.fan
    i = int(np.nonzero((fan.dots[:, 0] == 6) & (fan.dots[:, 1] == 9))[0][0])
    assert bool(fan.blocked[i]) == want.blocked


def test_movement_tool_walks_metres_under_sr3_like_the_cli(make_editor):
    from engine.movement import cheapest_path

    win, d = make_editor(root=dataclasses.replace(samples.scenario(), ruleset="sr3"))
    d.tool("move")
    win.mp_box.setValue(6)  # read as metres under sr3
    d.click(16.0, 14.0)
    assert max(win.tool.reach.values()) <= 6 and win.tool.reach[(19, 14, 0)] == 6
    assert (20, 14, 0) not in win.tool.reach
    d.hover(19.0, 16.0)
    want = cheapest_path(win.doc.board(), (16, 14, 0), (19, 16, 0), ruleset="sr3")
    assert want.cost == 7.66  # one straight step and two diagonals: 2 + 2 x 2.83 m
    assert win.hint_label.text().startswith("Path to 19,16: 7.66 m in 3 steps [sr3]")


def _zone_item(tool):
    from PySide6.QtWidgets import QGraphicsPolygonItem

    polys = [it for it in tool._overlay if isinstance(it, QGraphicsPolygonItem)]
    assert len(polys) <= 1
    if not polys:
        return None
    return [(round(p.x(), 3), round(p.y(), 3)) for p in polys[0].polygon()]


def test_los_tool_draws_darkcons_incidental_fire_zone_for_the_chosen_weapon(make_editor):
    """20 m (10 squares) with a weapon of 40 m short range is Short range: a zone 2 m (one dot)
    wide running 2 m past the target (seed 003 l.400, l.434), the one ``los --json`` gives."""
    root = dataclasses.replace(samples.scenario(), ruleset="darkcon")
    win, d = make_editor(root=root)
    d.tool("los")
    assert win.options.weapon() is None  # default: no weapon, no zone
    assert [win.options.weapon_box.itemText(i) for i in range(5)] == \
        ["(no weapon)", "10", "20", "40", "80"]
    d.click(16.0, 14.0)
    d.hover(26.0, 14.0)
    assert win.tool.verdict.result == "clear" and _zone_item(win.tool) is None
    win.options.weapon_box.setCurrentText("40")
    want = [(16.0, 14.5), (27.0, 14.5), (27.0, 13.5), (16.0, 13.5)]
    assert win.tool.verdict.mods["range_band"] == "short"
    assert win.tool.verdict.mods["incidental_fire_zone"] == want
    assert _zone_item(win.tool) == want
    assert "20 m), short range" in win.hint_label.text()
    # a weapon of 10 m short range: 20 m is Medium, 4 m wide, 4 m on behind the target
    win.options.weapon_box.setCurrentText("10")
    assert _zone_item(win.tool) == [(16.0, 15.0), (28.0, 15.0), (28.0, 13.0), (16.0, 13.0)]
    # the engine verdict `los --json` prints carries the same polygon
    assert sight(win.doc.board(), (16, 14, 0), (26, 14, 0), ruleset="darkcon",
                 weapon="10").to_json()["ruleset_extra"]["incidental_fire_zone"] == \
        _zone_item(win.tool)
    win.options.weapon_box.setCurrentText("(no weapon)")
    assert _zone_item(win.tool) is None


def test_incidental_fire_zone_is_exact_on_a_hex_lattice():
    """On hexes the zone follows the dots' real points (odd rows shifted, rows sqrt(3)/2 apart)."""
    from test_hex import hex_scenario

    from engine.board import compile_board
    from engine.lattice import get_lattice
    from engine.rules.darkcon import incidental_fire_zone

    sc, lib = hex_scenario()
    board = compile_board(sc.layout, lib)
    v = sight(board, (2, 2, 0), (12, 5, 0), ruleset="darkcon", weapon="40")
    hexl = get_lattice("hex")
    assert v.mods["range_band"] == "short"
    assert v.mods["incidental_fire_zone"] == incidental_fire_zone(
        hexl.point((2, 2)), hexl.point((12, 5)), "short")
    a, b = hexl.point((2, 2)), hexl.point((12, 5))
    # the zone's axis runs through both dots' points: its first corner is half a width off a
    zone = v.mods["incidental_fire_zone"]
    mid = ((zone[0][0] + zone[3][0]) / 2, (zone[0][1] + zone[3][1]) / 2)
    assert mid == pytest.approx(a, abs=1e-3)
    far = ((zone[1][0] + zone[2][0]) / 2, (zone[1][1] + zone[2][1]) / 2)
    n = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
    assert far == pytest.approx((b[0] + (b[0] - a[0]) / n, b[1] + (b[1] - a[1]) / n), abs=1e-3)
