"""Engine benchmarks on the generated neighbourhood (python3 dev.py bench [--blocks N] [--json]).

Prints one line per measure: the median CPU time (``time.process_time``: steadier than wall
clock on a shared machine) of several runs, on a city of N x N blocks (30 dots a block;
default 4).  ``--json`` prints the issue-11 figures as one JSON object instead:
``compile_ms``, ``graph_ms``, ``fan_ms`` (street, radius 75), ``roof_fan_ms`` (from a roof to
the street, radius 75), ``reach_ms`` (12 MP), ``path_ms`` (a cheapest path of up to 60
dots), ``drag_ms`` (move one building, then the board compiled from the last one, the sight
primitives, the movement graph and the fan; its parts in ``drag_parts_ms``;
``drag_reach_ms`` adds the first reach on the new board; ``drag_near_ms`` and
``drag_near_fan_ms`` drag the building nearest the fan's origin instead: on a big city the
first drag lies outside the fan's reach, whose fan the dragged board takes over),
``validate_ms`` (cold), ``checks_ms`` (validation's checks alone, on a board compiled and
given its movement graph beforehand: the whole-board matrices they ask for are theirs; both
timed from a settled heap, see :func:`timeit`), ``dots``,
and the peer ratios ``reach_vs_scipy`` (our reach over scipy's bare Dijkstra on the same
matrix and budget), ``path_vs_scipy`` (our path over scipy's Dijkstra on the whole board,
which ``cheapest_path`` ran before it was goal-directed) and ``fan_vs_tcod`` (our fan over
tcod's permissive field of view on the fan's raster, the C part of its pre-pass).  The naive
baseline answers the same fan with one shapely query per pair, to show what the vectorised
sweep buys.  ``--export`` adds the export times per format
(benchmarks/bench_export.py).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
import shapely  # noqa: E402
from scipy.sparse.csgraph import dijkstra  # noqa: E402

from benchmarks.neighbourhood import neighbourhood, scenario  # noqa: E402
from engine import board as board_module  # noqa: E402
from engine.board import compile_board  # noqa: E402
from engine.los import fan_raster, line_of_sight, los_fan, prims  # noqa: E402
from engine.movement import build_graph, cheapest_path, reach  # noqa: E402
from engine.validate import validate  # noqa: E402


def timeit(fn, repeat: int = 5, settle: bool = False) -> float:
    """Median CPU seconds of ``fn``; ``settle``: a full collection before each run, untimed,
    so the run pays for the collections its own objects set off, not for the debt of the
    sections before it (the drags leave enough objects pending that the next section's
    allocations set off a full collection of everything alive, ~0.1 s at 16x16)."""
    out = []
    for _ in range(repeat):
        if settle:
            gc.collect()
        t = time.process_time()
        fn()
        out.append(time.process_time() - t)
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


def street_origin(board, blocks: int):
    """A street dot near the city's centre (the crossing of two streets)."""
    mid = (blocks // 2) * 30
    for d in range(0, 30):
        for c, r in ((mid + d, mid), (mid, mid + d), (mid - d, mid), (mid, mid - d)):
            if board.standable((c, r, 0)) and board.building_at((c, r)) is None:
                return (c, r, 0)
    ground = board.dots(0)
    return (*map(int, ground[len(ground) // 2]), 0)


def roof_origin(board):
    return next(((int(c), int(r), b.height) for b in board.buildings
                 for c, r in board.dots(b.height)
                 if board.building_at((c, r)) is b and b.height >= 4), None)


def measure(blocks: int, naive: bool = True, quick: bool = False) -> tuple[dict, list[str]]:
    """Every figure for an N x N-block city, and the human-readable lines."""
    lines: list[str] = []
    say = lines.append
    rep = 1 if quick else 5
    lay, sheets = neighbourhood(blocks=blocks)
    board_module._UNITS.clear()
    t0 = time.process_time()
    board = compile_board(lay, sheets)
    t_compile = time.process_time() - t0  # cold: the unit cache is empty
    t0 = time.process_time()
    prims(board)
    t_prims = time.process_time() - t0
    t0 = time.process_time()
    g = build_graph(board)
    t_graph = time.process_time() - t0
    n_dots = sum(len(board.dots(lv)) for lv in board.levels)
    say(f"board: {blocks}x{blocks} blocks, {len(board.buildings)} buildings, levels "
        f"{board.levels[0]}..{board.levels[-1]}, {n_dots} standable dots, "
        f"{len(board.all_features())} features, {len(g.src)} movement edges, bounds {board.bounds}")
    say(f"(a) compile board, cold:          {t_compile * 1000:8.1f} ms")
    say(f"    LOS primitives:               {t_prims * 1000:8.1f} ms")
    say(f"    movement graph:               {t_graph * 1000:8.1f} ms")

    rng = random.Random(3)
    ground = board.dots(0)
    pairs = [(tuple(map(int, ground[rng.randrange(len(ground))])),
              tuple(map(int, ground[rng.randrange(len(ground))]))) for _ in range(500)]
    pairs = [((*a, 0), (*b, 0)) for a, b in pairs]

    def many():
        for a, b in pairs:
            line_of_sight(board, a, b)
    t_los = timeit(many, 1 if quick else 3) / len(pairs)
    say(f"(b) one LOS query:                {t_los * 1000:8.3f} ms  (mean over {len(pairs)} "
        f"random pairs)")

    origin = street_origin(board, blocks)
    fan = los_fan(board, origin, radius=75)
    t_fan = timeit(lambda: los_fan(board, origin, radius=75), rep)
    say(f"(c) LOS fan within 75 dots:       {t_fan * 1000:8.1f} ms  (from {origin}, "
        f"{len(fan.dots)} targets, {int(fan.blocked.sum())} blocked)")
    # peer: tcod's field of view alone on the fan's raster (the pre-pass's C part)
    import tcod.constants
    import tcod.map

    c0, r0 = int(min(fan.dots[:, 0].min(), origin[0])), int(min(fan.dots[:, 1].min(), origin[1]))
    c1, r1 = int(max(fan.dots[:, 0].max(), origin[0])), int(max(fan.dots[:, 1].max(), origin[1]))
    clear = fan_raster(board, origin, -1, (c0, r0, c1, r1))
    t_tcod = timeit(lambda: tcod.map.compute_fov(
        clear, (origin[1] - r0, origin[0] - c0), algorithm=tcod.constants.FOV_PERMISSIVE_8),
        20 if quick else 50)
    say(f"    tcod FOV on the fan's raster: {t_tcod * 1000:.2f} ms (fan / tcod "
        f"{t_fan / t_tcod:.0f}x)")
    roof = roof_origin(board)
    t_roof = float("nan")
    if roof:
        t_roof = timeit(lambda: los_fan(board, roof, radius=75, level=0), rep)
        say(f"    fan from a roof {roof} to the street (radius 75): {t_roof * 1000:.1f} ms")
    if naive:
        t_naive = timeit(lambda: naive_fan(board, origin), 1)
        say(f"    naive per-pair shapely fan (walls only): {t_naive * 1000:.1f} ms "
            f"({t_naive / t_fan:.0f}x slower)")

    t_reach = timeit(lambda: reach(board, origin, 2, mp=12), 5 if quick else 20)
    mat = g.matrix(2, False)
    src = board.node(origin)
    t_peer = timeit(lambda: dijkstra(mat, indices=src, limit=12.5), 5 if quick else 20)
    say(f"(d) reach within 12 MP:           {t_reach * 1000:8.2f} ms  "
        f"({len(reach(board, origin, 2, mp=12))} dots at move ratio 2; scipy's bare Dijkstra on "
        f"the same matrix {t_peer * 1000:.2f} ms, ratio {t_reach / t_peer:.1f}x)")

    # point-to-point paths of a few turns' walk (a bot's or the movement tool's question)
    near = ground[np.abs(ground - np.array(origin[:2])).max(axis=1) <= 60]
    goals = [(*map(int, near[rng.randrange(len(near))]), 0) for _ in range(20)]

    def paths():
        for b in goals:
            cheapest_path(board, origin, b, 2)
    t_path = timeit(paths, 1 if quick else 3) / len(goals)
    t_whole = timeit(lambda: dijkstra(mat, indices=src, return_predecessors=True),
                     2 if quick else 5)
    say(f"(g) cheapest path, 20 goals within 60 dots: {t_path * 1000:8.2f} ms a path  "
        f"(scipy's Dijkstra over the whole board, as before: {t_whole * 1000:.1f} ms)")

    # the editor's case: move one building by a dot, then everything it shows next; the
    # editor compiles from its last board (editor/document.py), as here
    last = [board]
    parts: dict[str, list[float]] = {}

    def drag(k=[0]):  # noqa: B006 - a counter that survives between calls
        k[0] += 1
        pl = list(lay.placements)
        pl[5] = replace(pl[5], at=(pl[5].at[0] + (k[0] % 2), pl[5].at[1]))
        t = [time.process_time()]
        b2 = compile_board(replace(lay, placements=tuple(pl)), sheets, previous=last[0])
        t.append(time.process_time())
        prims(b2)
        t.append(time.process_time())
        build_graph(b2)
        t.append(time.process_time())
        los_fan(b2, origin, radius=75)
        t.append(time.process_time())
        for name, a, b in zip(("compile", "prims", "graph", "fan"), t, t[1:]):
            parts.setdefault(name, []).append((b - a) * 1000)
        last[0] = b2
    t_drag = timeit(drag, 3 if quick else 7)
    split = ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in parts.items())
    say(f"(f) drag: move a building, then board + sight + movement graph + fan: "
        f"{t_drag * 1000:8.1f} ms  ({split})")
    # the same with the building nearest the fan's origin: on a big city the drag above lies
    # outside the fan's reach, so its fan is the previous board's, handed over (engine.los);
    # here the fan is traced again on the dragged board
    o_xy = np.array(board.dot_point(origin))
    near_i = min(range(len(board.buildings)), key=lambda i: float(np.hypot(
        *(np.array(board.buildings[i].footprint.centroid.coords[0]) - o_xy))))
    near_pl = next(i for i, p in enumerate(lay.placements)
                   if p.id == board.buildings[near_i].placement_id)
    near_fan: list[float] = []

    def drag_near(k=[0]):  # noqa: B006 - a counter that survives between calls
        k[0] += 1
        pl = list(lay.placements)
        pl[near_pl] = replace(pl[near_pl], at=(pl[near_pl].at[0] + (k[0] % 2), pl[near_pl].at[1]))
        b2 = compile_board(replace(lay, placements=tuple(pl)), sheets, previous=last[0])
        prims(b2)
        build_graph(b2)
        t = time.process_time()
        los_fan(b2, origin, radius=75)
        near_fan.append((time.process_time() - t) * 1000)
        last[0] = b2
    t_drag_near = timeit(drag_near, 3 if quick else 7)
    say(f"    drag of the building nearest the fan's origin: {t_drag_near * 1000:8.1f} ms  "
        f"(fan {statistics.median(near_fan):.1f})")

    def drag_reach():  # the first reach on the dragged board lays out the graph's arrays
        drag()
        reach(last[0], origin, 2, mp=12)
    t_drag_reach = timeit(drag_reach, 1 if quick else 3)
    say(f"    drag, then reach 12 MP on the new board: {t_drag_reach * 1000:8.1f} ms")

    scen = scenario(lay)

    def cold_validate():
        board_module._UNITS.clear()  # nothing cached: the first validate of a fresh file
        return validate(compile_board(lay, sheets), scen)
    t_val = timeit(cold_validate, 1 if quick else 3, settle=True)
    say(f"(e) full validation, cold (compile + graph + checks): {t_val * 1000:8.1f} ms  "
        f"(scenario with 2 sides and 3 objectives)")
    checks: list[float] = []

    def cold_checks():  # the same, with the board compiled and its graph built beforehand
        board_module._UNITS.clear()
        b = compile_board(lay, sheets)
        build_graph(b)
        gc.collect()  # (as timeit's settle)
        t = time.process_time()
        validate(b, scen)
        checks.append(time.process_time() - t)
    for _ in range(1 if quick else 3):
        cold_checks()
    t_checks = statistics.median(checks)
    say(f"    of which the checks (board and graph built first): {t_checks * 1000:8.1f} ms")
    figures = {
        "blocks": blocks,
        "dots": n_dots,
        "edges": int(len(g.src)),
        "compile_ms": round(t_compile * 1000, 1),
        "graph_ms": round(t_graph * 1000, 1),
        "fan_ms": round(t_fan * 1000, 2),
        "roof_fan_ms": round(t_roof * 1000, 2),
        "reach_ms": round(t_reach * 1000, 3),
        "path_ms": round(t_path * 1000, 2),
        "drag_ms": round(t_drag * 1000, 1),
        "drag_parts_ms": {k: round(statistics.median(v), 1) for k, v in parts.items()},
        "drag_reach_ms": round(t_drag_reach * 1000, 1),
        "drag_near_ms": round(t_drag_near * 1000, 1),
        "drag_near_fan_ms": round(statistics.median(near_fan), 1),
        "validate_ms": round(t_val * 1000, 1),
        "checks_ms": round(t_checks * 1000, 1),
        "reach_vs_scipy": round(t_reach / t_peer, 2),
        "path_vs_scipy": round(t_path / t_whole, 3),
        "fan_vs_tcod": round(t_fan / t_tcod, 1),
    }
    return figures, lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench", description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", type=int, default=4, help="city size N (N x N blocks of 30 dots)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--quick", action="store_true", help="fewer repeats (for big cities)")
    ap.add_argument("--export", action="store_true",
                    help="add the export times per format (about a minute more)")
    args = ap.parse_args(argv)
    if not 1 <= args.blocks <= 32:
        print("bench: --blocks must be between 1 and 32", file=sys.stderr)
        return 2
    figures, lines = measure(args.blocks, naive=not args.json, quick=args.quick)
    if args.json:
        print(json.dumps(figures))
    else:
        print("\n".join(lines))
    if args.export:
        from benchmarks.bench_export import main as bench_export

        bench_export()
    return 0


if __name__ == "__main__":
    sys.exit(main())
