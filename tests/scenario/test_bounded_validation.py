"""Validation's walks are searched only as far as the turn limit allows, widening for an
objective beyond it (issue 11): the findings must be the ones whole-board searches give, on
every sample scenario and with its turn limit cut, raised or removed."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engine import scenario_checks
from engine.analysis import balance
from engine.io.resolve import load_board
from engine.pace import WalkField, walk_field
from engine.validate import validate

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))


class _Whole:
    """The field as validation searched it before: every node of the board."""

    def __init__(self, board, ruleset, sources, pace, start):
        self.dist = walk_field(board, ruleset, sources, pace)

    def cost(self, nodes):
        nodes = np.asarray(nodes, dtype=np.int64)
        nodes = nodes[nodes >= 0]
        return float(self.dist[nodes].min()) if len(nodes) else math.inf


def _findings(board, scenario):
    return [(f.code, f.severity, f.message, repr(f.where)) for f in validate(board, scenario)]


@pytest.mark.parametrize("name", SAMPLES)
def test_findings_are_the_whole_board_searches(name, monkeypatch):
    scen, board = load_board(ROOT / "scenarios" / name)
    variants = [scen, replace(scen, turn_limit=None), replace(scen, turn_limit=1),
                replace(scen, turn_limit=3), replace(scen, turn_limit=60)]
    bounded = [_findings(board, s) for s in variants]
    monkeypatch.setattr(scenario_checks, "walk_to", _Whole)
    monkeypatch.setattr(balance, "walk_to", _Whole)
    whole = [_findings(board, s) for s in variants]
    assert bounded == whole
    timed = [f for f in bounded[2] if f[0] in ("objective-too-far", "objective-turns",
                                               "objective-too-far-for-slowest")]
    assert timed, "the samples' objectives are timed"


def test_a_near_objective_is_answered_without_searching_the_board():
    scen, board = load_board(ROOT / "scenarios" / "street-ambush.yaml")
    side = scen.sides[0]
    zone = scenario_checks.deployment_dots(board, side.deployment)
    fast = scenario_checks.side_paces(scen.ruleset or "dmz1990", side)[0]
    src = scenario_checks._nodes(board, zone)
    field = WalkField(board, scen.ruleset or "dmz1990", src, fast, start=fast.per_turn)
    whole = walk_field(board, scen.ruleset or "dmz1990", src, fast)
    near = np.nonzero(whole <= fast.per_turn / 2)[0]
    far = int(np.nanargmax(np.where(np.isfinite(whole), whole, np.nan)))
    assert field.cost(near[-1:]) == whole[near[-1]]
    assert np.isfinite(field.dist).sum() < len(whole) / 2  # the search stopped early
    assert field.cost(np.array([far])) == whole[far]  # and widens for a far one
