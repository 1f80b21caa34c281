"""The referee on a toy board: the book's reaction-fire and damage examples in play."""

import pytest

from engine.play import actions as A
from engine.play.game import PlayError
from tests.play.fakes import GridBoard
from tests.play.helpers import ScriptedDice, build, char, set_arc


def counts(game, reactor):
    return [(e["mp"], e["unresolved"], e["attacks"]) for e in game.log.of_kind("reaction-count")
            if e["reactor"] == reactor]


def angela_game(fire_ratio=3):
    board = GridBoard(20, 10)
    angela = char("angela", "runners", (2, 5, 0), move_ratio=2)
    squatter = char("squatter", "squatters", (12, 5, 0), fire_ratio=fire_ratio)
    set_arc(squatter, "wide", 180.0)  # covers the whole room west of him
    game = build(board, [angela, squatter], ["runners", "squatters"])
    return game, angela, squatter


def test_angela_reaction_fire_in_play():
    game, angela, _sq = angela_game()
    game.act(A.begin("angela"))
    game.act(A.move((3, 5, 0)))  # 2 MP: no shot
    game.act(A.move((4, 5, 0)))  # 4 MP: one attack, 1 carried
    game.act(A.prone())  # 1 + 1 = 2: none
    game.act(A.move((5, 5, 0)))  # crawl 4: 6 -> two attacks
    assert counts(game, "squatter") == [(2, 2, 0), (2, 1, 1), (1, 2, 0), (4, 0, 2)]
    assert angela.mp_spent == 9
    assert len(game.log.of_kind("test")) == 3  # the three attacks were rolled (and missed)
    assert game.dice.seed == 0


def test_street_samurai_fire_ratio_2_shoots_at_both_dots():
    game, _angela, _sq = angela_game(fire_ratio=2)
    game.act(A.begin("angela"))
    game.act(A.move((3, 5, 0)))
    game.act(A.move((4, 5, 0)))
    assert [c[2] for c in counts(game, "squatter")] == [1, 1]


def test_needle_free_shot_when_he_dashes_out_of_the_arc():
    # the arc points east from (10,5), 45 degrees wide: (14,6) is inside it, (14,7) is not
    board = GridBoard(20, 12)
    needle = char("needle", "runners", (14, 5, 0), move_ratio=2)
    gunman = char("gunman", "gang", (10, 5, 0), fire_ratio=3)
    set_arc(gunman, "narrow", 0.0)
    game = build(board, [needle, gunman], ["runners", "gang"])
    game.act(A.begin("needle"))
    game.act(A.move((14, 6, 0)))  # still in the arc? 14.0 deg from the centre line: yes
    assert counts(game, "gunman") == [(2, 2, 0)]
    game.act(A.move((14, 7, 0)))  # 26.6 degrees: out; he drew nothing, so the free shot
    assert len(game.log.of_kind("reaction-free")) == 1
    game.act(A.end())
    assert len(game.log.of_kind("reaction-free")) == 1  # once only


def test_needle_spending_four_draws_one_shot_and_no_free_one():
    board = GridBoard(20, 12)
    needle = char("needle", "runners", (14, 6, 0), move_ratio=2)
    gunman = char("gunman", "gang", (10, 5, 0), fire_ratio=3)
    set_arc(gunman, "narrow", 0.0)
    game = build(board, [needle, gunman], ["runners", "gang"])
    game.act(A.begin("needle"))
    game.act(A.prone())  # 1
    game.act(A.stand())  # 3 -> one attack
    game.act(A.move((14, 7, 0)))  # out of the arc
    game.act(A.end())
    assert [c[2] for c in counts(game, "gunman")] == [0, 1]
    assert game.log.of_kind("reaction-free") == []


def test_needle_who_stays_in_the_arc_still_draws_the_free_shot_at_the_end():
    board = GridBoard(20, 12)
    needle = char("needle", "runners", (14, 5, 0), move_ratio=2)
    gunman = char("gunman", "gang", (10, 5, 0), fire_ratio=3)
    set_arc(gunman, "narrow", 0.0)
    game = build(board, [needle, gunman], ["runners", "gang"])
    game.act(A.begin("needle"))
    game.act(A.move((15, 5, 0)))
    game.act(A.end())
    assert len(game.log.of_kind("reaction-free")) == 1


def test_meister_movement_ends_when_damage_cuts_his_mp():
    board = GridBoard(20, 10)
    meister = char("meister", "runners", (2, 5, 0), move_ratio=3)
    gunner = char("gunner", "guards", (12, 5, 0), fire_ratio=3, damage=4)
    set_arc(gunner, "wide", 180.0)
    # three steps of 3 MP: one attack each.  Rolls: shot 1 (12: miss), shot 2 (12: miss),
    # shot 3 hits (roll 2), damage location 6.
    dice = ScriptedDice([12, 12, 2, 6])
    game = build(board, [meister, gunner], ["runners", "guards"], dice=dice)
    game.act(A.begin("meister"))
    game.act(A.move((3, 5, 0)))
    game.act(A.move((4, 5, 0)))
    assert meister.mp_spent == 6
    game.act(A.move((5, 5, 0)))
    dmg = game.log.of_kind("damage")[0]
    assert dmg["location"] == 6 and [b for b, _ in dmg["marked"]] == [6, 5, 4, 3]
    assert meister.mp == 7 and meister.mp_spent == 9
    assert meister.movement_ended and meister.posture == "prone"
    assert game.state.active is None  # his movement is over
    assert meister.moved


def test_knocked_prone_reactor_loses_his_arc_and_movement_fire_is_answered_first():
    board = GridBoard(20, 10)
    runner = char("runner", "runners", (5, 5, 0), move_ratio=2, fire_ratio=3)
    guard = char("guard", "guards", (10, 5, 0), fire_ratio=3)
    set_arc(guard, "wide", 180.0)
    # runner's movement fire (3 MP): guard's reaction first (roll 12 miss), then the
    # runner's shot hits (2) at location 4 -> guard knocked prone, arc gone
    dice = ScriptedDice([12, 2, 4])
    game = build(board, [runner, guard], ["runners", "guards"], dice=dice)
    game.act(A.begin("runner"))
    game.act(A.fire("guard"))
    tests = game.log.of_kind("test")
    assert [t["purpose"] for t in tests] == ["reaction fire", "movement fire"]
    assert tests[1]["modifiers"]["movement_fire"] == 2
    assert guard.posture == "prone" and guard.arcs == []


def test_illegal_actions_are_refused_with_a_reason():
    game, angela, _sq = angela_game()
    with pytest.raises(PlayError, match="no character is moving"):
        game.act(A.move((3, 5, 0)))
    game.act(A.begin("angela"))
    with pytest.raises(PlayError, match="cannot step"):
        game.act(A.move((9, 9, 0)))
    with pytest.raises(PlayError, match="already standing"):
        game.act(A.stand())
    game.act(A.arc("narrow", 0.0))
    with pytest.raises(PlayError, match="last thing"):
        game.act(A.move((3, 5, 0)))
    with pytest.raises(PlayError, match="unknown action"):
        game.act({"act": "fly"})


def test_costs_of_the_special_actions():
    board = GridBoard(20, 10, openings={(4, 5): ["door-1", "door", "closed"]})
    r = char("r", "a", (3, 5, 0), move_ratio=2)
    e = char("e", "b", (15, 1, 0))
    game = build(board, [r, e], ["a", "b"])
    game.act(A.begin("r"))
    game.act(A.open_("door-1"))
    assert r.mp_spent == 2 and game.state.openings == {"door-1": "open"}
    game.act(A.move((4, 5, 0)))  # through the open door: 2 + 1
    assert r.mp_spent == 5
    game.act(A.prone())
    game.act(A.move((5, 5, 0)))  # crawl: 2 x 2
    assert r.mp_spent == 10
    game.act(A.arc("narrow", 0.0))
    assert r.mp_spent == 12
    assert r.arcs[0].kind == "narrow"


def test_a_prone_character_may_only_crawl_stand_fire_or_set_a_narrow_arc():
    game, angela, _sq = angela_game()
    game.act(A.begin("angela"))
    game.act(A.prone())
    for act, what in ((A.reload(), "reloading"), (A.ready(0), "readying"),
                      (A.melee("squatter"), "melee"), (A.exit_(), "leaving")):
        with pytest.raises(PlayError, match=f"prone: stand up before .*{what}"):
            game.act(act)
    with pytest.raises(PlayError, match="narrow"):
        game.act(A.arc("wide", 0.0))
    game.act(A.arc("narrow", 0.0))
    with pytest.raises(PlayError, match="may hold 1"):
        game.act(A.arc("narrow", 10.0))


def test_rigley_changes_weapons_on_the_run_for_six_mp():
    # the book: move ratio 3, readying the other weapon 3 MP: 6 MP to move into the new dot
    from engine.model import Weapon

    board = GridBoard(10, 5)
    rigley = char("rigley", "runners", (2, 2, 0), move_ratio=3,
                  weapons=(Weapon(type="smg", success=(14, 12, 10, 8), shots=30, damage=4),
                           Weapon(type="heavy-pistol", success=(15, 13, 11, 9), shots=12,
                                  damage=3)))
    ganger = char("ganger", "gang", (9, 4, 0))  # out of the way, no arc
    game = build(board, [rigley, ganger], ["runners", "gang"])
    game.act(A.begin("rigley"))
    game.act(A.ready(1))
    game.act(A.move((3, 2, 0)))
    assert rigley.mp_spent == 6 and rigley.pos == (3, 2, 0)
