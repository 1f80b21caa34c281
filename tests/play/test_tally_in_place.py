"""The referee counts each reactor's Fire Ratio tally in place (``spend_tally`` on the tally's
data) rather than building a ReactionTally from the data and back at every step: the data
and the attacks must be the tally's own, step after step, and the reactors the filtered
enemies."""

from __future__ import annotations

import random

import pytest

from engine.play.reaction import Arc, ReactionTally, spend_tally
from tests.play.fakes import GridBoard
from tests.play.helpers import build, char


def test_spend_tally_is_the_tallys_spend_step_after_step():
    rng = random.Random(12)
    counted = 0
    for fire_ratio in (1, 2, 3, 4, 6):
        for started in (False, True):
            obj = ReactionTally(fire_ratio, started_in_arc=started)
            data = ReactionTally(fire_ratio, started_in_arc=started).to_data()
            for _ in range(60):
                # MP (whole), metres (fractions that do not add up exactly in binary)
                mp = rng.choice((0, 1, 2, 3, 4, 6, 0.1, 0.7, 1.5, 2.3, 4.9))
                want = obj.spend(mp)
                got = spend_tally(data, mp)
                assert got == want and data == obj.to_data(), (fire_ratio, mp)
                assert list(data) == list(obj.to_data())  # (the saved order too)
                # (and the types: a log says 1, not 1.0)
                assert [type(v) for v in data.values()] == \
                    [type(v) for v in obj.to_data().values()]
                counted += want
    assert counted > 100
    with pytest.raises(ValueError):
        spend_tally(ReactionTally(2).to_data(), -1)


def test_reactors_are_the_enemies_holding_an_arc():
    board = GridBoard(12, 12)
    a = char("a", "runners", (1, 1, 0))
    b = char("b", "gang", (5, 5, 0))
    c = char("c", "gang", (6, 6, 0))
    d = char("d", "runners", (7, 7, 0))
    game = build(board, [a, b, c, d], ["runners", "gang"])

    for who in (b, d):
        who.arcs = [Arc("wide", game.point(who.pos), 0.0)]
    assert [r.id for r in game.reactors(a)] == ["b"]
    assert [r.id for r in game.reactors(b)] == ["d"]
    b.pos = None  # off the board: out
    assert game.reactors(a) == []
    assert game.reactors(a) == [x for x in game.state.enemies_of(a) if x.arcs and not x.out]
