"""Make the play-mode pictures of the user guide (docs/screenshots/play-*.png).

Run: ``python3 scripts/play_screenshots.py`` (off screen, a few seconds).  It opens the
bundled sample, presses F5 and plays the first moves of seed 1 with the mouse and keys the
way a user would: Longshot lays a wide arc over the street from the roof, Sabre aims at the
courier (``play-fire.png``: the chance before the roll), rolls and lays a narrow arc; then
Vance, in the street, hovers a dot inside both arcs (``play-mode.png``: path, MP and the arc
warning, the log with the shot's roll).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPoint, QPointF, QSettings, Qt, qInstallMessageHandler  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor.document import Document  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SAMPLE = ROOT / "scenarios" / "street-ambush.yaml"


def main() -> int:
    qInstallMessageHandler(lambda *_: None)  # the offscreen platform's size-hint chatter
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setProperty("sprawlmap_headless", True)
    tmp = Path(tempfile.mkdtemp())
    win = MainWindow(Document.open(SAMPLE), QSettings(str(tmp / "s.ini"),
                                                      QSettings.Format.IniFormat), tmp)
    win.resize(1400, 900)
    win.show()
    app.processEvents()
    vp = win.view.viewport()

    def pos(x: float, y: float) -> QPoint:
        return win.view.mapFromScene(QPointF(x, y))

    def hover(x: float, y: float) -> None:
        QTest.mouseMove(vp, pos(x, y) + QPoint(1, 1))
        QTest.mouseMove(vp, pos(x, y))

    def click(x: float, y: float) -> None:
        hover(x, y)
        QTest.mouseClick(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos(x, y))

    def drag(a: tuple[float, float], b: tuple[float, float]) -> None:
        hover(*a)
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos(*a))
        for i in range(1, 5):
            QTest.mouseMove(vp, pos(a[0] + (b[0] - a[0]) * i / 4, a[1] + (b[1] - a[1]) * i / 4))
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                           pos(*b))

    QTest.keyClick(win.view, Qt.Key.Key_F5)
    app.processEvents()
    pm = win.play_mode
    g = pm.game
    panel = pm.panel
    # Longshot (on the roof, level 5): a wide arc over the street, south-west
    win.view.set_zoom(18, (17, 17))
    app.processEvents()
    panel.arc_box.setCurrentIndex(panel.arc_box.findData("wide"))
    x, y = g.point(pm.selected().pos)
    drag((x, y), (x - 4, y + 4))
    QTest.keyClick(win.view, Qt.Key.Key_Return)
    # Sabre aims at the courier in the street (a faint counter seen from the roof)
    pm.select("sabre")
    win.view.set_zoom(18, (14, 19))
    app.processEvents()
    QTest.keyClick(win.view, Qt.Key.Key_F)
    click(2, 28)
    OUT.mkdir(parents=True, exist_ok=True)
    win.grab().save(str(OUT / "play-fire.png"))
    panel.roll.click()
    panel.arc_box.setCurrentIndex(panel.arc_box.findData("narrow"))
    x, y = g.point(pm.selected().pos)
    drag((x, y), (x - 4, y + 3))
    QTest.keyClick(win.view, Qt.Key.Key_Return)
    panel.end_phase.click()
    # Vance, in the street, looks for a way east under both arcs
    pm.select("vance")
    win.view.set_zoom(18, (13, 20))
    app.processEvents()
    hover(6, 26)
    win.grab().save(str(OUT / "play-mode.png"))
    win.doc.undo_stack.setClean()
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
