"""Whether a line is blocked, asked of the blocking primitives alone (``los._blocked_one`` one
line at a time, ``los._blocked_many`` for a batch: what a bot's fan asks first), is exactly
whether the full tracer (``los._line_one``) lists a wall, fence, trunk or another building's
footprint among the line's contacts.  Asked on every sample, a generated city with every
street feature kind and a hex board, on random pairs (near and far, a dot to itself, other
levels, both ways) and on fans (one origin, every dot of a level)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import shapely

from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.los import (
    _SOLID,
    BLOCK,
    TRUNK,
    _blocked_many,
    _blocked_one,
    _building_idx,
    _kinds,
    _line_one,
    lines_fan,
    los_fan,
    prims,
)
from tests.engine.test_single_line_agrees import _city, _hex_board, _pairs

ROOT = Path(__file__).resolve().parents[2]


def _fans(board: Board, rng: random.Random, k: int) -> list[tuple[tuple, tuple]]:
    out = []
    for _ in range(k):
        lv = rng.choice(board.levels)
        dots = board.dots(lv)
        if not len(dots):
            continue
        c, r = (int(v) for v in dots[rng.randrange(len(dots))])
        to = rng.choice(board.levels)
        for tc, tr in board.dots(to).tolist()[::3]:
            out.append(((c, r, lv), (tc, tr, to)))
    return out


def _in_solids(board: Board, rng: random.Random) -> list[tuple[tuple, tuple]]:
    """Lines from a dot inside a blocking polygon (a tree's trunk): the polygon an end stands
    in does not block (it is left out of the line's contacts), both ways."""
    P = prims(board)
    out = []
    for fi in sorted({int(f) for f, k in zip(P.owner.tolist(), P.kind.tolist())
                      if k in (BLOCK, TRUNK)}):
        f = P.feats[fi]
        if f.geom.geom_type not in ("Polygon", "MultiPolygon"):
            continue
        pt = f.geom.representative_point()
        a = (*board.lattice.dot_at((pt.x, pt.y)), f.level)
        if not shapely.contains_xy(f.geom, *board.dot_point(a)):
            continue
        dots = board.dots(f.level)
        for _ in range(8):
            b = tuple(int(v) for v in dots[rng.randrange(len(dots))]) + (f.level,)
            out += [(a, b), (b, a)]
    return out


def _same(board: Board, rng: random.Random, n: int) -> tuple[int, int]:
    """(lines compared, lines blocked)."""
    P = prims(board)
    kinds = _kinds(P)
    pairs = list(dict.fromkeys(_pairs(board, rng, n) + _fans(board, rng, 3) +
                               _in_solids(board, rng)))
    ba = [_building_idx(board, a) for a, _b in pairs]
    bb = [_building_idx(board, b) for _a, b in pairs]
    many = _blocked_many(board, P, pairs, ba, bb)
    blocked = 0
    for (a, b), x, y, got in zip(pairs, ba, bb, many, strict=True):
        want = any(kinds[fi] in _SOLID for fi in _line_one(board, P, a, b).contacts)
        assert _blocked_one(board, P, a, b, x, y) == want, (a, b)
        assert got == want, (a, b)
        blocked += want
    return len(pairs), blocked


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_blocked_as_the_full_tracer_on_samples(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    n, blocked = _same(board.fork(), random.Random(40 + len(name)), 300)
    assert n >= 300 and n // 5 <= blocked <= n - n // 5


def test_blocked_as_the_full_tracer_on_a_city_and_a_hex_board():
    lay, sheets = _city()
    city = compile_board(lay, sheets)
    assert len(_in_solids(city, random.Random(1))) >= 16  # (ends inside trunks are asked)
    n, blocked = _same(city, random.Random(5), 400)
    assert n >= 400 and n // 20 <= blocked <= n - n // 20
    n, blocked = _same(_hex_board(), random.Random(7), 300)
    assert n >= 300 and n // 20 <= blocked <= n - n // 20


@pytest.mark.parametrize("name", ["street-ambush.yaml", "police-station-extraction.yaml"])
def test_lines_fan_as_the_sweep(name):
    """A bot's fan (blocked lines answered from the blocking primitives, the rest traced in
    full) gives the arrays of the editor's fan, twice: the second time from what is kept."""
    import numpy as np

    _scen, board = load_board(ROOT / "scenarios" / name)
    board = board.fork()
    rng = random.Random(len(name))
    for _ in range(6):
        lv = rng.choice(board.levels)
        dots = board.dots(lv)
        a = tuple(int(v) for v in dots[rng.randrange(len(dots))]) + (lv,)
        to = rng.choice(board.levels)
        tg = board.dots(to)[::2]
        want = los_fan(board, a, radius=1 << 20, level=to, targets=tg)
        for _twice in range(2):
            got = lines_fan(board, a, to, tg)
            for k in ("dots", "blocked", "cover", "visibility", "closed_doors"):
                assert np.array_equal(getattr(got, k), getattr(want, k)), (a, to, k)
