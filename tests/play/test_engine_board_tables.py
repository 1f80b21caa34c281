"""The tables play keeps per map state answer as the graph does (issue 12, speed): each dot's
neighbour list, made when first asked, is the graph's edges out of it in edge order (the whole
adjacency as it used to be built), and ``costs_to`` (each dot's answer kept per goal) gives the
Dijkstra table's numbers, on every sample, with a door opened between asks."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from scipy.sparse.csgraph import dijkstra

from engine.io.resolve import load_board
from engine.movement import build_graph
from engine.play.engine_board import EngineBoard, fork_board

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))


def _adjacency(board) -> dict:
    """The adjacency as it was built: every node's dot, the edges grouped by source in edge
    order."""
    g = build_graph(board)
    dots = [(int(c), int(r), int(lv)) for c, r, lv in board._node_dots.tolist()]
    adj: dict = {}
    for s, d in zip(g.src.tolist(), g.dst.tolist(), strict=True):
        adj.setdefault(dots[s], []).append(dots[d])
    return adj


def _costs(view: EngineBoard, goal, dots) -> list:
    """``costs_to`` worked out from a Dijkstra table, dot by dot."""
    board = view.board
    g = build_graph(board)
    i = board.node(goal)
    if view._metric:
        w = g.weights(view.rules.name, 1, False)
        dist = dijkstra(w.T.tocsr(), indices=[i, i + g.n], min_only=True)[:g.n] \
            if w.shape[0] > g.n else dijkstra(w.T.tocsr(), indices=i)
    else:
        dist = dijkstra(g.matrix(1, False).T.tocsr(), indices=i)
    out = []
    for d in dots:
        j = board._node_of(tuple(d))
        v = float(dist[j]) if j >= 0 else math.inf
        out.append(None if j < 0 or not math.isfinite(v) else
                   (round(v, 2) if view._metric else int(round(v))))
    return out


def _check(view: EngineBoard, rng: random.Random) -> int:
    board = view.board
    adj = _adjacency(board)
    nodes = sorted(adj)
    asked = rng.sample(nodes, min(300, len(nodes))) + [(-5, -5, 0)]
    for d in asked:
        assert view.neighbours(d) == adj.get(d, []), d
        assert view.neighbours(list(d)) == adj.get(d, [])  # asked again, as a list
    for _ in range(3):
        goal = rng.choice(nodes)
        dots = rng.sample(nodes, 200) + [(-5, -5, 0), goal]
        want = _costs(view, goal, dots)
        assert view.costs_to(goal, 1, dots) == want
        assert view.costs_to(goal, 1, dots[::-1]) == want[::-1]  # from what is kept
        assert any(v is None for v in want) and any(v for v in want)
    return len(asked)


@pytest.mark.parametrize("name", SAMPLES)
def test_neighbours_and_costs_as_the_graph_gives(name):
    scen, board = load_board(ROOT / "scenarios" / name)
    rng = random.Random(len(name))
    view = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    assert _check(view, rng) > 100
    doors = sorted(f.id for f in view.board.all_features() if f.kind == "door")
    fid = rng.choice(doors)
    state = view.board.feature(fid).props.get("state", "open")
    view.set_opening(fid, "open" if state == "closed" else "closed")
    assert _check(view, rng) > 100
