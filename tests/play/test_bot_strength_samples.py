"""The smart bot against the baselines on the shipped samples of the other rulesets (the mirror
of tests/play/test_bot_strength.py is a DMZ skirmish): from each side of Nightclub Raid (sr3)
and Chop Shop (sr1), against a side that plays at random and one that never moves.

Seeded and small: 3 games per side per baseline.  Over 20 games (seeds 1-20) the smart side
won 19-20 in every sr3 pairing; in sr1 15-20 and lost none (the rest draws: the runners'
objectives take most of the turns).  Winning 5 of the 6 games against one baseline would
happen by chance with probability 7/64 (11%) if the players were equal; all four pairings of
the two samples, about 1 in 7 000."""

from pathlib import Path

import pytest

from engine.io import load_board
from engine.play.engine_board import EngineBoard, fork_board
from engine.play.headless import run_games

ROOT = Path(__file__).resolve().parents[2] / "scenarios"
GAMES = 3


@pytest.mark.parametrize("baseline", ["hold", "random"])
@pytest.mark.parametrize("sample", ["nightclub-raid-sr3.yaml", "chop-shop-sr1.yaml"])
def test_smart_beats_the_baseline_on_a_sample_from_either_side(sample, baseline):
    sc, board = load_board(ROOT / sample)

    def view():
        return EngineBoard(fork_board(board), light=sc.light, ruleset=sc.ruleset)

    a, b = (s.id for s in sc.sides)
    wins = 0
    for smart, other in ((a, b), (b, a)):
        games = run_games(sc, view, GAMES, 1, workers=1, bots={smart: "smart", other: baseline})
        winners = [g["winner"] for g in games]
        assert winners.count(smart) >= GAMES - 1, (smart, baseline, winners)
        wins += winners.count(smart)
    assert wins >= 2 * GAMES - 1
