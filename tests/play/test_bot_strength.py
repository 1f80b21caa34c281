"""The smart bot against the baselines on a mirrored skirmish, from both sides of the mirror.

Seeded and small: 6 games per side per baseline.  Winning at least 11 of the 12 games against
one baseline would happen by chance with probability 13/4096 (0.3%) if the two players were
equal, so a pass is a significant result, not luck."""

import pytest

from engine.play.headless import play_game_of, run_games
from tests.play.mirror import mirror, mirror_view

GAMES = 6


@pytest.mark.parametrize("baseline", ["hold", "random"])
def test_smart_beats_the_baseline_from_either_side(baseline):
    wins = 0
    for smart, other in (("west", "east"), ("east", "west")):
        games = run_games(mirror(), mirror_view, GAMES, 1, workers=1,
                          bots={smart: "smart", other: baseline})
        mine = sum(1 for g in games if g["winner"] == smart)
        assert mine >= GAMES - 1, (smart, baseline, [g["winner"] for g in games])
        wins += mine
    assert wins >= 2 * GAMES - 1


def test_the_mirror_is_fair_between_equal_bots():
    games = run_games(mirror(), mirror_view, GAMES, 1, workers=1)
    west = sum(1 for g in games if g["winner"] == "west")
    east = sum(1 for g in games if g["winner"] == "east")
    assert abs(west - east) <= 2


def test_every_bot_move_says_why_in_the_log():
    game = play_game_of(mirror(), mirror_view, 3)
    whys = game.log.of_kind("why")
    moves = [w for w in whys if w["act"] == "move"]
    assert moves and all({"chose", "score", "danger_path", "gain_mp"} <= set(w) for w in moves)
    seqs = {e["seq"]: e for e in game.log.events}
    # each why is followed by the action it explains
    for w in moves[:5]:
        nxt = seqs[w["seq"] + 1]
        assert nxt["event"] in ("move", "reaction-count", "test", "spend", "roll")


def test_cautious_and_reckless_bots_play_differently():
    a = play_game_of(mirror(), mirror_view, 2, behaviours={"west": "cautious"})
    b = play_game_of(mirror(), mirror_view, 2, behaviours={"west": "reckless"})
    ca = [w["behaviour"] for w in a.log.of_kind("why") if w["who"].startswith("west")]
    assert set(ca) == {"cautious"}
    assert [e for e in a.log.events if e["event"] == "move"] != \
        [e for e in b.log.events if e["event"] == "move"]
