"""The rest of the book's Non-Combat spells in play (seed 000 l.1634-1805): ratios, Chaos,
Petrify, Detect, Poltergeist and the Barriers, and the spells play refuses."""

from __future__ import annotations

import pytest

from engine.play.actions import begin
from engine.play.game import Game, PlayError
from engine.play.referee_effects import known_to
from engine.play.state import CharacterState, GameState
from engine.rules.dmz1990_spells import NON_COMBAT, non_combat, ratio_after, refused
from tests.play.fakes import GridBoard
from tests.play.helpers import ScriptedDice, build, char, set_arc
from tests.play.test_engine_board import hut
from tests.play.test_spells import ganger, mage


def duel(dice=(), spells=(), board=None, moth_at=(10, 2, 0), tusk_at=(3, 2, 0)):
    board = board or GridBoard(20, 20)
    w = mage((2, 2, 0), spells=spells)
    tusk = char("tusk", "runners", tusk_at)
    moth = ganger("moth", moth_at)
    game = build(board, [w, tusk, moth], ["runners", "gang"], dice=ScriptedDice(list(dice)))
    game.act(begin("wren"))
    return game, w, tusk, moth


def spell_test(game):
    return [e for e in game.log.to_data() if e["event"] == "test"][-1]


def test_the_list_numbers():
    f = 4
    drains = {k: non_combat(k).drain_value(f) for k in (
        "combat-sense", "personal-combat-sense", "increase-reaction", "decrease-reaction",
        "chaos", "chaotic-world", "detect-enemies", "detect-life", "levitate-person",
        "poltergeist", "mana-barrier", "physical-barrier", "petrify")}
    # Drain: Force, Force -1, Force, Force, +1, +2, -1, -2, Force, +1, Force, +1, +1
    assert drains == {"combat-sense": 4, "personal-combat-sense": 3, "increase-reaction": 4,
                      "decrease-reaction": 4, "chaos": 5, "chaotic-world": 6,
                      "detect-enemies": 3, "detect-life": 2, "levitate-person": 4,
                      "poltergeist": 5, "mana-barrier": 4, "physical-barrier": 5, "petrify": 5}
    assert non_combat("detect-life").drain_value(1) == 1  # Minimum Drain is always 1 (l.2958)
    assert ratio_after(1, -1) == 1 and ratio_after(3, -1) == 2 and ratio_after(2, 1) == 3
    assert "l.1001" in refused("Clairvoyance") and refused("detect-guns")
    assert refused("levitate-item") and refused("mana-bolt") is None
    assert non_combat("Levitate") is NON_COMBAT["levitate-person"]


def test_decrease_reaction_lowers_both_ratios_of_a_friend_in_sight_until_dropped():
    game, w, tusk, _moth = duel([2, 2], spells=(("decrease-reaction", 4),))
    tusk.pos = (6, 2, 0)  # line of sight, not touch
    assert (tusk.move_ratio, tusk.fire_ratio) == (2, 3)
    game.act({"act": "cast", "spell": "decrease-reaction", "target": "tusk"})
    t = next(e for e in game.log.to_data() if e["event"] == "test")
    assert (t["success_value"], t["target_value"]) == (13, 5)  # 9 + 4 against 5 (l.1697)
    assert (tusk.move_ratio, tusk.fire_ratio) == (1, 2)
    game.act({"act": "drop", "spell": "decrease-reaction"})
    assert (tusk.move_ratio, tusk.fire_ratio) == (2, 3)


def test_increase_reaction_slows_an_enemy_and_prices_his_steps():
    game, w, _tusk, moth = duel([2, 2], spells=(("increase-reaction", 4),))
    assert game.board.step(moth.pos, (11, 2, 0), moth.move_ratio).cost == 2
    game.act({"act": "cast", "spell": "increase-reaction", "target": "moth"})
    assert (moth.move_ratio, moth.fire_ratio) == (3, 4)
    assert game.board.step(moth.pos, (11, 2, 0), moth.move_ratio).cost == 3
    # every spell he Sustains is +1 to the mage's own tests (l.1495)
    assert game.plan_shot(w, moth, True) is None or \
        game.plan_shot(w, moth, True).numbers["modifiers"]["sustaining"] == 1


def test_combat_sense_is_touch_and_its_personal_form_the_caster_alone():
    game, w, tusk, moth = duel([2, 2, 2, 2], spells=(("combat-sense", 3),
                                                     ("personal-combat-sense", 3)))
    with pytest.raises(PlayError, match="willing"):
        game.act({"act": "cast", "spell": "combat-sense", "target": "moth"})
    with pytest.raises(PlayError, match="caster alone"):
        game.act({"act": "cast", "spell": "personal-combat-sense", "target": "tusk"})
    game.act({"act": "cast", "spell": "combat-sense", "target": "tusk"})
    assert (tusk.move_ratio, tusk.fire_ratio) == (2, 2)  # Fire Ratio only (l.1653)
    game.act({"act": "cast", "spell": "personal-combat-sense"})
    assert w.fire_ratio == 2 and len(w.sustained) == 2 and w.mp_spent == 6


def test_chaos_resists_with_physical_defense_and_adds_two_to_his_tests():
    game, w, tusk, moth = duel([2, 2], spells=(("chaos", 4),))
    before = game.plan_shot(moth, tusk, True).numbers["target_value"]
    game.act({"act": "cast", "spell": "chaos", "target": "moth"})
    t = next(e for e in game.log.to_data() if e["event"] == "test")
    assert (t["success_value"], t["target_value"]) == (13, 4)  # moth's Physical Spell 4
    plan = game.plan_shot(moth, tusk, True)
    assert plan.numbers["modifiers"]["chaos"] == 2 and plan.numbers["target_value"] == before + 2
    assert game.melee_mods(moth, tusk)["chaos"] == 2
    game.act({"act": "drop", "spell": "chaos"})
    assert moth.under == {} and game.plan_shot(moth, tusk, True).numbers["target_value"] == before


def test_chaotic_world_takes_each_one_in_the_area_that_fails_to_resist():
    board = GridBoard(20, 20)
    w = mage((2, 2, 0), spells=(("chaotic-world", 4),))
    a, b, far = ganger("a", (10, 2, 0)), ganger("b", (12, 3, 0)), ganger("far", (16, 2, 0))
    game = build(board, [w, a, b, far], ["runners", "gang"], dice=ScriptedDice([2, 12, 2]))
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "chaotic-world", "at": [11, 2, 0]})
    tests = [e for e in game.log.to_data() if e["event"] == "test" and e["purpose"] == "spell"]
    assert [t["target"] for t in tests] == ["a", "b"]  # three dots round (11, 2); far is 5
    assert a.under == {"chaotic-world": 2} and b.under == {} and far.under == {}
    assert w.sustained[0]["victims"] == ["a"]
    game.act({"act": "drop", "spell": "chaotic-world"})
    assert a.under == {}


def test_petrify_takes_him_out_of_the_fight_until_dropped():
    board = GridBoard(20, 20)
    w = mage((2, 2, 0), spells=(("petrify", 6),))
    moth, kit = ganger("moth", (10, 2, 0)), ganger("kit", (12, 9, 0))
    game = build(board, [w, moth, kit], ["runners", "gang"], dice=ScriptedDice([2, 2]))
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "petrify", "target": "moth"})
    t = next(e for e in game.log.to_data() if e["event"] == "test")
    assert (t["success_value"], t["target_value"]) == (15, 4)  # his Physical Defense
    assert moth.out and not moth.condition.out and not game.state.finished
    with pytest.raises(PlayError, match="not a target"):
        game.act({"act": "cast", "spell": "petrify", "target": "moth"})
    game.act({"act": "drop", "spell": "petrify"})
    assert not moth.out


def test_detect_enemies_finds_each_enemy_within_six_dots_by_his_own_test():
    board = GridBoard(20, 20, walls={(5, 6), (5, 5), (5, 7)})
    w = mage((2, 6, 0), spells=(("detect-enemies", 4),))
    seen, hidden, far = ganger("seen", (6, 3, 0)), ganger("hidden", (7, 6, 0)), \
        ganger("far", (12, 6, 0))
    game = build(board, [w, seen, hidden, far], ["runners", "gang"],
                 dice=ScriptedDice([2, 2, 2]))
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "detect-enemies"})
    tests = {e["target"]: e for e in game.log.to_data()
             if e["event"] == "test" and e["purpose"] == "detect"}
    assert set(tests) == {"seen", "hidden"}  # far is ten dots off
    assert tests["seen"]["target_value"] == 3  # his Mana Defense (l.1660)
    assert tests["hidden"]["target_value"] == 3 + 5  # +5 behind the wall
    assert known_to(game, w, hidden) and not known_to(game, w, far)
    game.act({"act": "drop", "spell": "detect-enemies"})
    assert not known_to(game, w, hidden)


def test_spells_play_refuses_say_why():
    game, *_ = duel(spells=(("clairvoyance", 4), ("levitate-item", 3)))
    with pytest.raises(PlayError, match="clairvoyance is not in play: .*plain view"):
        game.act({"act": "cast", "spell": "clairvoyance"})
    with pytest.raises(PlayError, match="no loose items"):
        game.act({"act": "cast", "spell": "levitate-item"})


def street_duel(spells, dice, moth_at=(12, 11, 0)):
    return duel(dice, spells=spells, board=hut(), moth_at=moth_at, tusk_at=(2, 12, 0))


def test_a_physical_barrier_dome_stops_walkers_not_sight_and_armors_against_shots():
    game, w, tusk, moth = street_duel((("physical-barrier", 4),), [2, 2])
    w.pos = (4, 11, 0)
    eb = game.board
    assert eb.step((8, 11, 0), (7, 11, 0), 2) is not None
    before = game.plan_shot(moth, w, True).numbers["target_value"]
    game.act({"act": "cast", "spell": "physical-barrier"})
    assert game.state.spell_areas[0]["shape"] == "dome"
    assert eb.step((8, 11, 0), (7, 11, 0), 2) is None  # the force-field is in the way
    assert eb.step((7, 11, 0), (6, 11, 0), 2) is not None  # inside, he moves freely
    plan = game.plan_shot(moth, w, True)  # sight is not blocked; his defense is +Force
    assert plan.numbers["modifiers"]["barrier_spell"] == 4
    assert plan.numbers["target_value"] == before + 4
    saved = game.to_data()
    assert GameState.from_data(saved["state"]).spell_areas == game.state.spell_areas
    again = Game.from_data(saved, hut())  # a loaded game lays the force-field again
    assert again.board.step((8, 11, 0), (7, 11, 0), 2) is None
    game.act({"act": "drop", "spell": "physical-barrier"})
    assert eb.step((8, 11, 0), (7, 11, 0), 2) is not None and not game.state.spell_areas


def test_a_barrier_wall_stands_three_dots_ahead_six_dots_long():
    game, w, _tusk, moth = street_duel((("mana-barrier", 3),), [2, 2])
    w.pos = (4, 11, 0)
    with pytest.raises(PlayError, match="three dots|3 dots"):
        game.act({"act": "cast", "spell": "mana-barrier", "at": [9, 11, 0]})
    game.act({"act": "cast", "spell": "mana-barrier", "at": [7, 11, 0]})
    eb = game.board
    assert eb.step((6, 11, 0), (7, 11, 0), 2) is None
    assert eb.step((6, 13, 0), (7, 13, 0), 2) is None
    assert eb.step((6, 7, 0), (7, 7, 0), 2) is not None  # beyond its end
    # a Mana Barrier lets bullets by but not spells (l.1796)
    assert "barrier_spell" not in game.plan_shot(moth, w, True).numbers["modifiers"]


def test_poltergeist_interrupts_sight_through_it_and_stuns_those_inside():
    game, w, tusk, moth = street_duel((("poltergeist", 4),), [2, 2, 7, 2])
    w.pos = (2, 11, 0)
    tusk.pos = (20, 11, 0)
    clear = game.board.sight(w.pos, tusk.pos, "standing", "standing", "normal").total
    game.act({"act": "cast", "spell": "poltergeist", "at": [12, 11, 0]})
    # moth, inside, rolls against a Success Value of Force x 5 = 20 (l.1773)
    stun = next(e for e in game.log.to_data() if e["event"] == "test"
                and e["purpose"] == "poltergeist")
    assert (stun["success_value"], stun["target_value"]) == (20, 9)
    assert moth.condition.marked("stun")
    s = game.board.sight(w.pos, tusk.pos, "standing", "standing", "normal")
    assert not s.blocked and s.total == clear + 1  # interrupted through the debris
    assert game.melee_mods(moth, tusk)["poltergeist"] == 1
    # the mage's next phase: the debris strikes again while he Sustains it
    game.dice.totals[:] = [2, 7]
    game.refresh(w)
    again = [e for e in game.log.to_data() if e["event"] == "test"
             and e["purpose"] == "poltergeist"]
    hits = [e for e in game.log.to_data() if e["event"] == "damage" and e["source"] == "wren"]
    assert len(again) == 2 and [(h["boxes"], h["damage"]) for h in hits] == [(1, "stun")] * 2
    game.act({"act": "drop", "spell": "poltergeist"})
    assert game.board.sight(w.pos, tusk.pos, "standing", "standing", "normal").total == clear


def test_save_keeps_the_spells_on_him():
    ch = char("x", "a", (1, 1, 0))
    ch.under = {"chaos": 2}
    assert CharacterState.from_data(ch.to_data()).under == {"chaos": 2}
    assert "under" not in char("y", "a", (1, 1, 0)).to_data()


def test_levitate_lifts_the_mage_onto_a_roof_at_his_own_mp_twelve_a_turn():
    game, w, _tusk, _moth = street_duel((("levitate-person", 4),), [2, 2])
    w.pos = (5, 5, 0)  # by the hut's west wall; its roof is level 1
    assert game.board.step(w.pos, (6, 5, 1), 2) is None  # no stairs, no climb
    with pytest.raises(PlayError, match="holds no Levitate"):
        game.act({"act": "levitate", "target": "wren", "to": [6, 5, 1]})
    game.act({"act": "cast", "spell": "levitate-person"})
    t = next(e for e in game.log.to_data() if e["event"] == "test")
    assert t["target_value"] == 5  # willing (l.1766)
    spent = w.mp_spent
    game.act({"act": "levitate", "target": "wren", "to": [6, 5, 1]})
    assert w.pos == (6, 5, 1) and w.mp_spent == spent + 4 + 3  # a story and a dot (l.1758)
    with pytest.raises(PlayError, match="cannot be levitated"):
        game.act({"act": "levitate", "target": "wren", "to": [8, 5, 1]})
    with pytest.raises(PlayError, match="2 MP left, levitating costs 3"):  # his own MP
        game.act({"act": "levitate", "target": "wren", "to": [7, 5, 1]})
    # next turn: along the roof, then down over the ledge (a story and a dot), no fall
    w.mp_spent = 0
    game.state.turn += 1
    game.act({"act": "levitate", "target": "wren", "to": [7, 5, 1]})
    game.act({"act": "levitate", "target": "wren", "to": [6, 5, 1]})
    with pytest.raises(PlayError, match="12 MP a turn; 6 used, this leg costs 7"):
        game.act({"act": "levitate", "target": "wren", "to": [5, 4, 0]})
    w.mp_spent = 0
    game.state.turn += 1
    game.act({"act": "levitate", "target": "wren", "to": [5, 4, 0]})
    assert w.pos == (5, 4, 0) and w.posture == "standing" and w.mp_spent == 7
    assert not [e for e in game.log.to_data() if e["event"] == "fall"]


def test_levitate_on_an_enemy_is_nine_and_moves_him_along_legal_steps():
    game, w, _tusk, moth = duel([2, 2], spells=(("levitate-person", 6),), moth_at=(6, 2, 0))
    game.act({"act": "cast", "spell": "levitate-person", "target": "moth"})
    t = next(e for e in game.log.to_data() if e["event"] == "test")
    assert (t["success_value"], t["target_value"]) == (15, 9)  # unwilling (l.1766)
    game.act({"act": "levitate", "target": "moth", "to": [7, 2, 0]})
    assert moth.pos == (7, 2, 0) and w.mp_spent == 3 + 3


def test_blind_fire_through_smoke_and_at_an_invisible_enemy_only_when_detected():
    board = GridBoard(20, 20)
    w = mage((2, 2, 0), spells=(("detect-enemies", 4),))
    shooter = char("tusk", "runners", (2, 4, 0))
    moth, kit = ganger("moth", (8, 4, 0)), ganger("kit", (18, 18, 0))
    game = build(board, [w, shooter, moth, kit], ["runners", "gang"],
                 dice=ScriptedDice([2, 7, 2, 2, 2]))
    game.act(begin("tusk"))
    with pytest.raises(PlayError, match="sees moth"):
        game.act({"act": "blind", "target": "moth"})
    board.add_smoke([(5, 4, 0)])
    assert game.plan_shot(shooter, moth, True) is None
    game.act({"act": "blind", "target": "moth"})
    t = [e for e in game.log.to_data() if e["event"] == "test"][-1]
    assert t["purpose"] == "blind fire" and t["modifiers"] == {
        "defense": 9, "blind_fire": 4, "movement_fire": 2}  # l.999: narrow arc, 2 x 2 MP
    assert shooter.mp_spent == 3 and moth.condition.marked()
    board.smoke.clear()
    moth.invisible = True
    # unknown: a Perception test first, 20 against 6 dots + 10 (l.977-982); 12 fails it
    game.dice.totals[:] = [12, 2, 2]  # then the Detect test and its Drain
    game.act({"act": "blind", "target": "moth"})
    per = [e for e in game.log.to_data() if e["event"] == "test"][-1]
    assert per["purpose"] == "perception" and per["target_value"] == 16
    assert game.log.of_kind("unperceived") and shooter.mp_spent == 6
    assert shooter.weapons[0].loaded == 29  # the one round of the smoke shot, no more
    game.act({"act": "end"})
    game.act(begin("wren"))
    game.act({"act": "cast", "spell": "detect-enemies"})
    assert known_to(game, shooter, moth)
    found = [e for e in game.log.to_data() if e["event"] == "test"][-2]
    assert found["purpose"] == "detect" and found["target_value"] == 3  # no +5: in the open
    with pytest.raises(PlayError, match="Blind Fire never involves magic"):
        w.spells["mana-bolt"] = 6
        game.act({"act": "cast", "spell": "mana-bolt", "target": "moth"})


def area_reaction(friend_near: bool):
    board = GridBoard(20, 20)
    w = mage((2, 2, 0), spells=(("stunblast", 6),))
    moth, kit = ganger("moth", (8, 2, 0)), ganger("kit", (6, 4, 0))
    chars = [w, moth, kit]
    if friend_near:  # Tusk by the mover's dot, Kit far off: one for one, less the Drain
        chars.append(char("tusk", "runners", (5, 3, 0),
                          defense={"ballistic": 9, "impact": 9, "mana_spell": 3}))
        kit.pos = (15, 15, 0)
    set_arc(w, "wide", 0.0)
    game = build(board, chars, ["gang", "runners"], dice=ScriptedDice([2, 7, 2, 7, 2]))
    game.act(begin("moth"))
    game.act({"act": "move", "to": [7, 2, 0]})
    game.act({"act": "move", "to": [6, 2, 0]})
    return game, w, moth, kit


def test_an_area_spell_reacts_at_the_movers_dot_and_takes_in_his_neighbours():
    game, w, moth, kit = area_reaction(friend_near=False)
    log = game.log.to_data()
    cast = next(e for e in log if e["event"] == "cast")
    assert cast["reaction"] and cast["spell"] == "stunblast" and cast["at"] == [6, 2, 0]
    assert cast["targets"] == ["moth", "kit"]  # kit stands two dots from the mover
    tests = [e for e in log if e["event"] == "test" and e["purpose"] == "reaction spell"]
    # Sorcery 9 + Force 6 against each one's Mana Defense 3, no Movement Fire +2 (l.1461)
    assert [(t["target"], t["success_value"], t["target_value"]) for t in tests] == [
        ("moth", 15, 3), ("kit", 15, 3)]
    hits = [e for e in log if e["event"] == "damage" and e["source"] == "wren"]
    assert [(h["target"], h["boxes"], h["damage"]) for h in hits] == [
        ("moth", 4, "stun"), ("kit", 4, "stun")]  # Force 6 / 2 + 1, Stun (l.1611-1613)


def test_a_mage_does_not_blast_a_mover_standing_by_his_friend():
    game, w, moth, kit = area_reaction(friend_near=True)
    log = game.log.to_data()
    assert not [e for e in log if e["event"] == "cast"]


def test_the_bot_distracts_or_petrifies_a_deadly_shooter_and_fires_blind_when_detected():
    from engine.play.bot_magic import _threat, blind_shot, support_spell
    from engine.play.shots import p_success

    game, w, tusk, moth = duel(spells=(("chaos", 5),), moth_at=(6, 2, 0))
    moth.weapons[0].success = (16, 16, 16, 16)
    moth.weapons[0].damage = 6
    act, why = support_spell(game, w, [moth], keep_mp=2)
    # at Minimum Force: the effect is the same +2, the Drain less (Sorcery 9 + 1 against 4)
    assert act == {"act": "cast", "spell": "chaos", "force": "min", "target": "moth"}
    # moth's aimed shots at Wren (ballistic 8 default) and Tusk (8): +2 is their odds
    # P(16 - 10) - P(16 - 12) on 6 boxes, each
    threat = _threat(game, moth, [w, tusk])
    assert threat == pytest.approx(2 * p_success(16 - 8 - 2) * 6)
    assert why["buys_boxes"] == round(2 * (p_success(6) - p_success(4)) * 6, 2)
    assert why["chance"] == round(p_success(10 - 4), 2)
    w.spells = {"petrify": 5}
    act, why = support_spell(game, w, [moth], keep_mp=2)
    assert act["spell"] == "petrify" and why["buys_boxes"] == round(2 * threat, 2)
    # Blind Fire: nothing while moth is seen or unknown; a found invisible moth draws it
    assert blind_shot(game, tusk, [moth]) is None
    moth.invisible = True
    assert blind_shot(game, tusk, [moth]) is None
    w.sustained.append({"spell": "detect-enemies", "target": "wren", "force": 4,
                        "found": ["moth"]})
    assert blind_shot(game, tusk, [moth]) is None  # his SMG: 14 against 9 + 4 + 2, no chance
    tusk.weapons[0].success = (24, 22, 20, 18)
    act, why = blind_shot(game, tusk, [moth])
    assert act == {"act": "blind", "target": "moth"}
    assert why["expected_boxes"] == round(p_success(24 - 15) * 4, 2)


def test_the_bot_casts_detect_when_an_invisible_enemy_is_near():
    from engine.play.bot_magic import support_spell

    game, w, tusk, moth = duel(spells=(("detect-enemies", 4),), moth_at=(6, 2, 0))
    assert support_spell(game, w, [moth], keep_mp=2) is None  # nothing hidden
    moth.weapons[0].success = (20, 20, 20, 20)
    moth.weapons[0].damage = 6
    moth.invisible = True
    act, _why = support_spell(game, w, [moth], keep_mp=2)
    assert act == {"act": "cast", "spell": "detect-enemies", "force": "max"}


def test_a_heal_wakes_an_unconscious_friend_but_no_other_spell_reaches_him():
    board = GridBoard(20, 20)
    w = mage((2, 2, 0), spells=(("heal-moderate-wound", 4), ("armor", 4)))
    tusk = char("tusk", "runners", (3, 2, 0))
    moth = ganger("moth", (10, 2, 0))
    game = build(board, [w, tusk, moth], ["runners", "gang"], dice=ScriptedDice([2, 2]))
    game.act(begin("wren"))
    for b in range(13):
        tusk.condition.boxes[b] = "physical"
    assert tusk.out
    with pytest.raises(PlayError, match="out of the fight"):
        game.act({"act": "cast", "spell": "armor", "target": "tusk"})
    game.act({"act": "cast", "spell": "heal-moderate-wound", "target": "tusk"})
    t = next(e for e in game.log.to_data() if e["event"] == "test")
    assert (t["success_value"], t["target_value"]) == (13, 13)  # 13 boxes filled (l.1719)
    assert not tusk.out and game.log.of_kind("revived")


def test_the_bot_raises_a_mana_barrier_against_an_enemy_mage():
    from engine.play.bot_magic import support_spell
    from engine.play.referee_spells import spell_value
    from engine.rules.dmz1990_spells import spell

    game, w, tusk, moth = duel(spells=(("mana-barrier", 4),), moth_at=(8, 2, 0))
    assert support_spell(game, w, [moth], keep_mp=2) is None  # a gunman: nothing to stop
    moth.spells = {"mana-bolt": 6}
    moth.success["sorcery"] = 9
    bolt = spell("mana-bolt")
    before = sum(spell_value(game, moth, c, bolt, 6) for c in (w, tusk))
    act, why = support_spell(game, w, [moth], keep_mp=2)
    # a dome round Wren: Tusk beside her is inside too (seed 000 l.1794)
    assert act == {"act": "cast", "spell": "mana-barrier", "force": "max", "at": [2, 2, 0]}
    for c in (w, tusk):
        c.defense["mana_spell"] = c.defense_value("mana_spell") + 4
    after = sum(spell_value(game, moth, c, bolt, 6) for c in (w, tusk))
    assert why["buys_boxes"] == round(before - after, 2) and before - after > 1.5


def test_the_bot_levitates_over_a_ledge_it_cannot_walk_to():
    from engine.play.bot_magic import levitation

    game, w, _tusk, _moth = street_duel((("levitate-person", 4),), [2, 2])
    w.pos = (5, 5, 0)
    roof = (8, 5, 1)  # the hut's roof: no stairs, so walking never gets there
    assert game.board.costs_to(roof, 2, [w.pos]) == [None]
    act, why = levitation(game, w, roof)
    assert act == {"act": "cast", "spell": "levitate-person", "target": "wren", "force": "max"}
    assert why["chance"] == round(26 / 36, 2)  # 9 + 4 against 5: 8 or less on 2D6
    game.act(act)
    act, why = levitation(game, w, roof)
    assert act["act"] == "levitate" and act["to"][2] == 1 and why["leg_mp"] == 7
    game.act(act)
    assert w.pos[2] == 1
    # on the roof: no ledge saves anything more, so the spell is dropped (+1 a test)
    act, _why = levitation(game, w, roof)
    assert act == {"act": "drop", "spell": "levitate-person", "target": "wren"}
    assert levitation(game, w, None) is None


def test_nothing_is_thrown_through_a_physical_barrier_and_a_blast_across_is_resisted():
    from engine.model import Weapon
    from engine.play.state import PendingGrenade, WeaponState
    from engine.play.turn import explode

    game, w, tusk, moth = street_duel((("physical-barrier", 4),), [2, 2])
    w.pos = (4, 11, 0)
    game.act({"act": "cast", "spell": "physical-barrier"})  # a dome round Wren
    moth.weapons = [WeaponState.from_model(Weapon(type="offensive-grenade", shots=2))]
    moth.ready = 0
    game.act({"act": "end"})
    game.state.active = None
    for c in game.state.characters.values():
        c.moved = c.side != "gang"
    game.state.phase = game.state.order.index("gang")
    game.act(begin("moth"))
    with pytest.raises(PlayError, match="molecule"):
        game.act({"act": "throw", "at": [4, 11, 0]})
    # a grenade that bursts outside the dome: Wren inside resists with +Force (l.1796)
    game.dice.totals[:] = [2, 7]
    explode(game, PendingGrenade("moth", "gang", "offensive-grenade", (8, 11, 0),
                                 (8, 11, 0), True))
    blasts = {e["target"]: e for e in game.log.to_data() if e["event"] == "test"
              and e["purpose"] == "grenade blast" and "target" in e}
    assert blasts["wren"]["modifiers"]["barrier_spell"] == 4
