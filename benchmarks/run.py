"""Engine benchmarks on the generated neighbourhood (python3 dev.py bench).

Prints one line per measure: the median of several runs.  Targets (2-core machine):
(b) one LOS query < 0.2 ms, (c) LOS fan to every dot within 75 < 50 ms, (d) reach within
12 MP < 5 ms, (e) full validation < 2 s.  The naive baseline answers the same fan with one
shapely query per pair, to show what the vectorised sweep buys.  ``--export`` adds the
export times per format (benchmarks/bench_export.py).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import shapely  # noqa: E402

from benchmarks.neighbourhood import neighbourhood, scenario  # noqa: E402
from engine.board import compile_board  # noqa: E402
from engine.los import line_of_sight, los_fan, prims  # noqa: E402
from engine.movement import build_graph, reach  # noqa: E402
from engine.validate import validate  # noqa: E402


def timeit(fn, repeat: int = 5) -> float:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def naive_fan(board, origin, radius=75):
    """Per-pair baseline: one shapely STRtree query + classification per target."""
    lv = origin[2]
    fs = board.features(lv)
    tree = board.tree(lv)
    o = board.dot_point(origin)
    blocked = 0
    for c, r in board.dots(lv):
        if max(abs(c - origin[0]), abs(r - origin[1])) > radius:
            continue
        line = shapely.LineString([o, (float(c), float(r))])
        for i in tree.query(line, predicate="intersects"):
            if fs[i].kind in ("wall", "fence", "trunk"):
                blocked += 1
                break
    return blocked


def main() -> int:
    lay, sheets = neighbourhood()
    t0 = time.perf_counter()
    board = compile_board(lay, sheets)
    t_compile = time.perf_counter() - t0  # cold: the unit cache is empty on the first compile
    t0 = time.perf_counter()
    prims(board)
    build_graph(board)
    t_index = time.perf_counter() - t0
    n_dots = sum(len(board.dots(lv)) for lv in board.levels)
    print(f"board: {len(board.buildings)} buildings, levels {board.levels[0]}..{board.levels[-1]}, "
          f"{n_dots} standable dots, {len(board.all_features())} features, "
          f"bounds {board.bounds}")
    print(f"(a) compile board:                {t_compile * 1000:8.1f} ms"
          f"  (+ LOS primitives and movement graph, built on first use: {t_index * 1000:.1f} ms)")

    rng = random.Random(3)
    ground = board.dots(0)
    pairs = [(tuple(map(int, ground[rng.randrange(len(ground))])),
              tuple(map(int, ground[rng.randrange(len(ground))]))) for _ in range(500)]
    pairs = [((*a, 0), (*b, 0)) for a, b in pairs]

    def many():
        for a, b in pairs:
            line_of_sight(board, a, b)
    t_los = timeit(many, 3) / len(pairs)
    print(f"(b) one LOS query:                {t_los * 1000:8.3f} ms  (mean over {len(pairs)} random pairs)")

    origin = (60, 60, 0)
    if not board.standable(origin):
        origin = (*map(int, ground[len(ground) // 2]), 0)
    fan = los_fan(board, origin, radius=75)
    t_fan = timeit(lambda: los_fan(board, origin, radius=75))
    print(f"(c) LOS fan within 75 dots:       {t_fan * 1000:8.1f} ms  ({len(fan.dots)} targets, "
          f"{int(fan.blocked.sum())} blocked)")
    roof = next(((int(c), int(r), b.height) for b in board.buildings
                 for c, r in board.dots(b.height)
                 if board.building_at((c, r)) is b and b.height >= 4), None)
    if roof:
        t_fan_roof = timeit(lambda: los_fan(board, roof, radius=75, level=0))
        print(f"    fan from a roof {roof} to the street: {t_fan_roof * 1000:.1f} ms")
    t_naive = timeit(lambda: naive_fan(board, origin), 1)
    print(f"    naive per-pair shapely fan (walls only): {t_naive * 1000:.1f} ms "
          f"({t_naive / t_fan:.0f}x slower)")

    t_reach = timeit(lambda: reach(board, origin, 2, mp=12), 20)
    print(f"(d) reach within 12 MP:           {t_reach * 1000:8.2f} ms  "
          f"({len(reach(board, origin, 2, mp=12))} dots at move ratio 2)")

    # (f) the editor's case: move one building by a dot, then bring the fan up to date
    from dataclasses import replace

    def move_and_fan(k=[0]):  # noqa: B006 - a counter that survives between calls
        k[0] += 1
        pl = list(lay.placements)
        pl[5] = replace(pl[5], at=(pl[5].at[0] + (k[0] % 2), pl[5].at[1]))
        b2 = compile_board(replace(lay, placements=tuple(pl)), sheets)
        los_fan(b2, origin, radius=75)
    t_move = timeit(move_and_fan, 9)
    print(f"(f) move a building, then the fan: {t_move * 1000:8.1f} ms  "
          f"(recompiles only the moved building; LOS index rebuilt; fan recomputed)")

    from engine import board as board_module

    scen = scenario(lay)

    def cold_validate():
        board_module._UNITS.clear()  # nothing cached: the first validate of a fresh file
        return validate(compile_board(lay, sheets), scen)
    t_val = timeit(cold_validate, 3)
    print(f"(e) full validation, cold (compile + graph + checks): {t_val * 1000:8.1f} ms  "
          f"({len(cold_validate())} findings, scenario with 2 sides and 3 objectives)")
    if "--export" in sys.argv:  # export times per format (about a minute more)
        from benchmarks.bench_export import main as bench_export

        bench_export()
    return 0


if __name__ == "__main__":
    sys.exit(main())
