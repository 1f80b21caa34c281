"""Zone benchmarks (issue 14): composing and validating a 4 x 4 zone whose 16 blocks are all
linked to dot-scale layouts (48 x 32 dots each: one pavement sheet and two buildings), i.e. a
192 x 128-dot neighbourhood.

    .venv/bin/python benchmarks/zone.py

Prints the median of several runs for: (z1) validate the zone cold (every block layout loaded,
its sheets found and its board compiled: the linked-layout cache emptied first), (z2) validate
it warm (the editor's case: revalidating after an edit), (z3) compose it into one layout,
(z4) compile the composed board, (z5) validate the composed board (dot-scale findings), and
(z6) one LOS query and one cheapest path across block seams on it.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import board as board_module  # noqa: E402
from engine.board import compile_board  # noqa: E402
from engine.io import resolve_sheets  # noqa: E402
from engine.los import line_of_sight  # noqa: E402
from engine.movement import cheapest_path  # noqa: E402
from engine.validate import validate  # noqa: E402
from engine.zone import linked  # noqa: E402
from engine.zone.compose import compose  # noqa: E402
from engine.zone.io import load_zone  # noqa: E402
from engine.zone.validate import validate_zone  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = ["warehouse-row", "hotel-corner", "club-strip", "office-plaza"]


def timeit(fn, repeat: int = 5) -> float:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def write_zone(folder: Path) -> Path:
    """A 4 x 4 zone, every block linked to its own copy of one of the sample block layouts."""
    (folder / "blocks").mkdir()
    lines = ["format: sprawlmap/zone@1", "title: Benchmark, 16 linked blocks", "grid: [4, 4]",
             "block_size: [48, 32]", "players:", "  - {id: A, safehouse: north}",
             "  - {id: B, safehouse: south}", "barriers:", "  - {between: [[1, 1], [2, 1]], body: 8}",
             "blocks:"]
    for r in range(4):
        for c in range(4):
            src = ROOT / "zones" / "blocks" / f"{BLOCKS[(c + 2 * r) % 4]}.yaml"
            name = f"blocks/b{c}{r}.yaml"
            (folder / name).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
            lines.append(f"  - {{at: [{c}, {r}], layout: {name}}}")
    path = folder / "bench-zone.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        zp = write_zone(Path(tmp))
        z = load_zone(zp)

        def cold():
            linked._CACHE.clear()
            board_module._UNITS.clear()
            return validate_zone(z, zp.parent)
        t_cold = timeit(cold, 3)
        found = cold()
        t_warm = timeit(lambda: validate_zone(z, zp.parent), 10)
        print(f"zone: 4 x 4 blocks of 48 x 32 dots, 16 linked layouts, {len(found)} finding(s)")
        print(f"(z1) validate the zone, cold (load + compile 16 blocks): {t_cold * 1000:8.1f} ms")
        print(f"(z2) validate the zone, warm (after an edit):             {t_warm * 1000:8.1f} ms")
        t_compose = timeit(lambda: compose(z, zp.parent, str(zp)), 5)
        lay = compose(z, zp.parent, str(zp))
        print(f"(z3) compose into one layout:                            {t_compose * 1000:8.1f} ms  "
              f"({len(lay.pavement)} pavement sheets, {len(lay.placements)} buildings)")
        sheets = resolve_sheets(lay, zp.parent)

        def compile_cold():
            board_module._UNITS.clear()
            return compile_board(lay, sheets)
        t_compile = timeit(compile_cold, 3)
        board = compile_cold()
        n = sum(len(board.dots(lv)) for lv in board.levels)
        print(f"(z4) compile the composed board, cold:                   {t_compile * 1000:8.1f} ms  "
              f"({n} standable dots, bounds {board.bounds})")

        def val():
            board_module._UNITS.clear()
            return validate(compile_board(lay, sheets), None)
        t_val = timeit(val, 3)
        print(f"(z5) validate the composed board, cold (compile incl.):  {t_val * 1000:8.1f} ms  "
              f"({len(val())} findings)")
        a, b = (40, 1, 0), (150, 1, 0)
        t_los = timeit(lambda: line_of_sight(board, a, b), 20)
        t_path = timeit(lambda: cheapest_path(board, (46, 1, 0), (150, 1, 0), 2), 5)
        res = cheapest_path(board, (46, 1, 0), (150, 1, 0), 2)
        print(f"(z6) LOS {a}->{b} across 3 seams: {t_los * 1000:.2f} ms; "
              f"path across them: {t_path * 1000:.1f} ms ({res.cost} MP)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
