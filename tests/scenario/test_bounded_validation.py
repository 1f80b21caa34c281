"""Validation's walks are searched only as far as the turn limit allows (issue 11): an
objective within it widens the search until reached; one farther than HORIZON times its limit
is reported as "more than N turns".  The findings must be the ones whole-board searches give
under that rule, on every sample scenario and with its turn limit cut, raised or removed."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from benchmarks.neighbourhood import neighbourhood, scenario
from engine import model as m
from engine import scenario_checks
from engine.analysis import balance
from engine.board import compile_board
from engine.io.resolve import load_board
from engine.movement import build_graph
from engine.pace import HORIZON, WalkField, walk_field
from engine.validate import validate
from tests.scenario.scenes import scenario as scene

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml"))


class _Whole:
    """The field as validation searched it before: every node of the board; a walk farther
    than asked is then cut as the documented rule says."""

    def __init__(self, board, ruleset, sources, pace, start):
        self.dist = walk_field(board, ruleset, sources, pace)

    def cost(self, nodes):
        nodes = np.asarray(nodes, dtype=np.int64)
        nodes = nodes[nodes >= 0]
        return float(self.dist[nodes].min()) if len(nodes) else math.inf

    def cost_within(self, nodes, within):
        v = self.cost(nodes)
        return v if v <= within + 1e-6 * max(1.0, within) or v == math.inf else None


def _findings(board, scenario):
    return [(f.code, f.severity, f.message, repr(f.where)) for f in validate(board, scenario)]


def _variants(scen):
    return [scen, replace(scen, turn_limit=None), replace(scen, turn_limit=1),
            replace(scen, turn_limit=3), replace(scen, turn_limit=60)]


def _compare(board, variants, monkeypatch):
    bounded = [_findings(board, s) for s in variants]
    with monkeypatch.context() as mp:
        mp.setattr(scenario_checks, "walk_to", _Whole)
        mp.setattr(balance, "walk_to", _Whole)
        whole = [_findings(board, s) for s in variants]
    assert bounded == whole
    return bounded


@pytest.mark.parametrize("name", SAMPLES)
def test_findings_are_the_whole_board_searches(name, monkeypatch):
    scen, board = load_board(ROOT / "scenarios" / name)
    bounded = _compare(board, _variants(scen), monkeypatch)
    timed = [f for f in bounded[2] if f[0] in ("objective-too-far", "objective-turns",
                                               "objective-too-far-for-slowest")]
    assert timed, "the samples' objectives are timed"
    # no limit: every walk is searched to its end and told exactly
    assert "more than" not in repr(bounded[1])


def test_far_objectives_on_a_city(monkeypatch):
    """The benchmark scenario on a small city: objectives across the map, limits that put
    some beyond the horizon and some just inside it; sides racing for them."""
    lay, sheets = neighbourhood(blocks=3)
    board = compile_board(lay, sheets)
    scen = scenario(lay)
    variants = [replace(scen, turn_limit=t) for t in (None, 1, 2, 4, 7, 12)]
    found = _compare(board, variants, monkeypatch)
    assert any("more than 2 turn(s)" in f[2] for f in found[1])
    assert any("more than" not in f[2] and f[0] == "objective-turns" for f in found[-1])


def test_an_objective_beyond_the_horizon_reads_as_a_designer_expects():
    scen, board = load_board(ROOT / "scenarios" / "street-ambush.yaml")
    whole = {f.where["objectives"][0]: f for f in validate(board, replace(scen, turn_limit=None))
             if f.code == "objective-turns"}
    cut = replace(scen, turn_limit=2)  # horizon: 4 turns; every objective here needs more
    far = [f for f in validate(board, cut) if f.code == "objective-too-far"]
    assert far and {f.where["objectives"][0] for f in far} <= set(whole)
    for f in far:
        assert f.severity == "error"
        t = f.where["turns"]
        assert (t["slowest"], t["limit"], t["more_than"]) == (None, 2, HORIZON * 2)
        # the escort's walk to its west exit (move ratio 2) ends at 6 turns, beyond the limit
        assert t["fastest"] is None or t["fastest"] > HORIZON * 2
        assert f"more than {HORIZON * 2} turn(s) at move ratio" in f.message
        assert f.message.endswith("even the fastest cannot make it within the turn limit of 2")
        assert whole[f.where["objectives"][0]].where["turns"]["fastest"] > HORIZON * 2
    assert [f.where["objectives"][0] for f in far
            if f.where["turns"]["fastest"] is None] == ["grab-the-case"]


def test_a_sealed_objective_beyond_the_horizon_is_still_unreachable(monkeypatch):
    """A place no walk gets to is "no path", not "more than N turns", however short the
    search: the far and the sealed are told apart by reachability (the hotel's vault)."""
    objs = (m.Objective("vault-cash", "runners", "reach", at=(22, 12, 0)),
            m.Objective("yard", "runners", "reach", at=(37, 27, 0)),
            m.Objective("guards-out", "runners", "eliminate", target="guards"),
            m.Objective("loot", "guards", "retrieve", at=(2, 2, 0), then="exit-east"))
    scen, board, _ = scene(objs, turn_limit=1)
    found = _compare(board, [scen] + [replace(scen, turn_limit=t) for t in (2, 8, None)],
                     monkeypatch)
    codes = {(f[0], f[2].split(" ")[1]) for f in found[0]}
    assert ("objective-unreachable", "vault-cash") in codes
    assert ("objective-too-far", "yard") in codes and ("objective-too-far", "loot") in codes
    side = scen.sides[0]
    zone = scenario_checks.deployment_dots(board, side.deployment)
    fast = scenario_checks.side_paces("dmz1990", side)[0]
    src = scenario_checks._nodes(board, zone)
    whole = walk_field(board, "dmz1990", src, fast)
    sealed = np.nonzero(~np.isfinite(whole))[0]
    far = int(np.nanargmax(np.where(np.isfinite(whole), whole, np.nan)))
    assert board.node((22, 12, 0)) in sealed and whole[far] > 2 * fast.per_turn
    field = WalkField(board, "dmz1990", src, fast, start=fast.per_turn)
    half = float(whole[far]) / 2
    assert field.cost_within(np.array([far]), half) is None
    assert field.cost_within(sealed[:1], half) == math.inf
    assert field.cost_within(np.array([far]), whole[far]) == whole[far]  # exact at its cost
    assert field.limit <= whole[far] * (1 + 1e-6) + 1e-6  # searched no farther than asked
    assert field.cost_within(np.array([far]), whole[far] - 0.5) is None  # the same answer
    assert np.array_equal(field.reached(), np.isfinite(whole))
    # a place farther than asked by the box-to-box bound alone is not searched at all
    fresh = WalkField(board, "dmz1990", src, fast, start=fast.per_turn)
    assert fresh.cost_within(np.array([far]), 1.0) is None and fresh.dist is None
    assert fresh.cost_within(sealed[:1], 1.0) == math.inf and fresh.dist is None


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


@pytest.mark.parametrize("name", SAMPLES[:3])
def test_sealed_rooms_answer_the_same_on_any_move_ratios_matrix(name):
    """sealed_rooms asks connection only and takes a matrix the timing checks built: every
    move ratio's matrix has the same entries, so its findings are the move-ratio-1 matrix's."""
    _scen, board = load_board(ROOT / "scenarios" / name)
    g = build_graph(board)
    one = g.matrix(1, False)
    for mr, crawl in ((2, False), (4, True)):
        other = g.matrix(mr, crawl)
        assert np.array_equal(one.indptr, other.indptr)
        assert np.array_equal(one.indices, other.indices)
    want = scenario_checks.sealed_rooms(board, None)
    g._mats.pop((1, False))
    assert scenario_checks._connections(g) is g._mats[(2, False)]
    assert scenario_checks.sealed_rooms(board, None) == want


def test_sealed_rooms_found_through_another_matrix():
    _scen, board, _ = scene(())
    g = build_graph(board)
    want = scenario_checks.sealed_rooms(board, None)
    assert [f.code for f in want].count("sealed-room") >= 1  # the hotel's vault
    g._mats.clear()
    g.matrix(3, True)
    assert (1, False) not in g._mats
    assert scenario_checks.sealed_rooms(board, None) == want
    assert (1, False) not in g._mats


@pytest.mark.parametrize("ruleset", ["dmz1990", "darkcon"])
def test_reaches_agrees_with_the_breadth_first_search(ruleset):
    """Far or sealed: a strongly connected component shared with a source answers at once,
    anything else is the breadth-first search's answer (the hotel's sealed vault, random sets,
    a metre ruleset's two parity layers)."""
    from engine.pace import Pace, strong_components

    scen, board, _ = scene((), turn_limit=1)
    zone = scenario_checks.deployment_dots(board, scen.sides[0].deployment)
    src = scenario_checks._nodes(board, zone)
    pace = Pace("MP", 2) if ruleset == "dmz1990" else Pace("m", per_turn=10.0)
    field = WalkField(board, ruleset, src, pace, start=pace.per_turn)
    reached = np.isfinite(walk_field(board, ruleset, src, pace))
    sealed = np.nonzero(~reached)[0]
    assert len(sealed) and reached.any()
    rng = np.random.default_rng(5)
    sets = [sealed[:1], sealed, np.nonzero(reached)[0][-1:]]
    sets += [rng.choice(board.node_count, size=k, replace=False) for k in (1, 1, 2, 3, 8)]
    sets += [rng.choice(sealed, size=min(3, len(sealed)), replace=False)]
    for nodes in sets:
        assert field.reaches(nodes) == bool(reached[nodes].any()), nodes
    assert field.reaches(board.node((22, 12, 0)) + np.zeros(1, dtype=np.int64)) is False
    # one labelling per layout of entries: another move ratio's matrix reuses it
    g = build_graph(board)
    lab = strong_components(g, g.matrix(2, False))
    assert strong_components(g, g.matrix(3, False)) is lab
