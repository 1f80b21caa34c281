"""The book's combat spells in play (seed 000 l.1459-1640, l.2926-2960)."""

from __future__ import annotations

import pytest

from engine.model import Character, Weapon
from engine.play.actions import begin
from engine.play.game import PlayError
from engine.play.referee_spells import spell_value
from engine.play.state import CharacterState
from engine.rules.dmz1990_spells import SPELLS, spell, success_value
from tests.play.fakes import GridBoard
from tests.play.helpers import ScriptedDice, build, char


def test_damage_and_drain_follow_the_spell_list():
    # Damage = Force / 2 rounded down + the spell's modifier (l.1521-1613, l.2936)
    assert spell("Mana Bolt").damage(6) == 4 and spell("mana-bolt").drain_value(6) == 4
    assert spell("Mana Dart").damage(6) == 2 and spell("mana-missile").damage(6) == 3
    assert spell("Stun Bolt").drain_value(6) == 3  # Damage - 1
    assert spell("stun-touch").drain_value(6) == 2  # Damage - 2
    assert spell("Sleep") is SPELLS["stunblast"] and spell("sleep").stun and spell("sleep").area
    # staging 3 never takes damage below 1 (l.2942)
    assert spell("stun-cloud").damage(1) == 1
    # Neddy's Maximum Force area spell: Drain Value 8 (Damage 6 + 2, l.2954) against his Mana
    # Defense 12 is a chance of 4 (l.1491); Manaball at Force 10 is such a spell
    ball = spell("manaball")
    assert ball.damage(10) == 6 and ball.drain_value(10) == 8 and 12 - ball.drain_value(10) == 4
    # a failed Drain test marks half the damage, rounded off, as stun (l.1487)
    assert ball.drain_damage(10) == 3 and spell("mana-bolt").drain_damage(6) == 2
    # Success Value = base Sorcery + Force (l.2946)
    assert success_value(9, 6) == 15


def mage(pos, **kw) -> CharacterState:
    model = Character(name="wren", id="wren", move_ratio=2, fire_ratio=3,
                      success=(("sorcery", 9), ("unarmed", 14)),
                      defense=(("mana_spell", 11), ("physical_spell", 9), ("impact", 9)),
                      spells=(("Mana Bolt", 6), ("stunball", 4), ("death-touch", 4)),
                      weapons=(Weapon(type="light-pistol", success=(14, 12, 10, 8), shots=22,
                                      damage=2),))
    cs = CharacterState.from_model("runners", model, 0)
    cs.pos = tuple(pos)
    return cs


def ganger(cid, pos):
    return char(cid, "gang", pos, defense={"ballistic": 9, "impact": 9, "mana_spell": 3,
                                           "physical_spell": 4})


def test_a_mana_bolt_is_movement_fire_with_magic():
    board = GridBoard(20, 20)
    w, g = mage((2, 2, 0)), ganger("moth", (8, 2, 0))
    # rolls: spell 11 (chance 15 - (3 + 2) = 10: a miss), drain 12 (a fail)
    dice = ScriptedDice([11, 12, 3])
    game = build(board, [w, g], ["runners", "gang"], dice=dice)
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "Mana Bolt", "target": "moth"})
    log = game.log.to_data()
    tests = [e for e in log if e["event"] == "test"]
    assert tests[0]["purpose"] == "spell" and tests[0]["success_value"] == 15
    assert tests[0]["target_value"] == 5  # Mana Defense 3 + 2 on the move, no elevation
    assert tests[0]["modifiers"] == {"defense": 3, "movement_fire": 2}
    assert not tests[0]["success"]
    # Drain: Mana Defense 11 against Drain Value 4, chance 7; the 12 fails -> 2 stun
    assert tests[1]["purpose"] == "drain" and tests[1]["chance"] == 7
    drained = [e for e in log if e["event"] == "damage"]
    assert drained[0]["target"] == "wren" and drained[0]["boxes"] == 2
    assert drained[0]["damage"] == "stun"
    assert w.mp_spent == 3 and w.ready is None  # 3 MP; the pistol put away for nothing
    assert any(e["event"] == "unready" for e in log)


def test_a_hit_marks_the_spells_damage_and_a_stun_spell_marks_stun():
    board = GridBoard(20, 20)
    w, g = mage((2, 2, 0)), ganger("moth", (8, 2, 0))
    game = build(board, [w, g], ["runners", "gang"], dice=ScriptedDice([5, 7, 2]))
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "mana-bolt", "target": "moth", "force": "min"})
    hit = [e for e in game.log.to_data() if e["event"] == "damage"]
    # Minimum Force 1: Success Value 10, damage 1 / 2 + 1 = 1 (l.2926)
    assert hit[0]["target"] == "moth" and hit[0]["boxes"] == 1 and hit[0]["damage"] == "physical"


def test_an_area_spell_reaches_three_dots_friend_and_foe():
    board = GridBoard(30, 20)
    w = mage((2, 2, 0))
    a, b, far = ganger("a", (12, 2, 0)), ganger("b", (14, 4, 0)), ganger("far", (17, 2, 0))
    friend = char("sabre", "runners", (11, 3, 0))
    game = build(board, [w, a, b, far, friend], ["runners", "gang"], dice=ScriptedDice())
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "stunball", "at": [13, 3, 0]})
    cast = next(e for e in game.log.to_data() if e["event"] == "cast")
    assert sorted(cast["targets"]) == ["a", "b", "sabre"]  # far is 4 dots from (13, 3)
    assert cast["damage"] == 2  # Force 4 / 2 + 0


def test_touch_spells_need_an_adjoining_target_and_the_unknown_is_refused():
    board = GridBoard(20, 20)
    w, g = mage((2, 2, 0)), ganger("moth", (8, 2, 0))
    game = build(board, [w, g], ["runners", "gang"])
    game.act(begin("wren"))
    with pytest.raises(PlayError, match="adjoining"):
        game.act({"act": "cast", "spell": "death-touch", "target": "moth"})
    with pytest.raises(PlayError, match="does not know"):
        game.act({"act": "cast", "spell": "powerball", "target": "moth"})
    with pytest.raises(PlayError, match="not a combat spell"):
        game.act({"act": "cast", "spell": "fireworks", "target": "moth"})
    assert w.mp_spent == 0
    # what a bot expects from the bolt: P(2D6 <= 10) x 4 boxes
    assert spell_value(game, w, g, spell("mana-bolt"), 6) == pytest.approx(33 / 36 * 4)
