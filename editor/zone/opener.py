"""Opening any sprawlmap document in the right window: zones in a :class:`ZoneWindow`,
layouts and scenarios in the layout editor's MainWindow.  The zone window gets
:func:`open_window` as its ``open_document`` callback (double-click a block, Compose, Open),
so editor.zone never imports the main window itself."""

from __future__ import annotations

from pathlib import Path

from editor.zone.document import ZoneDocument
from editor.zone.window import ZoneWindow
from engine.zone.io import is_zone_file


def zone_window(path: Path | None) -> ZoneWindow:
    doc = ZoneDocument.open(path) if path is not None else None
    return ZoneWindow(doc, open_document=open_window)


def open_window(path: Path, show: bool = True):
    """A window on ``path`` (shown unless ``show`` is False); LoadError propagates."""
    if is_zone_file(path):
        win = zone_window(Path(path))
    else:
        from editor.document import Document
        from editor.main_window import MainWindow

        win = MainWindow(Document.open(Path(path)), scan_recovery=False)
    if show:
        win.show()
    return win
