"""Play mode: the real window driven with the mouse and keys, checked against the engine.

The scenario is built in code on the sample block: one gunman a side, each side's deployment
zone a single dot of open street, so the engine's seeded deployment puts them on known dots
(red's Ace on 10,24 and blue's Bo on 22,24, twelve dots apart).
"""

from __future__ import annotations

import math
from dataclasses import replace

import samples
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from editor.play.counters import CounterItem
from editor.play.describe import describe
from engine import model as m
from engine.play.reaction import Arc

ACE, BO = (10, 24, 0), (22, 24, 0)


def one_dot(c: int, r: int) -> m.Deployment:
    return m.Deployment(polygon=samples.box(c - 0.5, r - 0.5, c + 0.5, r + 0.5), level=0)


def gunman(cid: str, name: str, grenade: bool = False) -> m.Character:
    smg = m.Weapon(type="smg", name="SMG", success=(18, 16, 14, 12), shots=10, clips=2, damage=4)
    kit = (smg, m.Weapon(type="offensive-grenade", name="Frag", shots=1)) if grenade else (smg,)
    return m.Character(name=name, id=cid, move_ratio=3, fire_ratio=3,
                       success=(("firearms", 10), ("unarmed", 12), ("throwing", 11)),
                       defense=(("ballistic", 9), ("impact", 8)), weapons=kit)


def duel(turn_limit: int = 10, ace=ACE) -> m.Scenario:
    sides = (m.Side("red", "Red", one_dot(*ace[:2]), (gunman("ace", "Ace Red", True),)),
             m.Side("blue", "Blue", one_dot(*BO[:2]), (gunman("bo", "Bo Blue"),)))
    objectives = (m.Objective(id="corner", side="red", kind="reach", at=(12, 24, 0), points=2),
                  m.Objective(id="stop-ace", side="blue", kind="eliminate", target="red",
                              points=3))
    return replace(samples.scenario(), sides=sides, objectives=objectives, turn_limit=turn_limit)


def start(make_editor, scenario=None):
    win, d = make_editor(scenario or duel(), centre=(16.0, 22.0))
    win.announced = []
    win.play_mode.announce = win.announced.append
    d.key(Qt.Key.Key_F5)  # the Play shortcut
    pm = win.play_mode
    assert pm.active and pm.game is not None
    QApplication.processEvents()  # let the play docks take their room first
    win.view.set_zoom(20.0, (16.0, 22.0))  # entering zooms to the mover: back to the test view
    return win, d, pm, pm.game


def other(game, cid: str):
    return next(c for c in game.state.characters.values() if c.id != cid)


def test_play_deploys_counters_and_makes_the_layout_read_only(make_editor):
    win, d, pm, g = start(make_editor)
    assert g.state.characters["ace"].pos == ACE and g.state.characters["bo"].pos == BO
    assert sorted(pm.layer.counters) == ["ace", "bo"]
    item = pm.layer.counters["bo"]
    assert isinstance(item, CounterItem) and item.label == "BB"
    assert (item.pos().x(), item.pos().y()) == (22.0, 24.0)
    assert not win.tool_actions["wall"].isEnabled() and not win.undo_action.isEnabled()
    assert win.tool.name == "play" and pm.panel_dock.isVisible() and pm.log_dock.isVisible()
    first = g.state.order[0]
    assert pm.panel.turn_label.text() == f"Turn 1 of 10 — {first} to move"
    assert pm.log_panel.lines()[-1] == f"  {len(g.log) - 1:2d}  — Turn 1: {first} moves —"


def test_click_a_dot_moves_the_character_with_its_mp(make_editor):
    win, d, pm, g = start(make_editor)
    mover = pm.selected()
    c, r, _ = mover.pos
    step = 1 if mover.id == "ace" else -1  # towards the other one
    d.hover(c + 3 * step, r)
    assert pm.panel.path_label.text() == f"Path to {c + 3 * step},{r}: 9 MP in 3 steps"
    assert mover.pos == (c, r, 0) and g.actions == []  # only a preview
    d.click(c + 3 * step, r)
    assert mover.pos == (c + 3 * step, r, 0)
    assert mover.mp_spent == 9 and mover.mp_left == 3
    assert g.state.active == mover.id
    assert [a["act"] for a in g.actions] == ["begin", "move", "move", "move"]
    assert pm.panel.mp_label.text() == "9 spent, 3 left of 12"
    # too far now: the preview says so and a click changes nothing
    d.click(c + 3 * step, r - 3)
    assert pm.panel.path_label.text().endswith("too far: 3 MP left")
    assert mover.pos == (c + 3 * step, r, 0) and mover.mp_spent == 9


def test_drag_sets_an_arc_and_a_move_into_it_is_warned_first(make_editor):
    win, d, pm, g = start(make_editor)
    shooter = pm.selected()
    target = other(g, shooter.id)
    x, y = g.point(shooter.pos)
    tx, ty = g.point(target.pos)
    toward = math.degrees(math.atan2(ty - y, tx - x))
    aim = toward - 60 if shooter.id == "ace" else toward + 60  # the wedge misses the target
    pm.panel.arc_box.setCurrentIndex(pm.panel.arc_box.findData("intermediate"))
    d.drag((x, y), (x + 5 * math.cos(math.radians(aim)), y + 5 * math.sin(math.radians(aim))))
    assert len(shooter.arcs) == 1
    arc = shooter.arcs[0]
    assert arc.kind == "intermediate" and abs(arc.direction - aim) < 1.5
    assert shooter.mp_spent == 4
    assert len(pm.layer.arcs) == 1  # the wedge is drawn
    d.key(Qt.Key.Key_Return)  # end his move: the other side's phase begins
    assert g.state.current_team == target.side and pm.selected() is target
    assert not arc.contains(g.point(target.pos))
    # hover a dot four steps ahead of the target (12 MP) that lies inside the arc
    goal = (target.pos[0], target.pos[1] - 4, 0)
    assert arc.contains(g.point(goal))
    n_actions = len(g.actions)
    d.hover(*goal[:2])
    warning = pm.panel.warning_label.text()
    assert warning.startswith(f"Enters {shooter.id}'s arc at ")
    assert win.tool.warning_items()  # the red ring on the canvas
    entry = win.tool.preview.entries[0]
    assert arc.contains(g.point(entry.dot))
    assert not arc.contains(g.point(win.tool.preview.dots[entry.index - 1]))
    assert win.tool.preview.total == 12 and win.tool.preview.affordable
    assert len(g.actions) == n_actions and target.mp_spent == 0  # nothing happened yet
    # commit: reaction fire is resolved by the engine and every event is in the log panel
    d.click(*goal[:2])
    assert g.log.of_kind("reaction-count")
    assert len(pm.log_panel.lines()) == len(g.log)


def test_fire_shows_the_engines_chance_before_rolling(make_editor):
    win, d, pm, g = start(make_editor)
    shooter = pm.selected()
    target = other(g, shooter.id)
    sv, tv, mods = g.plan_shot(shooter, target, movement_fire=True)
    d.key(Qt.Key.Key_F)
    assert pm.fire_armed
    d.click(*target.pos[:2])
    text = pm.panel.shot_label.text()
    assert pm.panel.shot_box.isVisible()
    assert f"SV {sv} − TV {tv}" in text and f"= chance {sv - tv} " in text
    assert mods == {"defense": 9, "movement_fire": 2} and tv == 11
    assert g.log.of_kind("test") == []  # nothing rolled yet
    pm.panel.roll.click()
    tests = g.log.of_kind("test")
    assert len(tests) == 1 and tests[0]["purpose"] == "movement fire"
    assert tests[0]["chance"] == sv - tv and tests[0]["modifiers"] == mods
    assert shooter.mp_spent == 3
    lines = pm.log_panel.lines()
    assert f"{tests[0]['seq']:4d}  {describe(tests[0])}" in lines
    assert any(f"SV {sv} − TV {tv} (defense 9, movement fire +2) = chance {sv - tv}; rolled "
               in ln for ln in lines)
    rolls = [ln for ln in lines if "Roll 2D6 for initiative" in ln]
    assert len(rolls) >= 2


def test_end_phase_ends_the_turn_and_shows_objectives(make_editor):
    win, d, pm, g = start(make_editor)
    assert pm.panel.objective_lines() == ["corner (red, reach, 2 pts): open",
                                    "stop-ace (blue, eliminate, 3 pts): 0/1 down"]
    first, second = g.state.order
    pm.panel.end_phase.click()
    assert g.state.turn == 1 and g.state.current_team == second
    pm.panel.end_phase.click()
    assert g.state.turn == 2 and g.state.current_team == first
    assert "— End of turn 1 —" in [ln[6:] for ln in pm.log_panel.lines()]
    assert win.hint_label.text() == "End of turn 1: red 0, blue 0; no winner yet"
    assert pm.panel.turn_label.text() == f"Turn 2 of 10 — {first} to move"
    assert not g.state.finished and win.announced == []


def test_victory_check_at_the_last_turn_end(make_editor):
    win, d, pm, g = start(make_editor, duel(turn_limit=1))
    if g.state.current_team != "red":
        pm.panel.end_phase.click()
    d.click(12, 24)  # Ace reaches the corner
    assert g.state.achieved == {"corner": "red"}
    assert pm.panel.objective_lines()[0] == "corner (red, reach, 2 pts): achieved"
    d.key(Qt.Key.Key_Return)
    if not g.state.finished:
        pm.panel.end_phase.click()
    assert g.state.finished and g.state.winner == "red"
    text = "Game over (turn limit) after turn 1: red wins. Points: red 2, blue 0"
    assert win.announced == [text]
    assert pm.panel.banner.isVisible() and pm.panel.banner.text() == text
    assert not pm.panel.end_phase.isEnabled()


def test_save_then_load_gives_the_same_game(make_editor, tmp_path):
    win, d, pm, g = start(make_editor)
    mover = pm.selected()
    c, r, _ = mover.pos
    d.click(c, r - 2)
    saved = g.to_data()
    path = tmp_path / "game.json"
    pm.ask_game_path = lambda save: path
    pm.panel.save_game.click()
    assert path.exists()
    d.click(c, r - 3)  # play on: one more step
    assert mover.pos == (c, r - 3, 0)
    pm.panel.load_game.click()
    g2 = pm.game
    assert g2 is not g and g2.to_data() == saved
    assert g2.state.characters[mover.id].pos == (c, r - 2, 0)
    assert g2.state.characters[mover.id].mp_spent == 6
    assert len(pm.log_panel.lines()) == len(g2.log)
    assert pm.layer.counters[mover.id].pos().y() == r - 2
    # the loaded game goes on exactly like the saved one would
    d.click(c, r - 3)
    assert g2.state.characters[mover.id].mp_spent == 9


def test_leaving_play_mode_leaves_the_document_untouched(make_editor):
    win, d, pm, g = start(make_editor)
    root = win.doc.root
    d.click(*pm.selected().pos[:2])
    pm.panel.end_phase.click()
    d.key(Qt.Key.Key_F5)
    QApplication.processEvents()
    assert not pm.active and pm.game is None
    assert win.doc.root is root and not win.doc.is_dirty()
    assert win.doc.undo_stack.count() == 0
    assert pm.layer.items == [] and not any(isinstance(it, CounterItem)
                                            for it in win.scene.items())
    assert win.tool.name == "select" and win.tool_actions["wall"].isEnabled()
    assert win.undo_action.isEnabled() and not pm.panel_dock.isVisible()
    assert win.properties_dock.isVisible() and win.library_dock.isVisible()


def test_opening_another_document_leaves_play_mode(make_editor):
    from editor.document import Document

    win, d, pm, g = start(make_editor)
    win.set_document(Document(samples.scenario(), None, samples.library()))
    assert not pm.active and pm.layer.items == [] and win.tool.name == "select"
    assert win.tool_actions["wall"].isEnabled() and not pm.play_action.isChecked()


def test_play_refuses_a_scenario_without_sides(make_editor):
    win, d = make_editor()
    win.play_mode.play_action.trigger()
    assert not win.play_mode.active and not win.play_mode.play_action.isChecked()
    assert win.hint_label.text() == "Play needs a scenario with two sides and their characters"


def test_the_drawn_wedge_covers_what_the_engine_arc_contains():
    from PySide6.QtCore import QPointF

    from editor.play.counters import wedge_path

    for kind, direction in (("narrow", 90.0), ("intermediate", -60.0), ("wide", 200.0)):
        arc = Arc(kind, (3.0, 4.0), direction)
        path = wedge_path(arc, reach=10)
        for deg in range(0, 360, 5):
            off = abs((deg - direction + 180) % 360 - 180) - arc.width / 2
            if abs(off) < 3:
                continue  # the polygon's edge: too close to call
            p = (3.0 + 6 * math.cos(math.radians(deg)), 4.0 + 6 * math.sin(math.radians(deg)))
            assert path.contains(QPointF(*p)) == arc.contains(p), (kind, deg)


def red_first(pm, g) -> None:
    if g.state.current_team != "red":
        pm.panel.end_phase.click()
    assert g.state.current_team == "red" and pm.selected().id == "ace"


def test_door_and_posture_buttons(make_editor):
    win, d, pm, g = start(make_editor, duel(ace=(6, 12, 0)))  # below the house's front door
    red_first(pm, g)
    ace = g.state.characters["ace"]
    p = pm.panel
    assert p.open_door.isEnabled() and p.open_door.text() == "Open door"
    assert p.opening_box.currentText() == "door house-1/front (closed)"
    p.open_door.click()
    assert g.state.openings == {"house-1/front": "open"} and ace.mp_spent == 2
    assert p.open_door.text() == "Close door"
    opened = [it for it in pm.layer.items if it.toolTip() == "house-1/front: open"]
    assert len(opened) == 1 and opened[0].pen().color().name() == "#28c85a"
    assert not win.doc.is_dirty()  # the map change is play's, not the document's
    # the open door now costs nothing extra: straight in, one step at move ratio 3
    d.hover(6, 11)
    assert p.path_label.text() == "Path to 6,11: 4 MP in 1 steps"
    assert p.posture.text() == "Drop prone (1 MP)"
    p.posture.click()
    assert ace.posture == "prone" and ace.mp_spent == 3
    assert pm.layer.counters["ace"].prone
    assert p.posture.text() == "Stand (2 MP)"
    p.posture.click()
    assert ace.posture == "standing" and ace.mp_spent == 5
    assert [ln[6:] for ln in pm.log_panel.lines()[-6:]] == [
        "ace spends 2 MP (open door): 2/12", "ace makes house-1/front open",
        "ace spends 1 MP (drop prone): 3/12", "ace is now prone",
        "ace spends 2 MP (stand): 5/12", "ace is now standing"]


def test_ready_a_grenade_and_throw_it(make_editor):
    win, d, pm, g = start(make_editor)
    red_first(pm, g)
    ace = g.state.characters["ace"]
    p = pm.panel
    assert not p.throw.isEnabled()  # the SMG is ready
    assert p.weapon_box.currentText() == "Frag"
    p.ready.click()
    assert ace.ready == 1 and ace.mp_spent == 3 and p.throw.isEnabled()
    p.throw.click()
    d.hover(16, 24)  # six dots east: 3 MP, accuracy 11 - 3
    assert p.path_label.text() == ("Throw at 16,24: 6 dots, 3 MP; accuracy SV 11 − TV 3 "
                                   "(range 3, cover 0) = chance 8 (72%); a miss scatters")
    assert [e for e in g.log.events if e["event"] == "test"] == []
    d.click(16, 24)
    acc = g.log.of_kind("test")[-1]
    assert acc["purpose"] == "grenade accuracy" and acc["chance"] == 8
    assert ace.mp_spent == 6 and len(g.state.grenades) == 1
    assert not p.throw.isChecked()
    pm.panel.end_phase.click()  # the grenade goes off at the end of red's phase
    assert g.log.of_kind("blast") and g.state.grenades == []
    blast = g.log.of_kind("blast")[0]
    assert f"{blast['seq']:4d}  ace's offensive-grenade goes off at {blast['at'][0]},{blast['at'][1]}" \
        in pm.log_panel.lines()


def test_every_event_of_a_bot_game_reads_as_words():
    """A whole bot game on the duel board: no event falls back to the raw 'kind: k=v' line,
    and every Success Test line carries its SV, TV, modifiers and roll."""
    from editor.document import Document
    from editor.play.describe import lines
    from engine.play.bots import Bot, play_game
    from engine.play.engine_board import EngineBoard, fork_board
    from engine.play.game import Game

    sc = duel(turn_limit=4)
    board = Document(sc, None, samples.library()).board()
    game = Game.new(sc, EngineBoard(fork_board(board)), seed=7)
    play_game(game, {"red": Bot("red"), "blue": Bot("blue")})
    assert game.state.finished
    kinds = {e["event"] for e in game.log.events}
    assert {"test", "roll", "move", "spend", "arc", "damage", "finish"} <= kinds
    out = lines(game.log.events)
    assert len(out) == len(game.log)
    for e, ln in zip(game.log.events, out, strict=True):
        assert not ln[6:].startswith(f"{e['event']}:"), ln
        if e["event"] == "test":
            assert f"SV {e['success_value']} − TV {e['target_value']}" in ln
            assert f"= chance {e['chance']}" in ln
            if e["roll"] is not None:
                assert f"rolled {e['roll']}: " in ln


def test_a_dropped_item_is_drawn_where_its_carrier_fell(make_editor):
    from engine.play import objectives as obj_rules

    case = m.Objective(id="case", side="red", kind="retrieve", at=(12, 24, 0), points=2,
                       then="exit-west")
    sc = duel()
    win, d, pm, g = start(make_editor, replace(sc, objectives=sc.objectives + (case,)))
    if g.state.current_team != "red":
        pm.panel.end_phase.click()
    d.click(12, 24)  # Ace walks onto the case and picks it up
    ace = g.state.characters["ace"]
    assert ace.carrying == ["case"] and ace.pos == (12, 24, 0)
    assert "case (red, retrieve, 2 pts): carried by ace" in pm.panel.objective_lines()
    assert pm.layer.dropped == []
    d.click(14, 24)  # and on two dots before he goes down
    ace.condition.apply(13, 0)
    obj_rules.drop_items(g.state, g.objectives, g.log)
    pm.refresh()
    assert g.state.items == {"case": [14, 24, 0]}
    assert "case (red, retrieve, 2 pts): dropped at 14,24" in pm.panel.objective_lines()
    [item] = pm.layer.dropped
    x, y = g.point((14, 24, 0))
    assert (round(item.pos().x() - x, 2), round(item.pos().y() - y, 2)) == (0.4, -0.4)
    assert item.toolTip().startswith("case: dropped here (14,24, level 0)")
    assert "ace goes down and drops case at 14,24" in [ln[6:] for ln in pm.log_panel.lines()]
    win.ctx.state.set_level(1)  # another level shows nothing of it
    pm.refresh()
    assert pm.layer.dropped == []
