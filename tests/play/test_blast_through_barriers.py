"""sr3's Blast against Barriers asked the same way by the engine and by play's grenades.

A closed front door of Average Material (Barrier Rating 4, doubled 8, seed 001 l.920) in a
wall of a small house; the blast of an offensive grenade (Power 10, -1 per metre, l.905-915).
"""

from __future__ import annotations

from builders import board_of, building, outer_walls

from engine import model as m
from engine.play.engine_board import EngineBoard
from engine.sight import blast_through


def house_board():
    door = m.Opening(kind="door", span=((1.5, 3.5), (2.5, 3.5)), state="closed", cls="average",
                     id="front")
    house = building("house", 6, 4, levels=(m.Level(0, walls=outer_walls(6, 4, "average"),
                                                    doors=(door,)),))
    return board_of([house], [m.Placement("house", (4, 4))])


def test_blast_through_a_door_by_the_book_in_engine_and_play():
    board = house_board()
    inside = (6, 6, 0)  # the door's middle is (6, 7.5)
    # burst 1 m from the door (Power 9 > 8): a hole, on at 9 - 4; 4 m from the target: 10-4-4
    near = blast_through(board, (6, 8, 0), inside, "offensive", ruleset="sr3")
    assert [(b["metres"], b["power"], b["effect"]) for b in near["barriers"]] == \
        [(1.0, 9, "holed")]
    assert near["reaches"] and near["damage"] == "2S"
    # 2 m further in the blast is spent: 10 - 6 - 4 = 0
    assert not blast_through(board, (6, 8, 0), (6, 5, 0), "offensive", ruleset="sr3")["reaches"]
    # burst 3 m from the door (Power 7, at least half of 8): damaged, it holds: no blast inside
    far = blast_through(board, (6, 9, 0), inside, "offensive", ruleset="sr3")
    assert far["barriers"][0]["effect"] == "damaged" and not far["reaches"]
    # dmz1990 has no such rule: None, the DMZ blast is resolved barrier by barrier
    assert blast_through(board, (6, 8, 0), inside, "offensive") is None
    # play asks the same question of its board and gets the same answer
    play = EngineBoard(board, ruleset="sr3")
    assert play.blast_through((6, 8, 0), inside, "offensive") == near
    assert EngineBoard(board).blast_through((6, 8, 0), inside, "offensive") is None


def _play_blast(burst, ruleset):
    from engine.play import actions as A
    from tests.play.helpers import ScriptedDice, build, char

    board = EngineBoard(house_board().fork(), ruleset=ruleset)
    grenade = m.Weapon(type="offensive-grenade", shots=1)
    thrower = char("liam", "runners", (6, 12, 0), weapons=(grenade,), success={"throwing": 12})
    thrower.ready = 0
    guard = char("guard", "corp", (6, 6, 0), defense={"impact": 8, "ballistic": 8})
    game = build(board, [thrower, guard], ["runners", "corp"], dice=ScriptedDice([2] + [12] * 40))
    game.act(A.begin("liam"))
    game.act(A.throw(burst))
    game.act(A.end())
    return game.log


def test_plays_grenade_asks_the_ruleset_whether_the_blast_breaks_through():
    # sr3: the closed door hides the guard; 1 m from the door the blast holes it and reaches
    log = _play_blast((6, 8, 0), "sr3")
    assert [(e["target"], e["power"], e["barriers"]) for e in log.of_kind("blast-through")] == \
        [("guard", 2, ["holed"])]
    assert any(t["purpose"] == "grenade blast" and t.get("target") == "guard"
               for t in log.of_kind("test"))
    # 3 m from the door the door holds (damaged): the guard is shielded
    log = _play_blast((6, 9, 0), "sr3")
    assert [e["target"] for e in log.of_kind("blast-shielded")] == ["guard"]
    assert log.of_kind("blast-through") == []
