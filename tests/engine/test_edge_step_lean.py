"""One step's price read with Python numbers (engine.movement._edge / _edge_step, issue 12.6)
is the price the array operations gave: the same edge, the same cost (type and bits) and the
same reasons, for every step of the samples' maps, under each ruleset's units, at several
move ratios, crawling or not; and a pair of dots with no step between them has none."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from engine.io import load_board
from engine.movement import Step, _edge, _edge_step, build_graph
from engine.rules import get_ruleset
from engine.rules.base import METERS_PER_DOT, METERS_PER_STORY

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))


def _array_edge(g, i, j):
    cand = g.order[g.indptr[i]:g.indptr[i + 1]]
    hit = cand[g.dst[cand] == j]
    return int(hit[0]) if len(hit) else None


def _array_step(board, g, why_of, i, j, move_ratio, crawl, ruleset):
    """The step priced with the arrays' scalars (the code before the lean one); ``why_of``
    the graph's reasons as a dict."""
    e = _array_edge(g, i, j)
    if e is None:
        return None
    mv = get_ruleset(ruleset).movement
    if mv.units != "MP":
        diag = 1.5 if mv.diagonal is None else mv.diagonal
        metres = float((diag if g.diag[e] else 1.0) * g.flat[e] * METERS_PER_DOT
                       + g.stories[e] * METERS_PER_STORY)
        what = [w.rsplit(" +", 1)[0] for w in why_of.get(e, ())]
        return Step(board.node_dot(j), round(metres, 2), [f"{metres:g} m"] + what)
    base = int(g.base[e]) * move_ratio
    cost = base + int(g.extra[e])
    why = ([f"move ratio {move_ratio}"] if base else []) + list(why_of.get(e, ()))
    if crawl:
        cost *= 2
        why.append("crawling: x2")
    return Step(board.node_dot(j), cost, why)


@pytest.mark.parametrize("name", SAMPLES)
def test_lean_step_is_the_array_step(name):
    scenario, board = load_board(ROOT / "scenarios" / name)
    g = build_graph(board)
    rng = random.Random(name)
    nodes = rng.sample(range(g.n), min(700, g.n))
    priced = with_why = 0
    why_of = {k: g.why[k] for k in g.why}
    for ruleset in sorted({scenario.ruleset, "dmz1990"}):
        for i in nodes:
            ends = g.dst[g.order[g.indptr[i]:g.indptr[i + 1]]].tolist()
            for j in ends + [rng.randrange(g.n)]:
                assert _edge(g, i, j) == _array_edge(g, i, j)
                mr, crawl = rng.choice((1, 2, 3, 4)), rng.random() < 0.3
                got = _edge_step(board, g, i, j, mr, crawl, ruleset)
                want = _array_step(board, g, why_of, i, j, mr, crawl, ruleset)
                assert repr(got) == repr(want), (name, ruleset, i, j)
                if got is not None:
                    assert type(got.cost) is type(want.cost)
                    priced += 1
                    with_why += len(got.why) > 1
    assert priced > 1000 and with_why > 20
    # no reasons asked of an edge without any: the default, as a dict gives it
    assert g.why.get(-1, ()) == () and g.why.get(int(np.iinfo(np.int64).max)) is None
