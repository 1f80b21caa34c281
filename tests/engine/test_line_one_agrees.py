"""A line traced alone with scalars (``los._line_one``, what a single query and a small batch
use) meets exactly what the array tracer finds for it in a batch: the same features, the same
``s`` of first contact to the last bit, the same foliage cells in order.  Asked on every
sample, a generated city with every street feature kind sight counts (foliage, dark, smoke,
obstacles that hide only the prone) and a hex board, on random pairs: near and far, a dot to
itself, other levels, both ways."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.los import _line_one, _lines, prims
from tests.engine.test_single_line_agrees import _city, _hex_board, _pairs

ROOT = Path(__file__).resolve().parents[2]


def _same(board: Board, rng: random.Random, n: int) -> tuple[int, int, int]:
    """(lines compared, lines meeting something, lines crossing foliage)."""
    P = prims(board)
    pairs = list(dict.fromkeys(_pairs(board, rng, n)))
    P.__dict__.pop("_lines", None)
    import engine.los as los

    keep = los._ONE_BY_ONE
    los._ONE_BY_ONE = 0  # every line through the arrays, in one batch
    try:
        batched = _lines(board, P, pairs)
    finally:
        los._ONE_BY_ONE = keep
    met = fol = 0
    for (a, b), want in zip(pairs, batched, strict=True):
        got = _line_one(board, P, a, b)
        assert list(got.contacts.items()) == list(want.contacts.items()), (a, b)
        assert all(str(got.contacts[k]) == str(want.contacts[k]) for k in want.contacts)
        assert got.fol == want.fol, (a, b)
        met += bool(want.contacts)
        fol += bool(want.fol)
    return len(pairs), met, fol


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_one_line_as_in_a_batch_on_samples(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    n, met, _fol = _same(board.fork(), random.Random(20 + len(name)), 300)
    assert n >= 300 and met >= n // 3


def test_one_line_as_in_a_batch_on_a_city_and_a_hex_board():
    lay, sheets = _city()
    n, met, fol = _same(compile_board(lay, sheets), random.Random(4), 400)
    assert n >= 400 and met >= n // 3 and fol >= 10
    n, met, _fol = _same(_hex_board(), random.Random(6), 300)
    assert n >= 300 and met >= n // 3
