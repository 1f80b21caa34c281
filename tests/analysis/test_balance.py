"""Balance findings: who reaches an objective first, and a zone with nowhere to hide."""

from __future__ import annotations

import dataclasses

from engine import model as m
from engine.analysis.balance import exposed_deployments, tempo_gaps
from engine.io import load_board
from engine.validate import validate
from tests.analysis.mirrored import mirrored_scenario
from tests.builders import rect


def _with_objectives(sc, *objs):
    return dataclasses.replace(sc, objectives=tuple(objs))


def test_a_centred_objective_is_an_even_race_and_an_off_centre_one_is_not():
    sc, board = mirrored_scenario()
    centre = m.Objective("middle", "west", "reach", at=(23, 25, 0))
    assert tempo_gaps(board, _with_objectives(sc, centre)) == []
    near_west = m.Objective("west-door", "east", "reach", at=(8, 28, 0))
    (f,) = tempo_gaps(board, _with_objectives(sc, near_west))
    assert f.code == "tempo-gap" and f.where["sides"] == ["west"]
    assert f.where["dots"] == [[8, 28, 0]]
    # west walks 6 dots (12 MP: turn 1), east 37 dots (74 MP: turn 7) at move ratio 2
    assert "side west first gets there on turn 1, east on turn 7" in f.message


def test_hold_areas_race_on_their_nearest_dot():
    sc, board = mirrored_scenario()
    hold = m.Objective("yard", "east", "hold", area=rect(37.5, 27.5, 40.5, 28.5), turns=2)
    (f,) = tempo_gaps(board, _with_objectives(sc, hold))
    assert f.where["sides"] == ["east"] and "east first gets there on turn 1" in f.message


def test_street_ambush_corp_zone_is_in_sight_of_the_roof():
    """The escort's first set-up strip (the open west kerb) is all in sight of the roof; the
    shipped one (the warehouse loading bay) is not.  (Rows 25-31 of the kerb now lie under
    the escort's smoke: the strip tested is rows 20-24.)"""
    sc, board = load_board("scenarios/street-ambush.yaml")
    assert exposed_deployments(board, sc) == []
    kerb = m.Deployment(polygon=rect(-0.5, 19.5, 2.5, 24.5), level=0)
    sides = tuple(dataclasses.replace(s, deployment=kerb) if s.id == "corp" else s
                  for s in sc.sides)
    old = dataclasses.replace(sc, sides=sides)
    (f,) = exposed_deployments(board, old)
    assert f.code == "deployment-exposed" and f.where["sides"] == ["corp"]
    assert "15 dots of side corp" in f.message
    assert any(f.code == "deployment-exposed" for f in validate(board, old))


def test_mirrored_zones_are_not_fully_exposed():
    sc, board = mirrored_scenario()
    assert exposed_deployments(board, sc) == []
