"""Grenades in play: Liam's blast values, scatter, smoke on the map, walls blown open."""

import pytest

from engine import model as m
from engine.play import actions as A
from engine.play.game import PlayError
from tests.play.fakes import GridBoard
from tests.play.helpers import ScriptedDice, build, char

AIRFOIL = m.Weapon(type="ipe-defensive-grenade-airfoil", shots=2)


def liam_game(rolls, board=None, weapon=AIRFOIL, guards=((5, 5), (6, 5), (7, 5))):
    board = board or GridBoard(20, 12)
    liam = char("liam", "runners", (0, 5, 0), weapons=(weapon,),
                success={"throwing": 12, "unarmed": 10})
    liam.ready = 0
    gs = [char(f"guard{i + 1}", "corp", (c, r, 0), defense={"impact": 8, "ballistic": 8})
          for i, (c, r) in enumerate(guards)]
    game = build(board, [liam, *gs], ["runners", "corp"], dice=ScriptedDice(rolls))
    return game, liam


def blasts(game):
    return [(t["target"], t["target_value"], t["chance"]) for t in game.log.of_kind("test")
            if t["purpose"] == "grenade blast"]


def test_liam_on_target_8_16_24():
    # accuracy 2 (on target); blasts: guard1 rolls 11 (hit), location 7; guard2 rolls 9
    # (saved); guard3 rolls 2 (hit), location 12
    game, liam = liam_game([2, 11, 7, 9, 2, 12])
    game.act(A.begin("liam"))
    game.act(A.throw((5, 5, 0)))
    assert liam.mp_spent == 2  # airfoil: 1 MP per 3 dots, 5 dots -> 2
    acc = game.log.of_kind("test")[0]
    assert acc["purpose"] == "grenade accuracy" and acc["target_value"] == 2 and acc["success"]
    assert game.state.grenades and game.log.of_kind("damage") == []  # not until phase end
    game.act(A.end())
    assert blasts(game) == [("guard1", 8, 16), ("guard2", 16, 8), ("guard3", 24, 0)]
    hit = [(d["target"], d["location"], d["boxes"]) for d in game.log.of_kind("damage")]
    assert hit == [("guard1", 7, 4), ("guard3", 12, 4)]
    assert game.state.grenades == []


def test_liam_scattered_two_dots_on():
    # accuracy 12 (fails), direction roll 7: two dots further along the throw
    game, _ = liam_game([12, 7])
    game.act(A.begin("liam"))
    game.act(A.throw((5, 5, 0)))
    sc = game.log.of_kind("scatter")[0]
    assert sc["landed"] == [7, 5, 0] and sc["distance"] == 2
    game.act(A.end())
    assert sorted(blasts(game)) == [("guard1", 24, 0), ("guard2", 16, 8), ("guard3", 8, 16)]


def test_smoke_grenade_lays_smoke_that_blocks_sight():
    smoke = m.Weapon(type="smoke-grenade", shots=1)
    board = GridBoard(20, 12)
    game, liam = liam_game([2], board=board, weapon=smoke, guards=((15, 5),))
    assert not board.sight((0, 5, 0), (15, 5, 0), "standing", "standing", "normal").blocked
    game.act(A.begin("liam"))
    game.act(A.throw((6, 5, 0)))
    assert liam.mp_spent == 3  # 6 dots, 1 MP per 2
    assert liam.ready is None  # his last grenade is gone
    game.act(A.end())
    assert len(game.state.smoke) == 18 and (6, 5, 0) in game.state.smoke
    assert board.sight((0, 5, 0), (15, 5, 0), "standing", "standing", "normal").blocked
    s = board.sight((0, 5, 0), (15, 5, 0), "standing", "standing", "thermographic")
    assert not s.blocked and s.visibility == 1


def test_a_wall_takes_six_boxes_then_opens():
    board = GridBoard(20, 12, walls={(10, 5)})
    grenade = m.Weapon(type="ipe-offensive-grenade", shots=2)
    # accuracy 2, 2; each blast on the wall (TV 12 + 4) rolls 2: 4 - armor 1 = 3 boxes each
    game, _ = liam_game([2, 2, 2, 2], board=board, weapon=grenade, guards=((19, 11),))
    assert board.step((10, 4, 0), (10, 5, 0), 2) is None
    game.act(A.begin("liam"))
    game.act(A.throw((10, 6, 0)))
    game.act(A.throw((10, 6, 0)))
    game.act(A.end())
    walls = [(t["barrier"], t["target_value"]) for t in game.log.of_kind("test")
             if t.get("barrier")]
    assert walls == [("wall@10,5", 16), ("wall@10,5", 16)]
    assert [e["total"] for e in game.log.of_kind("barrier-damage")] == [3, 6]
    assert game.state.holes == ["wall@10,5"]
    assert board.step((10, 4, 0), (10, 5, 0), 2).cost == 3


def test_doors_open_and_close_in_play():
    board = GridBoard(20, 12, openings={(5, 5): ["front", "door", "closed"],
                                        (6, 6): ["pane", "window", "closed"]})
    r = char("r", "a", (4, 6, 0))
    e = char("e", "b", (18, 1, 0))
    game = build(board, [r, e], ["a", "b"])
    game.act(A.begin("r"))
    game.act(A.move((5, 5, 0)))  # through the closed door: 2 + open 2 + through 1
    assert r.mp_spent == 5 and game.state.openings == {"front": "open"}
    assert board.openings[(5, 5)][2] == "open"
    game.act(A.open_("pane"))  # a window next to him: 4 MP
    assert r.mp_spent == 9 and game.state.openings["pane"] == "open"
    with pytest.raises(PlayError, match="3 MP left"):
        game.act(A.open_("pane", "closed"))


def test_shooting_a_wall_open_six_boxes_through_its_armor():
    # an LMG (4 boxes) against an average wall (barrier 12, armor 1): 3 boxes a hit
    board = GridBoard(20, 12, walls={(10, 5)})
    gunner = char("gunner", "runners", (4, 5, 0), wtype="lmg", weapon_success=(16, 14, 12, 10),
                  damage=4)
    far = char("far", "corp", (19, 11, 0))
    game = build(board, [gunner, far], ["runners", "corp"], dice=ScriptedDice([5, 5]))
    game.act(A.begin("gunner"))
    game.act(A.breach("wall@10,5"))
    t = game.log.of_kind("test")[0]
    # 6 dots is short range for an LMG: 16 against 12 + 2 movement fire
    assert (t["success_value"], t["target_value"], t["chance"]) == (16, 14, 2)
    assert t["success"] is False  # rolled 5
    assert game.state.barrier_damage == {}
    game.dice.totals = [2, 2]
    game.act(A.breach("wall@10,5"))
    game.act(A.breach("wall@10,5"))
    assert game.state.barrier_damage == {"wall@10,5": 6}
    assert game.state.holes == ["wall@10,5"] and gunner.mp_spent == 9
    with pytest.raises(PlayError, match="already broken"):
        game.act(A.breach("wall@10,5"))
