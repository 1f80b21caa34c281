"""Blind Fire into a group (seed 000 l.1005): the target is picked at random before each shot
among the enemies in the narrow arc the shooter fires along; the bots fire blind into smoke
or darkness when the shot, target at random, is worth it."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.play.actions import begin
from engine.play.bot_magic import GOOD_BLIND, blind_shot
from engine.play.referee_blind import blind_group, blind_numbers, blind_value, pick_target
from engine.play.shots import p_success
from tests.play.fakes import GridBoard
from tests.play.helpers import ScriptedDice, build, char
from tests.play.test_spells import ganger


def smoky(seed_rolls=()):
    board = GridBoard(20, 20)
    tusk = char("tusk", "runners", (2, 4, 0), weapon_success=(24, 22, 20, 18))
    moth, kit, rook = ganger("moth", (8, 4, 0)), ganger("kit", (9, 5, 0)), ganger("rook", (9, 3, 0))
    far = ganger("far", (8, 10, 0))  # 45 degrees off: outside the narrow arc's 22.5
    board.add_smoke([c.pos for c in (moth, kit, rook, far)])
    game = build(board, [tusk, moth, kit, rook, far], ["runners", "gang"],
                 dice=ScriptedDice(list(seed_rolls)))
    game.act(begin("tusk"))
    return game, tusk, moth, kit, rook, far


def test_a_blind_shot_into_a_group_hits_one_of_them_at_random():
    game, tusk, moth, kit, rook, far = smoky([2])
    assert not isinstance(blind_numbers(game, tusk, far), str)  # far could be fired at alone
    assert [c.id for c in blind_group(game, tusk, moth)] == ["kit", "moth", "rook"]
    assert [c.id for c in blind_group(game, tusk, far)] == ["far"]  # alone in his arc
    picks = Counter(pick_target(game, tusk, moth).id for _ in range(60))
    assert set(picks) == {"kit", "moth", "rook"} and all(v >= 10 for v in picks.values())
    assert pick_target(game, tusk, far) is far
    game.act({"act": "blind", "target": "moth"})  # the 2 is the shot's roll: a hit
    pick = game.log.of_kind("blind-target")[-1]
    assert (pick["aimed"], pick["group"]) == ("moth", ["kit", "moth", "rook"])
    shot = [e for e in game.log.to_data() if e["event"] == "test"][-1]
    assert shot["purpose"] == "blind fire" and shot["target"] == pick["target"]
    assert shot["modifiers"] == {"defense": 9, "blind_fire": 4, "movement_fire": 2}
    hit = game.char(pick["target"])
    assert hit.condition.marked() and all(
        not c.condition.marked() for c in (moth, kit, rook) if c is not hit)


def test_the_blind_value_is_the_groups_mean_and_the_bot_fires_when_it_pays():
    game, tusk, moth, kit, rook, far = smoky()
    each = [blind_numbers(game, tusk, c) for c in (kit, moth, rook)]
    want = sum(p_success(n["success_value"] - n["target_value"]) for n in each) / 3 * 4
    assert blind_value(game, tusk, moth) == pytest.approx(want)
    assert want >= GOOD_BLIND
    act, why = blind_shot(game, tusk, [moth, kit, rook, far])
    assert act["act"] == "blind" and why["expected_boxes"] == round(
        max(blind_value(game, tusk, c) for c in (moth, kit, rook, far)), 2)
    tusk.weapons[0].success = (12, 10, 8, 6)  # a poor gun: 12 against 15 is not worth 3 MP
    assert blind_shot(game, tusk, [moth, kit, rook, far]) is None
    tusk.weapons[0].success = (24, 22, 20, 18)
    game.board.smoke.clear()  # seen again: aimed fire, not blind
    assert blind_shot(game, tusk, [moth, kit, rook, far]) is None
