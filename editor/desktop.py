"""``sprawlmap install-desktop``: the launcher and icon for the current user's desktop menu.

A wheel cannot install files outside its environment, so a pipx user runs this once: it copies
``editor/resources/sprawlmap.desktop`` (with the absolute path of this environment's
``sprawlmap-editor``, which need not be on the desktop session's PATH) and the SVG icon into
the freedesktop.org locations under ``$XDG_DATA_HOME`` (Linux, BSD).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from importlib.resources import files
from pathlib import Path

from engine.errors import SprawlmapError


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def editor_command() -> Path:
    """This environment's ``sprawlmap-editor`` (beside the running Python), else the PATH's."""
    here = Path(sys.executable).parent / "sprawlmap-editor"
    if here.is_file():
        return here
    found = shutil.which("sprawlmap-editor")
    if found is None:
        raise SprawlmapError("sprawlmap-editor not found: install sprawlmap (pipx install ...) first")
    return Path(found)


def install(target: Path, exe: Path) -> list[Path]:
    """Write the launcher and the icon under ``target`` (a data home); return the two files."""
    res = files("editor.resources")
    lines = res.joinpath("sprawlmap.desktop").read_text(encoding="utf-8").splitlines()
    lines = [f"Exec={shlex.quote(str(exe))} %f" if ln.startswith("Exec=") else ln for ln in lines]
    desktop = target / "applications" / "sprawlmap.desktop"
    icon = target / "icons" / "hicolor" / "scalable" / "apps" / "sprawlmap.svg"
    for path, data in ((desktop, ("\n".join(lines) + "\n").encode()),
                       (icon, res.joinpath("sprawlmap.svg").read_bytes())):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    return [desktop, icon]


def cmd_install_desktop(ns: argparse.Namespace) -> int:
    if sys.platform in ("win32", "darwin"):
        raise SprawlmapError("install-desktop is for freedesktop.org desktops (Linux, BSD); "
                             "on Windows and macOS start sprawlmap-editor or use a bundle")
    for path in install(data_home(), editor_command()):
        print(f"wrote {path}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser("install-desktop",
                       help="add sprawlmap to your desktop's application menu (Linux)")
    d.set_defaults(fn=cmd_install_desktop)
