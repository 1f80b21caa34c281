"""The darkcon condition keeps its wound levels between questions (the bots ask "is he out?"
hundreds of thousands of times a game): every answer must follow the damage as it changes,
whether it comes through ``wound`` or is written into the dict (a saved game loaded)."""

from __future__ import annotations

import random

from engine.rules.darkcon import LOCATIONS
from engine.rules.darkcon_combat import (
    SEVERITY,
    Dice,
    Wounds,
    _expected_wound,
    expected_wound,
    hit_capacity,
    wound_level,
)


def _fresh(w: Wounds) -> tuple:
    """The answers worked out from scratch, the way they were before they were kept."""
    lv = {loc: wound_level(w.damage.get(loc, 0), w.capacity[loc]) for loc in LOCATIONS}
    worst = max((lv[loc] for loc in LOCATIONS), key=SEVERITY.index)
    unconscious = not w.dead and (w.knocked_out or lv["head"] == "serious"
                                  or any(v == "critical" for v in lv.values()))
    arms = sum(SEVERITY.index(lv[loc]) >= 3 for loc in ("left-arm", "right-arm"))
    legs = sum(SEVERITY.index(lv[loc]) >= 3 for loc in ("left-leg", "right-leg"))
    halved = SEVERITY.index(worst) >= SEVERITY.index("serious")
    return lv, worst, unconscious, w.dead or unconscious, arms, legs, halved


def _asked(w: Wounds) -> tuple:
    return ({loc: w.level(loc) for loc in LOCATIONS}, w.worst, w.unconscious, w.out,
            w.arms_lost, w.legs_lost, w.strength_halved)


def test_levels_follow_the_damage():
    rng = random.Random(4)
    for _ in range(60):
        w = Wounds(capacity=hit_capacity(rng.randint(3, 12), rng.randint(3, 12)))
        assert _asked(w) == _fresh(w) and w.worst == "none" and not w.out
        for _ in range(12):
            loc = rng.choice(LOCATIONS)
            if rng.random() < 0.7:
                w.wound(loc, rng.randint(0, 9))
            else:  # written in place, as from_data or a test would
                w.damage[loc] = rng.randint(0, 30)
            if rng.random() < 0.1:
                w.knocked_out = not w.knocked_out
            assert _asked(w) == _fresh(w)
            assert Wounds.from_data(w.to_data()).worst == w.worst
            if rng.random() < 0.05:
                w.dead = not w.dead  # (no wound rule does this, a saved game may)
                assert _asked(w) == _fresh(w)


def test_a_head_wound_knocks_out_then_kills():
    # Strength 5 + Constitution 5: head capacity 10 (l.72-80); serious above 10, critical above 20
    w = Wounds(capacity=hit_capacity(5, 5))
    w.wound("head", 10)
    assert (w.level("head"), w.unconscious, w.dead) == ("slight", False, False)
    w.wound("head", 1)
    assert (w.level("head"), w.worst, w.unconscious, w.out) == ("serious", "serious", True, True)
    w.wound("head", 10)
    assert (w.level("head"), w.dead, w.unconscious, w.out) == ("critical", True, False, True)


def test_expected_wound_kept_per_weapon_and_armour():
    armor = {"head": 2, "chest": 4}
    first = expected_wound(Dice(2, 1), 2, armor, ("left-leg",))
    # the same question with the armour in another order and the cover as a list
    again = expected_wound(Dice(2, 1), 2, {"chest": 4, "head": 2}, ["left-leg"])
    assert first == again
    assert _expected_wound.cache_info().hits >= 1
    assert expected_wound(Dice(2, 1), 2, {"head": 2, "chest": 0}, ("left-leg",)) > first
