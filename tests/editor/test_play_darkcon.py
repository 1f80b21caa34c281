"""Hot-seat Dark Conspiracy in the editor's play mode: the panel speaks darkcon (no DMZ arc
box, wounds instead of "injury +N", the aim it holds), and its Aim / Charge buttons take the
referee's actions with a click on the map (seed 003 l.200, l.256-264, l.381).

The duel is built on the editor's sample block: a hunter with a rifle on 10,24 and a cultist
with an axe on 16,24, six dots (12 m) apart in the open street.
"""

from __future__ import annotations

from dataclasses import replace

import samples
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from engine import model as m

ACE, BO = (10, 24, 0), (16, 24, 0)


def one_dot(c: int, r: int) -> m.Deployment:
    return m.Deployment(polygon=samples.box(c - 0.5, r - 0.5, c + 0.5, r + 0.5), level=0)


def duel() -> m.Scenario:
    rifle = m.Weapon(type="assault-rifle", name="M16", shots=30, clips=2, stats=(
        ("skill", "rifle"), ("damage", 3), ("pen", "1-2-Nil"), ("range", 60), ("rof", "SA"),
        ("mag", 30), ("recoil", 3)))
    axe = m.Weapon(type="combat-axe", name="Axe", stats=(
        ("skill", "armed"), ("damage", 3), ("reach", "long")))
    ace = m.Character(name="Ace", id="ace", stats=(
        ("strength", 6), ("constitution", 6), ("agility", 6), ("initiative", 3),
        ("small_arms_rifle", 5)), weapons=(rifle,))
    bo = m.Character(name="Bo", id="bo", stats=(
        ("strength", 9), ("constitution", 8), ("agility", 6), ("initiative", 3),
        ("melee_armed", 6)), weapons=(axe,))
    sides = (m.Side("hunters", "Hunters", one_dot(*ACE[:2]), (ace,)),
             m.Side("cult", "Cult", one_dot(*BO[:2]), (bo,)))
    return replace(samples.scenario(), ruleset="darkcon", sides=sides, turn_limit=4,
                   objectives=(m.Objective(id="stop-bo", side="hunters", kind="eliminate",
                                           target="cult", points=3),))


def start(make_editor, first: str):
    win, d = make_editor(duel(), centre=(13.0, 24.0))
    win.play_mode.announce = lambda text: None
    d.key(Qt.Key.Key_F5)
    pm = win.play_mode
    g = pm.game
    assert pm.active and type(g).__name__ == "DarkConGame"
    # this turn's order: ``first`` acts on 20, the other on 10 (the dice decide it in play)
    other = "bo" if first == "ace" else "ace"
    g.state.order = [first, other]
    g.dc["scores"] = [[20, first], [10, other]]
    g.state.phase = 0
    pm.select(first)
    QApplication.processEvents()
    win.view.set_zoom(20.0, (13.0, 24.0))
    return win, d, pm, g


def test_the_panel_speaks_darkcon(make_editor, tmp_path):
    win, d, pm, g = start(make_editor, "ace")
    p = pm.panel
    assert not p.form.isRowVisible(p.arc_box)  # no DMZ arc box, no "4 MP"
    assert list(p.rule_buttons) == ["aim", "charge"]
    state = p.char_label.text()
    assert "unhurt" in state and "injury" not in state and "not aiming" in state
    assert p.units_label.text() == "m" and "MP" not in p.mp_label.text()
    win.grab().save(str(tmp_path / "darkcon-panel.png"))
    assert (tmp_path / "darkcon-panel.png").stat().st_size > 10_000


def test_aim_then_an_aimed_shot_from_the_panel(make_editor):
    win, d, pm, g = start(make_editor, "ace")
    p = pm.panel
    p.rule_buttons["aim"].click()
    assert pm.rule_armed == "aim"
    d.click(*BO[:2])
    aim = g.log.of_kind("aim")[-1]
    assert (aim["who"], aim["target"], aim["actions"], aim["modifier"]) == ("ace", "bo", 1, 0)
    assert not p.rule_buttons["aim"].isChecked() and pm.rule_armed is None
    assert "aiming at bo (1 action(s), +0)" in p.char_label.text()
    # the shot he has set up is aimed: rifle 5 + Strength 6, short +4, aimed 0 -> 15; his
    # second semi-automatic shot (recoil 3 x 2 within Strength 6) is a quick one: 11 (l.383)
    n = g.plan_shot(g.char("ace"), g.char("bo"), True).numbers
    assert n["modifiers"] == {"range": 4, "aimed": 0} and n["targets"] == [15, 11]


def test_charge_from_the_panel(make_editor):
    win, d, pm, g = start(make_editor, "bo")
    pm.panel.rule_buttons["charge"].click()
    d.click(*ACE[:2])
    ch = g.log.of_kind("charge")[-1]
    assert (ch["who"], ch["target"], ch["metres"]) == ("bo", "ace", 10.0)
    assert g.char("bo").pos == (11, 24, 0)
    test = [e for e in g.log.of_kind("test") if e["purpose"] == "charge"][-1]
    assert test["target_number"] == 15  # Melee (Armed) 6 + Strength 9, Average (l.256)
    assert any("Charge" in line or "charge" in line for line in pm.log_panel.lines())


def test_a_charge_needs_an_enemy_not_a_dot(make_editor):
    win, d, pm, g = start(make_editor, "bo")
    pm.panel.rule_buttons["charge"].click()
    d.click(13, 22)
    assert not g.log.of_kind("charge") and g.char("bo").pos == BO


def test_the_status_line_names_darkcons_own_actions(make_editor):
    win, d, pm, g = start(make_editor, "ace")
    assert "arc" not in pm.tool.hint and "Aim, Charge: press, then click" in pm.tool.hint


def test_the_legend_prices_rubble_by_the_scenarios_ruleset(make_editor, tmp_path):
    """The printed legend's rubble says "+1 MP" only under DMZ; the metre rulesets walk it in
    metres with no extra cost (their movement counts metres)."""
    from editor.render.raster import render_image
    from engine.render.display import build_scene, legend_entries

    words = {}
    for ruleset in ("dmz1990", "sr3", "sr1", "darkcon"):
        win, _d = make_editor(replace(samples.scenario(), ruleset=ruleset))
        sc = build_scene(win.doc.board(), win.doc.scenario(), 0)
        labels = [label for label, _swatch in legend_entries(sc)]
        words[ruleset] = next(x for x in labels if x.startswith("Rubble"))
        if ruleset == "darkcon":
            render_image(sc, 12.0).save(str(tmp_path / "legend-darkcon.png"))
    assert words["dmz1990"] == "Rubble (+1 MP)"
    assert {words[r] for r in ("sr3", "sr1", "darkcon")} == {"Rubble (metres walked, no extra)"}
    assert (tmp_path / "legend-darkcon.png").stat().st_size > 10_000


def test_the_log_reads_darkcons_own_events(make_editor):
    win, d, pm, g = start(make_editor, "ace")
    pm.panel.rule_buttons["aim"].click()
    d.click(*BO[:2])
    assert any("ace aims at bo: 1 aiming action(s), next shot +0" in line
               for line in pm.log_panel.lines())
