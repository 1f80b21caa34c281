"""Issue 17, left over: findings after an edit come in two stages.  The quick checks' findings
show first while the board-wide searches still run (their old findings greyed, the panel
saying "updating…"); then the whole list, exactly what ``engine.validate`` reports."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from editor.document import Document
from editor.findings_live import SLOW_CHECKS, split_checks
from editor.panels.findings import engine_findings_for
from engine.board import compile_board
from engine.validate import all_checks

SAMPLE = Path(__file__).resolve().parents[2] / "scenarios" / "street-ambush.yaml"


def _settle(win) -> None:
    win._findings_timer.stop()
    from editor.findings_live import refresh_findings

    refresh_findings(win)
    win.background.wait()
    QApplication.processEvents()


def test_quick_findings_first_then_the_board_wide_ones(make_editor):
    doc = Document.open(SAMPLE)
    win, d = make_editor(doc.root, doc.sheets(), SAMPLE, centre=(24.0, 16.0))
    _settle(win)
    panel = win.findings
    every = engine_findings_for(compile_board(win.doc.layout, win.doc.sheets()), "",
                                win.doc.root)
    assert [f["message"] for f in panel.findings] == [f["message"] for f in every]
    assert not panel.updating.isVisibleTo(panel)
    slow_codes = {f.code for fn in split_checks()[1]
                  for f in fn(compile_board(win.doc.layout, win.doc.sheets()), win.doc.root)}
    assert slow_codes  # the sample has board-wide findings (turns to objectives, exposure)
    seen: list[tuple[list[dict], bool]] = []
    real = panel.refresh

    def spy(doc, engine=None):
        real(doc, engine)
        if engine is not None:
            seen.append((list(panel.findings), panel.updating.isVisibleTo(panel)))
    panel.refresh = spy
    d.click(40.0, 8.0)  # the corner store
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
