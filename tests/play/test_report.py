"""Per-game records, play-merge, the report's findings, the balance delta and the heat map."""

import json

import pytest

from engine.play.headless import merge_cli, report, run_cli, run_games
from engine.play.records import RecordsError, header, read_records, write_records
from engine.play.report import build_report, delta_report, findings, format_report
from tests.play.scenarios import raid
from tests.play.test_headless import make_view


def _game(seed, winner="runners", shots=0, casualties=(), achieved=None, turns=6):
    return {"record": "game", "seed": seed, "winner": winner, "turns": turns,
            "achieved": dict(achieved or {}), "objective_turns": {}, "scores": {},
            "out": [], "shots": shots, "reaction_shots": 0, "hits": 0, "melee": 0,
            "grenades": 0, "casualties": list(casualties), "shots_at": [], "ends": []}


def test_records_merge_into_the_same_report(tmp_path):
    sc = raid()
    games = run_games(sc, make_view, 4, 11, workers=1)
    assert all(g["record"] == "game" for g in games)
    whole = report(sc, games, 11, 1)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_records(a, header(sc), games[:2])
    write_records(b, header(sc), games[2:])
    head, merged = read_records([str(b), str(a)])
    rebuilt = build_report(head, merged, 1)
    assert rebuilt == whole and rebuilt["seeds"] == [11, 14]


def test_play_merge_prints_the_report(tmp_path, capsys):
    sc = raid()
    games = run_games(sc, make_view, 3, 1, workers=1)
    p = tmp_path / "r.jsonl"
    write_records(p, header(sc), games)
    assert merge_cli([str(p)], True) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["games"] == 3 and sum(s["wins"] for s in rep["sides"]) + rep["draws"] == 3


def test_bad_records_are_one_line_errors(tmp_path, capsys):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"record": "header", "format": "sprawlmap/play-records@1"}\n{oops\n')
    with pytest.raises(RecordsError, match=r"bad.jsonl:2: not a JSON line"):
        read_records([str(p)])
    assert merge_cli([str(p)], False) == 2
    assert "bad.jsonl:2:" in capsys.readouterr().err
    q = tmp_path / "other.jsonl"
    q.write_text(json.dumps({"record": "game", "seed": 1, "winner": "x"}) + "\n")
    with pytest.raises(RecordsError, match="other.jsonl:1: a game record before the header"):
        read_records([str(q)])


def test_findings_say_no_fight_and_who_kills():
    head = header(raid())
    quiet = build_report(head, [_game(s) for s in range(5)])
    assert quiet["average_shots"] == 0
    assert quiet["findings"][0].startswith("no fight happened: no shot in 5 games")
    kill = {"who": "guards/g1", "side": "guards", "by": "sabre", "by_side": "runners",
            "how": "reaction fire", "turn": 2, "at": [3, 3, 0], "dead": False}
    other = dict(kill, by="gilliam", how="movement fire")
    games = [_game(s, shots=4, casualties=[kill, kill, other]) for s in range(4)]
    rep = build_report(head, games)
    assert "sabre scores 67% of the kills (8 of 12)." in rep["findings"]
    assert "reaction fire causes 67% of casualties" in " ".join(rep["findings"])
    assert any(f.startswith("runners wins 100% of games (95% 51%-100%)") for f in rep["findings"])
    assert rep["casualties"]["by_turn"] == {2: 12}


def test_finding_an_objective_that_needs_more_turns_than_the_limit():
    head = header(raid(), {"unopposed": {"grab": {"turns": 12, "mp": 140, "limit": 6}}})
    rep = build_report(head, [_game(s, shots=3) for s in range(3)])
    assert "objective grab needs 12 turns unopposed, limit 6: it cannot fall; raise the " \
           "turn limit to 13 or move it closer." in rep["findings"]


def test_balance_delta_on_paired_seeds():
    head = header(raid())
    a = [_game(s, winner="guards") for s in range(10)]
    b = [_game(s, winner="runners" if s < 6 else "guards") for s in range(10)]
    dl = delta_report(build_report(head, a), a, build_report(head, b), b)
    runners = dl["sides"][0]
    assert dl["paired_games"] == 10 and runners["delta"] == 0.6 and runners["significant"]
    same = delta_report(build_report(head, a), a, build_report(head, a), a)
    assert same["sides"][0]["ci95"] == [0.0, 0.0] and not same["sides"][0]["significant"]


def test_cli_options_reach_the_games(capsys, tmp_path):
    out = tmp_path / "g.jsonl"
    code = run_cli(raid(), None, 2, 5, True, make_view=make_view, workers=1,
                   bot_kinds={"guards": "hold"}, behaviours={"runners": "reckless"},
                   records=str(out))
    assert code == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["bots"] == {"runners": "smart/reckless", "guards": "hold"}
    head, games = read_records([str(out)])
    assert head["scenario"] == "Raid" and [g["seed"] for g in games] == [5, 6]
    assert run_cli(raid(), None, 2, 5, True, make_view=make_view, workers=1,
                   bot_kinds={"nobody": "hold"}) == 2
    assert "--bot names no side of the scenario: nobody" in capsys.readouterr().err


def test_findings_never_empty_for_no_games():
    assert findings(build_report(header(raid()), [])) == ["no games were played"]


def test_heatmap_png(tmp_path):
    from engine import model as m
    from engine.play.heatmap import counts, write_heatmap
    from tests.builders import board_of, pavement

    board = board_of([], [], pave=pavement(20, 12))
    sc = m.Scenario(title="Field", layout=m.Layout())
    g = _game(1, casualties=[{"who": "a", "side": "x", "by": "b", "by_side": "y",
                              "how": "melee", "turn": 1, "at": [4, 4, 0], "dead": True}])
    g["shots_at"] = [[2, 2, 0], [2, 2, 0]]
    g["ends"] = [["x", 5, 5, 0]]
    assert counts([g])["shots_at"][(2, 2, 0)] == 2
    out = tmp_path / "h.png"
    write_heatmap(out, sc, board, [g])
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_finding_a_side_shot_up_before_it_can_act():
    head = header(raid())  # runners 2 characters, guards 3
    hit = {"who": "g", "side": "guards", "by": "sabre", "by_side": "runners",
           "how": "movement fire", "turn": 1, "at": [9, 3, 0], "dead": True}
    games = [_game(s, shots=5, casualties=[hit, hit, dict(hit, turn=4)]) for s in range(4)]
    rep = build_report(head, games)
    assert "guards loses 3.0 of its 3 characters a game (the others 0.0), 67% of them in " \
           "turns 1-2: it is shot up before it can act; give it cover or a deployment out " \
           "of the enemy's sight." in rep["findings"]


def test_finding_an_objective_with_no_time_for_the_fight():
    # Street Ambush's case before the edit: 9 turns unopposed of 10, fell in 1 of 100 games
    head = header(raid(), {"unopposed": {"grab": {"turns": 9, "mp": 100, "limit": 10}}})
    head["turn_limit"] = 10
    games = [_game(s, shots=3, achieved={"grab": "runners"} if s == 0 else None)
             for s in range(30)]
    rep = build_report(head, games)
    assert "objective grab (runners) fell in 1 of 30 games: unopposed it needs 9 of the 10 " \
           "turns, so the fight leaves no time for it; raise the turn limit to about 14 or " \
           "move it closer." in rep["findings"]
    # with slack (5 of 10 turns) the plain sentence stays
    head["unopposed"]["grab"]["turns"] = 5
    assert "objective grab (runners) fell in 1 of 30 games (it needs 5 turns unopposed, " \
           "limit 10)." in build_report(head, games)["findings"]


def test_finding_an_objective_that_always_falls_early():
    head = header(raid())  # grab 10 pts, stop-them 10 pts, limit 6
    games = [_game(s, shots=3, achieved={"grab": "runners"}) for s in range(10)]
    for g in games:
        g["objective_turns"] = {"grab": 2}
    rep = build_report(head, games)
    assert "objective grab (runners, 10 pts) fell in 100% of games, by turn 2 on average: it " \
           "decides nothing; the other objectives do. Make it harder (further, better " \
           "guarded) or worth fewer points." in rep["findings"]
    for g in games:  # falling at turn 3 of 6 is a race, not a foregone thing
        g["objective_turns"] = {"grab": 3}
    assert not any("decides nothing" in f for f in build_report(head, games)["findings"])


def test_finding_a_hold_the_enemy_breaks_into():
    # Chop Shop's office before the bots held it: 5 turn ends needed, 1.2 had on average
    head = header(raid())
    head["objectives"].append({"id": "keep-the-office", "side": "guards", "kind": "hold",
                               "points": 10, "by_turn": None, "turns": 5})
    games = [_game(s, shots=3, achieved={"keep-the-office": "guards"} if s < 2 else None)
             for s in range(10)]
    for g, held in zip(games, (5, 5, 1, 1, 0, 0, 0, 0, 0, 0), strict=True):
        g["held"] = {"keep-the-office": held}
    rep = build_report(head, games)
    row = next(o for o in rep["objectives"] if o["id"] == "keep-the-office")
    assert (row["rate"], row["mean_held"]) == (0.2, 1.2)
    assert "objective keep-the-office (guards) fell in 20% of games: its holders had the area " \
           "to themselves at 1.2 of the 5 turn ends it needs, on average; the enemy gets in " \
           "and stays. Fewer turns, an area the enemy need not enter, or holders strong " \
           "enough to clear it would let it fall." in rep["findings"]
    assert "held 1.2 of 5 turns a game" in format_report(rep)
    # records written before the count was kept: no figure, no sentence
    for g in games:
        del g["held"]
    assert "mean_held" not in next(o for o in build_report(head, games)["objectives"]
                                   if o["id"] == "keep-the-office")

