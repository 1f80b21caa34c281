"""Hot-seat sr3 in the editor: F5 plays the sample under Shadowrun's referee."""

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from editor.document import Document
from editor.main_window import MainWindow
from engine.play import actions as A
from engine.play.sr3_game import SR3Game

SAMPLE = Path(__file__).resolve().parents[2] / "scenarios" / "nightclub-raid-sr3.yaml"


def test_play_mode_runs_the_sr3_referee(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    win = MainWindow(Document.open(SAMPLE), settings, recovery_dir=tmp_path / "rec",
                     scan_recovery=False)
    win.ask_save = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.resize(1300, 850)
    win.show()
    pm = win.play_mode
    assert pm.enter(seed=4)
    g = pm.game
    assert isinstance(g, SR3Game) and g.units == "m"
    mover = g.char(g.state.order[0])
    # the counter's strip is the Condition Monitor's two columns of 10 boxes
    assert len(pm.layer.counters[mover.id].strip.boxes) == 20
    assert pm.selected().id == mover.id
    assert pm.act(A.prone())  # begins his action; dropping prone is a Free Action
    assert pm.panel.mp_label.text() == f"0 spent, {mover.mp:g} left of {mover.mp:g}; " \
        "actions 2 of 2"
    assert pm.act(A.stand())  # a Simple Action
    assert pm.panel.mp_label.text().endswith("actions 1 of 2")
    pm.end_move()
    assert g.state.current_team != mover.id or g.char(mover.id).moved
    assert any("Initiative:" in ln for ln in pm.log_panel.lines())
    pm.leave()


def _window(qtbot, tmp_path, path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    win = MainWindow(Document.open(path), settings, recovery_dir=tmp_path / "rec",
                     scan_recovery=False)
    win.ask_save = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.resize(1300, 900)
    win.show()
    return win


def test_the_panel_fires_modes_blind_fire_aim_and_delay(qtbot, tmp_path):
    win = _window(qtbot, tmp_path, SAMPLE)
    pm = win.play_mode
    assert pm.enter(seed=4)
    g, p = pm.game, pm.panel
    while pm.selected().id != "angela":
        pm.end_move()
    # Angela in the street, Rook in sight up it, Moth inside the corner store behind its
    # back door; Moth fired a moment ago, so the runners know where he is
    for cid, at in {"angela": (30, 12, 0), "rook": (30, 3, 0), "moth": (36, 13, 0)}.items():
        g.char(cid).pos = at
    g._heard(g.char("moth"))
    pm.refresh()
    assert p.mode_row.isVisibleTo(p) and p.delay.isVisibleTo(p)
    assert [p.mode_box.itemData(i) for i in range(p.mode_box.count())] == \
        [None, "SA", "BF", "FA"]
    qtbot.mouseClick(p.fire, Qt.MouseButton.LeftButton)
    assert pm.fire_armed
    # Moth cannot be seen: Blind Fire, +8 and the door's Barrier Rating (seed 001 l.964-969)
    sp = pm.preview_fire("moth")
    assert sp is not None and sp.plan.numbers["modifiers"]["blind_fire"] == 8
    assert "'blind_fire': 8" in p.shot_label.text() and "barrier 4" in p.shot_label.text()
    # Rook, full-auto, 10 rounds: 7M + 10 = 17D, recoil 10 less 2 (l.676-680)
    pm.preview_fire("rook")
    p.mode_box.setCurrentIndex(p.mode_box.findData("FA"))
    assert p.rounds_box.isEnabled() and not p.called_box.isEnabled()
    p.rounds_box.setValue(10)
    text = p.shot_label.text()
    assert "mode FA" in text and "rounds 10" in text and "damage code 17D" in text
    assert "'recoil': 8" in text
    win.grab().save(str(tmp_path / "sr3-modes.png"))
    qtbot.mouseClick(p.roll, Qt.MouseButton.LeftButton)
    shot = [e for e in g.log.events if e["event"] == "test"][-1]
    assert (shot["attacker"], shot["mode"], shot["rounds"], shot["damage_code"]) == \
        ("angela", "FA", 10, "17D")
    assert g.slots_left(g.char("angela")) == 0  # a Complex Action
    pm.end_move()
    # Sabre's next action: Take Aim from the shot box takes 1 off the TN (l.173-176)
    while pm.selected().id != "sabre":
        pm.end_move()
    g.char("sabre").pos = (30, 13, 0)
    pm.refresh()
    qtbot.mouseClick(p.fire, Qt.MouseButton.LeftButton)
    before = pm.preview_fire("rook").plan.numbers["modifiers"]
    qtbot.mouseClick(p.aim, Qt.MouseButton.LeftButton)
    assert "aimed" not in before and pm.shot.plan.numbers["modifiers"]["aimed"] == -1
    assert [e["event"] for e in g.log.events if e["event"] == "aim"] == ["aim"]
    win.grab().save(str(tmp_path / "sr3-aim.png"))
    pm.cancel_modes()
    pm.end_move()
    # whoever is next delays his action from the panel's button
    nxt = pm.selected()
    assert p.delay.isEnabled()
    qtbot.mouseClick(p.delay, Qt.MouseButton.LeftButton)
    assert nxt.id in g.sr3["delayed"]
    pm.leave()


def test_dmz_shows_no_fire_modes(qtbot, tmp_path):
    win = _window(qtbot, tmp_path, SAMPLE.parent / "nightclub-hold.yaml")
    pm = win.play_mode
    assert pm.enter(seed=4)
    p = pm.panel
    assert not p.mode_row.isVisibleTo(p) and not p.delay.isVisibleTo(p)
    assert not p.aim.isVisibleTo(p) and p.fire_choice() == {}
    pm.leave()
