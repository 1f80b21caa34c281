"""Play mode under a ruleset other than DMZ: the factory's referee, its units and its numbers."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from editor.document import Document
from editor.main_window import MainWindow
from editor.play.counters import ConditionStrip
from editor.play.describe import describe
from engine.play.bot_kinds import make_bot
from engine.play.condition import PHYSICAL

SR3 = Path(__file__).resolve().parents[2] / "scenarios" / "nightclub-raid-sr3.yaml"


def test_f5_on_an_sr3_scenario_plays_it_in_metres_with_actions(qtbot, tmp_path):
    win = MainWindow(Document.open(SR3), QSettings(str(tmp_path / "s.ini"),
                                                   QSettings.Format.IniFormat),
                     recovery_dir=tmp_path / "rec")
    qtbot.addWidget(win)
    win.ask_save = lambda: None
    win.show()
    pm = win.play_mode
    pm.play_action.trigger()
    g = pm.game
    assert pm.active and type(g).__name__ == "SR3Game" and g.units == "m"
    bots = {s: make_bot("smart", s, 1) for s in g.state.sides()}
    for _ in range(3):  # a few bot activations, then the next mover is the player's
        st = g.state
        ch = next(c for c in st.members(st.current_team) if not c.moved and not c.out)
        bots[ch.side].play_character(g, ch)
    pm.select(g.movable()[0])
    sel = pm.selected()
    assert pm.panel.units_label.text() == "m"
    assert pm.panel.mp_label.text() == f"0 spent, {sel.mp:g} left of {sel.mp:g}; actions 2 of 2"
    assert not pm.panel.arc_box.isEnabled()
    moves = [e for e in g.log.events if e["event"] == "move"]
    assert moves and all(e["units"] == "m" for e in moves)
    assert any(" m (move)" in line for line in pm.log_panel.lines())
    pm.leave()
    win.doc.undo_stack.setClean()


def test_a_pool_test_reads_with_its_target_number_and_dice():
    e = {"seq": 9, "event": "test", "purpose": "movement fire", "attacker": "sabre",
         "target": "rook", "weapon": "Ares Predator II", "dice": [3, 4, 11], "successes": 2,
         "success": True, "target_number": 11, "modifiers": {"base": 4, "sight": 5,
                                                              "smartlink": -2},
         "damage_code": "9M"}
    assert describe(e) == ("Movement fire: sabre → rook (Ares Predator II): TN 11 (base 4, "
                           "sight +5, smartlink -2); 3 dice 3 4 11: 2 success(es), success "
                           "[damage_code 9M]")
    # an event whose fields are not DMZ's is shown as it is, never dropped
    assert describe({"seq": 1, "event": "damage", "target": "rook", "boxes": 3}) == \
        "damage: target rook, boxes 3"


def test_the_condition_strip_draws_any_track():
    class Wounds:
        lowest = 10

    class Track:
        def strip(self):
            return [PHYSICAL, None, "stun"]

    assert ConditionStrip.marks(Wounds()) == [PHYSICAL] * 3 + [None] * 10
    assert ConditionStrip.marks(Track()) == [PHYSICAL, None, "stun"]


def test_initiative_line_reads_every_rulesets_order():
    """sr3 logs ids, sr1 [id, score], darkcon "id@score": each entry shows its roll, none '?'."""
    rolls = {"sabre": 14, "moth": 9}
    for order, want in (
        (["sabre", "moth"], "Initiative: sabre (14) → moth (9)"),
        ([["sabre", 14], ["moth", 9]], "Initiative: sabre@14 (14) → moth@9 (9)"),
        (["sabre@14", "sabre@4", "moth@9"], "Initiative: sabre@14 (14) → sabre@4 (14) → moth@9 (9)"),
    ):
        assert describe({"event": "initiative", "order": order, "rolls": rolls}) == want
    dice = {"grue": {"dice": [4, 6, 6], "combat_initiative": 16}}
    assert describe({"event": "initiative", "order": ["grue@16", "grue@6"], "rolls": dice}) == \
        "Initiative: grue@16 (4+6+6) → grue@6 (4+6+6)"


def test_the_log_words_a_blind_shot_into_a_group_and_a_dropped_item():
    e = {"seq": 9, "event": "blind-target", "who": "tusk", "aimed": "moth",
         "group": ["kit", "moth", "rook"], "target": "kit"}
    assert describe(e) == ("tusk's blind shot at moth goes into the group (kit, moth, rook): "
                           "it is kit who is shot at (l.1005)")
    e = {"seq": 10, "event": "item-dropped", "objective": "case", "who": "vance", "at": [8, 23, 1]}
    assert describe(e) == "vance goes down and drops case at 8,23 (level 1)"
