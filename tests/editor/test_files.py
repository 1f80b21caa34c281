"""Document care: open, save, save as, the unsaved-changes prompt, autosave and recovery,
recent files, and the screenshot mode of ``sprawlmap edit``."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
import samples
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from editor import cli as launcher
from editor.app import run
from editor.document import REPO, SAMPLE, Document
from engine import cli as engine_cli
from engine.io import load_document, load_sheet

BUNDLED = REPO / "scenarios" / "street-ambush.yaml"


def copy_sample(tmp_path: Path) -> Path:
    dst = tmp_path / "ambush.yaml"
    shutil.copy(BUNDLED, dst)
    return dst


def open_in(make_editor, path: Path):
    win, d = make_editor()
    assert win.open_path(path)
    win.view.resetTransform()
    win.view.scale(20, 20)
    win.view.centerOn(24, 24)
    return win, d


def test_save_then_reload_gives_equal_document(make_editor, tmp_path):
    path = copy_sample(tmp_path)
    win, d = open_in(make_editor, path)
    assert win.doc.root == load_document(path)
    # edits of every kind: move a building, draw a wall and a door, an area on the pavement
    d.click(*first_building_centre(win))
    d.key(Qt.Key.Key_Right)
    d.key(Qt.Key.Key_R)
    win.area_kind.setCurrentText("smoke")
    d.tool("area")
    for x, y in ((20.5, 20.5), (23.5, 20.5), (23.5, 23.5)):
        d.click(x, y)
    d.key(Qt.Key.Key_Return)
    # a wall inside a building: the scenario carries its own edited copy of that sheet
    x, y = first_building_centre(win)
    d.tool("wall")
    d.click(x, y)
    d.click(x + 1.0, y)
    d.key(Qt.Key.Key_Return)
    assert len(win.doc.layout.sheets) == 1
    edited = win.doc.root
    assert win.doc.is_dirty() and win.windowTitle().startswith("ambush.yaml *")
    assert win.save()
    assert not win.doc.is_dirty()
    assert load_document(path) == edited
    # reopen in a fresh window: the same document
    win2, _ = make_editor()
    assert win2.open_path(path)
    assert win2.doc.root == edited


def first_building_centre(win) -> tuple[float, float]:
    r = next(x for x in win.doc.resolved() if not x.pavement)
    c = r.footprint.representative_point()
    return (c.x, c.y)


def test_save_as_and_recent_files(make_editor, tmp_path):
    path = copy_sample(tmp_path)
    win, d = open_in(make_editor, path)
    other = tmp_path / "copy.yaml"
    win.ask_path = lambda save: other
    assert win.save_as()
    assert win.doc.path == other and other.exists()
    assert win.recent_files()[:2] == [str(other.resolve()), str(path.resolve())]
    assert [a.text() for a in win.recent_menu.actions()][:2] == [str(other.resolve()),
                                                                 str(path.resolve())]


def test_close_prompt(make_editor, tmp_path):
    path = copy_sample(tmp_path)
    win, d = open_in(make_editor, path)
    d.click(*first_building_centre(win))
    d.key(Qt.Key.Key_Down)
    asked = []
    win.ask_save = lambda: asked.append(1) or QMessageBox.StandardButton.Cancel
    assert not win.close()
    assert win.isVisible() and asked == [1]
    win.ask_save = lambda: QMessageBox.StandardButton.Save
    assert win.close()
    assert load_document(path) == win.doc.root


def test_autosave_and_recover_after_crash(make_editor, tmp_path):
    path = copy_sample(tmp_path)
    win, d = open_in(make_editor, path)
    assert win.autosave() is None  # nothing to save while clean
    d.click(*first_building_centre(win))
    d.key(Qt.Key.Key_Left)
    edited = win.doc.root
    rec = win.autosave()
    assert rec == tmp_path / ".ambush.yaml.autosave"
    assert load_document(rec) == edited
    future = time.time() + 5
    os.utime(rec, (future, future))
    # "crash": a new window opens the file and is offered the newer recovery file
    win2, _ = make_editor()
    offered = []
    win2.ask_recover = lambda p: offered.append(p) or True
    assert win2.open_path(path)
    assert offered == [rec]
    assert win2.doc.root == edited and win2.doc.is_dirty()
    assert win2.doc.path == path
    # undo goes back to what is on disk; saving cleanly removes the recovery file
    win2.undo_action.trigger()
    assert win2.doc.root == load_document(path)
    win2.redo_action.trigger()
    assert win2.save() and not rec.exists()


def test_declined_recovery_is_removed(make_editor, tmp_path):
    path = copy_sample(tmp_path)
    rec = tmp_path / ".ambush.yaml.autosave"
    shutil.copy(path, rec)
    future = time.time() + 5
    os.utime(rec, (future, future))
    win, _ = make_editor()
    win.ask_recover = lambda p: False
    assert win.open_path(path)
    assert not win.doc.is_dirty() and not rec.exists()


def test_open_bad_file_says_where(make_editor, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: sprawlmap/scenario@1\ntitle: x\nlayout: {lattice: square}\nbogus: 1\n")
    win, _ = make_editor()
    before = win.doc
    assert not win.open_path(bad)
    assert win.doc is before
    assert win.hint_label.text().startswith(f"{bad}:4:")
    assert win.warnings == [win.hint_label.text()]


def test_sheet_mode_saves_a_mapsheet(make_editor, tmp_path):
    win, d = make_editor(samples.house(), library={}, centre=(5.0, 4.0))
    d.tool("wall")
    d.click(0.5, 3.5)
    d.click(3.5, 3.5)
    d.key(Qt.Key.Key_Return)
    out = tmp_path / "house.yaml"
    win.ask_path = lambda save: out
    assert win.save()
    assert load_sheet(out) == win.doc.root
    doc = Document.open(out)
    assert doc.mode == "sheet" and doc.root == win.doc.root


def test_screenshot_mode(tmp_path, capsys):
    out = tmp_path / "shot.png"
    assert run(BUNDLED, out) == 0
    assert out.stat().st_size > 10_000
    assert run(None, tmp_path / "sample.png") == 0  # no file: the bundled sample
    assert SAMPLE == BUNDLED


def test_sprawlmap_edit_goes_through_the_launcher(tmp_path, capsys):
    """``sprawlmap edit FILE --screenshot OUT`` (the console script runs editor.cli:main); the
    engine's own parser has no ``edit``, since the engine never imports the editor."""
    out = tmp_path / "shot.png"
    assert launcher.main(["edit", str(BUNDLED), "--screenshot", str(out)]) == 0
    assert out.stat().st_size > 10_000
    assert launcher.main(["edit", str(tmp_path / "missing.yaml"), "--screenshot",
                          str(tmp_path / "y.png")]) == 2
    assert not (tmp_path / "y.png").exists()
    capsys.readouterr()
    with pytest.raises(SystemExit) as bad:  # argparse's one-line refusal
        engine_cli.main(["edit", str(BUNDLED)])
    assert bad.value.code == 2
    assert "invalid choice: 'edit'" in capsys.readouterr().err


def test_screenshot_of_bad_file_is_one_line(tmp_path, capsys):
    assert run(tmp_path / "missing.yaml", tmp_path / "x.png") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing.yaml" in err[0]
