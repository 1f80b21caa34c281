"""A line's facts built from parts kept per feature are the facts built afresh (issue 12,
point 6).

``engine.los.line_of_sight`` keeps, with the primitives, each feature's barrier entry (all but
``along``) and interruption (per nearness), each line's contacts nearest first (with and
without the prone-only obstacles) and each span by its offsets.  A door opened or shut is a
new feature object on copied primitives that share those tables, so the tests toggle doors
near the lines asked and compare every fact, for both postures, with a board that keeps
nothing; and a caller editing the facts it got must not change the next line's.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.los import line_of_sight
from tests.play.sample_views import cold_board, near_door, sample_view, some_doors


@pytest.mark.parametrize("name", ["nightclub-raid-sr3.yaml", "police-station-extraction.yaml",
                                  "street-ambush.yaml"])
def test_kept_facts_are_fresh_facts_through_doors(name):
    scenario, board, view = sample_view(name)
    rng = random.Random(name)
    doors = some_doors(view, rng, 3)
    near = sorted({d for door in doors for d in near_door(view.board, door, 12)})
    dots = [(int(c), int(r), lv) for lv in board.levels for c, r in board.dots(lv)]
    pairs = [(a, b) for a in near for b in near if a != b]
    pairs = rng.sample(pairs, min(300, len(pairs))) + \
        [(rng.choice(dots), rng.choice(dots)) for _ in range(150)]
    states: dict[str, str] = {}
    through = barriers = 0
    for step in range(len(doors) * 2 + 1):
        if step:
            door = doors[(step - 1) % len(doors)]
            now = states.get(door.id, door.props.get("state", "open"))
            states[door.id] = "open" if now == "closed" else "closed"
            view.set_opening(door.id, states[door.id])
        fresh = cold_board(board, states)
        for a, b in pairs:
            for pb in ("standing", "prone"):
                got = line_of_sight(view.board, a, b, posture_b=pb, light=scenario.light)
                want = line_of_sight(fresh, a, b, posture_b=pb, light=scenario.light)
                assert got == want, (a, b, pb, states)
                through += any(i["kind"] == "door" for i in got.interruptions)
                barriers += len(got.barriers)
                if got.interruptions:  # a caller's edit stays in its own facts
                    got.interruptions[0]["reason"] = "edited"
                if got.barriers:
                    got.barriers[0]["kind"] = "edited"
    assert through > 20 and barriers > 20


def test_kept_orders_serve_both_postures_on_a_city():
    """A city with obstacles that hide only the prone, foliage, dark and smoke: facts asked
    standing after prone and prone after standing on one board (the line's contacts in order
    kept from the first) equal facts worked out with nothing kept, and each span is the one
    numpy's hypot gives its ends."""
    from engine import los
    from engine.board import compile_board
    from tests.engine.test_single_line_agrees import _city

    lay, sheets = _city()
    warm, cold = compile_board(lay, sheets), compile_board(lay, sheets)
    rng = random.Random(12)
    dots = [(int(c), int(r), lv) for lv in warm.levels for c, r in warm.dots(lv)]
    P = los.prims(cold)
    differ = 0
    for n in range(600):
        a, b = rng.choice(dots), rng.choice(dots)
        firsts = ("prone", "standing") if n % 2 else ("standing", "prone")
        for pb in firsts:
            got = line_of_sight(warm, a, b, posture_b=pb)
            P.__dict__.pop("_facts_kept", None)
            los._line_memo(P).pop((a, b), None)
            los._SPANS.clear()
            want = line_of_sight(cold, a, b, posture_b=pb)
            assert got == want, (a, b, pb)
            (ox, oy), (tx, ty) = got.ends  # the span kept by offsets is numpy's hypot
            assert got.span == round(float(np.hypot(tx - ox, ty - oy)), 6)
        differ += line_of_sight(warm, a, b).cover != line_of_sight(warm, a, b, posture_b="prone").cover
    assert differ > 5  # prone-only obstacles were met
