"""One question, every door: the CLI, validation and play give the ruleset's own answer.

The street-ambush map has a closed thick glass door (office/d-front, x 19.5..21.5 at y 13.5)
and a closed reinforced window (office/win-lobby-nw, x 23.5..26.5 at y 13.5).  Each line below
is asked through ``sprawlmap los --json``, :func:`engine.sight.sight`, the fan validation uses,
the set-up validation check and play's board view; all must agree, ruleset by ruleset.
(The editor's LOS tool asks the same in tests/editor/test_one_verdict_editor.py.)
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from engine import model as m
from engine.cli import main
from engine.io import load_board
from engine.play.engine_board import EngineBoard
from engine.scenario_checks import mutual_los_at_setup
from engine.sight import sight, sight_fan

ROOT = Path(__file__).resolve().parents[2]
DOOR = ((20, 17, 0), (20, 11, 0))
WINDOW = ((25, 17, 0), (25, 11, 0))
WEAPON = {"dmz1990": None, "sr3": "heavy-pistol", "sr1": "heavy-pistol", "darkcon": "20"}

#: ruleset -> line -> (result, total, barrier_rating) as each book prices it
EXPECTED = {
    # seed 000 l.796: a door or window interrupts whatever its state, +1
    "dmz1990": {"door": ("interrupted", 1, None), "window": ("interrupted", 1, None)},
    # seed 001 l.486/l.489/l.946-962: a closed door is an opaque barrier (Heavy Material 6, a
    # thick door); a closed window is Partial Cover +4 with its glass rating (Reinforced 8)
    "sr3": {"door": ("blocked", 0, 6), "window": ("interrupted", 4, 8)},
    # seed 004 l.1398: a closed door or window is hard cover, its rating reported
    "sr1": {"door": ("interrupted", 4, 6), "window": ("interrupted", 4, 8)},
    # seed 003 l.346: no direct fire at what the firer cannot see; glass hides nothing
    "darkcon": {"door": ("blocked", 0, None), "window": ("interrupted", 0, None)},
}


def scenario_file(tmp_path: Path, ruleset: str) -> Path:
    text = (ROOT / "scenarios" / "street-ambush.yaml").read_text()
    out = tmp_path / f"street-ambush-{ruleset}.yaml"
    out.write_text(text.replace("ruleset: dmz1990", f"ruleset: {ruleset}", 1))
    return out


@pytest.mark.parametrize("ruleset", list(EXPECTED))
@pytest.mark.parametrize("line", ["door", "window"])
def test_every_door_gives_the_rulesets_answer(tmp_path, capsys, ruleset, line):
    a, b = DOOR if line == "door" else WINDOW
    result, total, rating = EXPECTED[ruleset][line]
    path = scenario_file(tmp_path, ruleset)
    scenario, board = load_board(path)
    assert scenario.ruleset == ruleset

    # the engine's one verdict
    v = sight(board, a, b, ruleset=ruleset, weapon=WEAPON[ruleset])
    assert (v.result, v.mods["total"] if not v.blocked else 0, v.mods.get("barrier_rating")) \
        == (result, total, rating)

    # the CLI
    argv = ["los", str(path), ",".join(map(str, a)), ",".join(map(str, b)), "--json"]
    if WEAPON[ruleset]:
        argv += ["--weapon", WEAPON[ruleset]]
    code = main(argv)
    out = json.loads(capsys.readouterr().out)
    assert code == (1 if result == "blocked" else 0)
    assert (out["result"], out["blocked"], out["barrier_rating"]) == (result, v.blocked, rating)
    assert out["target_modifier"] == v.mods["total"] and out["reasons"] == v.reasons
    assert out["range_m"] == 12.0  # 6 dots along a straight line, 2 m each

    # the fan validation and the editor's fan shade from
    fan = sight_fan(board, a, ruleset=ruleset, targets=np.array([b[:2]]), level=0)
    assert bool(fan.blocked[0]) == v.blocked
    if not v.blocked:
        assert bool(fan.cover[0] > 0) == (result == "interrupted")

    # play, on a fork of the same board
    seen = EngineBoard(board.fork(), ruleset=ruleset).sight(a, b, "standing", "standing", "normal")
    assert seen.blocked == v.blocked
    if not seen.blocked:
        assert seen.total == v.mods["total"]


@pytest.mark.parametrize("ruleset,warns", [("dmz1990", True), ("sr3", False), ("sr1", True),
                                           ("darkcon", False)])
def test_set_up_validation_sees_through_a_closed_door_only_where_the_ruleset_does(
        tmp_path, ruleset, warns):
    scenario, board = load_board(scenario_file(tmp_path, ruleset))
    one = (0.4, 0.4)

    def zone(dot):
        c, r, _ = dot
        return m.Deployment(polygon=((c - one[0], r - one[1]), (c + one[0], r - one[1]),
                                     (c + one[0], r + one[1]), (c - one[0], r + one[1])))
    sides = (m.Side("a", deployment=zone(DOOR[0])), m.Side("b", deployment=zone(DOOR[1])))
    found = mutual_los_at_setup(board, dataclasses.replace(scenario, sides=sides))
    assert bool(found) == warns


def test_play_opens_the_door_in_an_overlay_and_then_sees_through_it(tmp_path):
    _scenario, board = load_board(scenario_file(tmp_path, "sr3"))
    eb = EngineBoard(board.fork(), ruleset="sr3")
    a, b = DOOR
    assert eb.sight(a, b, "standing", "standing", "normal").blocked
    eb.set_opening("office/d-front", "open")
    s = eb.sight(a, b, "standing", "standing", "normal")
    assert not s.blocked and s.total == 4  # an open doorway is Partial Cover (seed 001 l.489)
    # the compiled board still has the door closed: play's change is in the fork's overlay
    assert board.feature("office/d-front").props["state"] == "closed"
    assert eb.board.overlay["office/d-front"].props["state"] == "open"
    assert sight(board, a, b, ruleset="sr3").blocked
