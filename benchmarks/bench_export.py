"""Export times per format on the generated neighbourhood (python3 benchmarks/bench_export.py).

Validation is done once beforehand and handed in, so each figure is the export alone: the
display list of every level plus writing the files (PNG and the VTT image through the Qt
painter, off screen).  Prints the median of a few runs per format and the bytes written.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("SPRAWLMAP_MAX_PAGES", "5000")  # a 120 x 120 dot city at one-inch dots
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.neighbourhood import neighbourhood, scenario  # noqa: E402
from engine.board import compile_board  # noqa: E402
from engine.export import check, export  # noqa: E402

try:  # the Qt raster backend (registers itself); absent in builds before the one renderer
    import editor.render  # noqa: E402, F401
except ImportError:
    pass


def main(repeat: int = 3) -> int:
    lay, sheets = neighbourhood()
    board = compile_board(lay, sheets)
    scen = scenario(lay)
    findings = check(board, scen)
    n_dots = sum(len(board.dots(lv)) for lv in board.levels)
    print(f"export of {len(board.buildings)} buildings, levels {board.levels[0]}.."
          f"{board.levels[-1]}, {n_dots} standable dots (median of {repeat})")
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, ext in (("svg", "svg"), ("png", "png"), ("pdf", "pdf"), ("uvtt", "dd2vtt"),
                         ("yaml", "yaml")):
            times, size, files = [], 0, 0
            for k in range(repeat):
                t = time.perf_counter()
                paths = export(scen, board, fmt, Path(tmp) / f"m{k}.{ext}", force=True,
                               findings=findings, sheets=sheets)
                times.append(time.perf_counter() - t)
                size, files = sum(p.stat().st_size for p in paths), len(paths)
            print(f"  {fmt:<5} {statistics.median(times):7.2f} s   {files} file(s), "
                  f"{size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
