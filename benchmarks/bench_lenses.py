"""Designer's lenses benchmarks: each map on the sample scenario and on the 4x4 benchmark city.

Prints one line per measure (median of a few runs, after a first run that builds the board's
LOS and movement indexes).  Aim: under 1 s per map; the editor computes them in the background.
Run: .venv/bin/python benchmarks/bench_lenses.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.neighbourhood import neighbourhood, scenario  # noqa: E402
from engine.analysis.compare import compare  # noqa: E402
from engine.analysis.exposure import enemy_sources, exposure  # noqa: E402
from engine.analysis.profile import profile  # noqa: E402
from engine.analysis.tempo import lead, tempo  # noqa: E402
from engine.board import compile_board  # noqa: E402
from engine.io import load_board  # noqa: E402


def timeit(fn, repeat: int = 3, warm: bool = True) -> float:
    if warm:
        fn()  # indexes built on first use
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def bench(name: str, board, sc, line, every_level: bool = True) -> None:
    n = sum(len(board.dots(lv)) for lv in board.levels)
    print(f"{name}: {n} standable dots on levels {board.levels[0]}..{board.levels[-1]} "
          f"(load average {os.getloadavg()[0]:.1f})")
    tempo(board, sc, sc.sides[0].id)  # builds the movement graph and, below, the LOS index
    exposure(board, sc, sc.sides[0].id, level=0, sources=enemy_sources(board, sc,
                                                                        sc.sides[0].id)[:1])
    for side in sc.sides:
        src = len(enemy_sources(board, sc, side.id))
        t0 = timeit(lambda s=side.id: exposure(board, sc, s, level=0), 1, warm=False)
        line_ = (f"  exposure of {side.id:<8} ({src:3d} enemy set-up dots): street level "
                 f"{t0 * 1000:7.0f} ms ({t0 / src * 1000:.1f} ms a fan)")
        if every_level:
            ta = timeit(lambda s=side.id: exposure(board, sc, s), 1, warm=False)
            line_ += f", every level {ta * 1000:7.0f} ms"
        print(line_, flush=True)
    for side in sc.sides:
        t = timeit(lambda s=side.id: tempo(board, sc, s))
        tl = timeit(lambda s=side.id: lead(board, sc, s))
        print(f"  tempo of {side.id:<8} every level {t * 1000:7.1f} ms; lead {tl * 1000:7.1f} ms")
    a, b = line
    tp = timeit(lambda: profile(board, a, b), 5)
    tc = timeit(lambda: compare(board, a, b), 5)
    print(f"  side view of {a} -> {b}: {tp * 1000:.2f} ms; every ruleset: {tc * 1000:.2f} ms")


def main() -> int:
    sc, board = load_board(ROOT / "scenarios" / "street-ambush.yaml")
    bench("street-ambush (sample)", board, sc, ((5, 20, 0), (40, 14, 0)))
    lay, sheets = neighbourhood()
    board = compile_board(lay, sheets)
    bench("4x4 benchmark city", board, scenario(lay), ((3, 3, 0), (100, 90, 0)),
          every_level=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
