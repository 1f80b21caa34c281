"""``EngineBoard.costs_to`` searches from a goal only as far as the dots asked need (scipy's
Dijkstra with a ``limit``, widened when a farther dot is asked) and answers exactly what the
search over the whole map answers: every dot, asked near ones first and far ones after, on
every ruleset's sample (MP, metres, Dark Conspiracy's two parity layers), both move ratios,
and dots no walk reaches."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from scipy.sparse.csgraph import dijkstra

from engine.io.resolve import load_board
from engine.movement import build_graph
from engine.play.engine_board import EngineBoard, fork_board
from tests.play.test_spells_more import street_duel

ROOT = Path(__file__).resolve().parents[2]


def _whole(eb: EngineBoard, goal, move_ratio: int) -> dict:
    """Every dot's cost to ``goal`` by one search over the whole map (the answer before)."""
    g = build_graph(eb.board)
    i = eb.board.node(goal)
    if eb._metric:
        w = g.weights(eb.rules.name, 1, False)
        if w.shape[0] > g.n:
            dist = dijkstra(w.T.tocsr(), indices=[i, i + g.n], min_only=True)[:g.n]
        else:
            dist = dijkstra(w.T.tocsr(), indices=i)
    else:
        dist = dijkstra(g.matrix(move_ratio, False).T.tocsr(), indices=i)
    out = {}
    for n, (c, r, lv) in enumerate(eb.board._node_dots.tolist()):
        v = float(dist[n])
        out[(c, r, lv)] = None if not math.isfinite(v) else \
            (round(v, 2) if eb._metric else int(round(v)))
    return out


@pytest.mark.parametrize("name", ["street-ambush.yaml", "chop-shop-sr1.yaml",
                                  "club-umbra-darkcon.yaml", "police-station-extraction.yaml"])
def test_costs_to_as_the_whole_search(name):
    scen, board = load_board(ROOT / "scenarios" / name)
    eb = EngineBoard(fork_board(board), light=scen.light, ruleset=scen.ruleset)
    rng = random.Random(len(name))
    dots = [tuple(d) for d in eb.board._node_dots.tolist()]
    cut = widened = 0
    for _ in range(6):
        goal = rng.choice(dots)
        for mr in (1, 2):
            want = _whole(eb, goal, mr)
            # the dots a walk reaches on the goal's level, nearest first (a bot asks about
            # dots it may walk to), then the other levels'
            near = sorted((d for d in dots if want[d] is not None and d[2] == goal[2]),
                          key=lambda d: (eb.lattice.distance(goal[:2], d[:2]), d))
            asks = [near[:12], rng.sample(near[:200], 20), [near[-1]], rng.sample(dots, 40),
                    dots]
            for n, ask in enumerate(asks):
                assert eb.costs_to(goal, mr, ask) == [want[d] for d in ask], (goal, mr, n)
                entry = eb._to_goal[(goal, 0 if eb._metric else mr)]
                if n == 0 and (mr == 1 or not eb._metric):  # (metres: one table for both)
                    cut += entry.limit < math.inf
                widened += n == 1 and entry.runs > 1
            assert eb.costs_to(goal, mr, [(-5, -5, 0)]) == [None]
    assert cut >= 4  # the first searches stopped short of the whole map
    assert widened >= 1 or eb._metric


def test_a_dot_no_walk_reaches_is_none_after_the_whole_search():
    # a hut whose roof has no stairs: nothing on the street walks up there
    game, _w, tusk, _moth = street_duel((("levitate-person", 4),), [2, 2])
    roof = (8, 5, 1)
    assert game.board.costs_to(roof, 2, [(8, 5, 1), (5, 5, 0)]) == [0, None]
    entry = game.board._to_goal[(roof, 2)]
    assert entry.limit == math.inf and entry.runs == 3  # two searches cut off, then the whole
