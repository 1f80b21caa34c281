"""Make the user guide's screenshots (docs/screenshots/*.png) from the real editor window.

Run: ``python3 scripts/screenshots.py`` (off screen; about ten seconds).  Each picture opens
the bundled sample (or a mapsheet), drives the window the way a user would (tools, clicks,
keys) and grabs it, so the guide always shows what the current code draws.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPoint, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor.document import Document  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SAMPLE = ROOT / "scenarios" / "street-ambush.yaml"


class Shot:
    """One window on one file, with helpers to click and hover in board dots."""

    def __init__(self, path: Path, settings: QSettings):
        self.win = MainWindow(Document.open(path), settings, recovery_dir=Path(tempfile.mkdtemp()))
        self.win.ask_save = lambda: None
        self.win.warn = lambda text: None
        self.win.resize(1400, 900)
        self.win.show()
        QApplication.processEvents()
        self.win.view.fit()

    def zoom(self, scale: float, centre: tuple[float, float]) -> None:
        self.win.view.set_zoom(scale, centre)

    def pos(self, x: float, y: float) -> QPoint:
        return self.win.view.mapFromScene(QPointF(x, y))

    def hover(self, x: float, y: float) -> None:
        vp = self.win.view.viewport()
        QTest.mouseMove(vp, self.pos(x, y) + QPoint(1, 1))
        QTest.mouseMove(vp, self.pos(x, y))

    def click(self, x: float, y: float) -> None:
        self.hover(x, y)
        QTest.mouseClick(self.win.view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, self.pos(x, y))

    def key(self, key: Qt.Key) -> None:
        QTest.keyClick(self.win.view, key)

    def tool(self, name: str) -> None:
        self.win.tool_actions[name].trigger()

    def level(self, k: int) -> None:
        self.win.state.set_level(k)

    def save(self, name: str) -> Path:
        self.win.background.wait()
        QApplication.processEvents()
        self.win.findings.refresh(self.win.doc)
        out = OUT / name
        self.win.grab().save(str(out))
        self.win.doc.undo_stack.setClean()
        self.win.close()
        print(out.relative_to(ROOT))
        return out


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setProperty("sprawlmap_headless", True)
    OUT.mkdir(parents=True, exist_ok=True)
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "s.ini"), QSettings.Format.IniFormat)

    s = Shot(SAMPLE, settings)
    s.save("main-window.png")

    # LOS blocked by a wall, with the reason in the status bar and on the canvas
    s = Shot(SAMPLE, settings)
    s.zoom(16, (18, 34))
    s.tool("los")
    s.click(24, 28)
    s.hover(10, 38)
    s.save("los-blocked.png")

    # LOS interrupted: amber, with the cover count and the crossing marked
    s = Shot(SAMPLE, settings)
    s.zoom(16, (22, 28))
    s.tool("los")
    s.click(5, 28)
    s.hover(40, 28)
    s.save("los-interrupted.png")

    # the fan of everything a rooftop sniper sees on the street
    s = Shot(SAMPLE, settings)
    s.zoom(11, (24, 30))
    s.level(5)
    s.tool("los")
    s.win.fan_box.setChecked(True)
    s.click(20, 6)
    s.level(0)
    s.hover(31, 14)
    s.save("los-fan.png")

    # movement: reach at move ratio 3 and the cheapest path with running MP totals
    s = Shot(SAMPLE, settings)
    s.zoom(16, (26, 22))
    s.tool("move")
    s.click(31, 22)
    s.hover(22, 18)
    s.save("movement.png")

    # tagging: draw a wall, put a door in it, set its class in the properties panel
    s = Shot(SAMPLE, settings)
    s.zoom(22, (10, 40))
    s.tool("wall")
    s.click(4.5, 44.5)
    s.click(4.5, 39.5)
    s.key(Qt.Key.Key_Return)
    s.tool("door")
    s.click(4.5, 42.2)
    s.tool("select")
    s.click(4.5, 42.0)
    s.save("tagging.png")

    # place a building so it overlaps: red at once, listed in the findings
    s = Shot(SAMPLE, settings)
    s.win.arm_place("sheet:chop-shop")
    s.hover(26, 44)
    s.click(26, 44)
    s.save("overlap.png")

    # cut a piece out of the hotel and see it in the library
    s = Shot(SAMPLE, settings)
    s.zoom(16, (12, 56))
    s.tool("cut")
    for x, y in ((1.5, 49.5), (11.5, 49.5), (11.5, 63.5), (1.5, 63.5)):
        s.click(x, y)
    s.key(Qt.Key.Key_Return)
    s.win.library.list.scrollToBottom()
    s.save("cut.png")

    # sheet mode on a mapsheet, legend shown
    s = Shot(ROOT / "mapsheets" / "coffin-hotel.yaml", settings)
    tabs = s.win.findings_dock.widget()
    tabs.setCurrentIndex(1)
    s.save("sheet-mode.png")
    scenario_shots(settings)
    return 0


def scenario_shots(settings: QSettings) -> None:
    """The scenario panel (sides and characters) and the export dialog over the window."""
    from PySide6.QtGui import QColor, QPainter

    from editor.export_dialog import open_export_dialog

    s = Shot(SAMPLE, settings)
    s.win.resize(1400, 1000)
    s.zoom(24, (18, 25))
    s.win.scenario_dock.raise_()
    s.win.resizeDocks([s.win.properties_dock, s.win.findings_dock], [700, 200],
                      Qt.Orientation.Vertical)
    panel = s.win.scenario_panel
    panel.tabs.setCurrentIndex(1)
    panel.sides.setCurrentRow(0)
    panel.characters.table.setCurrentCell(1, 0)
    QApplication.processEvents()
    panel.tabs.currentWidget().verticalScrollBar().setValue(200)
    s.save("scenario-panel.png")

    s = Shot(SAMPLE, settings)
    dlg = open_export_dialog(s.win, "pdf")
    QApplication.processEvents()
    s.win.background.wait()
    s.win.findings.refresh(s.win.doc)
    shot = s.win.grab()
    g = dlg.grab()
    painter = QPainter(shot)  # a dialog is a window of its own: draw it over the centre
    at = QPoint((shot.width() - g.width()) // 2, (shot.height() - g.height()) // 3)
    painter.fillRect(at.x() - 1, at.y() - 24, g.width() + 2, g.height() + 25, QColor("#3c3f44"))
    painter.setPen(QColor("white"))
    painter.drawText(at.x() + 8, at.y() - 7, dlg.windowTitle())
    painter.drawPixmap(at, g)
    painter.end()
    out = OUT / "export-dialog.png"
    shot.save(str(out))
    print(out.relative_to(ROOT))
    dlg.close()
    s.win.doc.undo_stack.setClean()
    s.win.close()


if __name__ == "__main__":
    raise SystemExit(main())
