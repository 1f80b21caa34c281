"""The referee factory: a scenario's ruleset picks the class, saved games name their ruleset."""

import dataclasses

import pytest

from engine.play import referees
from engine.play.bots import Bot, play_game
from engine.play.condition import condition_from_data
from engine.play.errors import PlayError
from engine.play.game import Game
from engine.play.state import CharacterState
from tests.play.fakes import GridBoard
from tests.play.scenarios import raid


def board():
    return GridBoard(18, 12)


def bots():
    return {"runners": Bot("runners"), "guards": Bot("guards")}


def test_dmz_scenarios_get_the_dmz_referee_and_the_same_game_as_game_new():
    assert referees.game_class("dmz1990") is Game
    a = play_game(referees.new_game(raid(), board(), 4), bots())
    b = play_game(Game.new(raid(), board(), 4), bots())
    assert type(a) is Game and a.log.events == b.log.events


def test_saved_game_names_its_ruleset_and_loads_through_the_factory(tmp_path):
    g = referees.new_game(raid(), board(), 9)
    g.act({"act": "begin", "who": g.movable()[0]})
    data = g.to_data()
    assert data["ruleset"] == "dmz1990"
    path = tmp_path / "g.yaml"
    g.save(path)
    back = referees.load_game(path, board())
    assert back.state.to_data() == g.state.to_data()
    assert referees.load_game(data, board()).state.active == g.state.active


def test_a_game_saved_under_another_ruleset_is_refused_by_the_wrong_class():
    data = referees.new_game(raid(), board(), 9).to_data()
    data["ruleset"] = "sr3"
    with pytest.raises(PlayError, match="saved under sr3"):
        Game.from_data(data, board())


def test_unknown_ruleset_is_a_play_error():
    with pytest.raises(PlayError, match="no referee for ruleset 'gurps'"):
        referees.game_class("gurps")
    sc = dataclasses.replace(raid(), ruleset="gurps")
    with pytest.raises(PlayError, match="gurps"):
        referees.new_game(sc, board(), 1)


def test_condition_data_carries_its_kind_and_rebuilds_from_it():
    g = referees.new_game(raid(), board(), 2)
    ch = next(iter(g.state.characters.values()))
    ch.condition.apply(3, 6, "physical")
    d = ch.to_data()
    assert d["condition"]["kind"] == "dmz"
    back = CharacterState.from_data(d)
    assert back.condition.boxes == ch.condition.boxes and back.mp == 9  # box 4: 9 MP
    with pytest.raises(ValueError, match="unknown condition kind 'wounds'"):
        condition_from_data({"kind": "wounds"})
