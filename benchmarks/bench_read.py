"""Reading a designer's city from disk: the N x N benchmark city written as a scenario plus one
file per sheet (16x16: 635 sheet files, 1.7 MB of YAML), then read in fresh processes, as a
user opens it.

Run: ``python benchmarks/bench_read.py [--blocks 16] [--runs 3] [--json] [--editor]``
(``--root DIR`` times the engine of another checkout, for a before/after comparison).
CPU ms (user + system time of each fresh process), as ``min-max`` over ``--runs`` runs:

- ``read_city_ms``: ``load_document`` and ``resolve_sheets`` of the city (the sheets found in
  its folder, parsed and built), measured inside the process;
- ``validate_cli_ms``: the whole ``python -m engine.cli validate city.yaml`` process (start-up,
  imports, reading, compile, every check);
- ``editor_open_ms`` (``--editor``): ``Document.open`` of the city, then the main window shown
  and fitted offscreen, until the first paint is done;
- ``editor_picture_ms`` (``--editor``): from there until the picture of the board for far zoom
  is drawn (editor/canvas/city_picture.py, drawn when the event loop is idle);
- ``editor_zoom_ms`` / ``editor_pan_ms`` (``--editor``): then a zoom step (x1.2 or /1.2 about
  the whole city in view) or a pan step (40 px, zoomed 1.5x), from the call to the repainted
  canvas: the median of 6 steps (4 for a pan), GUI CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_city(blocks: int, folder: Path) -> Path:
    """The benchmark city as a user's files: ``city.yaml`` and the sheets beside it."""
    from benchmarks.neighbourhood import neighbourhood, scenario
    from engine.io.files import save_document, save_sheet

    lay, sheets = neighbourhood(blocks=blocks)
    for sid, sheet in sheets.items():
        save_sheet(sheet, folder / f"{sid}.yaml")
    city = folder / "city.yaml"
    save_document(scenario(lay), city)
    return city


def _child_read(city: str) -> dict[str, int]:
    """One cold read in this (fresh) process."""
    from engine import limits
    from engine.io.files import load_document
    from engine.io.resolve import resolve_sheets

    start = time.process_time()
    sc = load_document(city)
    sheets = resolve_sheets(sc.layout, Path(city).resolve().parent)
    limits.check_board(sc.layout, sheets, city)
    return {"read_city_ms": round((time.process_time() - start) * 1000), "sheets": len(sheets)}


def _child_editor(city: str) -> dict[str, int]:
    """Open the city in the editor, offscreen, up to the first paint of the fitted board."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from editor.document import Document
    from editor.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    start = time.process_time()
    doc = Document.open(city)
    opened = time.process_time()
    win = MainWindow(doc, scan_recovery=False)
    win.resize(1400, 900)
    win.show()
    app.processEvents()
    win.view.fit()
    app.processEvents()
    done = time.process_time()
    picture = getattr(win.scene, "city_picture", None)  # None: a checkout from before it
    wall = time.monotonic()
    while picture is not None and not picture.complete() and time.monotonic() - wall < 60:
        app.processEvents()
    drawn = time.process_time()

    def step(move) -> float:
        t = time.process_time()
        move()
        app.processEvents()
        return (time.process_time() - t) * 1000

    zooms = sorted(step(lambda i=i: win.view.zoom_by(1.2 if i % 2 else 1 / 1.2))
                   for i in range(6))
    win.view.zoom_by(1.5)
    app.processEvents()
    bar = win.view.verticalScrollBar()
    pans = sorted(step(lambda: bar.setValue(bar.value() + 40)) for _ in range(4))
    win.doc.undo_stack.setClean()
    win.close()
    return {"editor_document_ms": round((opened - start) * 1000),
            "editor_open_ms": round((done - start) * 1000),
            "editor_picture_ms": round((drawn - done) * 1000),
            "editor_zoom_ms": round((zooms[2] + zooms[3]) / 2),
            "editor_pan_ms": round((pans[1] + pans[2]) / 2)}


def _cpu_of(args: list[str], root: Path) -> tuple[float, str]:
    """CPU ms (user + system) of one child process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(args, cwd=root, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed:\n{run.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu * 1000, run.stdout


def _span(values: list[float]) -> str:
    lo, hi = round(min(values)), round(max(values))
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def measure(blocks: int, runs: int, editor: bool, root: Path = ROOT) -> dict[str, object]:
    """The figures, with the engine (and editor) of the checkout at ``root``."""
    with tempfile.TemporaryDirectory(prefix="sprawlmap-city-") as tmp:
        city = str(write_city(blocks, Path(tmp)))
        out: dict[str, object] = {"blocks": blocks, "sheet_files": len(os.listdir(tmp)) - 1}
        figures: dict[str, list[float]] = {}
        me = [sys.executable, str(Path(__file__).resolve()), "--root", str(root)]
        for _ in range(runs):
            _, text = _cpu_of(me + ["--child", "read", city], root)
            for key, value in json.loads(text).items():
                figures.setdefault(key, []).append(value)
            cpu, _ = _cpu_of([sys.executable, "-m", "engine.cli", "validate", city], root)
            figures.setdefault("validate_cli_ms", []).append(cpu)
            if editor:
                _, text = _cpu_of(me + ["--child", "editor", city], root)
                for key, value in json.loads(text).items():
                    figures.setdefault(key, []).append(value)
        out.update({key: _span(values) for key, values in figures.items()})
        out["load_average"] = round(os.getloadavg()[0], 1)
        return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_read", description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", type=int, default=16, help="city size N (N x N blocks of 30 dots)")
    ap.add_argument("--runs", type=int, default=3, help="fresh processes per figure")
    ap.add_argument("--editor", action="store_true", help="also open the city in the editor")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--root", type=Path, default=ROOT,
                    help="the checkout whose engine is timed (default: this one), to compare")
    ap.add_argument("--child", nargs=2, metavar=("WHAT", "CITY"), help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    sys.path.insert(0, str(ns.root.resolve()))
    if ns.child:
        what, city = ns.child
        print(json.dumps(_child_read(city) if what == "read" else _child_editor(city)))
        return 0
    figures = measure(ns.blocks, ns.runs, ns.editor, ns.root.resolve())
    if ns.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>20}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
