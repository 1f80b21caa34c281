"""Entry point: ``sprawlmap edit [FILE] [--screenshot OUT.png]`` calls :func:`run`."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.errors import LoadError


def icon_path(kind: str = "svg") -> Path:
    """The application icon shipped in the package (``svg`` or the 256 px ``png``)."""
    from importlib.resources import files

    return Path(str(files("editor.resources").joinpath(f"sprawlmap.{kind}")))


def run(path: str | Path | None = None, screenshot: str | Path | None = None, *,
        error_dialog: bool = False) -> int:
    """Open the editor on ``path`` (the bundled sample when None).

    With ``screenshot`` the window is laid out off screen, grabbed to that PNG and the function
    returns 0 without entering the event loop.  Bad input prints ``file:line: problem`` and
    returns 2; with ``error_dialog`` (started from a desktop launcher, where nobody reads
    stderr) it is also shown in a message box.
    """
    import os

    if screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication, QMessageBox

    from editor.document import SAMPLE, Document
    from editor.main_window import MainWindow

    if screenshot is not None:
        _quiet_offscreen()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("sprawlmap")
    app.setOrganizationName("sprawlmap")
    app.setDesktopFileName("sprawlmap")  # the .desktop file's name: docks group the windows
    app.setWindowIcon(QIcon(str(icon_path("svg"))))
    if screenshot is not None:
        app.setProperty("sprawlmap_headless", True)
    target = Path(path) if path else SAMPLE
    from engine.zone.io import is_zone_file

    if is_zone_file(target):  # a zone opens in the zone editor (editor/zone)
        return _run_zone(app, target, screenshot, error_dialog)
    try:
        doc = Document.open(target)
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        if error_dialog and screenshot is None:
            QMessageBox.critical(None, "sprawlmap", str(exc))
        return 2
    # a screenshot never prompts; a real start offers back work left by a crashed editor
    win = MainWindow(doc, scan_recovery=screenshot is None)
    if screenshot is not None:
        return grab(win, Path(screenshot))
    win.restore_geometry()
    win.show()
    return app.exec()


def zone_window(path: Path | None):
    """A zone window on ``path`` (a new zone when None) whose blocks, Compose and Open open
    other documents through :func:`open_window`."""
    from editor.zone.document import ZoneDocument
    from editor.zone.window import ZoneWindow

    doc = ZoneDocument.open(path) if path is not None else None
    return ZoneWindow(doc, open_document=open_window)


def open_window(path: Path, show: bool = True):
    """A window on any document: zones in a zone window, layouts and scenarios in the main
    window (this assembly is the one place that knows both); LoadError propagates."""
    from editor.document import Document
    from editor.main_window import MainWindow
    from engine.zone.io import is_zone_file

    if is_zone_file(path):
        win = zone_window(Path(path))
    else:
        win = MainWindow(Document.open(Path(path)), scan_recovery=False)
    if show:
        win.show()
    return win


def _run_zone(app, target: Path, screenshot: str | Path | None, error_dialog: bool) -> int:
    from PySide6.QtWidgets import QMessageBox

    try:
        win = zone_window(target)
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        if error_dialog and screenshot is None:
            QMessageBox.critical(None, "sprawlmap", str(exc))
        return 2
    if screenshot is not None:
        win.resize(1400, 900)
        win.show()
        app.processEvents()
        win.view.fit()
        app.processEvents()
        out = Path(screenshot)
        out.parent.mkdir(parents=True, exist_ok=True)
        ok = win.grab().save(str(out))
        win.close()
        return 0 if ok else 2
    win.show()
    return app.exec()


def _quiet_offscreen() -> None:
    """Drop the offscreen platform's harmless 'propagateSizeHints' warning; keep the rest."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(mode, context, message: str) -> None:
        if "propagateSizeHints" not in message:
            print(message, file=sys.stderr)
    qInstallMessageHandler(handler)


def grab(win, out: Path) -> int:
    """Lay the window out, fit the board and write it to ``out`` (PNG)."""
    from PySide6.QtWidgets import QApplication

    win.resize(1400, 900)
    win.show()
    QApplication.processEvents()
    win.view.fit()
    win.findings.refresh(win.doc)
    win.library.finish()
    QApplication.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = win.grab().save(str(out))
    win.doc.undo_stack.setClean()
    win.close()
    if not ok:
        print(f"{out}: cannot write the screenshot", file=sys.stderr)
        return 2
    return 0
