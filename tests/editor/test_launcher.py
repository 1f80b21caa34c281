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


def test_install_desktop_writes_launcher_with_this_environments_editor(tmp_path, monkeypatch,
                                                                        capsys):
    from editor import cli

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    exe = tmp_path / "my env" / "bin" / "sprawlmap-editor"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "executable", str(exe.parent / "python"))
    assert cli.main(["install-desktop"]) == 0
    desktop = tmp_path / "share" / "applications" / "sprawlmap.desktop"
    icon = tmp_path / "share" / "icons" / "hicolor" / "scalable" / "apps" / "sprawlmap.svg"
    assert capsys.readouterr().out == f"wrote {desktop}\nwrote {icon}\n"
    assert f"Exec='{exe}' %f\n" in desktop.read_text()
    assert icon.read_bytes() == icon_path("svg").read_bytes()
    monkeypatch.setattr(sys, "platform", "win32")
    assert cli.main(["install-desktop"]) == 2
    assert "freedesktop.org desktops" in capsys.readouterr().err
