"""A holder's post (issue 12.6): what each dot covers (``Bot._covered``) counts a line the fans
already found blocked as 0.0 without asking the referee's ``shot_value``; it must be the mean
of the referee's answers for every line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.io import load_board
from engine.play import bots as bots_mod
from engine.play.bot_odds import shot_odds
from engine.play.headless import engine_view_factory, play_game_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["police-station-extraction.yaml", "nightclub-hold.yaml"])
def test_cover_as_asking_the_referee_about_every_line(monkeypatch, name):
    lean = bots_mod.Bot._covered
    seen = {"covers": 0, "blocked": 0}

    def spy(game, ch, d, foe, way):
        got = lean(game, ch, d, foe, way)
        assert got == sum(shot_odds(game, ch, d, foe, a, False) for a in way) / len(way)
        seen["covers"] += 1
        seen["blocked"] += sum(game.board.known_blocked(d, a, ch.vision) for a in way)
        return got

    monkeypatch.setattr(bots_mod.Bot, "_covered", staticmethod(spy))
    scenario, board = load_board(ROOT / "scenarios" / name)
    make = engine_view_factory(scenario, board)
    for seed in (1, 2):
        play_game_of(scenario, make, seed)
    assert seen["covers"] > 40 and seen["blocked"] > 200
