"""The desktop launcher: the gui-scripts entry, its icon and the .desktop file agree."""

from __future__ import annotations

import configparser
import importlib
import sys
import tomllib
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

import editor.app
from editor.app import icon_path
from editor.cli import gui_main

ROOT = Path(__file__).resolve().parents[2]


def entry(table: str, name: str):
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    module, func = meta[table][name].split(":")
    return getattr(importlib.import_module(module), func)


def test_scripts_point_at_the_launchers():
    assert entry("gui-scripts", "sprawlmap-editor") is gui_main
    assert entry("scripts", "sprawlmap").__module__ == "editor.cli"


def test_desktop_file_runs_the_gui_script_with_the_shipped_icon():
    desk = configparser.ConfigParser(interpolation=None)
    desk.optionxform = str
    desk.read(ROOT / "editor" / "resources" / "sprawlmap.desktop")
    e = desk["Desktop Entry"]
    assert e["Exec"] == "sprawlmap-editor %f" and e["Terminal"] == "false"
    assert e["Icon"] == icon_path("svg").stem == "sprawlmap"
    assert icon_path("svg").is_file() and icon_path("png").stat().st_size < 50_000


def test_gui_main_screenshot_sets_the_window_icon(tmp_path, monkeypatch):
    out = tmp_path / "shot.png"
    monkeypatch.setattr(sys, "argv", ["sprawlmap-editor", "--screenshot", str(out)])
    assert gui_main() == 0
    assert out.stat().st_size > 10_000
    icon = QApplication.instance().windowIcon()
    assert not icon.isNull() and icon.pixmap(64, 64).width() == 64


def test_gui_main_shows_a_bad_file_in_a_message_box(tmp_path, monkeypatch, capsys):
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a: shown.append(a[2]))
    missing = tmp_path / "missing.yaml"
    assert editor.app.run(missing, error_dialog=True) == 2
    assert len(shown) == 1 and shown[0].startswith(str(missing))
    assert capsys.readouterr().err.strip() == shown[0]
