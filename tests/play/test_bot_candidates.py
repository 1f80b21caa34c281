"""Which dots a bot scores in full, and the path it walks back to the one it chose
(engine/play/bots.py: ``Bot._candidates``, ``Bot._path_back``)."""

from __future__ import annotations

import pytest

from engine.play import bots
from engine.play.board_view import StepInfo
from engine.play.bots import Bot
from tests.play.fakes import GridBoard
from tests.play.helpers import build, char

#: best-advancing first: a tight knot around (8, 5), then dots further out
RANKED = [(8, 5, 0), (8, 4, 0), (8, 6, 0), (7, 5, 0), (9, 5, 0), (8, 3, 0), (8, 7, 0),
          (7, 4, 0), (7, 6, 0), (6, 5, 0), (8, 2, 0), (8, 8, 0), (5, 5, 0), (4, 5, 0)]


def game_of(board=None):
    a1 = char("a1", "red", (1, 5, 0))
    b1 = char("b1", "blue", (14, 5, 0))
    return build(board or GridBoard(16, 10), [a1, b1], ["red", "blue"]), a1


def test_the_candidates_spread_over_the_ground_ahead_then_fill_up_by_rank():
    game, a1 = game_of()
    top = Bot._candidates(game, a1, RANKED + [a1.pos], None)
    # two dots or more apart first: (8,5), (8,3), (8,7), (6,5); then by rank: (8,4), (8,6)
    assert top == [(8, 5, 0), (8, 3, 0), (8, 7, 0), (6, 5, 0), (8, 4, 0), (8, 6, 0), (1, 5, 0)]
    assert len(top) == bots.CANDIDATES + 1 and top[-1] == a1.pos


def test_the_goal_comes_first_even_beyond_the_pool_and_the_spread_keeps_off_it():
    game, a1 = game_of()
    top = Bot._candidates(game, a1, RANKED, (5, 5, 0))
    assert top[0] == (5, 5, 0) and (4, 5, 0) not in top  # (4,5) is past the pool of 12
    assert top == [(5, 5, 0), (8, 5, 0), (8, 3, 0), (8, 7, 0), (8, 4, 0), (8, 6, 0), (1, 5, 0)]


def test_a_short_list_is_scored_whole_and_where_he_stands_once():
    game, a1 = game_of()
    ranked = [a1.pos, (2, 5, 0), (3, 5, 0)]
    assert Bot._candidates(game, a1, ranked, None) == [(2, 5, 0), (3, 5, 0), (1, 5, 0)]


class ParityBoard(GridBoard):
    """Dark Conspiracy's count: a step alone is 2 m, or 3 m on a diagonal, while a whole move
    counts every other diagonal 4 m (the first 2 m); no search for a path allowed."""

    def step(self, a, b, move_ratio, crawl=False):
        st = super().step(a, b, move_ratio, crawl)
        if st is None:
            return None
        diag = a[0] != b[0] and a[1] != b[1]
        return StepInfo(b, 3.0 if diag else 2.0, ("3 m" if diag else "2 m",))

    def path(self, a, b, move_ratio, crawl=False):
        raise AssertionError("the walk back needs no search")


def test_the_walk_back_gets_through_every_other_diagonal_without_a_search():
    board = ParityBoard(16, 10)
    game, a1 = game_of(board)
    a1.pos = (1, 1, 0)
    # what reach finds: the first diagonal 2 m, the second 4 m, a straight step 2 m
    here = {(1, 1, 0): 0.0, (2, 2, 0): 2.0, (3, 3, 0): 6.0, (4, 3, 0): 8.0, (4, 4, 0): 10.0}
    path, steps = Bot._path_back(game, a1, here, (4, 3, 0), False)
    # (4,3) <- (3,3): 6 + 2 = 8 m exactly; (3,3) <- (2,2): 2 + 3 = 5 m for 6, (2,2) <- (1,1):
    # 0 + 3 = 3 m for 2: no step matches, each is the one within a metre
    assert path == [(1, 1, 0), (2, 2, 0), (3, 3, 0), (4, 3, 0)]
    assert steps == [3.0, 3.0, 2.0]


def test_the_walk_back_keeps_to_an_exact_step_when_there_is_one():
    game, a1 = game_of(GridBoard(16, 10))
    a1.pos = (1, 1, 0)
    here = game.board.reach(a1.pos, a1.move_ratio, 12)
    path, steps = Bot._path_back(game, a1, here, (4, 3, 0), False)
    assert path[0] == a1.pos and path[-1] == (4, 3, 0)
    assert sum(steps) == pytest.approx(here[(4, 3, 0)])


def test_the_choice_is_the_best_candidate_scored_in_full_and_the_others_are_bounds(monkeypatch):
    """``_score_dots`` refines one bound at a time and stops at the first exact score: that
    dot must be the one scoring every candidate in full picks (ties by dot), and each
    runner-up named in the ``why`` a bound on its full score, none above the choice."""
    from engine.play.bot_odds import best_offense, exposure, path_danger
    from engine.play.headless import play_game_of
    from tests.play.mirror import mirror, mirror_view

    seen = []
    score_dots = Bot._score_dots

    def checked(self, game, ch, top, here, crawl, foes, goal, retreat, start, to_goal, far,
                danger_w):
        best, others = score_dots(self, game, ch, top, here, crawl, foes, goal, retreat, start,
                                  to_goal, far, danger_w)
        full = {}
        off = 0.0 if ch.carrying else self.behaviour.offense  # a carrier's points are the exit
        for d in top:
            dealt = best_offense(game, ch, d, foes)[0] if off else 0.0
            gain = 0.0 if retreat else start - to_goal.get(d, far)
            bonus = 25.0 if d == goal else 0.0
            stay = exposure(game, ch, d, foes)
            path, steps = Bot._path_back(game, ch, here, d, crawl)
            taken = path_danger(game, ch, path, steps, game.min_chance)
            full[d] = round(gain + bonus - bots.BOX_MP * danger_w * (taken + 0.5 * stay) +
                            bots.BOX_MP * off * dealt, 3)
        want = min(full, key=lambda d: (-full[d], d))
        assert (best[1], best[0]) == (want, full[want])
        assert len(others) == min(Bot.SHOWN, len(top) - 1)
        for d, at_most in others:
            assert full[tuple(d)] <= at_most <= best[0]
        seen.append(best[3])
        return best, others

    monkeypatch.setattr(Bot, "_score_dots", checked)
    play_game_of(mirror(), mirror_view, 3)
    assert len(seen) >= 10 and any(t > 0 for t in seen)  # reaction fire weighed on some paths
