"""Spells in the hot-seat panel: the Spell row, Cast spell… then a click, Drop spell.

A duel on the sample block: red's Ace and the mage Wren share a two-dot deployment zone (so
they stand side by side, within touch), blue's Bo twelve dots east.
"""

from __future__ import annotations

from dataclasses import replace

import samples
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from engine import model as m

ACE, BO = (10, 24, 0), (22, 24, 0)


def zone(c0: int, c1: int, r: int) -> m.Deployment:
    return m.Deployment(polygon=samples.box(c0 - 0.5, r - 0.5, c1 + 0.5, r + 0.5), level=0)


def fighter(cid: str, name: str, **kw) -> m.Character:
    smg = m.Weapon(type="smg", name="SMG", success=(18, 16, 14, 12), shots=10, clips=2, damage=4)
    return m.Character(name=name, id=cid, move_ratio=3, fire_ratio=3,
                       success=(("firearms", 10), ("unarmed", 12), ("sorcery", 9)),
                       defense=(("ballistic", 9), ("impact", 8), ("mana_spell", 11)),
                       weapons=(smg,), **kw)


def duel(spells: tuple) -> m.Scenario:
    """Ace and the mage Wren (knowing ``spells``) against Bo, on the sample's streets."""
    wren = fighter("wren", "Wren", spells=spells)
    sides = (m.Side("red", "Red", zone(10, 11, 24), (fighter("ace", "Ace Red"), wren)),
             m.Side("blue", "Blue", zone(22, 22, 24), (fighter("bo", "Bo Blue"),)))
    return replace(samples.scenario(), sides=sides, objectives=(), turn_limit=6)


def mage_duel() -> m.Scenario:
    return duel((("mana-bolt", 6), ("heal-moderate-wound", 4), ("armor", 4)))


def red_to_play(make_editor, scenario: m.Scenario):
    """The editor on ``scenario``, in play (F5), red's phase, zoomed on the duel."""
    win, d = make_editor(scenario, centre=(16.0, 22.0))
    d.key(Qt.Key.Key_F5)
    pm = win.play_mode
    pm.announce = lambda text: None  # no message box if a spell ends the game
    QApplication.processEvents()
    win.view.set_zoom(20.0, (16.0, 22.0))
    if pm.game.state.current_team != "red":
        pm.panel.end_phase.click()
    return win, d, pm, pm.game, pm.panel


def test_cast_a_heal_from_the_panel_then_drop_it(make_editor, tmp_path):
    win, d, pm, g, p = red_to_play(make_editor, mage_duel())
    pm.select("ace")
    assert not p.spell_row.isVisibleTo(p) and not p.cast.isVisibleTo(p)  # no spells
    pm.select("wren")
    assert p.spell_row.isVisibleTo(p) and p.cast.isEnabled()
    assert [p.spell_box.itemText(i) for i in range(p.spell_box.count())] == [
        "mana-bolt (Force 6)", "heal-moderate-wound (Force 4)", "armor (Force 4)"]
    assert not p.drop_spell.isEnabled()
    ace, wren = g.state.characters["ace"], g.state.characters["wren"]
    for b in (9, 8, 7):
        ace.condition.boxes[b] = "physical"
    g.dice.pair = lambda: (1, 1)  # every roll a 2: the spell and its Drain succeed
    p.spell_box.setCurrentIndex(1)
    p.cast.click()
    assert pm.cast_armed
    d.click(*ace.pos[:2])
    cast = g.log.of_kind("cast")[-1]
    assert cast["spell"] == "heal-moderate-wound" and cast["targets"] == ["ace"]
    test = [e for e in g.log.of_kind("test") if e["purpose"] == "spell"][-1]
    assert (test["success_value"], test["target_value"]) == (13, 3)  # 9 + 4; 3 boxes filled
    assert ace.condition.marked("physical") == [9] and wren.mp_spent == 3
    assert not p.cast.isChecked() and p.drop_spell.isEnabled()
    assert p.drop_spell.text() == "Drop spell (1)"
    assert p.drop_spell.toolTip().startswith("Sustaining heal-moderate-wound on ace: +1")
    words = pm.log_panel.lines()
    assert any("wren casts heal-moderate-wound, Force 4 at ace" in ln for ln in words)
    assert any("ace is healed by wren: boxes 7, 8 clear" in ln for ln in words)
    win.grab().save(str(tmp_path / "cast.png"))
    p.drop_spell.click()
    assert ace.condition.marked("physical") == [9, 8, 7] and not wren.sustained
    assert any("ace loses the healing" in ln for ln in pm.log_panel.lines())
    # a combat spell: Cast, then click the enemy (Movement Fire, +2)
    del g.dice.pair  # the seeded dice again
    p.spell_box.setCurrentIndex(0)
    p.cast.click()
    d.click(*BO[:2])
    bolt = [e for e in g.log.of_kind("test") if e["purpose"] == "spell"][-1]
    assert bolt["target"] == "bo" and bolt["modifiers"]["movement_fire"] == 2
    assert wren.mp_spent == 6
