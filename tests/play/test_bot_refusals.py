"""Bots ask the referee only for what it will grant.

A refused action is a bot misjudging the rules: in these sample games (the seeds where it
happened) a free attack on the way stopped a runner short, knocked him prone or wounded him, and
the bot went on asking for the rest of a path planned before (a step from a dot he never
reached, or one his budget no longer pays for), or asked a Dark Conspiracy character to reload
after his one Combat Action (seed 003 l.132)."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.play.headless as headless
from engine.io import load_board
from engine.play import bot_kinds
from engine.play.headless import engine_view_factory, play_game_of

SAMPLES = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.mark.parametrize("name,seed", [
    ("club-umbra-darkcon", 7),   # knocked prone, crawling on; reload after the Combat Action
    ("club-umbra-darkcon", 16),  # stopped short; a budget cut by a wound
    ("nightclub-hold", 13),      # stopped short; crawling without the MP
    ("street-ambush", 9),        # stopped short by a free attack
])
def test_no_action_of_a_sample_game_is_refused(name, seed, monkeypatch):
    made: list = []

    def keep(*args, **kwargs):
        bot = bot_kinds.make_bot(*args, **kwargs)
        made.append(bot)
        return bot
    monkeypatch.setattr(headless, "make_bot", keep)
    scenario, board = load_board(SAMPLES / f"{name}.yaml")
    game = play_game_of(scenario, engine_view_factory(scenario, board), seed)
    assert game.log.of_kind("move") and len(made) == 2
    assert [e for b in made for e in b.errors] == []
