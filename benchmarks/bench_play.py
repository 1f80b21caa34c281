"""Bot games per second per core on each sample scenario (python benchmarks/bench_play.py).

One process plays ``--games`` games of each scenarios/*.yaml with seeds 1..N, the way one
worker of ``sprawlmap play`` does: every game on a fork of one compiled board.  With
``--cold`` each game gets a fresh copy of the board with nothing shared (the speed before
forks shared the movement graph and the sight tables).  Wall-clock: run on an idle machine.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.io import load_board  # noqa: E402
from engine.play.engine_board import EngineBoard, fork_board  # noqa: E402
from engine.play.headless import play_one  # noqa: E402


def games_per_second(path: Path, games: int, cold: bool) -> float:
    scenario, board = load_board(path)

    def make():
        if cold:
            b = copy.copy(board)
            b.__dict__.pop("_play_memo", None)
            b = b.fork()
            b.invalidate()
            return EngineBoard(b, light=scenario.light, ruleset=scenario.ruleset)
        return EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)

    t = time.perf_counter()
    for seed in range(1, games + 1):
        play_one(scenario, make, seed)
    return games / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--cold", action="store_true", help="share nothing between games")
    ap.add_argument("scenarios", nargs="*")
    ns = ap.parse_args()
    root = Path(__file__).resolve().parent.parent
    paths = [Path(p) for p in ns.scenarios] or sorted((root / "scenarios").glob("*.yaml"))
    for p in paths:
        rate = games_per_second(p, ns.games, ns.cold)
        print(f"{p.stem:<32} {rate:6.2f} games/s/core ({'cold' if ns.cold else 'shared'})")


if __name__ == "__main__":
    main()
