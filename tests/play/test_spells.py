"""The book's combat spells in play (seed 000 l.1459-1640, l.2926-2960)."""

from __future__ import annotations

import pytest

from engine.model import Character, Weapon
from engine.play.actions import begin
from engine.play.bot_magic import support_spell
from engine.play.bots import Bot
from engine.play.game import PlayError
from engine.play.referee_spells import spell_value
from engine.play.state import STANDING, CharacterState
from engine.rules.dmz1990_spells import (
    SPELLS,
    armor_bonus,
    effort_mp,
    non_combat,
    spell,
    success_value,
)
from tests.play.fakes import GridBoard
from tests.play.helpers import ScriptedDice, build, char, set_arc


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


def mage(pos, spells=(("Mana Bolt", 6), ("stunball", 4), ("death-touch", 4)), damage=2,
         **kw) -> CharacterState:
    model = Character(name="wren", id="wren", move_ratio=2, fire_ratio=3,
                      success=(("sorcery", 9), ("unarmed", 14)),
                      defense=(("mana_spell", 11), ("physical_spell", 9), ("impact", 9)),
                      spells=spells,
                      weapons=(Weapon(type="light-pistol", success=(14, 12, 10, 8), shots=22,
                                      damage=damage),))
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
    with pytest.raises(PlayError, match="not a spell play knows"):
        game.act({"act": "cast", "spell": "fireworks", "target": "moth"})
    assert w.mp_spent == 0
    # what a bot expects from the bolt: P(2D6 <= 10) x 4 boxes
    assert spell_value(game, w, g, spell("mana-bolt"), 6) == pytest.approx(33 / 36 * 4)


# ============================================================================ reaction fire


def reaction_game(damage=2):
    """Moth walks two dots (4 MP) through the arc of Wren, Fire Ratio 3: one attack."""
    board = GridBoard(20, 20)
    w, g = mage((2, 2, 0), damage=damage), ganger("moth", (8, 2, 0))
    set_arc(w, "wide", 0.0)
    return board, w, g


def test_a_mage_casts_into_his_arc_instead_of_firing():
    board, w, g = reaction_game()
    # rolls: the reaction spell 4 (a hit), damage location 7, Drain 5 (resisted)
    game = build(board, [w, g], ["gang", "runners"], dice=ScriptedDice([4, 7, 5]))
    game.act(begin("moth"))
    game.act({"act": "move", "to": [7, 2, 0]})
    game.act({"act": "move", "to": [6, 2, 0]})
    log = game.log.to_data()
    cast = next(e for e in log if e["event"] == "cast")
    assert cast["reaction"] and cast["who"] == "wren" and cast["spell"] == "mana-bolt"
    test = next(e for e in log if e["event"] == "test" and e["purpose"] == "reaction spell")
    # Sorcery 9 + Force 6 against Mana Defense 3: no +2, that is for Movement Fire (l.1461)
    assert test["success_value"] == 15 and test["target_value"] == 3
    assert test["modifiers"] == {"defense": 3}
    hit = next(e for e in log if e["event"] == "damage")
    assert hit["target"] == "moth" and hit["boxes"] == 4  # Force 6 / 2 + 1
    # the pistol is dropped for nothing; readying it again is his next phase's 3 MP (l.1461)
    assert w.ready is None and any(e["event"] == "unready" for e in log)
    assert not [e for e in log if e["event"] == "test" and e["purpose"] == "reaction fire"]


def test_a_mage_whose_gun_is_better_fires_it():
    board, w, g = reaction_game(damage=6)
    w.weapons[0].success = (20, 20, 20, 20)  # 33/36 x 6 boxes beats the bolt's 4 less Drain
    game = build(board, [w, g], ["gang", "runners"], dice=ScriptedDice([4, 7, 5]))
    game.act(begin("moth"))
    game.act({"act": "move", "to": [7, 2, 0]})
    game.act({"act": "move", "to": [6, 2, 0]})
    log = game.log.to_data()
    assert not [e for e in log if e["event"] == "cast"]
    assert [e for e in log if e["event"] == "test" and e["purpose"] == "reaction fire"]
    assert w.ready == 0


# ============================================================================ Non-Combat


def test_non_combat_numbers_follow_the_spell_list():
    heal = [non_combat(k) for k in ("Heal Light Wounds", "heal-moderate-wound",
                                    "heal-serious-wound", "heal-deadly-wound")]
    assert [h.heal for h in heal] == [1, 2, 4, 6]  # l.1719
    # Drain: Force -1, Force, Force +1, Force +2 (l.1699-1717), at least 1 (l.1489)
    assert [h.drain_value(4) for h in heal] == [3, 4, 5, 6]
    assert heal[0].drain_value(1) == 1
    # Drain damage of a Non-Combat spell: half the Force, rounded off, at least 1 (l.1505)
    assert [heal[0].drain_damage(f) for f in (1, 4, 5)] == [1, 2, 3]
    # Armor: +Force/2 rounded down, at least 1 (l.1782); Target Value 5 for both
    assert (armor_bonus(5), armor_bonus(1)) == (2, 1)
    assert non_combat("armour").target_value == 5 == non_combat("invisibility").target_value
    # Sid's heal: 3 MP for Target Value 7, 6 MP for 6, 9 MP for 5, 12 MP for 4 (l.1471-1473)
    assert [effort_mp(x) for x in range(4)] == [3, 6, 9, 12]


def healer_game(dice=(), spells=(("heal-moderate-wound", 4), ("armor", 5),
                                  ("invisibility", 4))):
    board = GridBoard(20, 20)
    w = mage((2, 2, 0), spells=spells)
    tusk = char("tusk", "runners", (3, 2, 0))
    moth = ganger("moth", (10, 2, 0))
    game = build(board, [w, tusk, moth], ["runners", "gang"], dice=ScriptedDice(list(dice)))
    return game, w, tusk, moth


def wound(ch, physical=(), stun=()):
    for b in physical:
        ch.condition.boxes[b] = "physical"
    for b in stun:
        ch.condition.boxes[b] = "stun"


def test_a_heal_spell_gives_back_the_lowest_physical_boxes_and_is_sustained():
    # rolls: the spell 8 (chance 13 - 5 = 8: a success), Drain 7 (chance 11 - 4 = 7)
    game, w, tusk, moth = healer_game([8, 7])
    wound(tusk, physical=(8, 7, 6, 5), stun=(4,))
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "Heal Moderate Wound", "target": "tusk"})
    log = game.log.to_data()
    test = next(e for e in log if e["event"] == "test" and e["purpose"] == "spell")
    # Sorcery 9 + Force 4; Target Value = the 5 boxes he has filled (l.1719)
    assert (test["success_value"], test["target_value"], test["success"]) == (13, 5, True)
    assert tusk.condition.marked("physical") == [8, 7]  # boxes 5 and 6 back, lowest first
    assert tusk.condition.marked("stun") == [4]  # no spell restores stun (l.1697)
    drain = next(e for e in log if e["event"] == "test" and e["purpose"] == "drain")
    assert drain["target_value"] == 4 and drain["success"]
    assert w.mp_spent == 3 and w.ready == 0  # 3 MP; a Non-Combat spell keeps the gun
    assert w.sustained == [{"spell": "heal-moderate-wound", "target": "tusk", "force": 4,
                            "restored": [5, 6], "until": game.state.turn + 2}]
    # Sustaining: +1 to every test he makes (l.1495)
    shot = game.plan_shot(w, moth, movement_fire=True)
    assert shot.numbers["modifiers"]["sustaining"] == 1
    # a turn a box, then permanent (l.1719)
    game.state.turn += 1
    game.refresh(w)
    assert w.sustained
    game.state.turn += 1
    game.refresh(w)
    assert not w.sustained and tusk.condition.marked("physical") == [8, 7]
    assert game.log.of_kind("spell-permanent")


def test_a_heal_dropped_early_loses_its_boxes_and_extra_mp_lower_the_target_value():
    game, w, tusk, _moth = healer_game([8, 7])
    wound(tusk, physical=(8, 7, 6, 5), stun=(4,))
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "heal-moderate-wound", "target": "tusk", "extra": 2})
    test = next(e for e in game.log.to_data() if e["event"] == "test")
    assert test["target_value"] == 3 and test["modifiers"] == {"spell": 5, "extra_mp": -2}
    assert w.mp_spent == 9  # 3 MP and 3 more for each -1 (l.1471)
    game.act({"act": "drop", "spell": "heal-moderate-wound"})
    assert tusk.condition.marked("physical") == [8, 7, 6, 5] and not w.sustained
    assert game.log.of_kind("heal-lost")


def test_armor_raises_three_defenses_while_sustained():
    game, w, tusk, _moth = healer_game([5, 2])
    game.act(begin("wren"))
    before = {k: tusk.defense_value(k) for k in ("impact", "ballistic", "physical_spell")}
    game.act({"act": "cast", "spell": "armor", "target": "tusk"})
    test = next(e for e in game.log.to_data() if e["event"] == "test")
    assert (test["success_value"], test["target_value"]) == (14, 5)  # 9 + Force 5; TV 5
    assert {k: tusk.defense_value(k) for k in before} == {k: v + 2 for k, v in before.items()}
    game.act({"act": "drop", "spell": "armor"})
    assert {k: tusk.defense_value(k) for k in before} == before


def test_invisibility_hides_him_from_eyes_without_thermographic_vision():
    game, w, tusk, moth = healer_game([5, 2])
    game.act(begin("wren"))
    assert game.plan_shot(moth, tusk, movement_fire=True) is not None
    game.act({"act": "cast", "spell": "invisibility", "target": "tusk"})
    assert tusk.invisible
    assert game.plan_shot(moth, tusk, movement_fire=True) is None  # no aimed fire
    assert game.shot_value(moth, moth.pos, tusk, tusk.pos, True) == 0
    moth.vision = "thermographic"  # body heat still shows (l.1742)
    assert game.plan_shot(moth, tusk, movement_fire=True) is not None
    data = tusk.to_data()
    assert data["invisible"] and CharacterState.from_data(data).invisible
    assert CharacterState.from_data(w.to_data()).sustained == w.sustained


def test_non_combat_spells_are_for_willing_friends_in_touch():
    game, w, tusk, moth = healer_game()
    game.act(begin("wren"))
    with pytest.raises(PlayError, match="willing"):
        game.act({"act": "cast", "spell": "armor", "target": "moth"})
    with pytest.raises(PlayError, match="no physical damage"):
        game.act({"act": "cast", "spell": "heal-moderate-wound", "target": "tusk"})
    tusk.pos = (6, 2, 0)
    with pytest.raises(PlayError, match="adjoining"):
        game.act({"act": "cast", "spell": "armor", "target": "tusk"})
    assert w.mp_spent == 0


def test_a_mage_knocked_out_drops_what_he_sustains():
    game, w, tusk, _moth = healer_game([5, 2])
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "armor", "target": "tusk"})
    armored = tusk.defense_value("ballistic")
    game.damage(w, 13, "physical", source="test")
    assert w.out and not w.sustained and tusk.defense_value("ballistic") == armored - 2


def test_the_bot_heals_a_friend_it_can_touch_and_armors_one_under_fire():
    game, w, tusk, moth = healer_game()
    wound(tusk, physical=(8, 7, 6))
    act, why = support_spell(game, w, [moth], keep_mp=2)
    # Force 4: 2 boxes x P(13 - 3 = 10) 33/36 less Drain 4 (11 - 4 = 7, fails 15/36) x 2
    # = 1.0; Force 1: 2 x P(7) 21/36 less Drain 1 (fails 3/36) x 1 = 1.08: Minimum Force
    assert act == {"act": "cast", "spell": "heal-moderate-wound", "target": "tusk",
                   "force": "min"}
    assert why["buys_boxes"] == 2 and why["chance"] == round(21 / 36, 2)
    assert why["drain_boxes"] == round(3 / 36, 2)
    for b in (8, 7, 6):  # healed; now Moth, 4 dots off, is a deadly shot at him
        tusk.condition.boxes[b] = None
    moth.pos = (6, 2, 0)
    moth.weapons[0].success = (20, 20, 20, 20)
    moth.weapons[0].damage = 6
    act, why = support_spell(game, w, [moth], keep_mp=2)
    assert act["spell"] in ("armor", "invisibility") and why["buys_boxes"] > 1
    w.sustained.append({"spell": "armor", "target": "tusk", "force": 5, "bonus": 2})
    assert support_spell(game, w, [moth], keep_mp=2) is None  # one Sustained spell at a time


def test_a_bot_mage_casts_the_heal_in_play():
    game, w, tusk, moth = healer_game()
    wound(tusk, physical=(8, 7, 6))
    moth.pos = (18, 18, 0)
    bot = Bot("runners")
    bot.play_character(game, w)
    casts = game.log.of_kind("cast")
    assert casts and casts[0]["spell"] == "heal-moderate-wound" and casts[0]["targets"] == ["tusk"]
    why = next(e for e in game.log.of_kind("why") if e.get("spell"))
    assert why["act"] == "cast" and why["buys_boxes"] == 2
    assert tusk.posture == STANDING
