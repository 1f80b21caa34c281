"""Quitting the editor after discarding changes prints nothing: the document's undo stack,
cleared as it is destroyed, used to call into the closed window ("QUndoStack already deleted").
Whether the interpreter's teardown destroys the document before the window depends on its
order of things, so the session destroys it itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SESSION = """
from pathlib import Path
import shiboken6
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import QApplication, QMessageBox
app = QApplication([])
from editor.document import Document
from editor.main_window import MainWindow
doc = Document.open(Path("scenarios/street-ambush.yaml"))
win = MainWindow(doc, scan_recovery=False)
win.show()
app.processEvents()
doc.undo_stack.push(QUndoCommand("an edit"))
assert doc.is_dirty()
win.ask_save = lambda: QMessageBox.StandardButton.Discard
assert win.close()
shiboken6.delete(doc)  # as the interpreter's teardown may, while the window still exists
print("closed")
"""


def test_quit_after_discarding_changes_prints_no_traceback(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", SESSION], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "closed"
    assert "Traceback" not in run.stderr and "already deleted" not in run.stderr, run.stderr
