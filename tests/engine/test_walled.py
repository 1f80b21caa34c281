"""``los.walled(board, a, b)`` (what play's blind-fire check asks before any verdict) is exactly
whether :func:`engine.los.line_of_sight` finds the line blocked by a floor, a dead zone or a
blocking feature, whatever the postures, both when the line was traced before (its contacts
kept) and when it was not (the blocking primitives alone); and then every ruleset's verdict is
blocked for every eye."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.board import compile_board
from engine.io.resolve import load_board
from engine.los import line_of_sight, prims, walled
from engine.sight import verdict_of
from tests.engine.test_blocked_one_agrees import _in_solids
from tests.engine.test_single_line_agrees import _city, _pairs

ROOT = Path(__file__).resolve().parents[2]
POSTURES = ("standing", "prone")
VISIONS = {"dmz1990": ("normal", "low-light", "thermographic"), "sr3": ("normal",),
           "sr1": ("normal",), "darkcon": ("normal",)}


def _agree(board, pairs, rulesets) -> int:
    """Lines found walled; each is asked untraced first, then again after a full trace."""
    walls = 0
    for n, (a, b) in enumerate(pairs):
        if n % 2:
            line_of_sight(board, a, b)  # traced first: the kept contacts answer
        got = walled(board, a, b)
        for pa in POSTURES:
            for pb in POSTURES:
                facts = line_of_sight(board, a, b, posture_a=pa, posture_b=pb)
                assert got == facts.blocked, (a, b, pa, pb)
                if got:
                    for rs in rulesets:
                        for v in VISIONS[rs]:
                            assert verdict_of(facts, ruleset=rs, vision=v).blocked
        assert walled(board, a, b) == got  # kept: the same answer again
        walls += got
    return walls


@pytest.mark.parametrize("name", ["street-ambush.yaml", "police-station-extraction.yaml",
                                  "nightclub-raid-sr3.yaml", "club-umbra-darkcon.yaml"])
def test_walled_is_the_tracers_blocked_on_samples(name):
    scen, board = load_board(ROOT / "scenarios" / name)
    board = board.fork()
    pairs = list(dict.fromkeys(_pairs(board, random.Random(11 + len(name)), 200)))
    walls = _agree(board, pairs, [scen.ruleset])
    assert 20 <= walls <= len(pairs) - 20


def test_walled_is_the_tracers_blocked_on_a_city_and_from_inside_trunks():
    lay, sheets = _city()
    board = compile_board(lay, sheets)
    rng = random.Random(5)
    pairs = list(dict.fromkeys(_pairs(board, rng, 200) + _in_solids(board, rng)))
    prims(board).__dict__.pop("_solid", None)
    walls = _agree(board, pairs, ["dmz1990", "sr3", "sr1", "darkcon"])
    assert 20 <= walls <= len(pairs) - 20
