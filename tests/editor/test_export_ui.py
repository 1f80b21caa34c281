"""File > Export in the editor: the dialog, the progress bar, the refusal and "Export anyway"."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

import editor.export_dialog as ed

sys.path.insert(0, str(Path(__file__).parent))
from test_scenario_panel import sealed_scenario  # noqa: E402

LEFT = Qt.MouseButton.LeftButton
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def choose_file(monkeypatch, path: Path) -> list:
    asked = []

    def fake(parent, title, start, filt):
        asked.append((title, start, filt))
        return str(path), filt
    monkeypatch.setattr(ed.QFileDialog, "getSaveFileName", staticmethod(fake))
    return asked


def finish(win, qtbot) -> ed.ExportRun:
    qtbot.waitUntil(lambda: not win.export_run.running(), timeout=20000)
    QApplication.processEvents()
    return win.export_run


def test_png_from_the_file_menu_with_progress(make_editor, qtbot, tmp_path, monkeypatch):
    win, d = make_editor()
    file_menu = win.menuBar().actions()[0].menu()
    export_menu = next(a.menu() for a in file_menu.actions() if a.text() == "Export")
    assert [a.text() for a in export_menu.actions()] == [
        "YAML bundle…", "SVG…", "PNG…", "PDF…", "Universal VTT…"]
    asked = choose_file(monkeypatch, tmp_path / "out" / "map.png")
    win.export_actions["png"].trigger()
    dlg = win.export_dialog
    assert dlg.isVisible() and dlg.fmt() == "png"
    assert not dlg.page.isEnabled() and dlg.dot_mm.isEnabled()
    qtbot.mouseClick(dlg.findChild(type(dlg.export_button), "export-browse"), LEFT)
    assert asked == [("Export to", str(Path.cwd() / "untitled.png"), "PNG picture (*.png)")]
    assert dlg.path.text() == str(tmp_path / "out" / "map.png")
    qtbot.mouseClick(dlg.export_button, LEFT)
    assert not dlg.isVisible()
    run = finish(win, qtbot)
    # the sample's house has two stories and a roof: levels 0, 1 and 2, one picture each
    names = ["map.png", "map-L1.png", "map-L2.png"]
    assert [p.name for p in run.result] == names
    for n in names:
        assert (tmp_path / "out" / n).read_bytes()[:8] == PNG_MAGIC
    assert run.values[-1] == ed.STEPS and max(run.values) == ed.STEPS
    assert run.dialog.maximum() == ed.STEPS
    assert run.values == sorted(run.values)  # the bar only moves forward
    assert not run.dialog.isVisible()
    assert win.hint_label.text() == "Exported map.png, map-L1.png, map-L2.png"


def test_pdf_options_and_default_name(make_editor, qtbot, tmp_path, monkeypatch):
    win, d = make_editor(path=tmp_path / "block.yaml")
    win.export_actions["pdf"].trigger()
    dlg = win.export_dialog
    assert dlg.path.text() == str(tmp_path / "block.pdf")
    assert dlg.page.isEnabled()
    # at one-inch dots on A4 (190 x 277 mm printable, 10 mm overlap): the 40 x 30 dot street
    # is 1016 x 762 mm, 6 x 3 tiles (docs/export.md); level 1 (house and shed roof, 28 x 10
    # dots, 711 x 254 mm) 4 x 1; level 2 (the house's roof, 12 x 10 dots) 2 x 1; none blank
    assert dlg.pages.text() == ("28 pages: the briefing, 3 level overview(s) and 24 tiles to "
                                "print at 100 %")
    dlg.page.setCurrentText("Letter")
    dlg.dot_mm.setValue(12.7)
    assert dlg.pages.text().startswith("11 pages")  # 1 + (1 + 2 x 2) + (1 + 2) + (1 + 1)
    # the same choices as the command line: levels and paper
    assert [dlg.page.itemText(i) for i in range(dlg.page.count())] == [
        "A4", "Letter", "A3", "Tabloid"]
    dlg.level_checks[1].setChecked(False)
    assert dlg.levels() == [0, 2] and dlg.pages.text().startswith("8 pages")
    # the preview is the overview of the first level on a landscape Letter sheet
    pm = dlg.preview.pixmap()
    assert (pm.width(), pm.height()) == (300, round(215.9 * 300 / 279.4))
    dlg.player_safe.setChecked(True)
    dlg.set_format("svg")
    dlg.path.setText(str(tmp_path / "pick.svg"))
    qtbot.mouseClick(dlg.export_button, LEFT)
    run = finish(win, qtbot)
    assert [p.name for p in run.result] == ["pick.svg", "pick-L2.svg"]
    assert run.levels == [0, 2] and run.player_safe is True
    # switching the format follows with the file name's extension
    dlg.set_format("uvtt")
    assert dlg.path.text() == str(tmp_path / "block.dd2vtt") and not dlg.page.isEnabled()
    dlg.set_format("pdf")
    qtbot.mouseClick(dlg.export_button, LEFT)
    run = finish(win, qtbot)
    assert (run.page, run.dot_mm) == ("letter", 12.7)
    data = (tmp_path / "block.pdf").read_bytes()
    assert data.startswith(b"%PDF-") and run.values[-1] == ed.STEPS


def test_refused_export_lists_errors_and_exports_anyway(make_editor, qtbot, tmp_path,
                                                        monkeypatch):
    sc, lib = sealed_scenario()
    win, d = make_editor(sc, lib)
    out = tmp_path / "sealed.yaml"
    choose_file(monkeypatch, out)
    win.export_actions["yaml"].trigger()
    qtbot.mouseClick(win.export_dialog.findChild(type(win.export_dialog.export_button),
                                                 "export-browse"), LEFT)
    qtbot.mouseClick(win.export_dialog.export_button, LEFT)
    finish(win, qtbot)
    refused = win.export_refused
    assert refused.isVisible() and not out.exists()
    texts = [refused.list.item(i).text() for i in range(refused.list.count())]
    assert texts == ["[objective-unreachable] objective loot (reach) of side runners: no path "
                     "from its deployment zone to its objective (sealed room, missing door or "
                     "stair?)"]
    # double-clicking the error goes there on the map
    rect = refused.list.visualItemRect(refused.list.item(0))
    qtbot.mouseClick(refused.list.viewport(), LEFT, pos=rect.center())
    qtbot.mouseDClick(refused.list.viewport(), LEFT, pos=rect.center())
    c = win.view.mapToScene(win.view.viewport().rect().center())
    assert abs(c.x() - 30) < 0.6 and abs(c.y() - 20) < 0.6
    qtbot.mouseClick(refused.force_button, LEFT)
    run = finish(win, qtbot)
    assert run.force and run.result == [out]
    text = out.read_text()
    assert "sheets:" in text and "id: vault" in text  # the bundle carries its sheets
    assert win.hint_label.text() == "Exported sealed.yaml (with validation errors)"


def test_cancel_stops_the_export(make_editor, qtbot, tmp_path):
    win, d = make_editor()
    run = ed.ExportRun(win, "png", tmp_path / "c.png")
    win.export_run = run
    got = []
    run.finished.connect(got.append)
    run._cancel.set()  # as if Cancel was pressed before the first step
    run.start()
    finish(win, qtbot)
    assert len(got) == 1 and isinstance(got[0], ed.ExportCancelled)
    assert list(tmp_path.glob("c*.png")) == []
