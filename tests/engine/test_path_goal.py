"""Point-to-point paths are goal-directed (A* on a window around the two ends, issue 11):
they must cost exactly what scipy's Dijkstra over the whole board says, under every ruleset,
move ratio and posture, on the sample scenarios and a benchmark city, and each step of the
path must be an edge of the graph whose costs add up to the path's."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from benchmarks.neighbourhood import neighbourhood
from engine import model as m
from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.movement import _csr_min, _edge, build_graph, cheapest_path, dijkstra_until
from engine.rules import get_ruleset
from tests.scenario.scenes import scenario

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))


def whole_board_cost(board: Board, i: int, j: int, mr: int, crawl: bool, ruleset: str) -> float:
    g = build_graph(board)
    dist = dijkstra(g.weights(ruleset, mr, crawl), indices=i)
    return float(min(dist[j], dist[j + g.n])) if len(dist) > g.n else float(dist[j])


def _check(board: Board, seed: int, tries: int, near: int | None = None) -> int:
    rng = random.Random(seed)
    g = build_graph(board)
    dots = board._node_dots
    checked = 0
    for _ in range(tries):
        i = rng.randrange(g.n)
        if near is None:
            j = rng.randrange(g.n)
        else:  # a walk of a few turns, as play asks
            d = np.abs(dots[:, :2] - dots[i, :2]).max(axis=1)
            cand = np.nonzero(d <= near)[0]
            j = int(cand[rng.randrange(len(cand))])
        ruleset = rng.choice(("dmz1990", "sr3", "sr1", "darkcon"))
        mr, crawl = rng.choice((1, 2, 3, 4)), rng.random() < 0.3
        a, b = board.node_dot(i), board.node_dot(j)
        res = cheapest_path(board, a, b, mr, crawl, ruleset)
        want = whole_board_cost(board, i, j, mr, crawl, ruleset)
        if not np.isfinite(want):
            assert not res.reachable and res.cost is None, (a, b)
            continue
        assert res.reachable and res.dots[0] == a and res.dots[-1] == b
        for u, v in zip(res.dots, res.dots[1:]):
            assert _edge(g, board.node(u), board.node(v)) is not None, (u, v)
        if get_ruleset(ruleset).movement.units == "MP":
            assert res.cost == int(round(want)), (a, b, ruleset, mr, crawl)
            assert sum(s.cost for s in res.steps) == res.cost
        else:  # metres: the book's measure of the cheapest walk in the metre graph
            assert res.length_m == pytest.approx(want, abs=0.011), (a, b, ruleset, mr)
            assert sum(s.cost for s in res.steps) == pytest.approx(res.cost, abs=0.05)
        checked += 1
    return checked


@pytest.mark.parametrize("name", SAMPLES)
def test_paths_cost_what_the_whole_board_search_says(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    assert _check(board, seed=len(name), tries=25) > 10
    assert _check(board, seed=len(name) + 1, tries=10, near=12) > 5


def test_paths_on_a_benchmark_city():
    lay, sheets = neighbourhood(seed=5, blocks=3)
    board = compile_board(lay, sheets)
    assert _check(board, seed=4, tries=20) > 10
    assert _check(board, seed=7, tries=20, near=30) > 10


def test_unreachable_goal_and_same_dot():
    """The hotel's sealed vault has no path in (the search proves it: exhausted, not a
    limit reached), and a path to where one stands is free."""
    _sc, board, _ = scenario((m.Objective("vault-cash", "runners", "reach", at=(22, 12, 0)),))
    g = build_graph(board)
    mat = g.matrix(1, False)
    start = board.node((0, 0, 0))
    dist = dijkstra(mat, indices=start)
    lost = np.nonzero(~np.isfinite(dist))[0]
    assert board.node((22, 12, 0)) in lost
    for j in lost[:: max(len(lost) // 5, 1)][:5]:
        for ruleset in ("dmz1990", "darkcon"):
            res = cheapest_path(board, (0, 0, 0), board.node_dot(int(j)), 1, ruleset=ruleset)
            assert not res.reachable and res.dots == []
    _d, _lim, exhausted = dijkstra_until(board, g, mat, start, lambda d: bool(
        np.isfinite(d[lost]).any()), 1.0)
    assert exhausted
    res = cheapest_path(board, (3, 3, 0), (3, 3, 0), 3)
    assert res.reachable and res.cost == 0


def test_dijkstra_until_answers_within_its_limit_exactly():
    _scen, board = load_board(ROOT / "scenarios" / "street-ambush.yaml")
    g = build_graph(board)
    mat = g.matrix(2, False)
    whole = dijkstra(mat, indices=[0, 50], min_only=True)
    far = int(np.argmax(np.where(np.isfinite(whole), whole, -1)))
    got, limit, _ex = dijkstra_until(board, g, mat, [0, 50], lambda d: bool(np.isfinite(d[far])),
                                     3.0, min_only=True)
    assert got[far] == whole[far]
    inside = np.isfinite(got)
    assert (got[inside] == whole[inside]).all() and (whole[~inside] > limit - 1e-9).all()


def _csr_reference(w, src, dst, n):
    """The matrix as it was built before (scipy from triplets, cheapest parallel edge)."""
    key = src.astype(np.int64) * n + dst
    order = np.lexsort((w, key))
    k = key[order]
    first = np.ones(len(k), dtype=bool)
    first[1:] = k[1:] != k[:-1]
    keep = order[first]
    return csr_matrix((w[keep], (src[keep], dst[keep])), shape=(n, n))


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "club-umbra-darkcon.yaml"])
def test_weight_matrices_are_the_ones_scipy_builds(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    g = build_graph(board)
    rng = np.random.default_rng(3)
    for _ in range(3):  # random weights: the cheapest of parallel edges must win each time
        w = rng.integers(1, 9, len(g.src)).astype(float)
        src = np.concatenate([g.src, g.src[:40]])  # with parallel edges for sure
        dst = np.concatenate([g.dst, g.dst[:40]])
        ww = np.concatenate([w, rng.integers(0, 9, 40).astype(float)])
        got = _csr_min(ww, src, dst, g.n, {}, "t")
        want = _csr_reference(ww, src, dst, g.n)
        want.sort_indices()
        assert (got.indptr == want.indptr).all() and (got.indices == want.indices).all()
        assert (got.data == want.data).all()
    for key in ((1, False), (3, True)):
        mr, crawl = key
        w = ((g.base * mr + g.extra) * (2 if crawl else 1)).astype(float)
        assert (g.matrix(mr, crawl) != _csr_reference(w, g.src, g.dst, g.n)).nnz == 0
