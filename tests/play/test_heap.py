"""The collector's settings while bot games run (engine.play.heap): handed back after the run,
left alone when a caller already froze the heap, and the games the same either way."""

import gc

from engine.play.headless import play_one, run_games
from engine.play.heap import YOUNG, games_heap
from tests.play.fakes import GridBoard
from tests.play.scenarios import raid


def make_view():
    return GridBoard(18, 12, walls={(8, r) for r in range(1, 4)},
                     openings={(8, 6): ["door-a", "door", "closed"]})


def test_games_heap_freezes_and_hands_back():
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    alive = [object() for _ in range(3)]  # (a few objects surely alive at the start)
    with games_heap():
        assert gc.get_freeze_count() >= len(alive)
        assert gc.get_threshold()[0] == max(before[0], YOUNG)
        assert gc.get_threshold()[1:] == before[1:]
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_games_heap_leaves_a_callers_freeze_alone():
    before = gc.get_threshold()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with games_heap():
            assert gc.get_threshold() == before
        assert gc.get_freeze_count() == frozen  # not unfrozen under the caller
    finally:
        gc.unfreeze()
    gc.disable()
    try:
        with games_heap():
            assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
    finally:
        gc.enable()


def test_games_played_the_same_inside_and_outside():
    alone = [play_one(raid(), make_view, s) for s in (3, 4)]
    ran = run_games(raid(), make_view, 2, 3, workers=1)  # (inside games_heap)
    assert ran == alone
    assert gc.get_freeze_count() == 0
