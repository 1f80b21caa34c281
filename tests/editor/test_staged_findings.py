"""Issue 17, left over: findings after an edit come in two stages.  The quick checks' findings
show first while the board-wide searches still run (their old findings greyed, the panel
saying "updating…"); then the whole list, exactly what ``engine.validate`` reports."""

from __future__ import annotations

from dataclasses import replace

import samples
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from editor.findings_live import SLOW_CHECKS, split_checks
from editor.panels.findings import engine_findings_for
from engine.board import compile_board
from engine.model import Deployment, Objective, Side
from engine.validate import all_checks


def _facing_sides():
    """The test block with two sides on opposite edges and a far objective: the board-wide
    checks have findings (sight at set-up, turns to the objective, sealed rooms, tempo)."""
    sc = samples.scenario()
    return replace(sc, turn_limit=1,
                   sides=(Side(id="a", name="A", deployment=Deployment(edge="west", depth=3)),
                          Side(id="b", name="B", deployment=Deployment(edge="east", depth=3))),
                   objectives=(Objective(id="grab", side="a", kind="reach", at=(38, 28)),))


def _settle(win) -> None:
    win._findings_timer.stop()
    from editor.findings_live import refresh_findings

    refresh_findings(win)
    win.background.wait()
    QApplication.processEvents()


def test_quick_findings_first_then_the_board_wide_ones(make_editor):
    win, d = make_editor(_facing_sides())
    _settle(win)
    panel = win.findings
    every = engine_findings_for(compile_board(win.doc.layout, win.doc.sheets()), "",
                                win.doc.root)
    assert [f["message"] for f in panel.findings] == [f["message"] for f in every]
    assert not panel.updating.isVisibleTo(panel)
    slow_codes = {f.code for fn in split_checks()[1]
                  for f in fn(compile_board(win.doc.layout, win.doc.sheets()), win.doc.root)}
    assert {"deployment-mutual-los", "objective-too-far", "sealed-room"} <= slow_codes
    seen: list[tuple[list[dict], bool]] = []
    real = panel.refresh

    def spy(doc, engine=None):
        real(doc, engine)
        if engine is not None:
            seen.append((list(panel.findings), panel.updating.isVisibleTo(panel)))
    panel.refresh = spy
    d.click(26.0, 7.0)  # the shed
    steps = win.doc.undo_stack.count()
    d.key(Qt.Key.Key_Left)  # an edit
    assert win.doc.undo_stack.count() == steps + 1
    _settle(win)
    first, updating = seen[0]
    assert updating  # the quick stage: the panel says it is still checking
    stale = [f for f in first if f.get("stale")]
    assert stale and {f["code"] for f in stale} <= slow_codes
    assert all(f["code"] not in slow_codes for f in first if not f.get("stale"))
    last, _ = seen[-1]
    assert not any(f.get("stale") for f in last)
    assert not panel.updating.isVisibleTo(panel)
    after = engine_findings_for(compile_board(win.doc.layout, win.doc.sheets()), "",
                                win.doc.root)
    assert [f["message"] for f in last] == [f["message"] for f in after]
    panel.refresh = real


def test_the_stages_split_every_check_once():
    quick, slow = split_checks()
    assert set(quick) | set(slow) == set(all_checks())
    assert not set(quick) & set(slow)
    assert {fn.__name__ for fn in slow} == set(SLOW_CHECKS)  # every slow name is a check
