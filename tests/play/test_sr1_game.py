"""SR1Game: the sr1 referee plays the Chop Shop sample through the seam's hooks."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine import model as m
from engine.board import compile_board
from engine.io import load_document, resolve_sheets
from engine.play import referees
from engine.play.bots import Bot, play_game
from engine.play.engine_board import EngineBoard
from engine.play.sr1_game import SR1Game
from engine.play.state import PendingGrenade
from engine.rules import sr1_combat as c
from engine.rules.combat_checks import character_problems
from engine.validate import validate

SAMPLE = Path(__file__).resolve().parents[2] / "scenarios" / "chop-shop-sr1.yaml"


@pytest.fixture(scope="module")
def loaded():
    sc = load_document(SAMPLE)
    return sc, compile_board(sc.layout, resolve_sheets(sc.layout, SAMPLE.parent))


def game(loaded, seed=1, **deployment):
    sc, board = loaded
    view = EngineBoard(board, light=sc.light, ruleset=sc.ruleset)
    return referees.new_game(sc, view, seed, deployment=deployment or None)


def test_factory_and_validation_know_sr1(loaded):
    sc, board = loaded
    assert referees.game_class("sr1") is SR1Game
    assert not [f for f in validate(board, sc) if f.severity == "error"]
    razor = sc.sides[0].characters[0]
    bare = dataclasses.replace(razor, stats=tuple(kv for kv in razor.stats if kv[0] != "body"))
    assert character_problems("sr1", bare) == c.check_character(bare)
    assert any("stats.body" in p for p in character_problems("sr1", bare))
    bad = dataclasses.replace(sc, sides=(dataclasses.replace(
        sc.sides[0], characters=(bare, *sc.sides[0].characters[1:])), sc.sides[1]))
    errs = [f for f in validate(board, bad) if f.code == "character-ruleset-stats"]
    assert errs and "Razor (runners)" in errs[0].message and "body" in errs[0].message


def test_initiative_gives_each_character_his_phases_in_order(loaded):
    g = game(loaded)
    ini = g.log.of_kind("initiative")[0]
    order = [cid for cid, _at in ini["order"]]
    for cid, r in ini["rolls"].items():
        assert r["phases"] == c.phases(r["initiative"])  # l.1028-1044
        assert order.count(cid) == len(r["phases"])
        f = SR1Game.fighter(g.char(cid))
        assert r["initiative"] == sum(r["dice"]) + f.reaction  # 1d6 + Reaction (l.1020)
    scores = [at for _cid, at in ini["order"]]
    assert scores == sorted(scores, reverse=True)
    assert g.state.order == order and g.state.initiative == "character"


def test_a_phase_is_a_move_and_an_action_or_a_run(loaded):
    g = game(loaded)
    who = g.movable()[0]
    g.act({"act": "begin", "who": who})
    ch = g.char(who)
    f = SR1Game.fighter(ch)
    assert ch.mp == f.run == f.quickness * (3 if ch.metatype in ("dwarf", "troll") else 4)
    assert g.affords(ch, "fire") and g.cost("fire", ch) == (0.0, 1)
    ch.mp_spent = f.speed + 1  # he ran: no Action this phase (l.1096-1098)
    assert not g.affords(ch, "fire") and g.action_slots(ch) == 0
    ch.mp_spent = 0
    ch.slots_spent = 1  # he acted: a walk only (l.1074)
    assert g.allowance(ch) == f.speed
    with pytest.raises(Exception, match="no reaction arcs"):
        g.act({"act": "arc", "kind": "narrow", "direction": 0.0})


def test_a_shot_rolls_the_pool_against_the_tn_and_logs_sr1_numbers(loaded):
    g = game(loaded, wren=(29, 24, 0), vex=(28, 28, 0))
    wren, vex = g.char("wren"), g.char("vex")
    plan = g.plan_shot(wren, vex, movement_fire=False)
    n = plan.numbers
    s = g.board.sight(wren.pos, vex.pos, wren.posture, vex.posture, wren.vision)
    assert (n["range_band"], n["base_target_number"]) == ("medium", 5)  # 8.2 m, heavy pistol
    assert n["target_number"] == 5 + s.total and n["pool"] == 4 and n["damage_code"] == "5M2"
    assert plan.p_hit == pytest.approx(1 - (1 - c.p_die(n["target_number"])) ** 4)
    assert g.shot_value(wren, wren.pos, vex, vex.pos, False) == pytest.approx(plan.expected)
    before = len(g.log.events)
    g.resolve_shot(wren, vex, plan, reaction=False)
    new = g.log.events[before:]
    fire = next(e for e in new if e["event"] == "test" and e["purpose"] == "movement fire")
    assert len(fire["dice"]) == 4 and fire["target_number"] == n["target_number"]
    if fire["successes"]:
        resist = next(e for e in new if e["event"] == "resist")
        assert resist["pool"] == 4 and resist["auto"] == 1  # Body 4, Ballistic 1
        assert resist["target_number"] == 5  # the Power Level is the TN (l.1146)


def test_autofire_bursts_raise_power_and_pay_recoil(loaded):
    g = game(loaded, razor=(28, 24, 0), vex=(28, 28, 0))
    n = g.plan_shot(g.char("razor"), g.char("vex"), movement_fire=False).numbers
    assert n["shots"] > 1 and n["damage_code"] == "7M2"  # 6M2 + 1 Power (l.1380)
    assert n["modifiers"]["recoil"] == n["shots"]  # l.1378
    loaded_before = g.char("razor").ready_weapon.loaded
    g.resolve_shot(g.char("razor"), g.char("vex"), g.plan_shot(
        g.char("razor"), g.char("vex"), movement_fire=False), reaction=False)
    assert g.char("razor").ready_weapon.loaded == loaded_before - n["shots"]


def test_damage_fills_the_tracks_and_stun_knocks_out(loaded):
    g = game(loaded)
    vex = g.char("vex")
    g.damage(vex, 6, "physical", "test")
    assert vex.condition.physical == 6 and vex.condition.modifier == 3  # Serious (l.1222)
    g.damage(vex, 10, "stun", "test")
    assert vex.out and g.log.of_kind("out")[-1]["who"] == "vex"


def test_an_offensive_grenade_loses_a_power_per_two_metres(loaded):
    g = game(loaded, brick=(28, 20, 0), vex=(28, 26, 0), dice=(30, 26, 0), rook=(28, 31, 0))
    g.resolve_grenade(PendingGrenade("brick", "runners", "offensive-grenade", (28, 26, 0),
                                     (28, 26, 0), True))
    blast = g.log.of_kind("blast")[-1]
    assert blast["damage_code"] == "6M3" and blast["safe_distance_m"] == 10
    hit = {e["target"]: e for e in g.log.events
           if e["event"] == "test" and e["purpose"] == "grenade blast"}
    assert hit["vex"]["damage_code"] == "6M3"  # at the centre
    assert hit["dice"]["damage_code"] == "4M3"  # 4 m: -2 Power (l.1318)
    assert "rook" not in hit  # 10 m: Power 1, the safe distance (l.1330-1332)
    resist = [e for e in g.log.events if e["event"] == "resist" and e["who"] == "dice"]
    assert resist and resist[0]["pool"] == 4 and resist[0]["auto"] == 1  # Body, no Dodge


def test_a_thrown_grenade_scatters_by_the_dice(loaded):
    g = game(loaded)
    brick = g.char("brick")
    w = next(x for x in brick.weapons if x.is_grenade)
    s = g.board.sight(brick.pos, brick.pos, "standing", "standing", brick.vision)
    land, on_target = g.resolve_throw(brick, w, brick.pos, 0, s)
    sc = g.log.of_kind("scatter")[-1]
    assert len(sc["scatter_dice"]) == 2 and sc["max_scatter_m"] == sum(sc["scatter_dice"])
    assert sc["scatter_m"] == max(sc["max_scatter_m"] - 3 * sc["successes"], 0)  # l.1307
    assert on_target == (sc["scatter_m"] == 0) and "assumed" in sc


def test_save_and_load_keep_the_sheet_and_the_class(loaded, tmp_path):
    sc, board = loaded
    g = game(loaded)
    g.damage(g.char("vex"), 3, "physical", "test")
    data = g.to_data()
    assert data["ruleset"] == "sr1"
    again = referees.load_game(data, EngineBoard(board, light=sc.light, ruleset="sr1"))
    assert type(again) is SR1Game
    vex = again.char("vex")
    assert isinstance(vex.condition, c.SR1Condition) and vex.condition.physical == 3
    assert vex.condition.stats["body"] == 4 and vex.condition.arms[0]["damage"] == "5M2"


def test_bots_fight_a_short_game_by_the_sr1_numbers(loaded):
    sc, board = loaded
    short = dataclasses.replace(sc, turn_limit=3)
    g = referees.new_game(short, EngineBoard(board, light=sc.light, ruleset="sr1"), 2)
    players = {s.id: Bot(s.id) for s in sc.sides}
    play_game(g, players)
    assert g.state.finished
    shots = [e for e in g.log.events if e["event"] == "test"
             and e["purpose"] in ("movement fire", "reaction fire")]
    assert shots and all("target_number" in e and "dice" in e for e in shots)
    assert g.log.of_kind("fire") and all("damage_code" in e for e in g.log.of_kind("fire"))
    assert not [e for b in players.values() for e in b.errors if "arc" in e]


def test_check_character_on_a_model_without_stats():
    ch = m.Character(name="Nobody")
    assert [p.split(" (")[0] for p in c.check_character(ch)] == [
        "Nobody: sr1 needs stats.body", "Nobody: sr1 needs stats.quickness",
        "Nobody: sr1 needs stats.strength", "Nobody: sr1 needs stats.intelligence"]


def test_the_referee_spreads_drawing_and_throwing_over_two_phases(loaded):
    """Drawing a weapon is one Action and using it another: two Action Phases (l.1078)."""
    g = game(loaded)
    who = g.movable()[0]
    g.act({"act": "begin", "who": who})
    ch = g.char(who)
    assert g.plan_actions(ch, ("ready", "throw")) == [("ready",), ("throw",)]
    assert g.plan_actions(ch, ("throw",)) == [("throw",)]
    ch.slots_spent = 1  # his Action is spent: both wait for his next phases
    assert g.plan_actions(ch, ("ready", "throw")) == [(), ("ready",), ("throw",)]
    brick = g.char("brick")
    nade = next(w for w in brick.weapons if w.is_grenade)
    # 6M3 offensive: Power 4 at 4 m, 3 at 6 m, 2 at 8 m = 4 dots (l.1313-1322)
    assert g.grenade_reach(brick, nade) == 4


def test_a_bot_draws_a_grenade_in_one_phase_and_throws_it_in_the_next(loaded):
    g = game(loaded, brick=(28, 20, 0), vex=(28, 26, 0), dice=(29, 26, 0),
             razor=(22, 16, 0), wren=(23, 16, 0), slick=(24, 16, 0))
    brick = g.char("brick")
    brick.weapons[0].loaded = brick.weapons[0].clips = 0  # no shotgun shot to take instead
    bot = Bot("runners")
    turns = []
    while not g.state.finished and g.state.turn <= 3 and not g.log.of_kind("grenade-lands"):
        who = g.movable()[0]
        if who == "brick":
            bot.play_character(g, brick)
            turns.append(g.state.turn)
        else:
            g.act({"act": "begin", "who": who})
            g.act({"act": "end", "force": True})
    why = [e for e in g.log.of_kind("why") if "grenade_next_phase" in e]
    assert why and why[0]["act"] == "ready"
    thrown = g.log.of_kind("grenade-lands")
    assert thrown and thrown[0]["thrower"] == "brick"
    assert len(turns) >= 2  # drawn in one of his phases, thrown in a later one
    assert not bot.errors


def test_the_panel_words_for_what_is_held_are_sr1s(loaded):
    g = game(loaded)
    ch = next(iter(g.state.characters.values()))
    # no reaction arcs under sr1 (can_hold_arcs False): Interception stands in (l.1088)
    assert not g.can_hold_arcs
    assert g.hold_words(ch) == "no arcs; Interception of a mover within 1 m"
