"""The Success Test rule of "How It Works": 2 always succeeds, 12 always fails, no roll below -10."""

import pytest

from engine.play.dice import Dice, judge, needs_roll
from engine.play.events import EventLog


def test_roll_at_or_below_chance_succeeds():
    assert judge(14, 8, 6).success is True
    assert judge(14, 8, 7).success is False
    assert judge(14, 8, 6).chance == 6


def test_two_always_succeeds_even_with_negative_chance():
    r = judge(5, 15, 2)
    assert (r.chance, r.success, r.why) == (-10, True, "automatic success")


def test_twelve_always_fails_even_with_chance_25():
    r = judge(30, 5, 12)
    assert (r.chance, r.success, r.why) == (25, False, "automatic failure")


def test_no_roll_below_minus_ten():
    assert needs_roll(5, 15) is True
    assert needs_roll(5, 16) is False
    r = judge(5, 16, None)
    assert (r.chance, r.roll, r.success, r.why) == (-11, None, False, "no chance")


def test_missing_roll_is_an_error():
    with pytest.raises(ValueError):
        judge(10, 5, None)


def test_dice_are_seeded_and_logged():
    a, b = Dice(7, EventLog()), Dice(7, EventLog())
    ra = [a.roll_2d6("x") for _ in range(20)]
    rb = [b.roll_2d6("x") for _ in range(20)]
    assert ra == rb
    assert all(2 <= r <= 12 for r in ra)
    assert len(a.log) == 20 and a.log.events[0]["total"] == ra[0]


def test_test_logs_modifiers_and_skips_dice_below_floor():
    d = Dice(1, EventLog())
    state = d.get_state()
    r = d.test("shot", 5, 20, modifiers={"defense": 18, "cover": 2})
    assert r.roll is None and r.success is False
    assert d.get_state() == state  # no dice were used
    ev = d.log.events[-1]
    assert ev["modifiers"] == {"defense": 18, "cover": 2} and ev["why"] == "no chance"


def test_state_round_trip_resumes_the_same_sequence():
    d = Dice(99)
    d.roll_2d6("warm-up")
    saved = d.get_state()
    first = [d.d6() for _ in range(10)]
    e = Dice(0)
    e.set_state(saved)
    assert [e.d6() for _ in range(10)] == first
