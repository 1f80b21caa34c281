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
