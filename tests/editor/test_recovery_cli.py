"""Crash recovery through the same entry point as ``sprawlmap edit FILE``: the autosave of
FILE is offered at start-up; quitting never deletes a recovery file nobody was offered; a
read-only folder falls back to the app-data folder; saves ask before overwriting a change made
by another program."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from editor import cli as editor_cli
from editor import recovery
from editor.main_window import MainWindow
from engine import atomic_file
from engine.io import load_document

REPO = Path(__file__).resolve().parents[2]
#: windows of 'crashed' sessions: kept alive and never closed, as after a real crash
CRASHED: list[MainWindow] = []


@pytest.fixture
def env(tmp_path, monkeypatch, qapp):
    """A scenario file in tmp_path, app data and settings in tmp_path, prompts recorded."""
    qapp.setProperty("sprawlmap_headless", False)  # a --screenshot run sets it for the process
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    doc = tmp_path / "work" / "ambush.yaml"
    doc.parent.mkdir()
    shutil.copy(REPO / "scenarios" / "street-ambush.yaml", doc)
    asked: dict[str, list] = {"recover": [], "overwrite": [], "warn": []}
    answers = {"recover": True, "overwrite": False, "save": QMessageBox.StandardButton.Discard}
    monkeypatch.setattr(MainWindow, "ask_recover",
                        lambda self, rec: asked["recover"].append(rec) or answers["recover"])
    monkeypatch.setattr(MainWindow, "ask_overwrite",
                        lambda self, path: asked["overwrite"].append(path) or answers["overwrite"],
                        raising=False)
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: answers["save"])
    monkeypatch.setattr(MainWindow, "warn", lambda self, text: asked["warn"].append(text))
    monkeypatch.setattr(MainWindow, "ask_recover_orphan", lambda self, o, n, t: None)
    yield doc, asked, answers
    answers["save"] = QMessageBox.StandardButton.Discard
    for w in CRASHED:  # the 'dead' sessions stay as they were, with no close event
        w.doc.undo_stack.blockSignals(True)
        w.doc.blockSignals(True)


def edit(argv: list[str], session, monkeypatch) -> int:
    """Run ``sprawlmap edit ...`` through the launcher; ``session(win)`` runs in place of the
    event loop (after the start-up prompts)."""
    before = set(QApplication.topLevelWidgets())

    def fake_exec(*a):
        QApplication.processEvents()  # the start-up offer is queued behind the first show
        QApplication.processEvents()
        wins = [w for w in QApplication.topLevelWidgets()
                if isinstance(w, MainWindow) and w.isVisible() and w not in before]
        assert len(wins) == 1
        session(wins[0])
        if wins[0] not in CRASHED and wins[0].isVisible():
            close(wins[0])  # the user quits (unsaved changes: the test's answer)
        return 0

    monkeypatch.setattr(QApplication, "exec", staticmethod(fake_exec))
    return editor_cli.main(argv)


def crash_after_edit(doc: Path, monkeypatch) -> Path:
    """Session 1: open FILE, change the title, autosave, then 'crash' (never close)."""
    got = []

    def session(win):
        win.doc.push(replace(win.doc.root, title="Edited before the crash"), "retitle")
        got.append(win.autosave())
        win.autosave_timer.stop()
        win.hide()  # no closeEvent: the process 'died'
        CRASHED.append(win)

    assert edit(["edit", str(doc)], session, monkeypatch) == 0
    assert got[0] is not None and got[0].exists()
    return got[0]


def close(win) -> None:
    win.close()
    QApplication.processEvents()


def test_edit_file_offers_its_autosave_after_a_crash(env, monkeypatch):
    doc, asked, _ = env
    rec = crash_after_edit(doc, monkeypatch)
    seen = {}

    def session(win):
        seen["title"] = win.doc.root.title
        seen["dirty"] = win.doc.is_dirty()
        seen["path"] = win.doc.path
        win.save()

    assert edit(["edit", str(doc)], session, monkeypatch) == 0
    assert asked["recover"] == [rec]
    assert seen == {"title": "Edited before the crash", "dirty": True, "path": doc}
    assert load_document(doc).title == "Edited before the crash"
    assert not rec.exists()  # saved: the recovery file has done its work


def test_declined_autosave_is_removed(env, monkeypatch):
    doc, asked, answers = env
    rec = crash_after_edit(doc, monkeypatch)
    answers["recover"] = False
    titles = []
    assert edit(["edit", str(doc)], lambda w: titles.append(w.doc.root.title) or close(w),
                monkeypatch) == 0
    assert asked["recover"] == [rec] and titles == ["Street Ambush"]
    assert not rec.exists()


def test_quitting_without_the_offer_keeps_the_recovery_file(env, monkeypatch, tmp_path):
    doc, asked, _ = env
    rec = crash_after_edit(doc, monkeypatch)
    before = rec.read_bytes()
    assert editor_cli.main(["edit", str(doc), "--screenshot", str(tmp_path / "shot.png")]) == 0
    assert asked["recover"] == []
    assert rec.exists() and rec.read_bytes() == before
    # and the next real start still offers it
    assert edit(["edit", str(doc)], close, monkeypatch) == 0
    assert asked["recover"] == [rec]


@pytest.fixture
def read_only(monkeypatch):
    """Make a folder read-only for the writer and for unlink (the tests run as root, for whom
    chmod does not forbid writing)."""
    folders: list[Path] = []
    real_mkstemp = atomic_file.tempfile.mkstemp
    real_unlink = Path.unlink

    def mkstemp(*a, dir=None, **k):
        if dir is not None and Path(dir).resolve() in folders:
            raise PermissionError(13, "Permission denied")
        return real_mkstemp(*a, dir=dir, **k)

    def unlink(self, missing_ok=False):
        if self.resolve().parent in folders and self.exists():
            raise PermissionError(13, "Permission denied", str(self))
        return real_unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(atomic_file.tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(Path, "unlink", unlink)
    return lambda folder: folders.append(Path(folder).resolve())


def test_read_only_folder_autosaves_to_app_data_and_is_offered(env, monkeypatch, read_only):
    doc, asked, answers = env
    read_only(doc.parent)
    rec = crash_after_edit(doc, monkeypatch)
    data = Path(QApplication.instance() and __import__("os").environ["XDG_DATA_HOME"])
    assert rec.parent != doc.parent and data in rec.parents
    assert rec == recovery.fallback_recovery(rec.parent, doc)
    answers["save"] = QMessageBox.StandardButton.Save
    seen = {}

    def session(win):
        seen["title"] = win.doc.root.title
        close(win)  # Save fails in the read-only folder: a message, no exception
        seen["still open"] = win.isVisible()
        answers["save"] = QMessageBox.StandardButton.Discard
        close(win)

    assert edit(["edit", str(doc)], session, monkeypatch) == 0
    assert asked["recover"] == [rec]
    assert seen == {"title": "Edited before the crash", "still open": True}
    assert any("cannot save" in w and "Permission denied" in w for w in asked["warn"])


def test_save_as_into_a_read_only_folder_shows_a_message(env, monkeypatch, read_only, tmp_path):
    doc, asked, _ = env
    locked = tmp_path / "locked"
    locked.mkdir()
    read_only(locked)
    result = []

    def session(win):
        win.ask_path = lambda save: locked / "copy.yaml"
        win.doc.push(replace(win.doc.root, title="Copy"), "retitle")
        result.append(win.save_as())
        close(win)

    assert edit(["edit", str(doc)], session, monkeypatch) == 0
    assert result == [False]
    assert not (locked / "copy.yaml").exists()
    assert any("Permission denied" in w for w in asked["warn"])


def test_outside_change_is_not_overwritten_without_asking(env, monkeypatch, qtbot):
    doc, asked, answers = env
    outside = doc.read_text().replace("title: Street Ambush", "title: Changed Elsewhere")
    seen = {}

    def session(win):
        win.doc.push(replace(win.doc.root, title="Mine"), "retitle")
        doc.write_text(outside)  # another program saves the file
        qtbot.waitUntil(lambda: "changed on disk" in win.hint_label.text(), timeout=5000)
        seen["first"] = win.save()  # answer: keep theirs
        seen["after first"] = doc.read_text() == outside
        answers["overwrite"] = True
        seen["second"] = win.save()
        close(win)

    assert edit(["edit", str(doc)], session, monkeypatch) == 0
    assert asked["overwrite"] == [doc, doc]
    assert seen == {"first": False, "after first": True, "second": True}
    assert load_document(doc).title == "Mine"


def test_own_saves_do_not_count_as_outside_changes(env, monkeypatch):
    doc, asked, _ = env

    def session(win):
        for t in ("One", "Two"):
            win.doc.push(replace(win.doc.root, title=t), "retitle")
            assert win.save()
        close(win)

    assert edit(["edit", str(doc)], session, monkeypatch) == 0
    assert asked["overwrite"] == [] and load_document(doc).title == "Two"
