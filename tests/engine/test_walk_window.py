"""Validation's walks and connection questions answered from the graph's core (issue 11), without
a matrix of the whole board: ``walk_window`` (a multi-source search on the box a budget can
reach) must give scipy's Dijkstra on the whole MP matrix, and ``core_components`` must cut the
nodes into the strongly connected components scipy finds on it, on the samples, benchmark
cities and cities with sealed floors, stairless roofs and one-way drops."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse.csgraph import connected_components, dijkstra

from benchmarks.neighbourhood import neighbourhood
from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.movement import build_graph, walk_window
from engine.pace import core_components, one_component
from tests.scenario.scenes import scenario as scene

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))


def broken_city(seed: int, blocks: int = 3) -> Board:
    """A benchmark city where some buildings lost doors, stairs or windows: sealed rooms and
    floors, roofs one can only drop from (one-way steps), floors reached by one stair only."""
    lay, sheets = neighbourhood(seed=seed, blocks=blocks)
    rng = random.Random(seed)
    out = {}
    for sid, sh in sheets.items():
        if sh.kind != "building" or rng.random() < 0.3:
            out[sid] = sh
            continue
        levels = []
        for lv in sh.levels:
            cut = {}
            if rng.random() < 0.5:
                cut["doors"] = tuple(d for d in lv.doors if rng.random() < 0.4)
            if rng.random() < 0.4:
                cut["stairs"] = ()
            if rng.random() < 0.5:
                cut["windows"] = ()
            levels.append(replace(lv, **cut))
        out[sid] = replace(sh, levels=tuple(levels))
    return compile_board(lay, out)


def _boards() -> list[tuple[str, Board]]:
    out = [(name, load_board(ROOT / "scenarios" / name)[1]) for name in SAMPLES]
    lay, sheets = neighbourhood(seed=5, blocks=3)
    out.append(("city", compile_board(lay, sheets)))
    out += [(f"broken-{s}", broken_city(s)) for s in (1, 2, 3)]
    out.append(("hotel+tower", scene((), with_tower=True)[1]))
    return out


BOARDS = _boards()


def _partition(labels: np.ndarray) -> list[tuple[int, ...]]:
    """The components as sorted tuples of their nodes (numbering aside)."""
    order = np.argsort(labels, kind="stable")
    cuts = np.nonzero(np.diff(labels[order]))[0] + 1
    return sorted(tuple(p.tolist()) for p in np.split(order, cuts))


@pytest.mark.parametrize("name,board", BOARDS, ids=[n for n, _ in BOARDS])
def test_core_components_are_the_matrix_components(name, board):
    g = build_graph(board)
    lab = core_components(g)
    k, want = connected_components(g.matrix(1, False), directed=True, connection="strong")
    assert lab is not None and len(lab) == g.n
    assert _partition(lab) == _partition(want)
    assert one_component(g) == (k == 1)


def test_the_broken_cities_have_one_way_parts():
    """The comparison above means something: components of every kind are there."""
    one_way = 0
    for _n, board in BOARDS[-4:]:
        g = build_graph(board)
        k = connected_components(g.matrix(1, False), directed=True, connection="strong")[0]
        weak = connected_components(g.matrix(1, False), directed=True, connection="weak")[0]
        one_way += k > weak  # some part is reached one way only (a drop off a roof)
        assert weak > 1  # some part not at all (a sealed room or floor)
    assert one_way >= 1


@pytest.mark.parametrize("name,board", BOARDS, ids=[n for n, _ in BOARDS])
def test_walk_window_is_the_whole_board_search(name, board):
    g = build_graph(board)
    rng = random.Random(len(name))
    n = board.node_count
    boxed = 0
    for t in range(14):
        mr, crawl = rng.choice((1, 2, 3, 4)), rng.random() < 0.25
        if t % 3 == 0:  # a strip along an edge, like a deployment zone
            d = board._node_dots
            col = int(d[:, 0].min()) if rng.random() < 0.5 else int(d[:, 0].max())
            src = np.nonzero((np.abs(d[:, 0] - col) <= 2) & (d[:, 2] == 0))[0]
        elif t % 3 == 1:  # a few dots anywhere
            src = np.array(rng.sample(range(n), rng.randint(1, 5)))
        else:  # a cluster
            c = board._node_dots[rng.randrange(n)]
            near = np.abs(board._node_dots[:, :2] - c[:2]).max(axis=1) <= rng.randint(0, 4)
            src = np.nonzero(near)[0]
        limit = rng.choice((0.5, 3.5, 12.5, 24.0, 40.5, 77.0, 150.0))
        got = walk_window(g, src, mr, crawl, limit, most=rng.choice((0.5, 1.0)))
        if got is None:
            continue
        boxed += 1
        want = dijkstra(g.matrix(mr, crawl), indices=np.unique(src), limit=limit, min_only=True)
        assert np.array_equal(got, want), (name, mr, crawl, limit, len(src))
    assert boxed >= 5


def test_walk_window_declines_a_box_of_most_of_the_board():
    board = BOARDS[0][1]
    g = build_graph(board)
    assert walk_window(g, np.array([0]), 1, False, 1e6) is None
    assert walk_window(g, np.zeros(0, dtype=np.int64), 1, False, 5.0) is None


def test_validation_of_a_city_builds_no_matrix_of_the_board():
    """The benchmark scenario on a city: its walks and its connection questions are answered
    from the core (the timing findings are checked against whole-board searches in
    tests/scenario/test_bounded_validation.py)."""
    from benchmarks.neighbourhood import scenario
    from engine.validate import validate

    lay, sheets = neighbourhood(blocks=8)  # the walks' boxes are a third of it
    board = compile_board(lay, sheets)
    found = validate(board, scenario(lay))
    g = build_graph(board)
    assert not [k for k in g._mats if len(k) == 2 and isinstance(k[0], int)]
    assert "_direct_layout" not in g.__dict__
    assert {f.code for f in found} >= {"objective-too-far", "tempo-gap"}


def test_sealed_rooms_of_broken_cities_match_the_matrix_way(monkeypatch):
    """sealed_rooms leaves at once when the core says one component; otherwise it asks the
    matrix as before: the same findings either way."""
    from engine import scenario_checks

    for _n, board in BOARDS[-4:] + BOARDS[:2]:
        fast = scenario_checks.sealed_rooms(board, None)
        with monkeypatch.context() as mp:
            mp.setattr(scenario_checks, "one_component", lambda g: False)
            build_graph(board)._mats.clear()
            slow = scenario_checks.sealed_rooms(board, None)
        assert fast == slow



def _raster_regions(stand: np.ndarray, ew: np.ndarray, ns: np.ndarray) -> np.ndarray:
    """The regions as a 4-connected labelling of a raster at twice the resolution finds them
    (dots on the even pixels, a join on the pixel between its two dots; how core_components
    labelled them before the runs): per dot its region, 0 where nobody stands."""
    from scipy import ndimage

    L, H, W = stand.shape
    raster = np.zeros((L, 2 * H - 1, 2 * W - 1), dtype=bool)
    raster[:, 0::2, 0::2] = stand
    raster[:, 0::2, 1::2] = ew
    raster[:, 1::2, 0::2] = ns
    plane = np.zeros((3, 3, 3), dtype=bool)
    plane[1] = [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
    return ndimage.label(raster, structure=plane)[0][:, 0::2, 0::2]


@pytest.mark.parametrize("seed", range(12))
def test_regions_from_runs_are_the_raster_regions(seed):
    """``_regions`` cuts the dots as the raster labelling does, on random levels of dots with
    joins of every density (joins next to a dot nobody stands on included: they join
    nothing), combs, spirals and one-dot-wide rows."""
    from engine.pace import _regions

    rng = np.random.default_rng(seed)
    L, H, W = int(rng.integers(1, 4)), int(rng.integers(1, 40)), int(rng.integers(1, 40))
    p = rng.uniform(0.3, 1.0, 3)
    stand = rng.random((L, H, W)) < p[0]
    ew = rng.random((L, H, W - 1)) < p[1]
    ns = rng.random((L, H - 1, W)) < p[2]
    got, n = _regions(stand, ew, ns)
    want = _raster_regions(stand, ew, ns)
    assert ((got > 0) == stand).all()
    on = stand.reshape(-1)
    assert _partition(got.reshape(-1)[on]) == _partition(want.reshape(-1)[on])
    assert n == len(np.unique(want[stand]))


def test_regions_joined_along_long_runs():
    """Two long rows joined at one column only, and a comb: the joins a run pair repeats are
    left out, the one that joins them is not."""
    from engine.pace import _regions

    stand = np.ones((1, 3, 10), dtype=bool)
    ew = np.ones((1, 3, 9), dtype=bool)
    ns = np.zeros((1, 2, 10), dtype=bool)
    ns[0, 0, 7] = True  # rows 0 and 1 joined at column 7 only
    got, n = _regions(stand, ew, ns)
    assert n == 2 and len(set(got[0, 0])) == 1 and got[0, 0, 0] == got[0, 1, 9] != got[0, 2, 0]
    ew[0, 1, 4] = False  # row 1 cut in two: its western half is alone
    got, n = _regions(stand, ew, ns)
    assert n == 3 and got[0, 1, 0] != got[0, 1, 9] == got[0, 0, 0]
