"""Hot-seat sr3 in the editor: F5 plays the sample under Shadowrun's referee."""

from pathlib import Path

from PySide6.QtCore import QSettings
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
