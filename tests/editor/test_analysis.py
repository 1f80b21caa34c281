"""The LOS and movement tools show the engine's answers on the canvas."""

from __future__ import annotations

from PySide6.QtWidgets import QGraphicsLineItem

from editor.tools.los import AMBER, GREEN, RED
from editor.tools.overlay import DotShade


def lines(win):
    return [it for it in win.tool._overlay if isinstance(it, QGraphicsLineItem)]


def test_los_blocked_by_wall_says_why(make_editor):
    win, d = make_editor()
    d.tool("los")
    d.click(2.0, 7.0)
    d.hover(8.0, 7.0)  # inside the house, behind its thick west wall (x = 3.5)
    facts = win.tool.facts
    assert facts.blocked and facts.blocked_by["feature"] == "house-1/outer"
    assert win.hint_label.text() == (
        "Blocked: thick wall house-1/outer blocks the line (Barrier Value 18, Armor 3, "
        "seed 000 l.1385) — range 6")
    # the solid red line stops where the wall blocks it; a dotted rest runs on to the target
    solid = [ln for ln in lines(win) if ln.pen().color().name() == RED and ln.pen().width() == 4]
    assert len(solid) == 1
    assert solid[0].line().p2().x() == 3.5 and solid[0].line().p2().y() == 7.0


def test_los_clear_and_interrupted(make_editor):
    win, d = make_editor()
    d.tool("los")
    d.click(16.0, 14.0)
    d.hover(24.0, 14.0)
    assert win.tool.facts.cover == 0 and not win.tool.facts.blocked
    assert win.hint_label.text() == "Clear — range 8"
    assert any(ln.pen().color().name() == GREEN for ln in lines(win))
    d.hover(20.0, 19.0)  # over the wrecked car (an interrupting obstacle)
    facts = win.tool.facts
    assert [i["feature"] for i in facts.interruptions] == ["extras/car"]
    assert win.hint_label.text().startswith("Cover 1: ")
    assert any(ln.pen().color().name() == AMBER for ln in lines(win))


def test_los_fan_follows_level(make_editor):
    win, d = make_editor()
    d.tool("los")
    win.fan_box.setChecked(True)
    d.click(16.0, 14.0)
    fan = win.tool.fan
    shades = [it for it in win.tool._overlay if isinstance(it, DotShade)]
    assert len(shades) == 1 and fan.level == 0
    by_dot = {tuple(p): (b, c) for p, b, c in zip(fan.dots, fan.blocked, fan.cover, strict=True)}
    assert by_dot[(24, 14)] == (False, 0)
    assert by_dot[(20, 19)] == (False, 1)
    assert by_dot[(8, 7)][0]  # inside the house
    win.layers.level_box.setCurrentIndex(1)
    assert win.tool.fan.level == 1


def test_movement_path_and_reach(make_editor):
    win, d = make_editor()
    d.tool("move")
    win.move_ratio.setValue(2)
    d.click(16.0, 14.0)
    reach = win.tool.reach
    assert reach[(16, 14, 0)] == 0 and reach[(22, 14, 0)] == 12 and (23, 14, 0) not in reach
    win.mp_box.setValue(6)
    assert max(win.tool.reach.values()) == 6 and (20, 14, 0) not in win.tool.reach
    d.hover(19.0, 14.0)
    assert win.hint_label.text() == "Path to 19,14: 6 MP in 3 steps (move ratio 2)"
    # through the house's closed front door (y = 11.5): 5 steps at ratio 3 + 2 to open + 1
    win.move_ratio.setValue(3)
    d.click(6.0, 14.0)
    d.hover(6.0, 9.0)
    assert win.tool.path.cost == 18
    assert win.hint_label.text() == ("Path to 6,9: 18 MP in 5 steps (move ratio 3; closed door "
                                     "house-1/front: open +2, through +1)")
    labels = sorted(it.text() for it in win.tool._overlay if hasattr(it, "text"))
    assert labels == sorted(["3", "6", "12", "15", "18"])


def test_fan_follows_a_moved_building(make_editor, qtbot):
    win, d = make_editor()
    d.click(26.0, 7.0)  # select the shed (6 x 4 at 24, 6)
    d.tool("los")
    win.fan_box.setChecked(True)
    d.click(20.0, 8.0)
    blocked = dict(zip(map(tuple, win.tool.fan.dots), win.tool.fan.blocked, strict=True))
    assert blocked[(32, 8)]  # behind the shed
    # move the shed four rows down with the properties panel while the fan is shown
    from PySide6.QtWidgets import QSpinBox

    row = [s for s in win.properties.findChildren(QSpinBox) if s.value() == 6][0]
    row.setValue(10)
    assert win.doc.layout.placements[1].at == (24, 10)
    assert win.hint_label.text() == "LOS: updating…"
    qtbot.waitUntil(lambda: not win.background.busy(), timeout=30000)
    blocked = dict(zip(map(tuple, win.tool.fan.dots), win.tool.fan.blocked, strict=True))
    assert not blocked[(32, 8)] and blocked[(32, 12)]
    # undo moves it back, and the fan with it
    win.undo_action.trigger()
    win.background.wait()
    blocked = dict(zip(map(tuple, win.tool.fan.dots), win.tool.fan.blocked, strict=True))
    assert blocked[(32, 8)]
