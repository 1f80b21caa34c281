"""``los._blocked_one`` tries the primitive that last blocked a line from either end before it
culls every candidate (``los._last_blockers``, ``los._blocker``).  The guess may only shorten
the work: asked with every candidate of the line as the guess of either end (walls it crosses,
walls beside it, walls behind an end, the trunk an end stands in), it answers what the full
tracer (``los._line_one``) finds, on every sample, a generated city and a hex board."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine.los as los
from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.los import (
    _SOLID,
    _blocked_one,
    _building_idx,
    _counted_cands,
    _dot_end,
    _ends_box,
    _kinds,
    _last_blockers,
    _line_one,
    prims,
)
from tests.engine.test_blocked_one_agrees import _fans, _in_solids
from tests.engine.test_single_line_agrees import _city, _hex_board, _pairs

ROOT = Path(__file__).resolve().parents[2]


def _guessed(board: Board, rng: random.Random, n: int, monkeypatch) -> tuple[int, int]:
    """(answers given by a guess alone, guesses that were wrong), every answer checked."""
    culls = []
    for name in ("_culled_few", "_culled_stacked"):  # (a guess that answers culls nothing)
        real = getattr(los, name)
        monkeypatch.setattr(los, name, lambda *a, _real=real: culls.append(1) or _real(*a))
    P = prims(board)
    kinds = _kinds(P)
    last = _last_blockers(P)
    pairs = list(dict.fromkeys(_pairs(board, rng, n) + _fans(board, rng, 2) +
                               _in_solids(board, rng)))
    by_guess = wrong = 0
    for a, b in pairs:
        want = any(kinds[fi] in _SOLID for fi in _line_one(board, P, a, b).contacts)
        ba, bb = _building_idx(board, a), _building_idx(board, b)
        box = _ends_box(P, *_dot_end(board, P, a)[2:], *_dot_end(board, P, b)[2:])
        cands = [] if box is None else \
            [r[0] for r in _counted_cands(P, box, a[2], b[2], ba, bb, True)[5]]
        others = rng.sample(range(len(P.kind)), 3)  # (not among the line's candidates, mostly)
        for g in cands[:40] + others:
            for end, other in ((a, b), (b, a)):
                last.clear()
                last[end] = g
                last[other] = rng.choice(cands + others)
                culls.clear()
                assert _blocked_one(board, P, a, b, ba, bb) == want, (a, b, g)
                by_guess += want and not culls
                wrong += bool(culls)
    return by_guess, wrong


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_a_guess_answers_as_the_full_tracer_on_samples(name, monkeypatch):
    _scen, board = load_board(ROOT / "scenarios" / name)
    by_guess, wrong = _guessed(board.fork(), random.Random(11 + len(name)), 40, monkeypatch)
    assert by_guess >= 50 and wrong >= 500


def test_a_guess_answers_as_the_full_tracer_on_a_city_and_a_hex_board(monkeypatch):
    lay, sheets = _city()
    for board, seed in ((compile_board(lay, sheets), 3), (_hex_board(), 4)):
        by_guess, wrong = _guessed(board, random.Random(seed), 60, monkeypatch)
        assert by_guess >= 50 and wrong >= 500
