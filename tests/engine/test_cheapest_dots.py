"""``cheapest_dots`` (what play's paths ask) gives the dots of ``cheapest_path`` exactly, on
every sample (Dark Conspiracy's two parity layers, metres and MP, crawling), for random pairs
near and far and a dot to itself."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.io.resolve import load_board
from engine.movement import cheapest_dots, cheapest_path

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_cheapest_dots_are_the_paths_dots(name):
    scen, board = load_board(ROOT / "scenarios" / name)
    rng = random.Random(name)
    dots = [(int(c), int(r), lv) for lv in board.levels for c, r in board.dots(lv)]
    ways = 0
    for k in range(60):
        a = rng.choice(dots)
        b = a if k % 20 == 0 else rng.choice(dots)
        ratio, crawl = rng.choice((1, 2, 3)), k % 7 == 0
        want = cheapest_path(board, a, b, ratio, crawl=crawl, ruleset=scen.ruleset)
        got = cheapest_dots(board, a, b, ratio, crawl=crawl, ruleset=scen.ruleset)
        assert got == (want.dots if want.reachable else None), (a, b)
        ways += want.reachable and len(want.dots) > 3
    assert ways >= 20
