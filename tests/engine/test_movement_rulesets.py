"""path and reach in each book's own measure: MP for dmz1990, metres for sr3, sr1, darkcon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.movement import cheapest_path, reach
from engine.rules import get_ruleset
from tests.builders import board_of

ROOT = Path(__file__).resolve().parents[2]


def test_darkcon_counts_every_other_diagonal_double():
    # seed 003 l.128: 2 m east + 2 m northeast + 2 m north + 4 m (2nd diagonal) = 10 m
    assert get_ruleset("darkcon").path_metres(2, 2, 0) == 10
    b = board_of([], [])
    three = cheapest_path(b, (0, 5, 0), (3, 2, 0), ruleset="darkcon")
    assert (three.cost, three.units, [s.cost for s in three.steps]) == (8, "m", [2, 4, 2])
    assert cheapest_path(b, (0, 5, 0), (4, 3, 0), ruleset="darkcon").length_m == 10
    # reach is exact too: the first diagonal is 2 m, the second 4 m
    got = reach(b, (0, 5, 0), mp=4, ruleset="darkcon")
    assert got[(1, 4, 0)] == 2 and got[(2, 5, 0)] == 4 and (2, 3, 0) not in got


def test_shadowrun_walks_metres_along_the_path():
    b = board_of([], [])
    res = cheapest_path(b, (0, 5, 0), (5, 5, 0), ruleset="sr3")
    assert (res.cost, res.length_m, res.units) == (10, 10, "m")
    assert cheapest_path(b, (0, 5, 0), (2, 3, 0), ruleset="sr1").length_m == 5.66  # 2 x 2.83
    got = reach(b, (0, 5, 0), mp=5, ruleset="sr3")  # Quickness 5, walking (seed 001 l.212)
    assert (2, 5, 0) in got and (2, 4, 0) in got and (2, 3, 0) not in got and (3, 5, 0) not in got


def test_dmz_stays_in_mp_and_reports_metres_walked():
    b = board_of([], [])
    res = cheapest_path(b, (0, 5, 0), (5, 5, 0), 2)
    assert (res.cost, res.units, res.length_m) == (10, "MP", 10)


@pytest.mark.parametrize("ruleset,pace,budget", [("sr3", "run", 15), ("sr1", "run", 20),
                                                 ("sr3", "run-troll", 10), ("sr1", "run-troll", 15)])
def test_cli_reach_running_differs_between_the_two_shadowrun_texts(tmp_path, capsys, ruleset,
                                                                    pace, budget):
    # seed 001 l.223-230: x3 (dwarf, troll x2); seed 004 l.1132-1136: x4 (dwarf, troll x3)
    text = (ROOT / "scenarios" / "street-ambush.yaml").read_text()
    path = tmp_path / "s.yaml"
    path.write_text(text.replace("ruleset: dmz1990", f"ruleset: {ruleset}", 1))
    assert main(["reach", str(path), "30,20", "--rate", "5", "--pace", pace, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["units"] == "m" and out["budget"] == budget
    assert max(d["cost"] for d in out["dots"]) <= budget
    assert main(["path", str(path), "30,20", "34,20", "--json"]) == 0
    p = json.loads(capsys.readouterr().out)
    assert (p["units"], p["length_m"], p["cost"]) == ("m", 8, 8)


def test_cli_path_under_dmz_still_needs_a_move_ratio(capsys):
    assert main(["path", str(ROOT / "scenarios" / "street-ambush.yaml"), "30,20", "34,20"]) == 2
    assert "--move-ratio is required under dmz1990" in capsys.readouterr().err
