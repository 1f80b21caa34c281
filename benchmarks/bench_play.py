"""Bot games per CPU-second on each sample scenario (python benchmarks/bench_play.py).

One process plays ``--games`` games of each scenarios/*.yaml (every ruleset's sample) with
seeds 1..N, the way one worker of ``sprawlmap play`` does: every game on a fork of one
compiled board, so the tables forks share (movement graph, sight primitives, sight answers,
step costs, fans) warm up over the run as they do in a balance report.  With ``--cold`` each
game gets a fresh copy of the board with nothing shared (the speed before forks shared them).

The figure is games per CPU-second of this process (``time.process_time``): a loaded machine
(2 cores shared by several jobs) skews it much less than wall clock, and it is what one core
gives.  ``--json`` prints one object: ``{sample: {"games", "cpu_s", "games_per_cpu_s",
"wall_s"}}``.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.io import load_board  # noqa: E402
from engine.play.engine_board import EngineBoard, fork_board  # noqa: E402
from engine.play.headless import play_one  # noqa: E402
from engine.play.heap import games_heap  # noqa: E402


def measure(path: Path, games: int, cold: bool, first_seed: int = 1) -> dict[str, Any]:
    """Play ``games`` seeded bot games of one sample; CPU and wall seconds they took."""
    scenario, board = load_board(path)

    def make():
        if cold:
            b = copy.copy(board)
            b.__dict__.pop("_play_memo", None)
            b = b.fork()
            b.invalidate()
            return EngineBoard(b, light=scenario.light, ruleset=scenario.ruleset)
        return EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)

    c0, t0 = time.process_time(), time.perf_counter()
    with games_heap():  # as a worker of ``sprawlmap play`` does (engine/play/heap.py)
        for seed in range(first_seed, first_seed + games):
            play_one(scenario, make, seed)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    return {"games": games, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
            "games_per_cpu_s": round(games / max(cpu, 1e-9), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="games per sample (seeds 1..N)")
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    ap.add_argument("--cold", action="store_true", help="share nothing between games")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    ap.add_argument("scenarios", nargs="*", help="scenario files (default: scenarios/*.yaml)")
    ns = ap.parse_args()
    root = Path(__file__).resolve().parent.parent
    paths = [Path(p) for p in ns.scenarios] or sorted((root / "scenarios").glob("*.yaml"))
    out: dict[str, Any] = {}
    for p in paths:
        got = out[p.stem] = measure(p, ns.games, ns.cold, ns.seed)
        if not ns.json:
            print(f"{p.stem:<32} {got['games_per_cpu_s']:6.2f} games per CPU-second "
                  f"({got['games']} games, {got['cpu_s']:.1f} CPU s, {got['wall_s']:.1f} s wall, "
                  f"{'cold' if ns.cold else 'shared'})", flush=True)
    if ns.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
