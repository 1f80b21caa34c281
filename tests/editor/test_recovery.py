"""Crash recovery at start-up: recovery files left behind by an editor that stopped without
saving (untitled documents, titled ones whose file is gone) are offered back."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from editor.document import REPO, Document
from editor.edits import PlacementRef
from editor.recovery import marker_for
from engine.io import load_document


def edited_untitled(make_editor):
    """A window with an untitled document moved one dot left and autosaved (then 'crashed')."""
    win, d = make_editor()
    win.state.select(PlacementRef(False, 0))
    d.key(Qt.Key.Key_Left)
    assert win.doc.layout.placements[0].at == (3, 4)
    rec = win.autosave()
    assert rec is not None and rec.exists()
    return win, rec


def test_untitled_document_is_offered_after_a_crash(make_editor, tmp_path):
    win1, rec = edited_untitled(make_editor)
    assert rec.parent == tmp_path / "recovery"
    assert rec.name.startswith(f"untitled-{os.getpid()}-")
    edited = load_document(rec)  # the autosave names the street's pavement; else the same
    assert edited.layout.placements == win1.doc.layout.placements
    # "crash": win1 is never closed; a new editor starts on the same recovery folder
    offered = []
    win2, _ = make_editor(ask_orphan=lambda o, n, total: offered.append((o, n, total)) or True)
    assert [(o.recovery, o.original, n, t) for o, n, t in offered] == [(rec, None, 1, 1)]
    assert win2.doc.root == edited
    assert win2.doc.path is None and win2.doc.is_dirty()
    assert win2.windowTitle().startswith("untitled *")
    # the recovery file stays until the recovered work is saved; autosave goes on using it
    assert rec.exists() and win2.doc.recovery_path(win2.recovery_dir) == rec
    out = tmp_path / "saved.yaml"
    win2.ask_path = lambda save: out
    assert win2.save()
    assert not rec.exists() and load_document(out) == edited


def test_declined_recovery_is_removed_and_later_keeps_it(make_editor):
    win1, rec = edited_untitled(make_editor)
    make_editor(ask_orphan=lambda o, n, total: None)  # "later"
    assert rec.exists()
    win3, _ = make_editor(ask_orphan=lambda o, n, total: False)  # "discard"
    assert not rec.exists()
    assert not win3.doc.is_dirty() and win3.doc.root != win1.doc.root


def test_clean_close_leaves_no_recovery_file(make_editor, tmp_path):
    win1, rec = edited_untitled(make_editor)
    win1.ask_save = lambda: QMessageBox.StandardButton.Discard
    assert win1.close()
    assert not rec.exists()
    offered = []
    make_editor(ask_orphan=lambda o, n, total: offered.append(o) or True)
    assert offered == []
    assert list((tmp_path / "recovery").iterdir()) == []


def test_several_files_open_in_windows_of_their_own(make_editor, tmp_path):
    win1, rec1 = edited_untitled(make_editor)
    first = load_document(rec1)
    # a second untitled document of the crashed editor, written the way autosave writes
    second = replace(first, title="Second ambush")
    doc2 = Document(second)
    rec2 = doc2.recovery_path(tmp_path / "recovery")
    doc2.write(rec2)
    assert rec2 != rec1
    offered = []
    win2, _ = make_editor(ask_orphan=lambda o, n, total: offered.append((n, total)) or True)
    assert offered == [(1, 2), (2, 2)]
    roots = {win2.doc.root == first, win2.doc.root == second}
    assert roots == {True, False}
    assert len(win2.recovered_windows) == 1
    other = win2.recovered_windows[0]
    assert other.isVisible() and other.doc.is_dirty()
    assert {other.doc.root == first, other.doc.root == second} == {True, False}
    assert other.doc.root != win2.doc.root
    for w in (win2, other):
        w.autosave_timer.stop()
        w.doc.undo_stack.setClean()
    other.close()


def test_titled_document_whose_file_is_gone(make_editor, tmp_path):
    path = tmp_path / "ambush.yaml"
    shutil.copy(REPO / "scenarios" / "street-ambush.yaml", path)
    win1, d = make_editor()
    assert win1.open_path(path)
    win1.state.select(PlacementRef(False, 0))
    d.key(Qt.Key.Key_Right)
    edited = win1.doc.root
    rec = win1.autosave()
    marker = marker_for(tmp_path / "recovery", path)
    assert rec == tmp_path / ".ambush.yaml.autosave" and marker.exists()
    offered = []
    make_editor(ask_orphan=lambda o, n, total: offered.append(o) or None)
    assert offered == []  # the file is still there: opening it offers the recovery
    path.unlink()
    win2, _ = make_editor(ask_orphan=lambda o, n, total: offered.append(o) or True)
    assert [(o.recovery, o.original) for o in offered] == [(rec, path)]
    assert win2.doc.root == edited and win2.doc.path == path and win2.doc.is_dirty()
    assert win2.save()
    assert load_document(path) == edited
    assert not rec.exists() and not marker.exists()


def test_files_of_a_running_editor_are_left_alone(make_editor, tmp_path):
    folder = tmp_path / "recovery"
    folder.mkdir()
    src = REPO / "scenarios" / "street-ambush.yaml"
    alive = folder / f"untitled-{os.getppid()}-1.autosave.yaml"
    shutil.copy(src, alive)
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = folder / f"untitled-{int(done.stdout)}-1.autosave.yaml"
    shutil.copy(src, dead)
    offered = []
    win, _ = make_editor(ask_orphan=lambda o, n, total: offered.append(o.recovery) or True)
    assert offered == [dead]
    assert win.doc.root == load_document(src) and win.doc.path is None
    assert alive.exists()
