"""A side behind on points takes more risk as the turns run out (engine/play/bot_urgency.py)."""

from __future__ import annotations

import pytest

from engine.model import Objective
from engine.play.bot_urgency import FLOOR, carried_points, projected_scores, urgency
from engine.play.bots import Behaviour, Bot
from tests.play.fakes import GridBoard
from tests.play.helpers import build, char


def game_of(turn_limit=12):
    objs = [Objective(id="keep-b1", side="blue", kind="protect", target="b1", points=5),
            Objective(id="corner", side="red", kind="reach", at=(0, 0), points=3)]
    a1 = char("a1", "red", (1, 1, 0))
    b1, b2 = char("b1", "blue", (14, 8, 0)), char("b2", "blue", (14, 6, 0))
    return build(GridBoard(16, 10), [a1, b1, b2], ["red", "blue"], objectives=objs,
                 turn_limit=turn_limit), a1, b1


def test_projected_scores_count_a_protected_character_still_standing():
    game, _a1, b1 = game_of()
    assert projected_scores(game) == {"red": 0, "blue": 5}
    game.state.achieved["corner"] = "red"
    assert projected_scores(game) == {"red": 3, "blue": 5}
    b1.condition.apply(13, 1, "physical")
    assert b1.out and projected_scores(game) == {"red": 3, "blue": 0}


def test_urgency_falls_with_the_turns_left_for_the_side_behind_only():
    game, _a1, b1 = game_of()
    st = game.state
    assert (urgency(game, "red"), urgency(game, "blue")) == (1.0, 1.0)  # turn 1 of 12
    st.turn = 7
    assert urgency(game, "red") == pytest.approx(6 / 12) and urgency(game, "blue") == 1.0
    st.turn = 11
    assert urgency(game, "red") == pytest.approx(FLOOR)  # 2/12 is below the reckless weight
    b1.condition.apply(13, 1, "physical")  # blue's 5 points gone: 0 all, nobody behind
    assert (urgency(game, "red"), urgency(game, "blue")) == (1.0, 1.0)
    st.achieved["corner"] = "red"
    assert urgency(game, "blue") == pytest.approx(FLOOR) and urgency(game, "red") == 1.0


def test_the_bot_weighs_danger_by_urgency_but_never_hurries_a_vip_or_a_reckless_side():
    game, a1, b1 = game_of()
    game.state.turn = 7
    assert Bot("red")._urgency(game, a1) == pytest.approx(0.5)
    assert Bot("red", Behaviour.named("reckless"))._urgency(game, a1) == 1.0
    game.state.achieved["corner"] = "red"
    b1.condition.apply(13, 1, "physical")
    b2 = game.state.characters["b2"]
    game.objectives.append(Objective(id="keep-b2", side="blue", kind="protect", target="b2",
                                     points=1))
    assert Bot("blue")._urgency(game, b2) == 1.0  # the one his side must keep alive


def test_an_enemy_carrying_an_item_off_counts_as_scored_for_the_side_that_must_stop_him():
    # Nightclub Hold: the gang's carrier walked the takings out while the runners, 9 points
    # up, kept to the lounge (12 of 100 games without a shot)
    game, a1, _b1 = game_of()
    game.objectives.append(Objective(id="loot", side="red", kind="retrieve", at=(5, 5),
                                     then="exit-west", points=10))
    st = game.state
    st.turn = 7
    assert (urgency(game, "red"), urgency(game, "blue")) == (pytest.approx(0.5), 1.0)
    a1.carrying.append("loot")  # red 0 + 10 carried against blue's 5: blue must hurry
    assert urgency(game, "blue") == pytest.approx(0.5)
    assert urgency(game, "red") == pytest.approx(0.5)  # red's own item is not scored yet
    assert carried_points(game) == {"red": 10}


def test_a_defender_chases_the_enemy_carrying_his_sides_item_off():
    from engine.play.bots import Bot

    objs = [Objective(id="loot", side="red", kind="retrieve", at=(5, 5), then="exit-west",
                      points=10),
            Objective(id="keep-b2", side="blue", kind="protect", target="b2", points=3)]
    a1 = char("a1", "red", (5, 5, 0))
    b1, b2 = char("b1", "blue", (13, 6, 0)), char("b2", "blue", (14, 6, 0))
    game = build(GridBoard(16, 10), [a1, b1, b2], ["red", "blue"], objectives=objs,
                 turn_limit=12)
    bot = Bot("blue")
    assert bot.goal(game, b1) == ((13, 6, 0), None)  # by b2 to escort him: the loot is far
    a1.carrying.append("loot")
    assert bot.goal(game, b1) == ((5, 5, 0), None)  # now after the carrier
