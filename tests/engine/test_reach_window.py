"""Reach searches a window around the mover (issue 11): it must answer exactly as scipy's
Dijkstra with a limit on the whole board, under every ruleset, move ratio and posture, on the
sample scenarios and a benchmark city."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

from benchmarks.neighbourhood import neighbourhood
from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.movement import build_graph, reach, reach_arrays
from engine.rules import get_ruleset

ROOT = Path(__file__).resolve().parents[2]


def whole_board_reach(board: Board, a, move_ratio, mp, crawl, ruleset):
    """reach() as it was: Dijkstra with a limit on the whole board."""
    g = build_graph(board)
    metric = get_ruleset(ruleset).movement.units != "MP"
    dist = dijkstra(g.weights(ruleset, move_ratio, crawl), indices=board.node(a),
                    limit=mp + (1e-6 if metric else 0.5))
    if len(dist) > g.n:
        dist = np.minimum(dist[:g.n], dist[g.n:])
    idx = np.nonzero(np.isfinite(dist))[0]
    if metric:
        return {board.node_dot(int(k)): round(float(dist[k]), 2) for k in idx}
    return {board.node_dot(int(k)): int(round(dist[k])) for k in idx}


def _compare(board: Board, seed: int, tries: int = 12) -> None:
    rng = random.Random(seed)
    for _ in range(tries):
        a = board.node_dot(rng.randrange(board.node_count))
        ruleset = rng.choice(("dmz1990", "sr3", "sr1", "darkcon"))
        mr, crawl = rng.choice((1, 2, 3, 4)), rng.random() < 0.3
        mp = rng.choice((0, 3, 12, 25, 60))
        got = reach(board, a, mr, mp=mp, crawl=crawl, ruleset=ruleset)
        assert got == whole_board_reach(board, a, mr, mp, crawl, ruleset), (a, ruleset, mr, mp)
        assert list(got) == sorted(got, key=board.node)  # in node order, as before
        dots, costs = reach_arrays(board, a, mr, mp=mp, crawl=crawl)
        want = whole_board_reach(board, a, mr, mp, crawl, "dmz1990")
        assert {tuple(map(int, d)): int(c) for d, c in zip(dots, costs)} == want


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_reach_window_on_samples(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    _compare(board, seed=len(name))


def test_reach_window_on_benchmark_city():
    lay, sheets = neighbourhood(seed=5, blocks=3)
    _compare(compile_board(lay, sheets), seed=9, tries=30)


def _first_reaches(board: Board, seed: int, tries: int = 12) -> int:
    """The first reach on a graph (no matrix yet) is answered from the graph's core on a box
    around the mover: the same dots and costs as the whole board, and no matrix built."""
    g = build_graph(board)
    rng = random.Random(seed)
    boxed = 0
    for _ in range(tries):
        a = board.node_dot(rng.randrange(board.node_count))
        mr, crawl = rng.choice((1, 2, 3, 4)), rng.random() < 0.3
        mp = rng.choice((0, 3, 12, 25))
        g._mats.clear()
        got = reach(board, a, mr, mp=mp, crawl=crawl)
        boxed += (mr, crawl) not in g._mats
        g._mats.clear()
        dots, costs = reach_arrays(board, a, mr, mp=mp, crawl=crawl)
        want = whole_board_reach(board, a, mr, mp, crawl, "dmz1990")
        assert got == want, (a, mr, mp, crawl)
        assert list(got) == sorted(got, key=board.node)
        assert {tuple(map(int, d)): int(c) for d, c in zip(dots, costs)} == want
        assert [tuple(map(int, d)) for d in dots] == list(want)
    return boxed


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_first_reach_from_the_core_on_samples(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    _first_reaches(board, seed=len(name) + 1)


def test_first_reach_from_the_core_on_a_city_and_after_drags():
    from dataclasses import replace

    lay, sheets = neighbourhood(seed=4, blocks=3)
    board = compile_board(lay, sheets)
    assert _first_reaches(board, seed=3, tries=25) > 15  # most answered on a box
    rng = random.Random(8)
    for _ in range(3):  # a dragged board's patched core, as the editor asks next
        pl = list(lay.placements)
        k = rng.randrange(len(pl))
        pl[k] = replace(pl[k], at=(pl[k].at[0] + rng.choice((-1, 1)), pl[k].at[1]))
        lay = replace(lay, placements=tuple(pl))
        build_graph(board)
        board = compile_board(lay, sheets, previous=board)
        _first_reaches(board, seed=k, tries=8)


def test_first_reach_from_the_core_on_hex_huts_with_stairs():
    from engine.model import Layout, Placement, Sheet
    from tests.engine.test_movement_graph_arrays import hex_hut

    pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                size=(40, 30), outline=((-0.5, -0.5), (40.0, -0.5), (40.0, 28.5), (-0.5, 28.5)))
    lay = Layout(lattice="hex", pavement=(Placement("hex-pav", (0, 0)),),
                 placements=(Placement("hut", (6, 4), id="h1"), Placement("hut", (16, 11), id="h2"),
                             Placement("hut", (25, 19), id="h3")))
    board = compile_board(lay, {"hex-pav": pav, "hut": hex_hut()})
    assert _first_reaches(board, seed=5, tries=30) > 10
