"""The sr1 and sr3 wound modifiers are kept per box count (every shot a bot prices asks the
shooter's): the kept figures are the ones the tracks' levels give, for every pair of box
counts a monitor can hold, asked twice (worked out, then kept)."""

from __future__ import annotations

from engine.rules import sr1_combat as c1
from engine.rules import sr3_combat as c3


def _sr1(physical: int, mental: int) -> int:
    return sum(c1.WOUND_MODIFIERS.get(c1.wound_level(b) or "", (0, 0))[0]
               for b in (physical, mental))


def _sr3(physical: int, stun: int) -> int:
    return sum({"L": 1, "M": 2, "S": 3, "D": 3}.get(c3.SR3Condition.level_of(b) or "", 0)
               for b in (physical, stun))


def test_kept_wound_modifiers_are_the_levels_ones():
    c1._track_modifier.cache_clear()
    c3._column_modifier.cache_clear()
    for _ in range(2):
        for a in range(0, 24):
            for b in range(0, 12):
                assert c1.SR1Condition(physical=a, mental=b).modifier == _sr1(a, b)
                assert c3.SR3Condition(physical=a, stun=b).modifier == _sr3(a, b)
    # the books' steps: 1 box Light +1, 3 Moderate +2, 6 Serious +3 (sr1 l.1172; sr3
    # l.1614-1622, Deadly +3 too), the two tracks adding up
    assert [c1.SR1Condition(physical=n).modifier for n in (0, 1, 3, 6, 10)] == [0, 1, 2, 3, 0]
    assert [c3.SR3Condition(physical=n).modifier for n in (0, 1, 3, 6, 10)] == [0, 1, 2, 3, 3]
    assert c3.SR3Condition(physical=3, stun=6).modifier == 5
