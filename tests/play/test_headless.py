"""Headless bot games and the balance report."""

import json

import pytest

from engine import model as m
from engine.play.headless import format_report, report, run_cli, run_games, wilson
from tests.builders import board_of, building, outer_walls, pavement
from tests.play.fakes import GridBoard
from tests.play.scenarios import raid

WALLS = {(8, r) for r in range(1, 4)} | {(10, r) for r in range(8, 11)}


def make_view():
    return GridBoard(18, 12, walls=WALLS, obstacles={(5, 6): 1, (13, 3): 1},
                     openings={(8, 6): ["door-a", "door", "closed"]})


def test_wilson_interval():
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_report_counts_every_game(capsys):
    code = run_cli(raid(), None, 6, 100, True, make_view=make_view, workers=1)
    assert code == 0
    out, err = capsys.readouterr()
    rep = json.loads(out)
    assert rep["games"] == 6 and rep["seeds"] == [100, 105]
    assert sum(s["wins"] for s in rep["sides"]) + rep["draws"] == 6
    assert [s["id"] for s in rep["sides"]] == ["runners", "guards"]
    for s in rep["sides"]:
        lo, hi = s["ci95"]
        assert lo <= s["win_rate"] <= hi
    assert [o["id"] for o in rep["objectives"]] == ["grab", "stop-them"]
    assert rep["average_turns"] == 6.0  # seeded: every raid runs to its 6-turn limit
    assert "played 6/6 games" in err


def test_worker_processes_play_the_same_games():
    one = run_games(raid(), make_view, 4, 7, workers=1)
    two = run_games(raid(), make_view, 4, 7, workers=2)
    assert one == two and [r["seed"] for r in one] == [7, 8, 9, 10]


def test_text_report():
    results = run_games(raid(), make_view, 3, 1, workers=1)
    text = format_report(report(raid(), results, 1, 1))
    assert "Raid: 3 bot games, seeds 1..3" in text
    assert "runners" in text and "95% interval" in text and "grab (runners, retrieve" in text


def test_bad_input_is_exit_code_2(capsys):
    one_side = m.Scenario(title="Lonely", layout=m.Layout(), sides=raid().sides[:1])
    assert run_cli(one_side, None, 3, 1, False, make_view=make_view, workers=1) == 2
    assert "at least two sides" in capsys.readouterr().err
    assert run_cli(raid(), None, 0, 1, False, make_view=make_view, workers=1) == 2


def test_on_the_engine_board_the_original_board_stays_untouched(capsys):
    lv = m.Level(0, walls=outer_walls(6, 4),
                 doors=(m.Opening("door", ((-0.5, 0.5), (-0.5, 1.5)), state="closed", id="d1"),))
    hut = building("hut", 6, 4, height=1, levels=(lv,))
    board = board_of([hut], [m.Placement("hut", (7, 3), id="hut")], pave=pavement(22, 12))
    sc = raid(turn_limit=4)
    assert run_cli(sc, board, 2, 3, True, workers=1) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["games"] == 2
    assert board.feature("hut/d1").props["state"] == "closed"
