"""The dots a Barrier wall may be cast at, kept for every door state alike in the doors near
the mage (issue 12, point 6).

``bot_magic._wall_dots`` asks only the sight lines from the mage to the ring of dots
:data:`~engine.rules.dmz1990_spells.WALL_AHEAD` away, so its answer (and the walls' lines) is
kept in a table every door state shares, under the states of the doors and windows within
that ring (``EngineBoard.plans_near``).  Here doors are opened and shut around mages standing
beside them, and every answer is compared with the plain work on a freshly loaded board in
that state; on the samples whose rulesets hide a target behind a closed door the answers must
change with the doors, and some must come from the shared table.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from engine.play import bot_magic
from engine.play.engine_board import EngineBoard, fork_board
from tests.play.sample_views import near_door, sample_view, some_doors
from tests.play.test_common_sight import _fresh


@pytest.mark.parametrize("name", ["club-umbra-darkcon.yaml", "nightclub-raid-sr3.yaml",
                                  "police-station-extraction.yaml"])
def test_wall_dots_kept_across_doors_are_the_plain_ones(name):
    scenario, board, view = sample_view(name)
    rng = random.Random(name)
    doors = some_doors(view, rng, 3)
    mages = [SimpleNamespace(pos=d, posture="standing", vision="normal")
             for door in doors for d in near_door(view.board, door, 6)
             if view.board.standable(d)][::2]
    flips = [(d.id, "open" if d.props.get("state") == "closed" else "closed") for d in doors]
    flips += [(d.id, d.props.get("state", "open")) for d in doors]  # and back again
    answers: dict = {}
    shared = 0
    for _game in range(2):  # the second game forks the same memo: the states met before
        view = EngineBoard(fork_board(board), light=scenario.light, ruleset=scenario.ruleset)
        states: dict[str, str] = {}
        for k in range(len(flips) + 1):
            fresh = _fresh(board, scenario, states)
            g = SimpleNamespace(board=view)
            for m in mages:
                near = view.plans_near(m.pos, bot_magic.WALL_AHEAD)
                key = ("wall_dots", m.pos, m.posture, m.vision, near[1])
                shared += key in near[0]
                want = bot_magic._wall_dots_seen(fresh, m.pos, m.posture, m.vision)
                assert bot_magic._wall_dots(g, m) == want, (states, m.pos)
                lines = bot_magic._wall_lines(g, m)
                assert [at for at, _line in lines] == want
                assert all(line.equals(bot_magic.wall_shape(g, m, at)) for at, line in lines)
                answers.setdefault(m.pos, set()).add(tuple(want))
            if k < len(flips):
                view.set_opening(*flips[k])
                states[flips[k][0]] = flips[k][1]
    assert shared >= len(mages)  # answered from the table all door states share
    if name != "police-station-extraction.yaml":  # (dmz1990: a closed door interrupts only)
        assert any(len(v) > 1 for v in answers.values())  # the doors changed some answers
