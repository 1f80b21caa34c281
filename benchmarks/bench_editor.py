"""Editor responsiveness: with the LOS fan shown on a big board, how long does moving a
building take until the canvas (buildings, findings input and the fan) is up to date?

Run: ``QT_QPA_PLATFORM=offscreen python3 benchmarks/bench_editor.py``.  The first part works
on the sample scenario as a designer does: the LOS fan on, a building dragged with the Select
tool (the time of each mouse move including its repaint: median and worst frame), the findings'
latency after an edit (the quick checks' findings, then every check's), and the time from
start to the first paint of the canvas.  The second
part is the big generated board below.  Prints the median and
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


def _mouse(vp, kind, pos, buttons) -> None:
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QMouseEvent

    left = Qt.MouseButton.LeftButton
    button = left if kind != QMouseEvent.Type.MouseMove else Qt.MouseButton.NoButton
    ev = QMouseEvent(kind, QPointF(pos), QPointF(vp.mapToGlobal(pos)), button, buttons,
                     Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(vp, ev)


def sample_session(frames: int = 60) -> dict[str, list[float]]:
    """On the sample: start to first paint, drag frames with the LOS fan on, findings latency."""
    from PySide6.QtCore import QEvent, QObject, QPointF, Qt
    from PySide6.QtGui import QMouseEvent

    app = QApplication.instance() or QApplication([])
    rows: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    doc = Document.open(Path(__file__).resolve().parent.parent / "scenarios/street-ambush.yaml")
    win = MainWindow(doc, QSettings("/tmp/sprawlmap-bench.ini", QSettings.Format.IniFormat),
                     scan_recovery=False)
    painted: list[float] = []

    class FirstPaint(QObject):
        def eventFilter(self, obj, ev):  # noqa: N802
            if ev.type() == QEvent.Type.Paint and not painted:
                painted.append(time.perf_counter())
            return False
    spy = FirstPaint()
    win.view.viewport().installEventFilter(spy)
    win.resize(1400, 900)
    win.show()
    while not painted:
        app.processEvents()
    rows["start to first paint"] = [(painted[0] - t0) * 1000]
    while win.library.waiting():  # the library's thumbnails follow the first paint
        app.processEvents()
    win.view.set_zoom(13.0, (30.0, 20.0))
    app.processEvents()
    win.set_tool("los")
    win.fan_box.setChecked(True)
    win.tool.origin = (25, 18, 0)
    win.tool.redraw()
    win.set_tool("select")  # the fan should stay on while a building is dragged
    app.processEvents()
    win.background.wait()
    fan_items = sum(1 for it in win.scene.items() if type(it).__name__ == "DotShade")
    vp = win.view.viewport()
    pl = doc.layout.placements[1]  # the corner store
    start = win.view.mapFromScene(QPointF(pl.at[0] + 3, pl.at[1] + 3))
    left = Qt.MouseButton.LeftButton
    _mouse(vp, QMouseEvent.Type.MouseButtonPress, start, left)
    for i in range(1, frames + 1):
        dx = (i % 20) * 0.5 if (i // 20) % 2 == 0 else (20 - i % 20) * 0.5
        pos = win.view.mapFromScene(QPointF(pl.at[0] + 3 + dx, pl.at[1] + 3 + (i % 7) * 0.3))
        t, cpu = time.perf_counter(), time.thread_time()
        _mouse(vp, QMouseEvent.Type.MouseMove, pos, left)
        app.processEvents()
        vp.repaint()
        rows.setdefault("drag frame (fan on)", []).append((time.perf_counter() - t) * 1000)
        # the GUI thread's own CPU time: on a loaded machine the wall time also counts the
        # time the thread waited for a core
        rows.setdefault("  of it GUI thread CPU", []).append((time.thread_time() - cpu) * 1000)
    _mouse(vp, QMouseEvent.Type.MouseButtonRelease, start, Qt.MouseButton.NoButton)
    app.processEvents()
    win.background.wait()
    app.processEvents()
    # findings latency: from an edit until the panel shows the findings of the new document:
    # the quick checks' (first stage), then every check's (the "updating" sign goes off)
    for n in range(5):
        done: list[float] = []
        real = win.findings.refresh

        def spy_refresh(d, engine=None, real=real, done=done):
            real(d, engine)
            if engine is not None or d.mode != "scenario":
                done.append(time.perf_counter())
        win.findings.refresh = spy_refresh
        ref = PlacementRef(False, 1)
        t = time.perf_counter()
        p = doc.layout.placements[1]
        doc.edit_layout(edits.set_placement(doc.layout, ref,
                                            edits.nudge(p, 1 if n % 2 == 0 else -1, 0)), "move")
        while (not done or win.findings.updating.isVisibleTo(win.findings)) and \
                time.perf_counter() - t < 20:
            app.processEvents()
            time.sleep(0.002)
        rows.setdefault("findings after an edit", []).append((done[0] - t) * 1000)
        rows.setdefault("findings, every check", []).append((done[-1] - t) * 1000)
        win.findings.refresh = real
    print(f"sample: fan shown while dragging: {'yes' if fan_items else 'no'}")
    win.doc.undo_stack.setClean()
    win.close()
    return rows


def main(moves: int = 6) -> int:
    app = QApplication.instance() or QApplication([])
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    for name, xs in sample_session().items():
        print(f"{name:28s} median {statistics.median(xs):8.1f} ms   worst {max(xs):8.1f} ms")
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
    from engine.movement import build_graph

    last = [doc.board()]
    build_graph(last[0])

    def recompile() -> None:  # as the document does: from its last board
        last[0] = compile_board(doc.layout, doc.sheets(), previous=last[0])

    for n in range(moves):  # the editor's own part: model, scene items, panels, repaint
        timed("editor: model+scene+panels", lambda n=n: move(n))
        timed("editor: repaint", lambda: win.view.viewport().repaint())
        timed("engine: compile_board", recompile)
        timed("engine: movement graph", lambda: build_graph(last[0]))
        timed("engine: los_fan (r 75)", lambda b=last[0]: los_fan(b, tool.origin, level=0))
    print(f"board {BLOCKS * BLOCK}x{BLOCKS * BLOCK} dots, {len(doc.layout.placements)} buildings, "
          f"fan over {dots} dots, {moves} one-dot moves")
    for name, xs in rows.items():
        print(f"{name:28s} median {statistics.median(xs):8.1f} ms   worst {max(xs):8.1f} ms")
    win.doc.undo_stack.setClean()
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
