"""The new spells through the hot-seat panel: a Physical Barrier dome cast by a click on the
mage's own dot, Levitate… moving him, Blind fire… at an invisible enemy his Detect found."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from engine import model as m
from tests.editor.test_play_spells import duel, red_to_play


def magic_duel() -> m.Scenario:
    return duel((("physical-barrier", 4), ("levitate-person", 4), ("detect-enemies", 4)))


def test_a_barrier_dome_then_levitation_from_the_panel(make_editor, tmp_path):
    win, d, pm, g, p = red_to_play(make_editor, magic_duel())
    pm.select("wren")
    wren = g.state.characters["wren"]
    assert not p.levitate.isVisibleTo(p) and not p.blind.isVisibleTo(p)
    g.dice.pair = lambda: (1, 1)  # every roll a 2: the spells and their Drain succeed
    p.spell_box.setCurrentIndex(0)  # physical-barrier
    p.cast.click()
    d.click(*wren.pos[:2])  # his own dot: a dome round him (seed 000 l.1794)
    area = g.state.spell_areas[0]
    assert area["spell"] == "physical-barrier" and area["shape"] == "dome"
    assert area["at"] == list(wren.pos) and wren.mp_spent == 3
    assert any("raises a physical-barrier (dome)" in ln for ln in pm.log_panel.lines())
    QApplication.processEvents()
    win.grab().save(str(tmp_path / "dome.png"))
    p.drop_spell.click()
    assert not g.state.spell_areas
    p.spell_box.setCurrentIndex(1)  # levitate-person, on himself
    p.cast.click()
    d.click(*wren.pos[:2])
    assert wren.sustained[0]["spell"] == "levitate-person"
    assert p.levitate.isVisibleTo(p) and p.levitate.isEnabled()
    start = wren.pos
    p.levitate.click()
    to = (start[0], start[1] - 1, start[2])
    d.click(*to[:2])
    assert wren.pos == to and wren.mp_spent == 3 + 3 + 3  # two casts and a dot (l.1758)
    assert any("wren floats" in ln for ln in pm.log_panel.lines())
    win.grab().save(str(tmp_path / "levitate.png"))


def test_blind_fire_from_the_panel_at_an_invisible_enemy(make_editor):
    win, d, pm, g, p = red_to_play(make_editor, magic_duel())
    bo, wren = g.state.characters["bo"], g.state.characters["wren"]
    bo.invisible = True  # as if a blue mage had cast Invisibility on him
    wren.sustained.append({"spell": "detect-enemies", "target": "wren", "force": 4,
                           "found": ["bo"]})  # and Wren's Detect had found him
    pm.select("ace")
    assert p.blind.isVisibleTo(p) and "bo" in p.blind.toolTip()
    g.dice.pair = lambda: (1, 1)
    p.blind.click()
    assert pm.blind_armed
    d.click(*bo.pos[:2])
    test = [e for e in g.log.of_kind("test") if e["purpose"] == "blind fire"][-1]
    assert test["modifiers"]["blind_fire"] == 4 and test["modifiers"]["movement_fire"] == 2
    assert not [e for e in g.log.of_kind("test") if e["purpose"] == "perception"]  # found
    assert g.state.characters["ace"].mp_spent == 3 and not pm.blind_armed
