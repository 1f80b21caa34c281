"""Fixtures that open the real editor window off screen (like napari's make_napari_viewer)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))

import samples  # noqa: E402

from editor.document import Document  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402

SCALE = 20.0  # pixels per dot in tests


class Driver:
    """Mouse and keys on the real canvas, addressed in board dots."""

    def __init__(self, win: MainWindow, qtbot):
        self.win = win
        self.qtbot = qtbot
        self.vp = win.view.viewport()

    def pos(self, x: float, y: float):
        return self.win.view.mapFromScene(QPointF(x, y))

    def click(self, x, y, button=Qt.MouseButton.LeftButton, mods=Qt.KeyboardModifier.NoModifier):
        self.hover(x, y)
        self.qtbot.mouseClick(self.vp, button, mods, self.pos(x, y))

    def dclick(self, x, y):
        self.qtbot.mouseDClick(self.vp, Qt.MouseButton.LeftButton, pos=self.pos(x, y))

    def hover(self, x, y):
        # QTest drops a move to where it believes the cursor already is: wiggle first
        p = self.pos(x, y)
        self.qtbot.mouseMove(self.vp, p + QPoint(1, 1))
        self.qtbot.mouseMove(self.vp, p)

    def drag(self, a, b, steps: int = 4):
        self.hover(*a)
        self.qtbot.mousePress(self.vp, Qt.MouseButton.LeftButton, pos=self.pos(*a))
        for i in range(1, steps + 1):
            t = i / steps
            self.qtbot.mouseMove(self.vp, self.pos(a[0] + (b[0] - a[0]) * t,
                                                   a[1] + (b[1] - a[1]) * t))
        self.qtbot.mouseRelease(self.vp, Qt.MouseButton.LeftButton, pos=self.pos(*b))

    def key(self, key, mods=Qt.KeyboardModifier.NoModifier):
        self.qtbot.keyClick(self.win.view, key, mods)

    def tool(self, name: str):
        self.win.tool_actions[name].trigger()


@pytest.fixture
def make_editor(qtbot, tmp_path):
    """make_editor(root=None, library=None, path=None) -> (window, driver).

    The window is shown off screen at a fixed zoom (20 px per dot) centred on the board, with
    settings and recovery files in ``tmp_path`` and a close prompt that discards by default.
    ``ask_orphan(orphan, n, total)`` answers the start-up offer of left-behind recovery files.
    """
    made = []

    def make(root=None, library=None, path=None, centre=(20.0, 15.0), ask_orphan=None):
        doc = Document(root if root is not None else samples.scenario(), path,
                       samples.library() if library is None else library)
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        win = MainWindow(doc, settings, recovery_dir=tmp_path / "recovery")
        win.ask_save = lambda: QMessageBox.StandardButton.Discard
        win.ask_recover = lambda rec: True
        # a feature drawn on a sheet placed several times: every copy, unless a test asks
        win.ask_tag_scope = lambda title, n: "sheet"
        win.ask_edit_scope = lambda title, n: "sheet"  # a shared sheet's property: likewise
        # start-up offer of left-behind recovery files: "later" (keeps them) unless told
        win.ask_recover_orphan = ask_orphan or (lambda orphan, n, total: None)
        win.warnings = []
        win.warn = win.warnings.append
        qtbot.addWidget(win)
        win.resize(1300, 850)
        win.show()
        qtbot.waitExposed(win)
        QApplication.processEvents()  # let the docks settle before fixing the view
        win.view.set_zoom(SCALE, centre)
        made.append(win)
        return win, Driver(win, qtbot)

    yield make
    for w in made:
        w.autosave_timer.stop()
        w.doc.undo_stack.setClean()
