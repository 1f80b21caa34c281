"""Editor responsiveness: with the LOS fan shown on a big board, how long does moving a
building take until the canvas (buildings, findings input and the fan) is up to date?

Run: ``QT_QPA_PLATFORM=offscreen python3 benchmarks/bench_editor.py``.  Prints the median and
worst time over a series of one-dot moves: how long the GUI thread is blocked (edit, scene,
panels, repaint), how long until the background recompute shows the new fan, and the engine's
share (compile_board, los_fan) measured on its own.  Budget: under 50 ms per move.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor import edits  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.edits import PlacementRef  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from engine import model as m  # noqa: E402

BLOCKS = 4  # 4 x 4 blocks of 30 dots: a 120 x 120 dot board
BLOCK = 30


def _rect(x0, y0, x1, y1):
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def building(sid: str, w: int, h: int, height: int) -> m.Sheet:
    """Rooms 5 dots wide with a door each, a corridor wall, windows along the front."""
    lx, ly = w - 0.5, h - 0.5
    ring = ((-0.5, -0.5), (lx, -0.5), (lx, ly), (-0.5, ly), (-0.5, -0.5))
    levels = []
    for k in range(height):
        walls = [m.Wall(path=ring, exterior=True)]
        doors = []
        for x in range(4, w - 2, 5):
            walls.append(m.Wall(path=((x + 0.5, -0.5), (x + 0.5, ly))))
            doors.append(m.Opening("door", ((x + 0.5, 1.5), (x + 0.5, 2.5))))
        windows = tuple(m.Opening("window", ((x - 0.5, -0.5), (x + 0.5, -0.5)), state="closed")
                        for x in range(2, w - 1, 4))
        doors.append(m.Opening("door", ((1.5, ly), (2.5, ly))))
        levels.append(m.Level(level=k, walls=tuple(walls), doors=tuple(doors), windows=windows,
                              stairs=(m.Stair(at=(1.0, 1.0), to=k + 1),) if k + 1 < height
                              else ()))
    return m.Sheet(id=sid, title=sid, kind="building", lattice="square", size=(w, h),
                   outline=_rect(-0.5, -0.5, lx, ly), height=height, levels=tuple(levels))


def board_document() -> Document:
    size = BLOCKS * BLOCK
    pav = m.Sheet(id="pavement-big", title="Pavement", kind="pavement", lattice="square",
                  size=(size, size), outline=_rect(-0.5, -0.5, size - 0.5, size - 0.5))
    sheets = {pav.id: pav}
    placements = []
    for i in range(BLOCKS):
        for j in range(BLOCKS):
            for k, (dx, w, h) in enumerate(((1, 12, 10), (14, 9, 12))):
                sid = f"b{i}{j}{k}"
                sheets[sid] = building(sid, w, h, 1 + (i + j + k) % 4)
                placements.append(m.Placement(sheet=sid, at=(i * BLOCK + dx, j * BLOCK + 3),
                                              id=sid))
    extras = m.Extras(areas=tuple(
        m.Area(kind="obstacle", polygon=_rect(i * BLOCK + 3.5, j * BLOCK + 24.5,
                                              i * BLOCK + 6.5, j * BLOCK + 25.5))
        for i in range(BLOCKS) for j in range(BLOCKS)))
    lay = m.Layout(lattice="square", pavement=(m.Placement(sheet=pav.id, at=(0, 0)),),
                   placements=tuple(placements), extras=extras)
    return Document(m.Scenario(title="bench", layout=lay), None, sheets)


def main(moves: int = 6) -> int:
    app = QApplication.instance() or QApplication([])
    doc = board_document()
    win = MainWindow(doc, QSettings("/tmp/sprawlmap-bench.ini", QSettings.Format.IniFormat))
    win.resize(1400, 900)
    win.show()
    app.processEvents()
    win.set_tool("los")
    win.fan_box.setChecked(True)
    tool = win.tool
    tool.origin = (60, 56, 0)
    tool.redraw()
    ref = PlacementRef(False, 5)
    from engine.board import compile_board
    from engine.los import los_fan

    rows: dict[str, list[float]] = {}

    def timed(name: str, fn) -> None:
        t0 = time.perf_counter()
        fn()
        rows.setdefault(name, []).append((time.perf_counter() - t0) * 1000)

    def move(n: int) -> None:
        pl = doc.layout.placements[ref.index]
        moved = edits.nudge(pl, 1 if n % 2 == 0 else -1, 0)
        doc.edit_layout(edits.set_placement(doc.layout, ref, moved), "move")

    for n in range(moves):  # with the LOS fan shown
        # the GUI thread is busy only for the edit and the repaint; the board and the fan are
        # recomputed in the background and shown when ready
        # one turn of the event loop after the edit: the repaint, then the job is handed over
        timed("GUI blocked per move", lambda n=n: (move(n), win.view.viewport().update(),
                                                   app.processEvents()))
        timed("fan up to date after", lambda: (win.background.wait(),
                                               win.view.viewport().repaint()))
    dots = len(tool.fan.dots)
    win.set_tool("select")
    for n in range(moves):  # the editor's own part: model, scene items, panels, repaint
        timed("editor: model+scene+panels", lambda n=n: move(n))
        timed("editor: repaint", lambda: win.view.viewport().repaint())
        timed("engine: compile_board", lambda: compile_board(doc.layout, doc.sheets()))
        board = compile_board(doc.layout, doc.sheets())
        timed("engine: los_fan (r 75)", lambda b=board: los_fan(b, tool.origin, level=0))
    print(f"board {BLOCKS * BLOCK}x{BLOCKS * BLOCK} dots, {len(doc.layout.placements)} buildings, "
          f"fan over {dots} dots, {moves} one-dot moves")
    for name, xs in rows.items():
        print(f"{name:28s} median {statistics.median(xs):8.1f} ms   worst {max(xs):8.1f} ms")
    win.doc.undo_stack.setClean()
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
