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


def test_the_bots_memo_of_blind_numbers_answers_as_the_plain_numbers(monkeypatch):
    """Played night games (Street Ambush, Nightclub Hold): every blind shot a bot weighs with
    the numbers memo (each target's worked out once) is the one the plain numbers pick,
    value for value, with fewer numbers worked out; and the memo tells shooters apart."""
    from pathlib import Path

    from engine.io import load_board
    from engine.play import bots as bots_mod
    from engine.play import referee_blind as rb
    from engine.play.headless import engine_view_factory, play_game_of

    lean = bots_mod.blind_shot
    seen = {"calls": 0, "valued": 0, "memo_saved": 0}
    asked = [0]
    keep = rb.blind_numbers

    def counting(*a):
        asked[0] += 1
        return keep(*a)

    def plain(game, ch, foes):
        best = None
        for f in foes:
            if f.invisible and not rb.known_to(game, ch, f):
                continue
            v = rb.blind_value(game, ch, f, counting)  # (no memo: asked each time)
            seen["valued"] += v > 0
            if v >= GOOD_BLIND and (best is None or v > best[0]):
                best = (v, f)
        return best

    def spy(game, ch, foes):
        asked[0] = 0
        got = lean(game, ch, foes)  # (its memo asks the module's blind_numbers: counted)
        with_memo = asked[0]
        asked[0] = 0
        want = plain(game, ch, foes)
        seen["memo_saved"] += asked[0] - with_memo
        if want is None:
            assert got is None
        else:
            assert got[0]["target"] == want[1].id
            assert got[1]["expected_boxes"] == round(want[0], 2)
        seen["calls"] += 1
        return got

    monkeypatch.setattr(rb, "blind_numbers", counting)
    monkeypatch.setattr(bots_mod, "blind_shot", spy)
    root = Path(__file__).resolve().parents[2]
    for name in ("street-ambush.yaml", "nightclub-hold.yaml"):
        scenario, board = load_board(root / "scenarios" / name)
        make = engine_view_factory(scenario, board)
        for seed in (1, 2):
            play_game_of(scenario, make, seed)
    assert seen["calls"] > 50 and seen["valued"] > 20 and seen["memo_saved"] > 20, seen

    # the memo keys the shooter too: moth's numbers at kit are not tusk's
    game, tusk, moth, kit, rook, far = smoky()
    memo = rb.numbers_memo()
    assert memo(game, moth, kit) == keep(game, moth, kit)
    assert memo(game, tusk, kit) == keep(game, tusk, kit) != keep(game, moth, kit)
